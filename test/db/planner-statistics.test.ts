import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/**
 * Migration 20261129000000_statistics_only_where_queried: ANALYZE keeps no statistics for columns no query
 * filters, joins or sorts on (they only made every autoanalyze slower), and keeps them for every column one
 * does. A new filter on a column listed here needs its statistics back first (SET STATISTICS -1).
 */
const WITHOUT_STATISTICS: Record<string, string[]> = {
  customers: [
    'ssn_ciphertext',
    'document_locator_number_ciphertext',
    'preferred_name',
    'first_name',
    'middle_name',
    'last_name',
    'emails',
    'phone_numbers',
    'addresses',
    'updated_at',
  ],
  idempotency_keys: ['fingerprint', 'result'],
  audit_events: ['principal_id', 'idempotency_key', 'changed_fields', 'matched_count'],
  // resource_id is filtered on (a record's recent events) and keeps none on purpose: the planner then plans that
  // read for a record with many events, newest end first and cut by the limit (docs/adr/0073, amended 2026-11-27).
  events: ['payload', 'changed_fields', 'resource_id'],
};

/** The columns the service's queries filter, join or sort on (src/db/*.store.ts). */
const QUERIED: Record<string, string[]> = {
  // Customer search (migration 20261203030000) filters on date_of_birth and created_at; its name and email
  // filters read expression indexes, which keep statistics of their own.
  customers: ['id', 'environment', 'ssn_blind_index', 'pii_key_id', 'date_of_birth', 'created_at'],
  idempotency_keys: ['principal_id', 'environment', 'key', 'expires_at'],
  // request_id: an end-of-day step's count (migration 20261210020000, docs/adr/0102).
  audit_events: ['id', 'environment', 'operation', 'resource_id', 'occurred_at', 'request_id'],
  events: ['id', 'environment', 'type', 'resource_type', 'txid', 'occurred_at'],
};

let db: TestDatabase;
/** Per table and column, the statistics target: 0 = none; -1 or NULL (PostgreSQL 17+) = the default. */
let targets: Map<string, number | null>;

beforeAll(async () => {
  db = await createTestDatabase();
  const { rows } = await db.pool.query<{ relname: string; attname: string; target: number | null }>(
    `SELECT c.relname, a.attname, a.attstattarget::int AS target
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.relname = ANY($1::text[]) AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
    [Object.keys(WITHOUT_STATISTICS)],
  );
  targets = new Map(rows.map((row) => [`${row.relname}.${row.attname}`, row.target]));
});

afterAll(async () => db.drop());

describe('planner statistics only where a query uses them', () => {
  it('keeps none for the columns no query filters, joins or sorts on', () => {
    for (const [table, columns] of Object.entries(WITHOUT_STATISTICS)) {
      for (const column of columns) expect(targets.get(`${table}.${column}`), `${table}.${column}`).toBe(0);
    }
  });

  it('keeps the default for every column a query filters, joins or sorts on', () => {
    for (const [table, columns] of Object.entries(QUERIED)) {
      for (const column of columns) {
        expect(targets.has(`${table}.${column}`), `${table}.${column} exists`).toBe(true);
        expect([null, -1], `${table}.${column}`).toContain(targets.get(`${table}.${column}`));
      }
    }
  });

  it('ANALYZE then records statistics for the queried columns only', async () => {
    await db.pool.query(
      `INSERT INTO idempotency_keys (principal_id, environment, key, operation, fingerprint, result, expires_at)
       SELECT 'token:test', 'sandbox', 'key-' || n, 'customer.create', '\\x00'::bytea, '{"status":201}'::jsonb, now() + interval '1 day'
       FROM generate_series(1, 50) n`,
    );
    await db.pool.query('ANALYZE idempotency_keys');
    const { rows } = await db.pool.query<{ attname: string }>(
      `SELECT attname FROM pg_stats WHERE tablename = 'idempotency_keys' ORDER BY attname`,
    );
    const analysed = rows.map((row) => row.attname);
    expect(analysed).toEqual(expect.arrayContaining(['environment', 'expires_at', 'key', 'principal_id']));
    expect(analysed).not.toContain('result');
    expect(analysed).not.toContain('fingerprint');
  });
});
