import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { bearer, countRows } from '../../support/http-auth.js';

/** Idempotency-Key over HTTP: what a client retrying a POST sees, and what the database holds afterwards. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const withKey = (key: string, headers: Record<string, string> = {}) => ({ 'idempotency-key': key, ...headers });

describe('Idempotency-Key on POST /{environment}/customer', () => {
  it('same key and body: 201 with the same customerId and Location, Idempotent-Replayed: true, one record', async () => {
    const key = randomUUID();
    const body = buildCustomerInput();
    const customersBefore = await countRows(service, 'customers');
    const first = await service.call('POST', '/sandbox/customer', { body, headers: withKey(key) });
    expectSuccess(first, 'customer', 201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await service.call('POST', '/sandbox/customer', { body, headers: withKey(key) });
    expectSuccess(retry, 'customer', 201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json.data).toEqual(first.json.data);
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(retry.json.requestId).not.toBe(first.json.requestId);
    expect(await countRows(service, 'customers')).toBe(customersBefore + 1);
    expect(await countRows(service, 'audit_events', 'idempotency_key = $1', [key])).toBe(1);
  });

  it('same key, different body: 422 IDEMPOTENCY_KEY_REUSED and nothing created', async () => {
    const key = randomUUID();
    expectSuccess(
      await service.call('POST', '/sandbox/customer', { body: buildCustomerInput(), headers: withKey(key) }),
      'customer',
      201,
    );
    const before = await countRows(service, 'customers');
    const reused = await service.call('POST', '/sandbox/customer', {
      body: buildCustomerInput(),
      headers: withKey(key),
    });
    expectFailure(reused, 'customer', 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
    expect(await countRows(service, 'customers')).toBe(before);
  });

  it('20 parallel POSTs with one key: exactly one customer row; every answer is that customer (201) or 409 IN_PROGRESS', async () => {
    const key = randomUUID();
    const body = buildCustomerInput();
    const before = await countRows(service, 'customers');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => service.call('POST', '/sandbox/customer', { body, headers: withKey(key) })),
    );
    expect(await countRows(service, 'customers')).toBe(before + 1);
    const created = answers.filter((res) => res.status === 201);
    const waiting = answers.filter((res) => res.status !== 201);
    // The domain makes a duplicate wait for the first to commit, then replays; only a wait over ~2 s gives up with 409.
    for (const res of waiting) expectFailure(res, 'customer', 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((res) => res.json.data.customerId)).size).toBe(1);
    expect(created.filter((res) => res.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    expect(await countRows(service, 'audit_events', 'idempotency_key = $1', [key])).toBe(1);
  });

  it('validates the header: 256 characters or an empty key is 400 VALIDATION_FAILED; 255 characters work', async () => {
    for (const key of ['k'.repeat(256), '']) {
      const res = await service.call('POST', '/sandbox/customer', {
        body: buildCustomerInput(),
        headers: withKey(key),
      });
      expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
      expect(res.json.error.details.map((detail: { field: string }) => detail.field)).toEqual(['idempotencyKey']);
    }
    const longest = `${randomUUID()}${'k'.repeat(255)}`.slice(0, 255);
    expectSuccess(
      await service.call('POST', '/sandbox/customer', { body: buildCustomerInput(), headers: withKey(longest) }),
      'customer',
      201,
    );
  });
});

describe('Idempotency-Key on POST /{environment}/account', () => {
  it('replays the whole account as first created, with Idempotent-Replayed: true', async () => {
    const { customerId } = await createCustomer(service);
    const key = randomUUID();
    const body = buildAccountInput([customerId]);
    const first = await service.call('POST', '/sandbox/account', { body, headers: withKey(key) });
    expectSuccess(first, 'account', 201);
    // The account changes afterwards; the replay answers what the creation answered.
    expectSuccess(
      await service.call('PUT', `/sandbox/account/${first.json.data.accountId}`, {
        body: { name: 'Renamed', currency: body.currency },
      }),
      'account',
      200,
    );
    const retry = await service.call('POST', '/sandbox/account', { body, headers: withKey(key) });
    expectSuccess(retry, 'account', 201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json.data).toEqual(first.json.data);
    expect(await countRows(service, 'account_customers', 'customer_id = $1', [customerId])).toBe(1);
  });

  it('keys belong to one token and one environment: the same key elsewhere is a new request', async () => {
    const { customerId } = await createCustomer(service);
    const key = randomUUID();
    const body = buildAccountInput([customerId]);
    const { token } = await issueApiToken(service.database.pool, { environments: ['*'], scopes: ['accounts:write'] });
    const mine = await service.call('POST', '/sandbox/account', { body, headers: withKey(key) });
    const theirs = await service.call('POST', '/sandbox/account', { body, headers: withKey(key, bearer(token)) });
    expectSuccess(mine, 'account', 201);
    expectSuccess(theirs, 'account', 201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.json.data.accountId).not.toBe(mine.json.data.accountId);

    const customer = buildCustomerInput();
    const customerKey = randomUUID();
    const sandbox = await service.call('POST', '/sandbox/customer', { body: customer, headers: withKey(customerKey) });
    const other = await service.call('POST', '/production-like/customer', {
      body: customer,
      headers: withKey(customerKey),
    });
    expectSuccess(sandbox, 'customer', 201);
    expectSuccess(other, 'customer', 201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.json.data.customerId).not.toBe(sandbox.json.data.customerId);
  });
});
