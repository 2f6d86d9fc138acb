import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { addressBudgetKey } from '../../src/http/rate-limit.js';
import { configProblems } from '../support/config.js';
import { errorCodes, graphql } from '../graphql/helpers.js';
import { expectFailure } from '../rest/helpers.js';
import { issueApiToken } from '../support/api-tokens.js';
import { ManualClock } from '../support/clock.js';
import { type CallResult, startTestService, TEST_PII_ENV, type TestService } from '../support/service.js';
import { bearer } from '../support/http-auth.js';

/** Per-token budgets shared by REST and GraphQL, GraphQL charged by cost, and the per-address budget for refused tokens. */

const ALL_SCOPES = ['customers:read', 'customers:write', 'accounts:read', 'accounts:write', 'audit:read'] as const;
const CHEAP_QUERY = '{ customers(first: 1) { nodes { customerId } } }';
// 2,020 by the cost rules (docs/graphql.md, "Limits"; 100 accounts per customer at most): 1 point for the request + floor(2020 / 100).
const COSTLY_QUERY = '{ customers(first: 10) { nodes { accounts { accountId } } } }';

const limits = (res: CallResult) => ({
  limit: res.headers.get('ratelimit-limit'),
  remaining: res.headers.get('ratelimit-remaining'),
  reset: Number(res.headers.get('ratelimit-reset')),
});

function expectRateLimited(res: CallResult, status = 429): void {
  expect(res.status).toBe(status);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBe(limits(res).reset);
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
}

describe('per-token budget (RATE_LIMIT_POINTS=30 per 60 s)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ RATE_LIMIT_POINTS: '30', RATE_LIMIT_DURATION_S: '60' });
  });
  afterAll(async () => service?.stop());

  const freshToken = async () =>
    (await issueApiToken(service.database.pool, { environments: ['*'], scopes: [...ALL_SCOPES] })).token;

  it('REST and GraphQL spend one budget; every answer says what is left; the 31st request is 429 RATE_LIMITED on both', async () => {
    const token = await freshToken();
    for (let i = 1; i <= 30; i++) {
      // Failed requests count as well (here a 404): the budget limits work, not successes.
      const res =
        i % 2 === 0
          ? await graphql(service, CHEAP_QUERY, undefined, { headers: bearer(token) })
          : await service.call('GET', `/sandbox/customer/${randomUUID()}`, { headers: bearer(token) });
      expect(res.status).toBe(i % 2 === 0 ? 200 : 404);
      expect(limits(res)).toMatchObject({ limit: '30', remaining: String(30 - i) });
      expect(limits(res).reset).toBeGreaterThanOrEqual(1);
      expect(limits(res).reset).toBeLessThanOrEqual(60);
      expect(res.headers.get('retry-after')).toBeNull();
    }
    const rest = await service.call('POST', '/sandbox/customer', { body: {}, headers: bearer(token) });
    expectFailure(rest, 'customer', 429, 'RATE_LIMITED');
    expectRateLimited(rest);
    expect(rest.json.error.message).toMatch(/^Too many requests for this token; retry in \d+ s\.$/);
    const gql = await graphql(service, CHEAP_QUERY, undefined, { headers: bearer(token) });
    expectRateLimited(gql);
    expect(errorCodes(gql)).toEqual(['RATE_LIMITED']);
    expect(gql.json).not.toHaveProperty('data');
    expect(gql.json.errors[0].extensions.requestId).toBe(gql.headers.get('x-request-id'));
  });

  it('budgets are per token: another token is not affected', async () => {
    const spent = await freshToken();
    for (let i = 0; i < 31; i++)
      await service.call('GET', `/sandbox/customer/${randomUUID()}`, { headers: bearer(spent) });
    expect((await service.call('GET', `/sandbox/customer/${randomUUID()}`, { headers: bearer(spent) })).status).toBe(
      429,
    );
    const other = await service.call('GET', `/sandbox/customer/${randomUUID()}`, {
      headers: bearer(await freshToken()),
    });
    expect(other.status).toBe(404);
    expect(limits(other)).toMatchObject({ limit: '30', remaining: '29' });
  });

  it('charges GraphQL by estimated cost: 1 point per request plus 1 per 100 of cost, refused before any resolver runs', async () => {
    const token = await freshToken();
    const cheap = await graphql(service, '{ __typename }', undefined, { headers: bearer(token) });
    expect(limits(cheap).remaining).toBe('29');
    const costly = await graphql(service, COSTLY_QUERY, undefined, { headers: bearer(token) });
    expect(costly.status).toBe(200);
    expect(limits(costly).remaining).toBe(String(29 - 1 - 20));
    const before = service.statements.count;
    const refused = await graphql(service, COSTLY_QUERY, undefined, { headers: bearer(token) });
    expectRateLimited(refused);
    expect(errorCodes(refused)).toEqual(['RATE_LIMITED']);
    expect(refused.json).not.toHaveProperty('data');
    // The managed token is looked up at most (1 statement, none once cached); no resolver touched the database.
    expect(service.statements.count - before).toBeLessThanOrEqual(2);
  });

  it('does not limit or annotate health checks', async () => {
    const health = await service.call('GET', '/healthz', { auth: false });
    expect(health.status).toBe(200);
    expect(health.headers.get('ratelimit-limit')).toBeNull();
  });
});

