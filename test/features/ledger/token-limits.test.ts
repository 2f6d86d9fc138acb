import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_SCOPES, type PostingLimits } from '../../../src/domain/caller.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { expectNoChange as expectNoChangeIn } from '../../support/database.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';
import { bearer, challenge } from '../../support/http-auth.js';

/**
 * Managed tokens with limits on the money they move (npm run token -- create --max-amount / --daily-limit)
 * and with an expiry, over HTTP as a client meets them. Every scope is granted (read from ACCESS_SCOPES), so
 * only the limits can refuse.
 */
let service: TestService;
let customerId: string;
beforeAll(async () => {
  service = await startTestService();
  ({ customerId } = await createCustomer(service));
});
afterAll(async () => service?.stop());

const expectNoChange = <T>(request: () => Promise<T>): Promise<T> => expectNoChangeIn(service.database.pool, request);

const limitedToken = async (limits: PostingLimits) =>
  (await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: [...ACCESS_SCOPES], limits })).token;

async function newAccount(currency = 'USD', opening = 0): Promise<string> {
  const res = await service.call('POST', '/sandbox/account', {
    body: { associatedCustomerIds: [customerId], name: 'Limits', currency, type: 'CHECKING' },
  });
  expectSuccess(res, 'account', 201);
  const accountId = res.json.data.accountId as string;
  // The service's own static token has no limits.
  if (opening > 0) expectSuccess(await post(accountId, { type: 'CREDIT', amount: opening }), 'account', 201);
  return accountId;
}

const post = (accountId: string, body: unknown, token?: string) =>
  service.call('POST', `/sandbox/account/${accountId}/transaction`, { body, ...(token && { headers: bearer(token) }) });
const transfer = (body: unknown, token: string) =>
  service.call('POST', '/sandbox/transfer', { body, headers: bearer(token) });
const balanceOf = async (accountId: string) =>
  (await service.call('GET', `/sandbox/account/${accountId}`)).json.data.amount as number;
const dailyTotal = async (principalId: string, currency: string) => {
  const { rows } = await service.database.pool.query<{ total: string }>(
    'SELECT total::text AS total FROM api_token_daily_totals WHERE principal_id = $1 AND currency = $2',
    [principalId, currency],
  );
  return rows.map((row) => Number(row.total));
};

const LIMIT_CHALLENGE = challenge(
  'insufficient_scope',
  "The amount is over this token's limit (per posting, or its daily total in the currency); nothing was posted.",
);

