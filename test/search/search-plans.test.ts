import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerFilterOf, type CustomerFilter } from '../../src/features/customers/customer-search.js';
import { customerSearchSql } from '../../src/features/customers/customer-search.sql.js';
import { accountSearchSql } from '../../src/features/accounts/account-search.sql.js';
import { accountFilterOf, type AccountFilter } from '../../src/features/accounts/account-search.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/**
 * Every customer filter is served by an index (migration 20261203030000_customer_search): the plan of each
 * filter's statement, on 20,000 customers across two environments with fresh statistics, reads an index,
 * never the whole table. And the matching rules hold: accent- and case-insensitive name prefixes, LIKE's
 * own characters taken literally, exact case-insensitive emails.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(
    `INSERT INTO customers (id, environment, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id, date_of_birth,
                            preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses, created_at)
     SELECT gen_random_uuid(), CASE WHEN n % 2 = 0 THEN 'sandbox' ELSE 'production' END, decode(md5(n::text), 'hex'), '\\x00', '\\x00', 'test-1',
            DATE '1940-01-01' + (n % 20000), 'P', 'First' || n, '', 'Last' || n, ARRAY['person' || n || '@Example.com'], '[]', '[]',
            TIMESTAMPTZ '2026-01-01' + n * interval '1 minute'
     FROM generate_series(1, 20000) n`,
  );
  // External ids, metadata and phone keys (migration 20261204000000) on every customer and account.
  await database.pool.query(
    `UPDATE customers SET external_id = 'crm-' || md5(id::text), metadata = jsonb_build_object('tier', 't' || (abs(hashtext(id::text)) % 1000)),
                          phone_search_keys = ARRAY['+1555' || lpad((abs(hashtext(id::text)) % 10000000)::text, 7, '0')]`,
  );
  await database.pool.query(
    `INSERT INTO customers (id, environment, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id, date_of_birth,
                            preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses)
     VALUES (gen_random_uuid(), 'sandbox', '\\x01', '\\x00', '\\x00', 'test-1', '1985-05-05', 'J', 'Jürgen', '', 'Müller', ARRAY['Juergen.Mueller@Example.COM'], '[]', '[]'),
            (gen_random_uuid(), 'sandbox', '\\x02', '\\x00', '\\x00', 'test-1', '1985-05-05', 'A', 'Ana', '', '50%_off\\sale', '{}', '[]', '[]')`,
  );
  await database.pool.query(
    `INSERT INTO accounts (id, environment, type, name, currency, flags)
     SELECT gen_random_uuid(), CASE WHEN n % 2 = 0 THEN 'sandbox' ELSE 'production' END, CASE WHEN n % 500 = 0 THEN 'LOAN' ELSE 'CHECKING' END, 'A' || n,
            CASE WHEN n % 400 = 0 THEN 'JPY' ELSE 'USD' END, CASE WHEN n % 1000 = 0 THEN ARRAY['FROZEN'] ELSE ARRAY[]::text[] END
     FROM generate_series(1, 20000) n`,
  );
  await database.pool.query(
    `INSERT INTO account_customers (account_id, customer_id, environment, position)
     SELECT a.id, c.id, 'sandbox', 0 FROM (SELECT id, row_number() OVER (ORDER BY id) r FROM accounts WHERE environment = 'sandbox') a
     JOIN (SELECT id, row_number() OVER (ORDER BY id) r FROM customers WHERE environment = 'sandbox') c ON c.r = a.r`,
  );
  await database.pool.query(
    `UPDATE accounts SET external_id = 'acct-' || md5(id::text), metadata = jsonb_build_object('branch', 'b' || (abs(hashtext(id::text)) % 100000))`,
  );
  await database.pool.query('ANALYZE customers; ANALYZE accounts; ANALYZE account_customers');
});
afterAll(async () => database?.drop());

async function plan(filter: CustomerFilter): Promise<string> {
  const { text, values } = customerSearchSql(filter);
  const { rows } = await database.pool.query(`EXPLAIN ${text}`, ['sandbox', 21, null, ...values]);
  return rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
}

