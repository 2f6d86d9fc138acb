import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ADR_DIR = path.join('docs', 'adr');
const INDEX = path.join(ADR_DIR, 'README.md');

/** The decision records on disk: `NNNN-title.md`, in number order. */
function records(): string[] {
  return readdirSync(ADR_DIR)
    .filter((file) => /^\d{4}-[a-z0-9-]+\.md$/.test(file))
    .sort();
}

/** The index table's rows: `| [NNNN](NNNN-title.md) | title | status |`, as number and file. */
export function indexRows(markdown: string): { number: string; file: string }[] {
  return [...markdown.matchAll(/^\| \[(\d{4})\]\(([^)#\s]+)\) \|/gm)].map((match) => ({
    number: match[1]!,
    file: match[2]!,
  }));
}

describe('the decision records index (docs/adr/README.md)', () => {
  it('reads the rows of its table (the extraction itself works)', () => {
    expect(
      indexRows(
        '| [0001](0001-a.md) | A | accepted |\n| former | [0002](0002-b.md) |\n| [0003](0003-c.md) | C | Accepted |',
      ),
    ).toEqual([
      { number: '0001', file: '0001-a.md' },
      { number: '0003', file: '0003-c.md' },
    ]);
  });

  it('lists every record once, in number order, and no record that does not exist', () => {
    const rows = indexRows(readFileSync(INDEX, 'utf8'));
    expect(rows.map((row) => row.file)).toEqual(records());
    expect(rows.filter((row) => !row.file.startsWith(`${row.number}-`))).toEqual([]);
  });

  it('gives each number to one record', () => {
    const numbers = records().map((file) => file.slice(0, 4));
    expect(numbers.filter((number, i) => numbers.indexOf(number) !== i)).toEqual([]);
  });

  it('is not described by a range of numbers that stops short of the last record', () => {
    const last = records().at(-1)!.slice(0, 4);
    const stale = ['README.md', path.join('docs', 'README.md'), INDEX].flatMap((page) =>
      [...readFileSync(page, 'utf8').matchAll(/\b0001[–-](\d{4})\b/g)]
        .filter((match) => match[1] !== last)
        .map((match) => `${page}: ${match[0]}`),
    );
    expect(stale).toEqual([]);
  });
});

/** README.md and the pages under docs/ outside docs/adr/ (a decision record keeps the history it came from). */
function userPages(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return file === ADR_DIR ? [] : walk(file);
      return entry.name.endsWith('.md') ? [file] : [];
    });
  return ['README.md', ...walk('docs')];
}

/** Mentions of a tracker's issue ("issue 41", "issues 7–17", "#38") in a text. */
export function issueMentions(markdown: string): string[] {
  return [...markdown.matchAll(/\bissues? \d+|(?<![\w&/#])#\d+\b/gi)].map((match) => match[0]);
}

describe('pages for the people who use and run the service', () => {
  it('finds issue mentions (the extraction itself works)', () => {
    expect(issueMentions('as issue 41 asked; issues 7–17; see #38; [a](#section-2) &#38; ADR 0041')).toEqual([
      'issue 41',
      'issues 7',
      '#38',
    ]);
  });

  it('cite no issue numbers: a reader is pointed at the behaviour or the decision record instead', () => {
    const found = userPages().flatMap((page) =>
      issueMentions(readFileSync(page, 'utf8')).map((mention) => `${page}: ${mention}`),
    );
    expect(found).toEqual([]);
  });
});
