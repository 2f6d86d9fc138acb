import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { bearer } from '../../support/http-auth.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * Finding accounts by an account number's last four (docs/account-numbers.md), through REST's account list and
 * GraphQL's `accounts(filter)`, against the real database: an account matches when one of its numbers that is not
 * CANCELED ends in the four digits; the answer is compared with the same rule computed here from the table; anything
 * but four digits is VALIDATION_FAILED; the filter needs accounts:read and nothing more.
 */

let service: TestService;
const tokens = { reader: '', controls: '', numbersOnly: '' };

beforeAll(async () => {
  service = await startTestService();
  const { pool } = service.database;
  tokens.reader = (await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:read'] })).token;
  tokens.controls = (await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:controls'] })).token;
  tokens.numbersOnly = (await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:numbers:read'] })).token;
});
afterAll(async () => service?.stop());

const newAccount = async (environment = 'sandbox') => {
  const { customerId } = await createCustomer(service, {}, environment);
  return (await createAccount(service, [customerId], environment)).accountId as string;
};

/** The account's numbers as the table has them (the test's own reading, not the service's). */
async function numbersOf(accountId: string): Promise<{ id: string; last4: string; status: string }[]> {
  const { rows } = await service.database.pool.query(
    'SELECT id::text, last4, status FROM account_numbers WHERE account_id = $1 ORDER BY created_at',
    [accountId],
  );
  return rows;
}

/** The rule, computed independently: the environment's accounts with a number not CANCELED ending in `last4`. */
async function expectedIds(environment: string, last4: string): Promise<string[]> {
  const { rows } = await service.database.pool.query(
    `SELECT DISTINCT account_id::text AS id FROM account_numbers
      WHERE environment = $1 AND status <> 'CANCELED' AND last4 = $2 ORDER BY 1`,
    [environment, last4],
  );
  return rows.map((row: { id: string }) => row.id);
}

async function restIds(last4: string, environment = 'sandbox', token = tokens.reader): Promise<string[]> {
  const res = await service.call('GET', `/${environment}/account?accountNumberLast4=${last4}&limit=100`, {
    headers: bearer(token),
  });
  expectSuccess(res, 'account', 200);
  return (res.json.data.accounts as { accountId: string }[]).map((account) => account.accountId).sort();
}

const GRAPHQL_SEARCH = `query($last4: String) { accounts(first: 100, filter: { accountNumberLast4: $last4 }) {
  nodes { accountId accountNumberLast4 } } }`;

async function graphqlIds(last4: string, environment = 'sandbox'): Promise<string[]> {
  const result = await graphql(service, GRAPHQL_SEARCH, { last4 }, { headers: bearer(tokens.reader), environment });
  expect(result.status, result.text).toBe(200);
  expect(errorCodes(result), result.text).toEqual([]);
  return (result.json.data.accounts.nodes as { accountId: string }[]).map((account) => account.accountId).sort();
}

describe('accounts by their last four', () => {
  it('finds the account whose number ends in the digits, on both surfaces, as the rule computed from the table', async () => {
    const accountId = await newAccount();
    await newAccount();
    const [number] = await numbersOf(accountId);
    const expected = await expectedIds('sandbox', number!.last4);
    expect(expected).toContain(accountId);
    expect(await restIds(number!.last4)).toEqual(expected);
    expect(await graphqlIds(number!.last4)).toEqual(expected);
  });

  it("keeps to the caller's environment", async () => {
    const accountId = await newAccount('production-like');
    const [number] = await numbersOf(accountId);
    expect(await restIds(number!.last4, 'production-like')).toContain(accountId);
    expect(await restIds(number!.last4, 'sandbox')).toEqual(await expectedIds('sandbox', number!.last4));
    expect(await restIds(number!.last4, 'sandbox')).not.toContain(accountId);
  });

  it('no longer finds an account by a canceled number, and finds it by the number added after', async () => {
    const accountId = await newAccount();
    const [old] = await numbersOf(accountId);
    const cancel = await service.call('PUT', `/sandbox/account/${accountId}/account-numbers/${old!.id}`, {
      headers: bearer(tokens.controls),
      body: { status: 'CANCELED' },
    });
    expectSuccess(cancel, 'account', 200);
    expect(await restIds(old!.last4)).not.toContain(accountId);
    expect(await graphqlIds(old!.last4)).not.toContain(accountId);

    const added = await service.call('POST', `/sandbox/account/${accountId}/account-numbers`, {
      headers: bearer(tokens.controls),
      body: {},
    });
    expectSuccess(added, 'account', 201);
    const last4 = added.json.data.last4 as string;
    expect(await restIds(last4)).toContain(accountId);
    const found = await graphql(service, GRAPHQL_SEARCH, { last4 }, { headers: bearer(tokens.reader) });
    expect(found.json.data.accounts.nodes).toContainEqual({ accountId, accountNumberLast4: last4 });
  });

  it('combines with the other filters (all must hold)', async () => {
    const accountId = await newAccount();
    const [number] = await numbersOf(accountId);
    const res = await service.call('GET', `/sandbox/account?accountNumberLast4=${number!.last4}&currency=EUR`, {
      headers: bearer(tokens.reader),
    });
    expectSuccess(res, 'account', 200);
    expect(res.json.data.accounts.map((account: { accountId: string }) => account.accountId)).not.toContain(accountId);
  });

  it('refuses anything but four digits with VALIDATION_FAILED naming the filter, on both surfaces', async () => {
    for (const bad of ['123', '12345', 'abcd', '12 4']) {
      const res = await service.call('GET', `/sandbox/account?accountNumberLast4=${encodeURIComponent(bad)}`, {
        headers: bearer(tokens.reader),
      });
      expectFailure(res, 'account', 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(res.json.error), bad).toContain('accountNumberLast4');
      const result = await graphql(service, GRAPHQL_SEARCH, { last4: bad }, { headers: bearer(tokens.reader) });
      expect(errorCodes(result), bad).toEqual(['VALIDATION_FAILED']);
    }
  });

  it('needs accounts:read: accounts:numbers:read alone finds nothing (FORBIDDEN)', async () => {
    const res = await service.call('GET', '/sandbox/account?accountNumberLast4=1234', {
      headers: bearer(tokens.numbersOnly),
    });
    expectFailure(res, 'account', 403, 'FORBIDDEN');
    const result = await graphql(service, GRAPHQL_SEARCH, { last4: '1234' }, { headers: bearer(tokens.numbersOnly) });
    expect(errorCodes(result)).toEqual(['FORBIDDEN']);
  });
});
