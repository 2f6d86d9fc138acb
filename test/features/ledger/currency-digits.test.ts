import currencyCodes from 'currency-codes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/db/migrations/migrations.js';
import { minorUnitDigits } from '../../../src/features/ledger/money.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

/** The posting statement's currency_minor_digits() and the service's minorUnitDigits() are one table. */
describe('currency_minor_digits (the migration) and minorUnitDigits (currency-codes)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrate(database.pool);
  });
  afterAll(async () => database?.drop());

  it('agree for every ISO 4217 code the package knows', async () => {
    const codes = currencyCodes.codes();
    const { rows } = await database.pool.query<{ code: string; digits: number }>(
      'SELECT code, currency_minor_digits(code) AS digits FROM unnest($1::text[]) AS code',
      [codes],
    );
    expect(Object.fromEntries(rows.map((row) => [row.code, row.digits]))).toEqual(
      Object.fromEntries(codes.map((code) => [code, minorUnitDigits(code)])),
    );
    expect(codes.length).toBeGreaterThan(150);
  });
});