describe('--max-amount: the largest amount of one posting', () => {
  it('refuses a deposit, withdrawal, hold or transfer over it with 403 TOKEN_LIMIT_EXCEEDED, writing nothing; at the maximum it posts', async () => {
    const token = await limitedToken({ maxAmount: '100' });
    const [a, b] = [await newAccount('USD', 1000), await newAccount('USD')];

    expectSuccess(await post(a, { type: 'CREDIT', amount: 100 }, token), 'account', 201);
    for (const body of [
      { type: 'CREDIT', amount: 100.01 },
      { type: 'DEBIT', amount: 250 },
      { type: 'DEBIT', amount: 101, hold: true },
    ]) {
      const refused = await expectNoChange(() => post(a, body, token));
      expectFailure(refused, 'account', 403, 'TOKEN_LIMIT_EXCEEDED');
      expect(refused.headers.get('www-authenticate')).toBe(LIMIT_CHALLENGE);
    }
    expectFailure(
      await expectNoChange(() => transfer({ fromAccountId: a, toAccountId: b, amount: 100.5 }, token)),
      'account',
      403,
      'TOKEN_LIMIT_EXCEEDED',
    );
    expect([await balanceOf(a), await balanceOf(b)]).toEqual([1100, 0]);

    expectSuccess(await transfer({ fromAccountId: a, toAccountId: b, amount: 100 }, token), 'account', 201);
    expect([await balanceOf(a), await balanceOf(b)]).toEqual([1000, 100]);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('is enforced over GraphQL with the same code', async () => {
    const token = await limitedToken({ maxAmount: '10' });
    const accountId = await newAccount();
    const mutation =
      'mutation($id: ID!, $input: PostTransactionInput!) { postTransaction(accountId: $id, input: $input) { transactionId } }';
    const refused = await expectNoChange(() =>
      graphql(
        service,
        mutation,
        { id: accountId, input: { type: 'CREDIT', amount: '10.01' } },
        { headers: bearer(token) },
      ),
    );
    expect(errorCodes(refused)).toEqual(['TOKEN_LIMIT_EXCEEDED']);
    const posted = await graphql(
      service,
      mutation,
      { id: accountId, input: { type: 'CREDIT', amount: '10' } },
      { headers: bearer(token) },
    );
    expect(posted.json.errors).toBeUndefined();
  });
});

describe('--daily-limit: the total per UTC day and currency', () => {
  it('adds up several postings; the one that would pass the limit is refused, writing nothing; other currencies are not counted', async () => {
    const { token, principalId } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: [...ACCESS_SCOPES],
      limits: { daily: { USD: '100' } },
    });
    const [usd, other, eur] = [await newAccount('USD', 500), await newAccount('USD'), await newAccount('EUR')];

    expectSuccess(await post(usd, { type: 'CREDIT', amount: 40 }, token), 'account', 201);
    expectSuccess(await post(usd, { type: 'DEBIT', amount: 40 }, token), 'account', 201);
    expectFailure(
      await expectNoChange(() => post(usd, { type: 'CREDIT', amount: 30 }, token)),
      'account',
      403,
      'TOKEN_LIMIT_EXCEEDED',
    );
    expectFailure(
      await expectNoChange(() => transfer({ fromAccountId: usd, toAccountId: other, amount: 20.01 }, token)),
      'account',
      403,
      'TOKEN_LIMIT_EXCEEDED',
    );
    expectSuccess(await transfer({ fromAccountId: usd, toAccountId: other, amount: 20 }, token), 'account', 201);
    expect(await dailyTotal(principalId, 'USD')).toEqual([100]);
    expectFailure(
      await expectNoChange(() => post(usd, { type: 'CREDIT', amount: 0.01 }, token)),
      'account',
      403,
      'TOKEN_LIMIT_EXCEEDED',
    );

    // EUR is not listed: no daily limit in it.
    expectSuccess(await post(eur, { type: 'CREDIT', amount: 5000 }, token), 'account', 201);
    expect(await dailyTotal(principalId, 'EUR')).toEqual([]);
    expect([await balanceOf(usd), await balanceOf(other), await balanceOf(eur)]).toEqual([480, 20, 5000]);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('keeps a principal`s totals of today and yesterday only: older days go with its next posting', async () => {
    const { token, principalId } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: [...ACCESS_SCOPES],
      limits: { daily: { USD: '100' } },
    });
    await service.database.pool.query(
      `INSERT INTO api_token_daily_totals (principal_id, day, currency, total) VALUES
         ($1, (now() AT TIME ZONE 'UTC')::date - 5, 'USD', 90), ($1, (now() AT TIME ZONE 'UTC')::date - 1, 'USD', 80)`,
      [principalId],
    );
    expectSuccess(await post(await newAccount(), { type: 'CREDIT', amount: 30 }, token), 'account', 201);
    const { rows } = await service.database.pool.query<{ age: number; total: string }>(
      `SELECT ((now() AT TIME ZONE 'UTC')::date - day)::int AS age, total::text AS total FROM api_token_daily_totals WHERE principal_id = $1 ORDER BY day`,
      [principalId],
    );
    expect(rows).toEqual([
      { age: 1, total: '80.000000' },
      { age: 0, total: '30.000000' },
    ]);
  });

  it('counts a hold when it is posted, not when it is placed; reversals and voids are not limited', async () => {
    const { token, principalId } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: [...ACCESS_SCOPES],
      limits: { daily: { USD: '100' } },
    });
    const accountId = await newAccount('USD', 500);
    const hold = async (amount: number) => {
      const res = await post(accountId, { type: 'DEBIT', amount, hold: true }, token);
      expectSuccess(res, 'account', 201);
      return res.json.data.transactionId as string;
    };
    const settle = (transactionId: string, action: 'post' | 'void', body: unknown = {}) =>
      service.call('POST', `/sandbox/account/${accountId}/transaction/${transactionId}/${action}`, {
        body,
        headers: bearer(token),
      });

    const first = await hold(80);
    const second = await hold(80);
    expect(await dailyTotal(principalId, 'USD')).toEqual([]);
    expectSuccess(await settle(first, 'post'), 'account', 200);
    expect(await dailyTotal(principalId, 'USD')).toEqual([80]);
    expectFailure(await expectNoChange(() => settle(second, 'post')), 'account', 403, 'TOKEN_LIMIT_EXCEEDED');
    expectSuccess(await settle(second, 'post', { amount: 20 }), 'account', 200);
    expect(await dailyTotal(principalId, 'USD')).toEqual([100]);

    const third = await hold(50);
    expectSuccess(await settle(third, 'void'), 'account', 200);
    const reversal = await service.call('POST', `/sandbox/account/${accountId}/transaction/${first}/reverse`, {
      body: {},
      headers: bearer(token),
    });
    expectSuccess(reversal, 'account', 201);
    expect(await dailyTotal(principalId, 'USD')).toEqual([100]);
    expect(await balanceOf(accountId)).toBe(480);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('holds under concurrency: of 10 parallel postings of 15 against a limit of 100, exactly 6 post', async () => {
    const { token, principalId } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: [...ACCESS_SCOPES],
      limits: { maxAmount: '50', daily: { USD: '100' } },
    });
    // Several accounts, so the postings do not simply queue on one account's row lock.
    const accounts = await Promise.all(Array.from({ length: 5 }, () => newAccount('USD')));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(accounts[i % accounts.length]!, { type: 'CREDIT', amount: 15 }, token)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(6).fill(201), ...Array(4).fill(403)]);
    for (const refused of answers.filter((answer) => answer.status === 403))
      expect(refused.json.error.code).toBe('TOKEN_LIMIT_EXCEEDED');
    const balances = await Promise.all(accounts.map(balanceOf));
    expect(balances.reduce((sum, balance) => sum + balance, 0)).toBe(90);
    expect(await dailyTotal(principalId, 'USD')).toEqual([90]);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });
});

