import type pg from 'pg';
import { expect } from 'vitest';
import { tableCounts } from './database.js';
import { assertNoSensitiveValues } from './factories.js';

/**
 * Every row of every table, in a stable order. Comparing two of these proves a rejected operation
 * changed nothing at all: not a count, not a byte of ciphertext, not an updated_at.
 */
export async function databaseState(pool: pg.Pool) {
  const rows = async (sql: string) => (await pool.query(sql)).rows as unknown[];
  return {
    counts: await tableCounts(pool),
    customers: await rows('SELECT * FROM customers ORDER BY id'),
    accounts: await rows('SELECT * FROM accounts ORDER BY id'),
    links: await rows('SELECT * FROM account_customers ORDER BY account_id, customer_id'),
  };
}

export interface ExpectedError {
  code: string;
  kind?: string;
}

/**
 * Runs an operation that must fail with `expected`, asserts the database is exactly as before and that
 * the error carries no test SSN or document locator number; returns the error for further checks.
 */
export async function expectRejectedWithoutChange(
  pool: pg.Pool,
  operation: () => Promise<unknown>,
  expected: ExpectedError,
): Promise<{
  code: string;
  kind: string;
  message: string;
  details?: { field?: string; code: string; message: string }[];
}> {
  const before = await databaseState(pool);
  const error = await operation().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the operation should have been rejected').toBeDefined();
  expect(error).toMatchObject(expected);
  assertNoSensitiveValues(
    JSON.stringify({ message: (error as Error).message, details: (error as { details?: unknown }).details }),
    'an error',
  );
  expect(await databaseState(pool)).toEqual(before);
  return error as never;
}

/** The field names an error's details point at. */
export const detailFields = (error: { details?: { field?: string }[] }): (string | undefined)[] =>
  (error.details ?? []).map((detail) => detail.field);
