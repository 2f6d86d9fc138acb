import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, type PrismaClient } from '../../../src/db/connection/prisma-client.js';
import { DEFAULT_DORMANCY_SETTINGS } from '../../../src/features/dormancy/dormancy.schemas.js';
import { PrismaDormancyStore } from '../../../src/features/dormancy/dormancy.store.js';
import { ESCHEATMENT_PERIOD_YEARS } from '../../../src/features/dormancy/escheatment-periods.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

/**
 * The end of day's escheatment-notice look-up computes the owner's state of the accounts idle long enough to be due
 * (a test on the account's own row), not of every open account of the environment every day: among 3,000 accounts of
 * which 5 are due a notice, the state is looked up for a handful. No index of accounts covers a column a client
 * posting changes, so every posting's account update stays a HOT one (docs/dormancy-and-escheatment.md). Batches
 * change exactly the due accounts, once. Rows read are counted from EXPLAIN ANALYZE in a rolled-back transaction: a
 * count of rows, never a time.
 */
let database: TestDatabase;
let prisma: PrismaClient;
let store: PrismaDormancyStore;
const T = new Date('2027-06-01T04:00:00Z');
const DAY_MS = 86_400_000;
const at = (daysBefore: number) => new Date(T.getTime() - daysBefore * DAY_MS);

/** [accounts, last activity days before T, activity status, noticed for that activity, closed] */
const GROUPS: [number, number, string | null, boolean, boolean][] = [
  [2000, 10, null, false, false], // active
  [600, 1200, 'DORMANT', true, false], // dormant and noticed long ago: neither step reads them again
  [30, 400, null, false, false], // due INACTIVE
  [20, 800, 'INACTIVE', false, false], // due DORMANT
  [300, 500, 'INACTIVE', false, false], // inactive, not yet dormant
  [5, 1000, 'DORMANT', false, false], // due an escheatment notice (IL: three years, less 120 days)
  [45, 1500, null, false, true], // closed
];

beforeAll(async () => {
  database = await createTestDatabase();
  let first = 0;
  for (const [count, days, status, noticed, closed] of GROUPS) {
    await database.pool.query(
      `INSERT INTO accounts (id, environment, type, name, currency, last_activity_at, activity_status, activity_status_at,
                             escheatment_noticed_for, closed_at, close_reason)
       SELECT md5('account' || n)::uuid, 'sandbox', 'CHECKING', 'A' || n, 'USD', $3::timestamptz, $4::varchar,
              CASE WHEN $4::varchar IS NULL THEN NULL ELSE $3::timestamptz END, CASE WHEN $5 THEN $3::timestamptz END,
              CASE WHEN $6 THEN $3::timestamptz END, CASE WHEN $6 THEN 'CUSTOMER_REQUEST' END
       FROM generate_series($1::int, $1::int + $2::int - 1) n`,
      [first, count, at(days), status, noticed, closed],
    );
    first += count;
  }
  // Every account owned by a customer in Illinois: the notices' state is looked up for the candidates only.
  await database.pool.query(
    `INSERT INTO customers (id, environment, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id,
                            date_of_birth, preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses)
     SELECT md5('customer' || n)::uuid, 'sandbox', decode(md5('b' || n), 'hex'), decode(md5('s' || n), 'hex'), decode(md5('d' || n), 'hex'),
            'k1', DATE '1980-01-01', 'Al', 'Alex', '', 'Doe', ARRAY[]::text[], '[]'::jsonb,
            '[{"type": "HOME", "street": "1 Main St", "city": "Springfield", "state": "IL", "zip": "62701"}]'::jsonb
     FROM generate_series(0, $1::int - 1) n`,
    [first],
  );
  await database.pool.query(
    `INSERT INTO account_customers (account_id, customer_id, environment, position)
     SELECT md5('account' || n)::uuid, md5('customer' || n)::uuid, 'sandbox', 0 FROM generate_series(0, $1::int - 1) n`,
    [first],
  );
  await database.pool.query('ANALYZE accounts; ANALYZE customers; ANALYZE account_customers');
  prisma = createPrismaClient(database.pool);
  store = new PrismaDormancyStore(prisma);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await database?.drop();
});

const day = (step: string, limit = 500) => ({
  environment: 'sandbox',
  cutoff: T,
  requestId: `end-of-day:2027-05-31:${step}`,
  principalId: 'system:end-of-day',
  limit,
});

