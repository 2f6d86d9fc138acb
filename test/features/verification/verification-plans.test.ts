import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerFilterOf } from '../../../src/features/customers/customer-search.js';
import { customerSearchSql } from '../../../src/features/customers/customer-search.sql.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

/**
 * The review queue is served by the status index (migration 20261210010000): on 20,000 customers, most of them
 * verified and one in a hundred in review, with fresh statistics, `verificationStatus=NEEDS_REVIEW` reads
 * customer_verifications_status_idx and no table in whole.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(
    `INSERT INTO customers (id, environment, customer_type, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id,
                            date_of_birth, preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses)
     SELECT gen_random_uuid(), 'sandbox', 'INDIVIDUAL', decode(md5(n::text), 'hex'), '\\x00', '\\x00',
            'test-1', DATE '1940-01-01' + (n % 20000), 'P', 'First' || n, '', 'Last' || n, '{}', '[]', '[]'
     FROM generate_series(1, 20000) n`,
  );
  await database.pool.query(
    `INSERT INTO customer_verifications (customer_id, environment, status)
     SELECT id, environment, CASE WHEN n % 100 = 0 THEN 'NEEDS_REVIEW' WHEN n % 10 = 0 THEN 'REJECTED' ELSE 'VERIFIED' END
       FROM (SELECT id, environment, row_number() OVER (ORDER BY id) AS n FROM customers) c WHERE n % 4 <> 1`,
  );
  await database.pool.query('ANALYZE customers; ANALYZE customer_verifications');
});
afterAll(async () => database?.drop());

const query = (status: 'NEEDS_REVIEW' | 'UNVERIFIED') =>
  customerSearchSql(customerFilterOf({ verificationStatus: status }));

describe('the review queue plan', () => {
  it('reads the status index for NEEDS_REVIEW, and finds exactly the customers in review', async () => {
    const { text, values } = query('NEEDS_REVIEW');
    const { rows } = await database.pool.query(`EXPLAIN ${text}`, ['sandbox', 21, null, ...values]);
    const plan = rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
    expect(plan).toContain('customer_verifications_status_idx');
    expect(plan).not.toMatch(/Seq Scan/);
    const page = await database.pool.query(text, ['sandbox', 1000, null, ...values]);
    const expected = await database.pool.query(
      `SELECT count(*)::int AS n FROM customer_verifications WHERE status = 'NEEDS_REVIEW'`,
    );
    expect(page.rowCount).toBe(expected.rows[0].n);
  });

  it('answers UNVERIFIED with the customers that have no verification row', async () => {
    const { text, values } = query('UNVERIFIED');
    const page = await database.pool.query(text, ['sandbox', 10_000, null, ...values]);
    const expected = await database.pool.query(
      `SELECT count(*)::int AS n FROM customers c WHERE NOT EXISTS (SELECT 1 FROM customer_verifications v WHERE v.customer_id = c.id)`,
    );
    expect(page.rowCount).toBe(expected.rows[0].n);
  });
});
