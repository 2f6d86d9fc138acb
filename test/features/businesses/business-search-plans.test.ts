import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerFilterOf, type CustomerFilter } from '../../../src/features/customers/customer-search.js';
import { customerSearchSql } from '../../../src/features/customers/customer-search.sql.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

/**
 * The business filters are served by the profile's indexes (migration 20261209010000), as the person's are by
 * theirs (test/search/search-plans.test.ts): on 20,000 customers, a quarter of them businesses, with fresh
 * statistics, the legalName prefix reads business_profiles_search_legal_name_idx and the tax id its blind index.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(
    `INSERT INTO customers (id, environment, customer_type, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id,
                            date_of_birth, preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses)
     SELECT gen_random_uuid(), CASE WHEN n % 2 = 0 THEN 'sandbox' ELSE 'production' END, 'INDIVIDUAL', decode(md5(n::text), 'hex'), '\\x00', '\\x00',
            'test-1', DATE '1940-01-01' + (n % 20000), 'P', 'First' || n, '', 'Last' || n, '{}', '[]', '[]'
     FROM generate_series(1, 15000) n`,
  );
  await database.pool.query(
    `WITH c AS (
       INSERT INTO customers (id, environment, customer_type, emails, phone_numbers, addresses)
       SELECT gen_random_uuid(), CASE WHEN n % 2 = 0 THEN 'sandbox' ELSE 'production' END, 'BUSINESS', '{}', '[]', '[]'
       FROM generate_series(1, 5000) n RETURNING id, environment
     )
     INSERT INTO business_profiles (customer_id, environment, legal_name, tax_id_ciphertext, tax_id_blind_index, pii_key_id, entity_type,
                                    formation_date, formation_country)
     SELECT id, environment, 'Company ' || md5(id::text), '\\x00', decode(md5(id::text), 'hex'), 'test-1', 'LLC', DATE '2000-01-01', 'US' FROM c`,
  );
  await database.pool.query(
    `WITH c AS (
       INSERT INTO customers (id, environment, customer_type, emails, phone_numbers, addresses)
       VALUES (gen_random_uuid(), 'sandbox', 'BUSINESS', '{}', '[]', '[]') RETURNING id, environment
     )
     INSERT INTO business_profiles (customer_id, environment, legal_name, tax_id_ciphertext, tax_id_blind_index, pii_key_id, entity_type,
                                    formation_date, formation_country)
     SELECT id, environment, 'Zürcher Bäckerei AG', '\\x00', '\\x01', 'test-1', 'LLC', DATE '2000-01-01', 'CH' FROM c`,
  );
  await database.pool.query('ANALYZE customers; ANALYZE business_profiles');
});
afterAll(async () => database?.drop());

async function plan(filter: CustomerFilter): Promise<string> {
  const { text, values } = customerSearchSql(filter);
  const { rows } = await database.pool.query(`EXPLAIN ${text}`, ['sandbox', 21, null, ...values]);
  return rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
}

async function found(filter: CustomerFilter): Promise<number> {
  const { text, values } = customerSearchSql(filter);
  return (await database.pool.query(text, ['sandbox', 21, null, ...values])).rowCount ?? 0;
}

describe('business search plans', () => {
  it('reads the legal name index for a legalName prefix (folded: "zurch" finds "Zürcher")', async () => {
    const filter = customerFilterOf({ legalName: 'ZURCH' });
    expect(await plan(filter)).toContain('business_profiles_search_legal_name_idx');
    expect(await plan(filter)).not.toMatch(/Seq Scan on customers/);
    expect(await found(filter)).toBe(1);
  });

  it('reads the blind index for a tax id', async () => {
    const filter = customerFilterOf({}, undefined, Buffer.from([1]));
    expect(await plan(filter)).toContain('business_profiles_environment_tax_id_blind_index_key');
    expect(await plan(filter)).not.toMatch(/Seq Scan on customers/);
    expect(await found(filter)).toBe(1);
  });

  it('filters by customer type', async () => {
    expect(await found(customerFilterOf({ customerType: 'BUSINESS' }))).toBe(21);
    const { text, values } = customerSearchSql(customerFilterOf({ customerType: 'INDIVIDUAL' }));
    const { rows } = await database.pool.query(text, ['sandbox', 100, null, ...values]);
    expect(rows.every((row: { lastName: string | null }) => row.lastName !== null)).toBe(true);
  });
});
