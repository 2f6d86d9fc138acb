import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionFilter } from '../../../src/features/ledger/ports.js';
import { transactionListSql } from '../../../src/features/ledger/transaction-list.sql.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';

/**
 * Every transaction list filter is served by an index (migration 20261204010000_transaction_filters): the plan
 * of each filter's statement, for a busy account among 200 (4,000 of 40,000 postings) with fresh statistics,
 * reads the filter's index, never the whole table. The entries are balanced postings against the
 * settlement account, and the balances are set to their sums, so the ledger's invariants hold.
 */
let database: TestDatabase;
const ACCOUNT = '0193a5c3-0b42-7d15-a7c9-3e5f7a9b1c32';

beforeAll(async () => {
  database = await createTestDatabase();
  // The busy account and 199 others; the busy one has every 10th posting of 40,000 (one a minute from 2026-01-01),
  // half of its entries DEBITs, every 500th posting a large amount, every 1000th an externalId.
  await database.pool.query(
    `INSERT INTO accounts (id, environment, type, name, currency, overdraft_limit)
     SELECT CASE WHEN n = 0 THEN $1::uuid ELSE md5('account' || n)::uuid END, 'sandbox', 'CHECKING', 'A' || n, 'USD', 1000000 FROM generate_series(0, 199) n`,
    [ACCOUNT],
  );
  await database.pool.query(`INSERT INTO ledger_settlement_accounts (environment, currency) VALUES ('sandbox', 'USD')`);
  await database.pool.query(
    `WITH n AS (
       SELECT n, gen_random_uuid() AS posting, CASE WHEN n % 10 = 0 THEN $1::uuid ELSE md5('account' || (1 + n % 199))::uuid END AS account,
              CASE WHEN n % 20 = 0 OR (n % 10 <> 0 AND n % 2 = 1) THEN 'DEBIT' ELSE 'CREDIT' END AS type
       FROM generate_series(1, 40000) n)
     INSERT INTO ledger_entries (id, environment, account_id, is_settlement, posting_id, type, amount, posted_amount, currency, description, status,
                                 balance_after, external_id, created_at, posted_at)
     SELECT gen_random_uuid(), 'sandbox', CASE WHEN side = 0 THEN n.account ELSE (SELECT id FROM ledger_settlement_accounts) END, side = 1, n.posting,
            CASE WHEN side = 0 THEN n.type WHEN n.type = 'DEBIT' THEN 'CREDIT' ELSE 'DEBIT' END,
            CASE WHEN n.n % 500 = 0 THEN 5000 ELSE 10 END, CASE WHEN n.n % 500 = 0 THEN 5000 ELSE 10 END, 'USD', '', 'POSTED', 0,
            CASE WHEN side = 0 AND n.n % 1000 = 0 THEN 'ext-' || n.n END,
            TIMESTAMPTZ '2026-01-01' + n.n * interval '1 minute', TIMESTAMPTZ '2026-01-01' + n.n * interval '1 minute'
     FROM n CROSS JOIN (VALUES (0), (1)) AS s(side)`,
    [ACCOUNT],
  );
  // A few voided holds (they move nothing) for the status filter.
  await database.pool.query(
    `WITH n AS (SELECT n, gen_random_uuid() AS posting FROM generate_series(1, 20) n)
     INSERT INTO ledger_entries (id, environment, account_id, is_settlement, posting_id, type, amount, currency, description, status, created_at, voided_at)
     SELECT gen_random_uuid(), 'sandbox', CASE WHEN side = 0 THEN $1::uuid ELSE (SELECT id FROM ledger_settlement_accounts) END, side = 1, n.posting,
            CASE WHEN side = 0 THEN 'DEBIT' ELSE 'CREDIT' END, 3, 'USD', '', 'VOIDED', now(), now()
     FROM n CROSS JOIN (VALUES (0), (1)) AS s(side)`,
    [ACCOUNT],
  );
  // Balances are the sums of their entries (and so sum to zero): what the ledger's invariants check.
  const sums = `SELECT account_id, sum(CASE WHEN status <> 'POSTED' THEN 0 WHEN type = 'CREDIT' THEN posted_amount ELSE -posted_amount END) AS total, count(*) AS entries
                FROM ledger_entries GROUP BY account_id`;
  await database.pool.query(
    `UPDATE accounts a SET amount = s.total, entry_count = s.entries FROM (${sums}) s WHERE s.account_id = a.id`,
  );
  await database.pool.query(
    `UPDATE ledger_settlement_accounts l SET amount = s.total FROM (${sums}) s WHERE s.account_id = l.id`,
  );
  await database.pool.query('ANALYZE ledger_entries; ANALYZE accounts');
});
afterAll(async () => database?.drop());