/** A statement's final text, as `npm run sql:generate` wrote it beside the store. */
function statementText(name: string): string {
  const file = readFileSync(new URL('../../../src/features/dormancy/dormancy.store.sql', import.meta.url), 'utf8');
  const start = file.indexOf(`-- ${name}\n`) + name.length + 4;
  const end = file.indexOf('\n-- cas_', start);
  return file.slice(start, end < 0 ? undefined : end).trim();
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows of `relation` the statement's scans read (returned or filtered out), by its plan, in a transaction rolled back. */
async function rowsRead(name: string, values: unknown[], relation: string): Promise<number> {
  const client = await database.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statementText(name)}`, values);
    const walk = (node: PlanNode): number => {
      const onRelation = node['Relation Name'] === relation && node['Node Type'] !== 'ModifyTable';
      const read =
        (node['Actual Rows'] ?? 0) +
        (node['Rows Removed by Filter'] ?? 0) +
        (node['Rows Removed by Index Recheck'] ?? 0);
      return (
        (onRelation ? read * (node['Actual Loops'] ?? 1) : 0) + (node.Plans ?? []).reduce((s, p) => s + walk(p), 0)
      );
    };
    return walk((rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan);
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

const status = async () =>
  Object.fromEntries(
    (
      await database.pool.query<{ status: string; n: number }>(
        `SELECT coalesce(activity_status, 'ACTIVE') || CASE WHEN escheatment_noticed_for IS NOT NULL THEN '+noticed' ELSE '' END AS status,
                count(*)::int AS n FROM accounts WHERE closed_at IS NULL GROUP BY 1`,
      )
    ).rows.map((r) => [r.status, r.n]),
  );

describe("the end of day's due look-ups", () => {
  const { inactiveAfterDays, dormantAfterDays, escheatmentNoticeDays } = DEFAULT_DORMANCY_SETTINGS;
  const noticeValues = [
    T,
    JSON.stringify(ESCHEATMENT_PERIOD_YEARS),
    escheatmentNoticeDays,
    500,
    'end-of-day:x:n',
    'system:end-of-day',
  ];

  it("escheatment notices look up the owner's state of the 5 candidates, not of the 2,355 open accounts", async () => {
    const lookedUp = await rowsRead(
      'cas_dormancy_notice_escheatment',
      ['sandbox', ...noticeValues],
      'account_customers',
    );
    expect(lookedUp).toBeGreaterThanOrEqual(5);
    expect(lookedUp).toBeLessThan(100);
  });

  it("leaves every posting's account update HOT: no index of accounts covers a column a posting changes", async () => {
    // The columns the posting statement (src/features/ledger/ledger.store.ts) writes on every client posting.
    const postingColumns = [
      'amount',
      'pending_debits',
      'pending_credits',
      'entry_count',
      'version',
      'last_activity_at',
      // An account on a product's withdrawal counts (docs/adr/0114).
      'withdrawal_day',
      'withdrawal_day_total',
      'withdrawal_month',
      'withdrawal_month_count',
    ];
    const { rows } = await database.pool.query<{ index: string; definition: string }>(
      `SELECT c.relname AS index, pg_get_indexdef(i.indexrelid) AS definition
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'accounts'::regclass`,
    );
    expect(rows.length).toBeGreaterThan(3);
    for (const { index, definition } of rows)
      for (const column of postingColumns) expect(definition, index).not.toMatch(new RegExp(`\\b${column}\\b`));
  });

  it('batches change exactly the due accounts, once', async () => {
    const thresholds = { inactiveAfterDays, dormantAfterDays };
    const batches: number[] = [];
    for (let changed = -1; changed !== 0;)
      batches.push((changed = await store.markDue(day('dormancy', 20), thresholds)));
    expect(batches).toEqual([20, 20, 10, 0]);
    const notices = [];
    for (let changed = -1; changed !== 0;)
      notices.push(
        (changed = await store.noticeEscheatment(
          day('escheatment-notice'),
          ESCHEATMENT_PERIOD_YEARS,
          escheatmentNoticeDays,
        )),
      );
    expect(notices).toEqual([5, 0]);
    expect(await status()).toEqual({ ACTIVE: 2000, INACTIVE: 30 + 300, DORMANT: 20, 'DORMANT+noticed': 600 + 5 });
  });
});
