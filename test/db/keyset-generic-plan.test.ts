import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredStatements } from '../../src/db/sql/sql.js';
import '../../src/features/stores.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/**
 * The keyset bound of the named statements that page or batch through an environment's accounts stays an index
 * bound in PostgreSQL's generic plan (the plan a named statement may run on from its sixth execution): written as
 * `($n IS NULL OR a.id > $n)` it was only a filter there, and every batch of the interest accrual read the
 * environment's accounts from the first (src/db/sql/sql.ts, uuidAfter; docs/adr/0113).
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

/** The generic plan of `text` (sequential scans off, so the empty tables are read through their indexes). */
async function genericPlan(text: string): Promise<string> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query("SET LOCAL plan_cache_mode = 'force_generic_plan'");
    await client.query('SET LOCAL enable_seqscan = off');
    await client.query(`PREPARE keyset_probe AS ${text}`);
    const { rows } = await client.query<{ parameters: number }>(
      "SELECT cardinality(parameter_types) AS parameters FROM pg_prepared_statements WHERE name = 'keyset_probe'",
    );
    const nulls = Array.from({ length: rows[0]!.parameters }, () => 'NULL').join(', ');
    const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE keyset_probe(${nulls})`);
    return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.query('ROLLBACK');
    await client.query('DEALLOCATE ALL');
    client.release();
  }
}

const statementText = (name: string): string => {
  const found = declaredStatements().find((statement) => statement.name === name);
  if (!found) throw new Error(`no statement ${name}`);
  return found.text;
};

/** An index condition of the accounts' scan that bounds the id by the cursor parameter. */
const ID_BOUND_IN_INDEX = /Index Cond: .*\bid > COALESCE\(\$\d+/;

describe('a keyset over accounts in the generic plan', () => {
  it.each([
    'cas_account_list',
    'cas_interest_accrue',
    'cas_interest_due_postings',
    'cas_fees_due_assessments',
    'cas_dormancy_escheatment',
  ])('%s starts at its cursor in the index', async (name) => {
    expect(await genericPlan(statementText(name))).toMatch(ID_BOUND_IN_INDEX);
  });

  it('written as "$n IS NULL OR id > $n", the bound is only a filter there (why uuidAfter exists)', async () => {
    const old = statementText('cas_account_list').replace(
      /a\.id > coalesce\(\$2::uuid, '0{8}-0{4}-0{4}-0{4}-0{12}'::uuid\)/,
      '($2::uuid IS NULL OR a.id > $2::uuid)',
    );
    expect(old).toContain('$2::uuid IS NULL OR');
    const plan = await genericPlan(old);
    expect(plan).not.toMatch(/Index Cond: .*\bid > /);
    expect(plan).toMatch(/Filter: .*\$2 IS NULL\) OR \(a?\.?id > \$2\)/);
  });
});