describe('failed-authentication budget per client address (RATE_LIMIT_AUTH_FAILURES=3 per 3 s)', () => {
  let service: TestService;
  // The windows' clock moves only when the test advances it: the window's end is reached without waiting for it.
  const clock = new ManualClock();
  beforeAll(async () => {
    service = await startTestService(
      { RATE_LIMIT_AUTH_FAILURES: '3', RATE_LIMIT_AUTH_FAILURES_DURATION_S: '3' },
      { clock },
    );
  });
  afterAll(async () => service?.stop());

  it("counts refused tokens only; after 3 the address's refused tokens are 429 until the window ends, while a good token still gets through", async () => {
    for (let i = 0; i < 5; i++) {
      const missing = await service.call('GET', `/sandbox/customer/${randomUUID()}`, { auth: false });
      expect(missing.status).toBe(401);
      expect(missing.headers.get('ratelimit-limit')).toBeNull();
    }
    for (let i = 1; i <= 3; i++) {
      const guess = await service.call('GET', `/sandbox/customer/${randomUUID()}`, {
        headers: bearer(`guess-${randomUUID()}`),
      });
      expectFailure(guess, 'customer', 401, 'UNAUTHENTICATED');
      expect(limits(guess)).toMatchObject({ limit: '3', remaining: String(3 - i) });
    }
    const spent = await service.call('GET', `/sandbox/customer/${randomUUID()}`, {
      headers: bearer(`guess-${randomUUID()}`),
    });
    expectFailure(spent, 'customer', 429, 'RATE_LIMITED');
    expectRateLimited(spent);
    expect(spent.json.error.message).toMatch(
      /^Too many failed authentication attempts from this address; retry in \d s\.$/,
    );
    expect(
      errorCodes(await graphql(service, CHEAP_QUERY, undefined, { headers: bearer('another-wrong-token-0000') })),
    ).toEqual(['RATE_LIMITED']);
    // The budget never refuses a valid token: the token is checked first (REST and GraphQL).
    expectFailure(
      await service.call('GET', `/sandbox/customer/${randomUUID()}`),
      'customer',
      404,
      'CUSTOMER_NOT_FOUND',
    );
    const viaGraphql = await graphql(service, CHEAP_QUERY);
    expect(viaGraphql.status).toBe(200);
    expect(viaGraphql.json.errors).toBeUndefined();
    // A missing header is no guess: still 401, not 429.
    expect((await service.call('GET', `/sandbox/customer/${randomUUID()}`, { auth: false })).status).toBe(401);
    // X-Forwarded-For is not trusted unless TRUST_PROXY_HOPS says so: a made-up address does not escape the budget.
    expect(
      (
        await service.call('GET', `/sandbox/customer/${randomUUID()}`, {
          headers: { 'x-forwarded-for': '203.0.113.9', ...bearer('wrong-token-guess-0000') },
        })
      ).status,
    ).toBe(429);
    expect((await service.call('GET', '/readyz', { auth: false })).status).toBe(200);

    // The clock has not moved since the window began: Retry-After is the whole window. Refused until its last
    // millisecond; its end opens a new window, whose first refused token is a plain 401 again.
    expect(spent.headers.get('retry-after')).toBe('3');
    clock.advance(2999);
    const lastMillisecond = await service.call('GET', `/sandbox/customer/${randomUUID()}`, {
      headers: bearer(`guess-${randomUUID()}`),
    });
    expect(lastMillisecond.status).toBe(429);
    expect(lastMillisecond.headers.get('retry-after')).toBe('1');
    clock.advance(1);
    const renewed = await service.call('GET', `/sandbox/customer/${randomUUID()}`, {
      headers: bearer(`guess-${randomUUID()}`),
    });
    expect(renewed.status).toBe(401);
    expect(limits(renewed)).toMatchObject({ limit: '3', remaining: '2', reset: 3 });
  });
});

