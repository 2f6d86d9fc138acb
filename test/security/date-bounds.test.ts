import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateDatabaseError } from '../../src/db/sql/errors.js';
import { INSTANT_RANGE_MESSAGE } from '../../src/domain/validation.js';
import { startTestService, type TestService } from '../support/service.js';
import { createAccount, createCustomer } from '../rest/helpers.js';
import { graphql } from '../graphql/helpers.js';

/**
 * Year 0000 (the security review's finding): PostgreSQL has no year 0 and refused such an instant with 22008
 * (datetime field overflow), which nothing mapped: a 500 and an ERROR log line. Every instant of the inputs now
 * goes through instantSchema (src/domain/validation.ts): 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z in UTC,
 * else VALIDATION_FAILED with OUT_OF_RANGE and a message naming the range, never the value. 22008 and 22007 are
 * mapped too (src/db/sql/errors.ts), for an instant that reaches the database some other way.
 */

let service: TestService;
let customerId: string;
let accountId: string;
beforeAll(async () => {
  service = await startTestService();
  ({ customerId } = await createCustomer(service));
  accountId = (await createAccount(service, [customerId])).accountId as string;
});
afterAll(async () => service?.stop());

const YEAR_0000 = '0000-01-01T00:00:00Z';
const EARLIEST = '0001-01-01T00:00:00Z';
const LATEST = '9999-12-31T23:59:59Z';
const q = encodeURIComponent;

const errorLogLines = () => service.logLines.filter((line) => (JSON.parse(line) as { level?: number }).level! >= 50);

const outOfRange = (field: string) => ({ field, code: 'OUT_OF_RANGE', message: INSTANT_RANGE_MESSAGE });

describe('an instant in year 0000', () => {
  const endpoints: [string, (value: string) => string, string][] = [
    ['GET /{environment}/customer?createdFrom', (v) => `/sandbox/customer?createdFrom=${q(v)}`, 'createdFrom'],
    ['GET /{environment}/customer?createdTo', (v) => `/sandbox/customer?createdTo=${q(v)}`, 'createdTo'],
    [
      'GET …/account/{accountId}/transaction?from',
      (v) => `/sandbox/account/${accountId}/transaction?from=${q(v)}`,
      'from',
    ],
    ['GET /{environment}/audit-events?from', (v) => `/sandbox/audit-events?from=${q(v)}`, 'from'],
    ['GET …/account/{accountId}/balance?asOf', (v) => `/sandbox/account/${accountId}/balance?asOf=${q(v)}`, 'asOf'],
    [
      'GET …/account/{accountId}/statement?from',
      (v) => `/sandbox/account/${accountId}/statement?from=${q(v)}&to=2026-12-01T00:00:00Z`,
      'from',
    ],
    ['GET /{environment}/ledger-entries?from', (v) => `/sandbox/ledger-entries?from=${q(v)}`, 'from'],
  ];

  it.each(endpoints)(
    '%s answers 400 VALIDATION_FAILED (OUT_OF_RANGE), never echoing the value, and logs no error',
    async (_name, url, field) => {
      const before = errorLogLines().length;
      const res = await service.call('GET', url(YEAR_0000));
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('VALIDATION_FAILED');
      expect(res.json.error.details).toEqual([outOfRange(field)]);
      expect(res.text).not.toContain('0000-01-01');
      expect(errorLogLines().length).toBe(before);
    },
  );

  it('an offset that puts year 0001 into year 0000 in UTC is out of range as well', async () => {
    const res = await service.call('GET', `/sandbox/customer?createdFrom=${q('0001-01-01T00:00:00+01:00')}`);
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.details).toEqual([outOfRange('createdFrom')]);
  });

  it('GraphQL customers(filter: {createdFrom}) answers VALIDATION_FAILED (OUT_OF_RANGE)', async () => {
    const before = errorLogLines().length;
    const result = await graphql(
      service,
      'query($filter: CustomerFilter) { customers(filter: $filter) { nodes { customerId } } }',
      {
        filter: { createdFrom: YEAR_0000 },
      },
    );
    expect(result.status).toBe(200);
    expect(result.json.data).toBeNull();
    expect(result.json.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(result.json.errors[0].extensions.details).toEqual([outOfRange('createdFrom')]);
    expect(errorLogLines().length).toBe(before);
  });

  it('a malformed instant is still INVALID_FORMAT, not OUT_OF_RANGE', async () => {
    const res = await service.call('GET', `/sandbox/customer?createdFrom=${q('0000-13-01T00:00:00Z')}`);
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ field: 'createdFrom', code: 'INVALID_FORMAT' })]);
  });
});

describe('the boundaries of the range are accepted', () => {
  it('customer list: createdFrom 0001-01-01T00:00:00Z, createdTo 9999-12-31T23:59:59Z', async () => {
    const res = await service.call('GET', `/sandbox/customer?createdFrom=${q(EARLIEST)}&createdTo=${q(LATEST)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain(customerId);
  });

  it('transaction list, audit trail and ledger export: from the earliest to the latest instant', async () => {
    for (const url of [
      `/sandbox/account/${accountId}/transaction?from=${q(EARLIEST)}&to=${q(LATEST)}`,
      `/sandbox/audit-events?from=${q(EARLIEST)}&to=${q(LATEST)}`,
      `/sandbox/ledger-entries?from=${q(EARLIEST)}&to=${q(LATEST)}`,
    ]) {
      const res = await service.call('GET', url);
      expect(res.status, `${url}: ${res.text}`).toBe(200);
    }
  });

  it('balance as of the earliest instant; a statement from the earliest instant', async () => {
    const balance = await service.call('GET', `/sandbox/account/${accountId}/balance?asOf=${q(EARLIEST)}`);
    expect(balance.status, balance.text).toBe(200);
    const statement = await service.call(
      'GET',
      `/sandbox/account/${accountId}/statement?from=${q(EARLIEST)}&to=2026-12-01T00:00:00Z`,
    );
    expect(statement.status, statement.text).toBe(200);
  });

  it('GraphQL customers(filter: {createdFrom, createdTo}) at both ends', async () => {
    const result = await graphql(
      service,
      'query($filter: CustomerFilter) { customers(filter: $filter) { nodes { customerId } } }',
      {
        filter: { createdFrom: EARLIEST, createdTo: LATEST },
      },
    );
    expect(result.json.errors).toBeUndefined();
    expect(result.json.data.customers.nodes).toContainEqual({ customerId });
  });
});

describe('the database backstop', () => {
  it.each([
    ['22008 (datetime field overflow, year 0000)', "SELECT '0000-01-01T00:00:00Z'::timestamptz"],
    ['22007 (invalid datetime format)', "SELECT 'not a time'::timestamptz"],
  ])('PostgreSQL %s becomes VALIDATION_FAILED (OUT_OF_RANGE), without the value', async (_name, sql) => {
    const error = await service.database.pool.query(sql).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeDefined();
    const translated = translateDatabaseError(error);
    expect(translated).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ code: 'OUT_OF_RANGE' }] });
    expect(JSON.stringify(translated)).not.toContain('0000-01-01');
  });
});
