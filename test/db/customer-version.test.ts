import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerVersionOf } from '../../src/db/sql/columns.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/**
 * The statements compute a customer's version with customerVersionOf (columns.ts), written out because
 * PostgreSQL cannot inline the database's cas_customer_version (a SQL function holding a subquery). The release
 * before this one still calls the function: both must give the same version for every customer, or an ETag read
 * from one release would be stale on the other.
 */
let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  // The test database's own pool: it ignores the 57P01 its connections get when the database is dropped WITH (FORCE).
  pool = database.pool;
});
afterAll(async () => {
  await database.drop();
});

describe("a customer's version written out in the statements", () => {
  it('equals cas_customer_version for customers with and without link changes, across the wrap-around', async () => {
    const rowVersions = [1, 2, 7, 2_147_483_646, 2_147_483_647];
    const linkVersions = [null, 1, 5, 2_147_483_647];
    const cases = rowVersions.flatMap((rowVersion) =>
      linkVersions.map((linkVersion) => ({ id: randomUUID(), rowVersion, linkVersion })),
    );
    for (const { id, rowVersion, linkVersion } of cases) {
      await pool.query(
        `INSERT INTO customers (id, environment, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id,
                                date_of_birth, preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses, version)
         VALUES ($1, 'sandbox', $2, $3, $3, 'k1', '1990-01-01', 'Ada', 'Ada', 'King', 'Lovelace', '{}', '[]', '[]', $4)`,
        [id, Buffer.from(id), Buffer.from('sealed'), rowVersion],
      );
      if (linkVersion !== null)
        await pool.query('INSERT INTO customer_link_versions (customer_id, version) VALUES ($1, $2)', [
          id,
          linkVersion,
        ]);
    }
    const { rows } = await pool.query<{ id: string; written: number; stored: number }>(
      `SELECT c.id, ${customerVersionOf('c')} AS written, cas_customer_version(c.id, c.version) AS stored FROM customers c WHERE c.id = ANY($1::uuid[])`,
      [cases.map((c) => c.id)],
    );
    expect(rows).toHaveLength(cases.length);
    for (const row of rows) expect(row.written, row.id).toBe(row.stored);
    // Not a constant: the cases span distinct versions, the wrap-around to 1 included.
    expect(new Set(rows.map((row) => row.written)).size).toBeGreaterThan(5);
    expect(rows.some((row) => row.written === 1)).toBe(true);
  });
});
