import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { withDatabase } from './urls.js';

export interface TestDatabase {
  url: string;
  name: string;
  /** A small pool for assertions straight on the tables. */
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** A fresh database cloned from the migrated template: no test sees another's data. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const template = inject('templateDatabase');
  const name = `cas_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // pool.end() resolves before its connections have closed, so DROP DATABASE ... WITH (FORCE) can
  // terminate one (57P01) after the pool let go of it: expected here, never a test failure.
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => undefined); // the same, for a connection idle in the pool at that moment
  return {
    url,
    name,
    pool,
    async drop() {
      await pool.end();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** Row counts of every table: "a rejected request changes nothing" is asserted by comparing these. */
export async function tableCounts(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ customers: string; accounts: string; links: string; entries: string }>(
    `SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM account_customers) AS links,
            (SELECT count(*) FROM ledger_entries) AS entries`,
  );
  const row = rows[0]!;
  return { customers: Number(row.customers), accounts: Number(row.accounts), links: Number(row.links), entries: Number(row.entries) };
}

/**
 * The ledger's invariants, checked in one snapshot (REPEATABLE READ): per environment and currency the
 * posted balances (settlement included) sum to zero and pending debits equal pending credits; every
 * account's balance is the sum of its posted entries, and its available balance is not below minus its overdraft limit (unless `allowBelowFloor`
 * names it); every posting is balanced. Answers the list of violations: [] when the ledger is sound.
 */
export async function ledgerViolations(pool: pg.Pool, options: { allowBelowFloor?: readonly string[] } = {}): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ violation: string }>(
      `WITH balances AS (
         SELECT environment, currency, amount, pending_debits, pending_credits FROM accounts
         UNION ALL SELECT environment, currency, amount, pending_debits, pending_credits FROM ledger_settlement_accounts
       ), every_account AS (
         SELECT id, environment, currency, amount, pending_debits, pending_credits, overdraft_limit, false AS settlement FROM accounts
         UNION ALL SELECT id, environment, currency, amount, pending_debits, pending_credits, NULL, true FROM ledger_settlement_accounts
       ), entry_sums AS (
         SELECT account_id,
                coalesce(sum(CASE WHEN status = 'POSTED' THEN CASE type WHEN 'CREDIT' THEN posted_amount ELSE -posted_amount END END), 0) AS posted,
                coalesce(sum(CASE WHEN status = 'PENDING' AND type = 'DEBIT' THEN amount END), 0) AS pending_debits,
                coalesce(sum(CASE WHEN status = 'PENDING' AND type = 'CREDIT' THEN amount END), 0) AS pending_credits
         FROM ledger_entries GROUP BY account_id
       )
       SELECT format('environment %s %s: balances sum to %s', environment, currency, sum(amount)) AS violation
         FROM balances GROUP BY environment, currency HAVING sum(amount) <> 0
       UNION ALL
       SELECT format('environment %s %s: pending debits %s <> pending credits %s', environment, currency, sum(pending_debits), sum(pending_credits))
         FROM balances GROUP BY environment, currency HAVING sum(pending_debits) <> sum(pending_credits)
       UNION ALL
       SELECT format('account %s: balance %s / pending %s, %s but entries say %s / %s, %s', a.id, a.amount, a.pending_debits, a.pending_credits,
                     coalesce(s.posted, 0), coalesce(s.pending_debits, 0), coalesce(s.pending_credits, 0))
         FROM every_account a LEFT JOIN entry_sums s ON s.account_id = a.id
         WHERE a.amount <> coalesce(s.posted, 0) OR a.pending_debits <> coalesce(s.pending_debits, 0) OR a.pending_credits <> coalesce(s.pending_credits, 0)

       UNION ALL
       SELECT format('account %s: available %s below minus its overdraft limit %s', a.id, a.amount - a.pending_debits, a.overdraft_limit)
         FROM every_account a WHERE NOT a.settlement AND a.amount - a.pending_debits < -a.overdraft_limit AND NOT (a.id = ANY($1::uuid[]))
       UNION ALL
       SELECT format('posting %s is not balanced', posting_id) FROM ledger_entries GROUP BY posting_id
         HAVING count(*) <> 2 OR sum(CASE type WHEN 'CREDIT' THEN amount ELSE -amount END) <> 0
             OR sum(CASE WHEN posted_amount IS NULL THEN 0 WHEN type = 'CREDIT' THEN posted_amount ELSE -posted_amount END) <> 0`,
      [options.allowBelowFloor ?? []],
    );
    await client.query('COMMIT');
    return rows.map((row) => row.violation);
  } finally {
    client.release();
  }
}

/** Runs a request that must be refused and asserts that no table changed; answers what the request answered. */
export async function expectNoChange<T>(pool: pg.Pool, request: () => Promise<T>): Promise<T> {
  const before = { counts: await tableCounts(pool), accounts: await accountStates(pool) };
  const result = await request();
  expect({ counts: await tableCounts(pool), accounts: await accountStates(pool) }).toEqual(before);
  return result;
}

/** Every account's balances, limit, flags and currency, as one digest: a refused write must leave it as it was. */
async function accountStates(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ digest: string }>(
    `SELECT md5(coalesce(string_agg(concat_ws(':', id, name, amount, pending_debits, pending_credits, overdraft_limit, array_to_string(flags, '|'), currency), ',' ORDER BY id), '')) AS digest
     FROM accounts`,
  );
  return rows[0]!.digest;
}
