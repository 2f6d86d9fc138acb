import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS_TABLE_END, LIMITS_TABLE_START, renderLimitsTable } from './limits-table.js';

const DOC = 'docs/reference/limits.md';

/**
 * The Limits table in docs/reference/limits.md is the code's limits, rendered. When a constant or a default changes,
 * this test fails; `UPDATE_DOCS=1 npx vitest run test/rest/limits-doc.test.ts` rewrites the table.
 */
describe('docs/reference/limits.md "Limits"', () => {
  it('lists exactly the limits the code enforces', () => {
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(LIMITS_TABLE_START);
    const end = doc.indexOf(LIMITS_TABLE_END);
    expect(start, `${DOC} must contain the generated table's start marker`).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const current = doc.slice(start, end + LIMITS_TABLE_END.length);
    const expected = renderLimitsTable();
    if (process.env.UPDATE_DOCS === '1' && current !== expected) {
      writeFileSync(DOC, doc.replace(current, expected));
      expect(readFileSync(DOC, 'utf8')).toContain(expected);
      return;
    }
    expect(current).toBe(expected);
  });
});