async function lastNames(filter: CustomerFilter): Promise<string[]> {
  const { text, values } = customerSearchSql(filter);
  const { rows } = await database.pool.query(text, ['sandbox', 21, null, ...values]);
  return rows.map((row: { lastName: string }) => row.lastName);
}

describe('customer and account search plans', () => {
  const cases: [string, CustomerFilter, string][] = [
    ['last name prefix', customerFilterOf({ lastName: 'mull' }), 'customers_search_last_name_idx'],
    ['first name prefix', customerFilterOf({ firstName: 'jur' }), 'customers_search_first_name_idx'],
    ['email', customerFilterOf({ email: 'Person42@example.com' }), 'customers_search_emails_idx'],
    ['date of birth', customerFilterOf({ dateOfBirth: '1985-05-05' }), 'customers_search_date_of_birth_idx'],
    [
      'creation range',
      customerFilterOf({ createdFrom: '2026-01-03T00:00:00Z', createdTo: '2026-01-03T01:00:00Z' }),
      'customers_search_created_at_idx',
    ],
    ['social security number', customerFilterOf({}, Buffer.from([1])), 'customers_environment_ssn_blind_index_key'],
    ['external id', customerFilterOf({ externalId: 'crm-0123' }), 'customers_environment_external_id_key'],
    ['phone number', customerFilterOf({ phoneNumber: '+15550001234' }), 'customers_search_phone_idx'],
    ['metadata', customerFilterOf({ metadata: { tier: 't42' } }), 'customers_search_metadata_idx'],
    ['two metadata keys', customerFilterOf({ metadata: { tier: 't42', other: 'x' } }), 'customers_search_metadata_idx'],
  ];
  for (const [name, filter, index] of cases) {
    it(`${name}: read through ${index}, no sequential scan`, async () => {
      const text = await plan(filter);
      expect(text).toContain(index);
      expect(text).not.toMatch(/Seq Scan/);
    });
  }

  const accountCases: [string, AccountFilter, string][] = [
    [
      'holder',
      accountFilterOf({ customerId: '00000000-0000-4000-8000-000000000000' }),
      'account_customers_customer_id_environment_idx',
    ],
    ['type', accountFilterOf({ type: 'LOAN' }), 'accounts_search_type_idx'],
    ['currency', accountFilterOf({ currency: 'JPY' }), 'accounts_search_currency_idx'],
    ['flag', accountFilterOf({ flag: 'FROZEN' }), 'accounts_search_flags_idx'],
    ['external id', accountFilterOf({ externalId: 'acct-0123' }), 'accounts_environment_external_id_key'],
    ['metadata', accountFilterOf({ metadata: { branch: 'b42' } }), 'accounts_search_metadata_idx'],
  ];
  for (const [name, filter, index] of accountCases) {
    it(`accounts by ${name}: read through ${index}, no sequential scan`, async () => {
      const { text, values } = accountSearchSql(filter);
      const { rows } = await database.pool.query(`EXPLAIN ${text}`, ['sandbox', 21, null, ...values]);
      const plan = rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
      expect(plan).toContain(index);
      expect(plan).not.toMatch(/Seq Scan/);
    });
  }

  it('a page of a broad name prefix reads its rows in the index`s order: no sort of every match, first page or later', async () => {
    // "last1" matches 5,556 sandbox customers (Last1, Last10…, Last1xxxx): in id order a page would sort them all.
    const filter = customerFilterOf({ lastName: 'last1' });
    const { text, values } = customerSearchSql(filter);
    for (const after of [null, '00000000-0000-7000-8000-000000000000']) {
      const { rows } = await database.pool.query(`EXPLAIN ${text}`, ['sandbox', 21, after, ...values]);
      const explained = rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
      expect(explained).toContain('customers_search_last_name_idx');
      expect(explained).not.toMatch(/Seq Scan/);
      // Each row's account ids sort its few links (a SubPlan); the rows themselves are never sorted.
      const rowsPart = explained.split('SubPlan')[0]!;
      expect(rowsPart).toMatch(/^Limit/);
      expect(rowsPart).not.toMatch(/Sort/);
    }
  });

  it('a name prefix is an index range in a generic plan too (a plan made for any value, as PostgreSQL may choose)', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      for (const [index, filter] of [
        customerFilterOf({ lastName: 'last1' }),
        customerFilterOf({ firstName: 'first2' }),
      ].entries()) {
        const { text, values } = customerSearchSql(filter);
        // PREPARE and EXPLAIN EXECUTE (PostgreSQL 12+; EXPLAIN (GENERIC_PLAN) needs 16): the plan for any value.
        await client.query(`PREPARE generic_probe_${index} AS ${text}`);
        const literal = (value: unknown) => (value === null ? 'NULL' : `'${String(value).replaceAll("'", "''")}'`);
        const { rows } = await client.query(
          `EXPLAIN EXECUTE generic_probe_${index}(${['sandbox', 21, null, ...values].map(literal).join(', ')})`,
        );
        await client.query(`DEALLOCATE generic_probe_${index}`);
        const explained = rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
        // The prefix's range and the cursor's key bound the index scan (Index Cond), whatever the values.
        expect(explained).toMatch(
          /Index Scan using customers_search_(last|first)_name_idx[^\n]*\n\s+Index Cond: [^\n]*~>=~ cas_search_key\(\$4\)[^\n]*cas_prefix_successor[^\n]*\n/,
        );
        expect(explained).toMatch(/Index Cond: [^\n]*~>=~ CASE WHEN \(\$3 IS NULL\)/);
        expect(explained.split('SubPlan')[0]).not.toMatch(/Sort|Seq Scan/);
      }
    } finally {
      await client.query('RESET plan_cache_mode');
      client.release();
    }
  });

  it('pages a name prefix in name order, then id, each customer once, whatever the page size', async () => {
    const filter = customerFilterOf({ lastName: 'last19' });
    const { text, values } = customerSearchSql(filter);
    const all: { id: string; lastName: string }[] = [];
    let after: string | null = null;
    for (;;) {
      const { rows } = (await database.pool.query(text, ['sandbox', 8, after, ...values])) as {
        rows: { id: string; lastName: string }[];
      };
      all.push(...rows.slice(0, 7));
      if (rows.length < 8) break;
      after = rows[6]!.id;
    }
    const expected = (
      await database.pool.query(
        'SELECT id, last_name AS "lastName" FROM customers WHERE environment = \'sandbox\' AND last_name LIKE \'Last19%\' ORDER BY lower(last_name) COLLATE "C", id',
      )
    ).rows as { id: string; lastName: string }[];
    expect(expected.length).toBeGreaterThan(100);
    expect(all.map((row) => row.id)).toEqual(expected.map((row) => row.id));
  });

  it('matches name prefixes case- and accent-insensitively, and LIKE`s own characters literally', async () => {
    expect(await lastNames(customerFilterOf({ lastName: 'mull' }))).toEqual(['Müller']);
    expect(await lastNames(customerFilterOf({ lastName: 'MÜLLER' }))).toEqual(['Müller']);
    expect(await lastNames(customerFilterOf({ firstName: 'jurg', lastName: 'mu' }))).toEqual(['Müller']);
    expect(await lastNames(customerFilterOf({ lastName: '50%_' }))).toEqual(['50%_off\\sale']);
    expect(await lastNames(customerFilterOf({ lastName: '5_' }))).toEqual([]);
    expect(await lastNames(customerFilterOf({ lastName: '50%_off\\s' }))).toEqual(['50%_off\\sale']);
  });

  it('matches emails exactly, case-insensitively; another environment`s customers never', async () => {
    expect(await lastNames(customerFilterOf({ email: 'juergen.mueller@example.com' }))).toEqual(['Müller']);
    expect(await lastNames(customerFilterOf({ email: 'juergen.mueller@example.co' }))).toEqual([]);
    // person1 is in production (odd n): not found in sandbox.
    expect(await lastNames(customerFilterOf({ email: 'person1@example.com' }))).toEqual([]);
    expect(await lastNames(customerFilterOf({ email: 'person2@example.com' }))).toEqual(['Last2']);
  });
});