async function plan(filter: TransactionFilter): Promise<string> {
  const { text, values } = transactionListSql(filter);
  const { rows } = await database.pool.query(`EXPLAIN ${text}`, ['sandbox', ACCOUNT, null, 21, ...values]);
  return rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
}

async function count(filter: TransactionFilter): Promise<number> {
  const { text, values } = transactionListSql(filter);
  const { rows } = await database.pool.query(text, ['sandbox', ACCOUNT, null, 10_000, ...values]);
  return rows.length;
}

describe('transaction list plans', () => {
  it('the generated ledger is sound', async () => {
    expect(await ledgerViolations(database.pool)).toEqual([]);
  });

  const cases: [string, TransactionFilter, string][] = [
    ['status', { status: 'VOIDED' }, 'ledger_entries_list_status_idx'],
    ['type', { type: 'DEBIT' }, 'ledger_entries_list_type_idx'],
    [
      'creation range',
      { from: '2026-01-05T00:00:00Z', to: '2026-01-05T01:00:00Z' },
      'ledger_entries_list_created_at_idx',
    ],
    ['amount range', { minAmount: '1000', maxAmount: '9000' }, 'ledger_entries_list_amount_idx'],
    ['external id', { externalId: 'ext-4000' }, 'ledger_entries_list_external_id_idx'],
  ];
  for (const [name, filter, index] of cases) {
    it(`${name}: read through ${index}, no sequential scan`, async () => {
      const text = await plan(filter);
      expect(text).toContain(index);
      expect(text).not.toMatch(/Seq Scan/);
    });
  }

  it('the filters match what they say, on the account only', async () => {
    expect(await count({ status: 'VOIDED' })).toBe(20);
    expect(await count({ type: 'DEBIT' })).toBe(2000 + 20);
    expect(await count({ type: 'CREDIT' })).toBe(2000);
    // 2026-01-05T00:00 is minute 5760: of minutes 5760..5819, every 10th is the account's.
    expect(await count({ from: '2026-01-05T00:00:00Z', to: '2026-01-05T01:00:00Z' })).toBe(6);
    expect(await count({ minAmount: '1000', maxAmount: '9000' })).toBe(80);
    // Combined: the first hour holds the account's minutes 10..50, DEBITs at 20 and 40, all of 10.
    expect(
      await count({
        minAmount: '10',
        maxAmount: '10',
        type: 'DEBIT',
        from: '2026-01-01T00:00:00Z',
        to: '2026-01-01T01:00:00Z',
      }),
    ).toBe(2);
    expect(
      await count({ maxAmount: '9', type: 'DEBIT', from: '2026-01-01T00:00:00Z', to: '2026-01-01T01:00:00Z' }),
    ).toBe(0);
    expect(
      await count({ status: 'POSTED', type: 'CREDIT', from: '2026-01-01T00:00:00Z', to: '2026-01-01T01:00:00Z' }),
    ).toBe(3);
    expect(await count({ externalId: 'ext-4000' })).toBe(1);
    expect(await count({ externalId: 'ext-3001' })).toBe(0);
  });
});
