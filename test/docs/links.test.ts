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
  const targets = [
    ...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
    ...prose.matchAll(/^\[[^\]]+\]:\s*<?(\S+?)>?\s*$/gm),
  ].map((match) => match[1]!);
  return targets
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#') && !target.startsWith('/'))
    .map((target) => decodeURIComponent(target.replace(/#.*$/, '')));
}

describe('relative links in README.md and docs/', () => {
  it('finds the pages and their links (the extraction itself works)', () => {
    expect(pages()).toEqual(
      expect.arrayContaining(['README.md', path.join('docs', 'README.md'), path.join('docs', 'adr', 'README.md')]),
    );
    expect(relativeLinks('[a](b.md#c) `[x](y.md)` [d](https://e) [f](#g)\n```\n[h](i.md)\n```\n[j]: k.md')).toEqual([
      'b.md',
      'k.md',
    ]);
  });

  it('point to files that exist', () => {
    const broken = pages().flatMap((page) =>
      relativeLinks(readFileSync(page, 'utf8'))
        // A target outside the repository (such as the shared spec beside it) is missing from a fresh clone.
        .filter(
          (target) =>
            path.normalize(path.join(path.dirname(page), target)).startsWith(`..${path.sep}`) ||
            !existsSync(path.join(path.dirname(page), target)),
        )
        .map((target) => `${page} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  // A page is read, not searched: one purpose a page (Diátaxis), and run-by-run figures in results files
  // (bench/results/, docs/reliability-results.json), which are data and not capped.
  it('leave no page over 25 KB', () => {
    expect(pages().filter((page) => statSync(page).size > 25 * 1024)).toEqual([]);
  });
});