describe('expiry', () => {
  it('an expired token is refused exactly like an unknown one (401 invalid_token), nothing hinting it existed', async () => {
    const live = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: [...ACCESS_SCOPES],
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const expired = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: [...ACCESS_SCOPES],
      expiresAt: new Date(Date.now() - 1000),
    });
    const path = `/sandbox/customer/${customerId}`;
    expectSuccess(await service.call('GET', path, { headers: bearer(live.token) }), 'customer', 200);

    const refused = await service.call('GET', path, { headers: bearer(expired.token) });
    const unknown = await service.call('GET', path, {
      headers: bearer(expired.token.replace(expired.id, 'ffffffffffffffff')),
    });
    expectFailure(refused, 'customer', 401, 'UNAUTHENTICATED');
    expect(refused.headers.get('www-authenticate')).toBe(challenge('invalid_token', 'The bearer token is not valid.'));
    expect({
      status: refused.status,
      error: refused.json.error,
      challenge: refused.headers.get('www-authenticate'),
    }).toEqual({
      status: unknown.status,
      error: unknown.json.error,
      challenge: unknown.headers.get('www-authenticate'),
    });
    const { rows } = await service.database.pool.query('SELECT last_used_at FROM api_tokens WHERE id = $1', [
      expired.id,
    ]);
    expect(rows[0].last_used_at).toBeNull();
  });
});
