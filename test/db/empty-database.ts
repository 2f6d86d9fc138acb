import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '../../src/db/connection/pool.js';
import { withDatabase } from '../support/urls.js';

export interface EmptyDatabase {
  url: string;
  /** A new pool on the database; closed by drop(). */
  pool(max?: number): pg.Pool;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A truly empty database (not a clone of the migrated template): what a first deployment meets. */
export async function createEmptyDatabase(): Promise<EmptyDatabase> {
  const name = `cas_test_empty_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = withDatabase(inject('adminDatabaseUrl'), name);
  const pools: pg.Pool[] = [];
  return {
    url,
    pool(max = 2) {
      const pool = createPool({ connectionString: url, max, connectTimeoutMs: 60_000, statementTimeoutMs: 30_000 });
      pools.push(pool);
      return pool;
    },
    async drop() {
      await Promise.all(pools.map((pool) => pool.end()));
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
