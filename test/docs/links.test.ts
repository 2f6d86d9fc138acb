import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** README.md and every page under docs/: the Markdown files whose relative links must resolve. */
function pages(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(file);
      return entry.name.endsWith('.md') ? [file] : [];
    });
  return ['README.md', ...walk('docs')];
}

/** The relative link targets of a Markdown text, outside code fences and inline code (anchors dropped). */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...prose.matchAll(/^\[[^\]]+\]:\s*<?(\S+?)>?\s*$/gm)].map((match) => match[1]!);
  return targets
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#') && !target.startsWith('/'))
    .map((target) => decodeURIComponent(target.replace(/#.*$/, '')));
}

describe('relative links in README.md and docs/', () => {
  it('finds the pages and their links (the extraction itself works)', () => {
    expect(pages()).toEqual(expect.arrayContaining(['README.md', path.join('docs', 'README.md'), path.join('docs', 'adr', 'README.md')]));
    expect(relativeLinks('[a](b.md#c) `[x](y.md)` [d](https://e) [f](#g)\n```\n[h](i.md)\n```\n[j]: k.md')).toEqual(['b.md', 'k.md']);
  });

  it('point to files that exist', () => {
    const broken = pages().flatMap((page) =>
      relativeLinks(readFileSync(page, 'utf8'))
        // ../shared/ is the spec beside the repository, not part of it.
        .filter((target) => !path.normalize(path.join(path.dirname(page), target)).startsWith(`..${path.sep}`))
        .filter((target) => !existsSync(path.join(path.dirname(page), target)))
        .map((target) => `${page} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('leave no page over 60 KB', () => {
    expect(pages().filter((page) => statSync(page).size > 60 * 1024)).toEqual([]);
  });
});
