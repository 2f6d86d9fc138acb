import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CasApiError,
  CasGraphqlError,
  createClient,
  unwrap,
  verifyWebhook,
  type CasClient,
} from '@customer-account-service/client';
import {
  CreateCustomerDocument,
  CustomersPageDocument,
  CustomerWithAccountsDocument,
} from '@customer-account-service/client/graphql';
import { buildAccountInput, buildCustomerInput } from '../../../test/support/factories.js';
import { startTestService, type TestService } from '../../../test/support/service.js';

/** The client against the whole service on a fresh database, as a user's code would drive it. */
let service: TestService;
let cas: CasClient;
/** Every request the client sent, as the service received it (method, path, Idempotency-Key). */
const sent: { method: string; path: string; idempotencyKey: string | null }[] = [];
const recordingFetch = (request: Request) => {
  sent.push({
    method: request.method,
    path: new URL(request.url).pathname,
    idempotencyKey: request.headers.get('idempotency-key'),
  });
  return fetch(request);
};

beforeAll(async () => {
  service = await startTestService();
  cas = createClient({ baseUrl: service.url, token: service.token, environment: 'sandbox', fetch: recordingFetch });
});
afterAll(async () => service?.stop());

describe('the TypeScript client against the live service', () => {
  it('creates a customer with an automatic Idempotency-Key and reads it back', async () => {
    const { customerId } = await unwrap(
      cas.POST('/customer', { body: buildCustomerInput({ firstName: 'Client', lastName: 'Tour' }) }),
    );
    expect(sent.at(-1)).toMatchObject({
      method: 'POST',
      path: '/sandbox/customer',
      idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const customer = await unwrap(cas.GET('/customer/{customerId}', { params: { path: { customerId } } }));
    expect(customer).toMatchObject({ customerId, firstName: 'Client', lastName: 'Tour', accountIds: [] });
    // A write that takes no key is sent without one.
    await unwrap(
      cas.PUT('/customer/{customerId}', { params: { path: { customerId } }, body: { preferredName: 'Tourist' } }),
    );
    expect(sent.at(-1)).toMatchObject({ method: 'PUT', idempotencyKey: null });
  });

  it('pages through a filtered list with an async iterator', async () => {
    const lastName = `Pager${randomBytes(4).toString('hex')}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1)
      ids.push((await unwrap(cas.POST('/customer', { body: buildCustomerInput({ lastName }) }))).customerId);
    const before = sent.length;
    const found: string[] = [];
    for await (const customer of cas.list('/customer', { query: { lastName: lastName.toLowerCase(), limit: '2' } }))
      found.push(customer.customerId);
    expect(found).toEqual(ids);
    expect(sent.length - before, 'pages of 2, 2 and 1').toBe(3);

    // A list under a path: the account's transactions, newest first.
    const { accountId } = await unwrap(cas.POST('/account', { body: buildAccountInput([ids[0]!]) }));
    for (const amount of [1, 2, 3])
      await unwrap(
        cas.POST('/account/{accountId}/transaction', {
          params: { path: { accountId } },
          body: { type: 'CREDIT', amount },
        }),
      );
    const amounts: number[] = [];
    for await (const transaction of cas.list('/account/{accountId}/transaction', {
      path: { accountId },
      query: { limit: '2' },
    }))
      amounts.push(transaction.amount);
    expect(amounts).toEqual([3, 2, 1]);
  });

  it("throws typed errors with the envelope's code, message, details and log reference, on both envelope families", async () => {
    const refused = await unwrap(
      cas.POST('/customer', { body: { ...buildCustomerInput(), dateOfBirth: 'yesterday' } }),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CasApiError);
    expect(refused).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      details: expect.arrayContaining([expect.objectContaining({ field: 'dateOfBirth' })]),
    });
    expect((refused as CasApiError).logRefId).toBe((refused as CasApiError).requestId);

    const missing = await unwrap(
      cas.GET('/account/{accountId}', { params: { path: { accountId: '0193a5c5-5a97-7260-9c1e-8daecf406b87' } } }),
    ).catch((error: unknown) => error);
    expect(missing).toMatchObject({ status: 404, code: 'ACCOUNT_NOT_FOUND' });
    expect((missing as CasApiError).logRefId).toBe((missing as CasApiError).requestId);
  });

  it('retries a write after a lost answer with the same Idempotency-Key: one customer, the first answer replayed', async () => {
    let lost = false;
    const keys: string[] = [];
    const flaky = createClient({
      baseUrl: service.url,
      token: service.token,
      environment: 'sandbox',
      retry: { baseDelayMs: 1 },
      fetch: async (request) => {
        keys.push(request.headers.get('idempotency-key')!);
        const response = await fetch(request);
        if (!lost) {
          // The service created the customer, but the answer never reaches the caller.
          lost = true;
          throw new TypeError('fetch failed: socket hang up');
        }
        return response;
      },
    });
    const lastName = `Retry${randomBytes(4).toString('hex')}`;
    const result = await flaky.POST('/customer', { body: buildCustomerInput({ lastName }) });
    expect(result.response.status).toBe(201);
    expect(result.response.headers.get('idempotent-replayed')).toBe('true');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const page = await unwrap(cas.GET('/customer', { params: { query: { lastName } } }));
    expect(page.customers.map((customer) => customer.customerId)).toEqual([result.data!.data.customerId]);
  });

  it('runs typed GraphQL documents, with an idempotency key for the mutation and typed errors', async () => {
    const lastName = `Graph${randomBytes(4).toString('hex')}`;
    const { createCustomer } = await cas.graphql(CreateCustomerDocument, { input: buildCustomerInput({ lastName }) });
    const read = await cas.graphql(CustomerWithAccountsDocument, { customerId: createCustomer.customerId });
    expect(read.customer).toEqual({
      customerId: createCustomer.customerId,
      firstName: createCustomer.firstName,
      lastName,
      accounts: [],
    });
    const page = await cas.graphql(CustomersPageDocument, { first: 10, filter: { lastName } });
    expect(page.customers.nodes.map((node) => node.customerId)).toEqual([createCustomer.customerId]);

    const refused = await cas
      .graphql(CreateCustomerDocument, { input: { ...buildCustomerInput(), dateOfBirth: 'yesterday' } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CasGraphqlError);
    expect((refused as CasGraphqlError).code).toBe('VALIDATION_FAILED');
  });

  it('sends no consistency token while the service answers none (no read replica)', async () => {
    await unwrap(cas.POST('/customer', { body: buildCustomerInput() }));
    expect(cas.consistencyToken).toBeUndefined();
  });
});

describe('webhook verification', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const delivery = {
    type: 'customer.deleted',
    timestamp: '2026-11-26T10:00:00.000Z',
    data: {
      eventId: '0193a5c5-5a97-7260-9c1e-8daecf406b87',
      type: 'customer.deleted',
      sequence: 7,
      occurredAt: '2026-11-26T10:00:00.000Z',
      resourceType: 'customer',
      resourceId: '0193a5c5-5a97-7260-9c1e-8daecf406b88',
      data: { customerId: '0193a5c5-5a97-7260-9c1e-8daecf406b88' },
    },
  };
  const signed = (body: string, at = new Date()) => {
    const id = delivery.data.eventId;
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, body),
    };
  };

  it('returns the typed event of a delivery signed by standardwebhooks, from a record or a Headers object', () => {
    const body = JSON.stringify(delivery);
    const event = verifyWebhook(secret, body, signed(body));
    expect(event.type).toBe('customer.deleted');
    expect(event.data.sequence).toBe(7);
    expect(verifyWebhook(secret, body, new Headers(signed(body))).data.resourceId).toBe(delivery.data.resourceId);
  });

  it('refuses a changed body, another secret and an old timestamp', () => {
    const body = JSON.stringify(delivery);
    const headers = signed(body);
    expect(() => verifyWebhook(secret, body.replace('"sequence":7', '"sequence":8'), headers)).toThrow();
    expect(() => verifyWebhook(`whsec_${randomBytes(24).toString('base64')}`, body, headers)).toThrow();
    expect(() => verifyWebhook(secret, body, signed(body, new Date(Date.now() - 10 * 60_000)))).toThrow();
  });
});