describe('behind a trusted proxy (TRUST_PROXY_HOPS=1)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ RATE_LIMIT_AUTH_FAILURES: '2', TRUST_PROXY_HOPS: '1' });
  });
  afterAll(async () => service?.stop());

  it('keeps one failed-authentication budget per forwarded client address', async () => {
    const from = (address: string, token = service.token) => ({
      headers: { 'x-forwarded-for': address, ...bearer(token) },
    });
    const WRONG = 'wrong-token-guess-1234';
    for (let i = 0; i < 2; i++)
      await service.call('GET', `/sandbox/customer/${randomUUID()}`, from('198.51.100.7', WRONG));
    expect((await service.call('GET', `/sandbox/customer/${randomUUID()}`, from('198.51.100.7', WRONG))).status).toBe(
      429,
    );
    expect((await service.call('GET', `/sandbox/customer/${randomUUID()}`, from('198.51.100.7'))).status).toBe(404);
    expect((await service.call('GET', `/sandbox/customer/${randomUUID()}`, from('198.51.100.8', WRONG))).status).toBe(
      401,
    );
  });

  it('counts IPv6 clients per /64: rotating addresses inside one /64 shares one budget; another /64 has its own', async () => {
    const from = (address: string) => ({
      headers: { 'x-forwarded-for': address, ...bearer('wrong-token-guess-5678') },
    });
    expect((await service.call('GET', `/sandbox/customer/${randomUUID()}`, from('2001:db8:aa:1::1'))).status).toBe(401);
    expect(
      (await service.call('GET', `/sandbox/customer/${randomUUID()}`, from('2001:db8:aa:1:ffff:ffff:ffff:fffe')))
        .status,
    ).toBe(401);
    expect(
      (await service.call('GET', `/sandbox/customer/${randomUUID()}`, from('2001:0db8:00aa:0001:1234::42'))).status,
    ).toBe(429);
    expect((await service.call('GET', `/sandbox/customer/${randomUUID()}`, from('2001:db8:aa:2::1'))).status).toBe(401);
  });
});

describe('addressBudgetKey', () => {
  it('keys IPv4 (also IPv4-mapped) by the address and IPv6 by its /64', () => {
    expect(addressBudgetKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressBudgetKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressBudgetKey('2001:db8:aa:1::1')).toBe('2001:db8:aa:1::/64');
    expect(addressBudgetKey('2001:0DB8:00AA:0001:ffff:ffff:ffff:ffff')).toBe('2001:db8:aa:1::/64');
    expect(addressBudgetKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBudgetKey('::1')).toBe('0:0:0:0::/64');
    expect(addressBudgetKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBudgetKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressBudgetKey('unknown')).toBe('unknown');
  });
});

describe('rate limit configuration', () => {
  const base = {
    API_TOKENS: 'a-S6Uc50T-2DQbOERvNeAoIwD96RIWYUb5UTP7Yj6vNiM_3ZbEeTGAVjWt-GDbdIseZv9zHbs43Vk7tvp4oESAk8U',
    ...TEST_PII_ENV,
  };
  const problems = (env: Record<string, string>) => configProblems({ ...base, ...env });

  it('is on by default, off under NODE_ENV=test unless set', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).rateLimit).toEqual({
      points: 6000,
      durationS: 60,
      authFailures: 20,
      authFailuresDurationS: 300,
      graphqlCostPerPoint: 100,
      redisUrl: undefined,
      ssnSearchesPerMinute: 30,
      accountNumberLookupsPerMinute: 600,
    });
    expect(loadConfig({ ...base }).rateLimit).toMatchObject({ points: 6000, authFailures: 20 });
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).rateLimit).toMatchObject({ points: 0, authFailures: 0 });
    expect(
      loadConfig({ ...base, NODE_ENV: 'test', RATE_LIMIT_POINTS: '10', REDIS_URL: 'redis://cache.internal:6379/2' })
        .rateLimit,
    ).toMatchObject({
      points: 10,
      redisUrl: 'redis://cache.internal:6379/2',
    });
    expect(loadConfig({ ...base, NODE_ENV: 'production', RATE_LIMIT_POINTS: '0' }).rateLimit.points).toBe(0);
  });

  it('names the variable and the rule when a value is wrong', () => {
    expect(problems({ RATE_LIMIT_POINTS: '-5' })).toEqual([
      'RATE_LIMIT_POINTS: RATE_LIMIT_POINTS must be a whole number',
    ]);
    expect(problems({ RATE_LIMIT_DURATION_S: '0' })).toEqual([
      'RATE_LIMIT_DURATION_S: RATE_LIMIT_DURATION_S must be between 1 and 86400',
    ]);
    expect(problems({ RATE_LIMIT_GRAPHQL_COST_PER_POINT: 'lots' })).toEqual([
      'RATE_LIMIT_GRAPHQL_COST_PER_POINT: RATE_LIMIT_GRAPHQL_COST_PER_POINT must be a whole number',
    ]);
    expect(problems({ REDIS_URL: 'http://cache.internal:6379' })).toEqual([
      'REDIS_URL: REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://redis.internal:6379/0',
    ]);
    expect(problems({ TRUST_PROXY_HOPS: '11' })).toEqual([
      'TRUST_PROXY_HOPS: TRUST_PROXY_HOPS must be between 0 and 10',
    ]);
  });
});
