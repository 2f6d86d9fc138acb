import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedSqlFilesOnDisk, renderSqlFiles, ROOT } from '../../scripts/sql-generate.js';

/**
 * The checked-in SQL of the hand-written statements (`<module>.sql` beside each declaring module, by
 * `npm run sql:generate`): rendered in memory here from the statement registry of src/db/sql/sql.ts.
 */
describe('generated SQL files', () => {
  it('hold every declared statement in exactly one file, beside the module that declares it', async () => {
    const { files, statements } = await renderSqlFiles();
    expect(statements.length).toBeGreaterThan(0);
    const filesOf = new Map<string, string[]>();
    for (const [file, content] of files) {
      for (const [, name] of content.matchAll(/^-- (cas_\w+)$/gm))
        filesOf.set(name!, [...(filesOf.get(name!) ?? []), file]);
    }
    for (const { name, text } of statements) {
      expect(filesOf.get(name), name).toHaveLength(1);
      const [file] = filesOf.get(name)!;
      // The statement's own text follows its name (trailing whitespace aside), and its name is written in the module beside.
      const firstLine = text
        .split('\n')
        .map((line) => line.trimEnd())
        .find((line) => line !== '')!;
      expect(files.get(file!)).toContain(`-- ${name}\n${firstLine}`);
      const module = [file!.replace(/\.sql$/, '.ts'), file!.replace(/\.sql$/, '.sql.ts')].find((candidate) =>
        existsSync(path.join(ROOT, candidate)),
      )!;
      expect(readFileSync(path.join(ROOT, module), 'utf8')).toMatch(
        new RegExp(`['\`]${name.slice('cas_'.length)}['\`]`),
      );
    }
    expect([...filesOf.keys()].sort()).toEqual(statements.map(({ name }) => name).sort());
  });

  it('are checked in as the generator renders them, and no generated file is left without its module', async () => {
    const { files } = await renderSqlFiles();
    expect(generatedSqlFilesOnDisk()).toEqual([...files.keys()].sort());
    for (const [file, content] of files)
      expect(readFileSync(path.join(ROOT, file), 'utf8'), `${file} is stale: npm run sql:generate`).toBe(content);
  });

  it('bound a keyset by a uuid parameter with uuidAfter, never "$n IS NULL OR column > $n"', async () => {
    // A named statement's generic plan keeps such an OR as a filter only: every page or batch would scan from the
    // index's first row (src/db/sql/sql.ts, uuidAfter).
    const { files } = await renderSqlFiles();
    const unbounded = /\(\$(\d+)::uuid IS NULL OR [\w.]+ [<>]=? \$\1::uuid\)/;
    const offenders = [...files].filter(([, content]) => unbounded.test(content)).map(([file]) => file);
    expect(offenders).toEqual([]);
    expect(
      [...files.values()].some((content) => content.includes("'00000000-0000-0000-0000-000000000000'::uuid")),
    ).toBe(true);
  });
});
