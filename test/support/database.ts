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

/**
 * A fresh database cloned from the migrated template: no test sees another's data. `{ migrated: false }`:
 * an empty one instead, for a test that applies migrations itself (the rollout test).
 */
export async function createTestDatabase(options: { migrated?: boolean; prefix?: string } = {}): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const template = options.migrated === false ? undefined : inject('templateDatabase');
  const name = `${options.prefix ?? 'cas_test'}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
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
  const { rows } = await pool.query<{
    customers: string;
    accounts: string;
    links: string;
    entries: string;
    notes: string;
    products: string;
    rates: string;
  }>(
    `SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM account_customers) AS links,
            (SELECT count(*) FROM ledger_entries) AS entries, (SELECT count(*) FROM notes) AS notes,
            (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM product_rates) AS rates`,
  );
  const row = rows[0]!;
  return {
    customers: Number(row.customers),
    accounts: Number(row.accounts),
    links: Number(row.links),
    entries: Number(row.entries),
    notes: Number(row.notes),
    products: Number(row.products),
    rates: Number(row.rates),
  };
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
