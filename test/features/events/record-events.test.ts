import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { startTestService, type TestService } from '../../support/service.js';
import { HUNG_TEST_DEADLINE_MS } from '../../support/eventually.js';

/**
 * A record's recent events (docs/adr/0073-a-records-recent-events.md): `GET /{environment}/customer/{customerId}/event`,
 * `GET /{environment}/account/{accountId}/event` and GraphQL's `Customer.recentEvents` / `Account.recentEvents`
 * answer the record's numbered events newest first, bounded, with the feed's sequences and the feed's
 * visibility; nothing of another record, nothing not numbered yet; bad input is a coded error.
 */

let service: TestService;
let eventsOnly: string;
let customersOnly: string;
let customersAndEvents: string;
let customerId: string;
let otherCustomerId: string;
let accountId: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Event = { eventId: string; type: string; sequence: number; resourceType: string; resourceId: string; data: any };

const as = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });

/** The feed's events (every one of this file's database), once at least `count` are numbered. */
async function feed(count: number, token?: string): Promise<Event[]> {
  for (const deadline = Date.now() + HUNG_TEST_DEADLINE_MS; ;) {
    const res = await service.call('GET', '/sandbox/event?after=0&limit=100', token ? as(token) : {});
    expectSuccess(res, 'customer', 200);
    if (res.json.data.events.length >= count || Date.now() > deadline) return res.json.data.events;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The feed's events of one record, newest first: what the record's read must answer. */
const newestFirstOf = (events: Event[], resourceId: string): Event[] =>
  events.filter((event) => event.resourceId === resourceId).reverse();

beforeAll(async () => {
  service = await startTestService({ EVENT_SEQUENCER_INTERVAL_MS: '20' });
  const pool = service.database.pool;
  eventsOnly = (await issueApiToken(pool, { environments: ['sandbox'], scopes: ['events:read'] })).token;
  customersOnly = (
    await issueApiToken(pool, { environments: ['sandbox'], scopes: ['customers:read', 'accounts:read'] })
  ).token;
  customersAndEvents = (
    await issueApiToken(pool, { environments: ['sandbox'], scopes: ['customers:read', 'accounts:read', 'events:read'] })
  ).token;

  customerId = (await createCustomer(service, { lastName: 'Recentsdottir' })).customerId;
  otherCustomerId = (await createCustomer(service)).customerId;
  for (const preferredName of ['First', 'Second', 'Third']) {
    expectSuccess(
      await service.call('PUT', `/sandbox/customer/${customerId}`, { body: { preferredName } }),
      'customer',
      200,
    );
    expectSuccess(
      await service.call('PUT', `/sandbox/customer/${otherCustomerId}`, { body: { preferredName } }),
      'customer',
      200,
    );
  }
  accountId = (await createAccount(service, [customerId])).accountId;
  expectSuccess(
    await service.call('POST', `/sandbox/account/${accountId}/transaction`, { body: { type: 'CREDIT', amount: 25 } }),
    'account',
    201,
  );
  expectSuccess(await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`), 'account', 200);
  expectSuccess(
    await service.call('POST', `/sandbox/account/${accountId}/customer`, { body: { customerId: otherCustomerId } }),
    'account',
    200,
  );
  // 2 creations + 6 updates, account.created, transaction.posted, account.updated, account.customer_added.
  await feed(12);
});
afterAll(async () => service?.stop());

describe('GET /{environment}/customer/{customerId}/event and …/account/{accountId}/event', () => {
  it("answers the customer's numbered events, newest first, with the feed's sequences and data, and nothing of another record", async () => {
    const expected = newestFirstOf(await feed(12), customerId);
    expect(expected.map((event) => event.type)).toEqual([
      'customer.updated',
      'customer.updated',
      'customer.updated',
      'customer.created',
    ]);

    const res = await service.call('GET', `/sandbox/customer/${customerId}/event`);
    expectSuccess(res, 'customer', 200);
    expect(res.json.data).toEqual({ events: expected });
    // The account the customer holds and the other customer have their own events: none of them here.
    expect(res.text).not.toContain(otherCustomerId);
    expect(res.json.data.events.map((event: Event) => event.resourceType)).toEqual([
      'customer',
      'customer',
      'customer',
      'customer',
    ]);
  });

  it('is bounded by limit (default 10, at most 50): the newest ones', async () => {
    const expected = newestFirstOf(await feed(12), customerId);
    const two = await service.call('GET', `/sandbox/customer/${customerId}/event?limit=2`);
    expectSuccess(two, 'customer', 200);
    expect(two.json.data.events).toEqual(expected.slice(0, 2));
    expect(two.json.data.events[0].data.preferredName).toBe('Third');

    const fifty = await service.call('GET', `/sandbox/customer/${customerId}/event?limit=50`);
    expect(fifty.json.data.events).toEqual(expected);
  });

  it("answers the account's events in the account endpoints' envelope; its transactions' events are their own", async () => {
    const expected = newestFirstOf(await feed(12), accountId);
    expect(expected.map((event) => event.type)).toEqual([
      'account.customer_added',
      'account.updated',
      'account.created',
    ]);
    const res = await service.call('GET', `/sandbox/account/${accountId}/event`);
    expectSuccess(res, 'account', 200);
    expect(res.json.data).toEqual({ events: expected });
  });

  it('an unknown or deleted record: its events, if any (a filter of the feed, not a read of the record)', async () => {
    const unknown = await service.call('GET', '/sandbox/customer/0196f1e2-0000-7000-8000-000000000000/event');
    expectSuccess(unknown, 'customer', 200);
    expect(unknown.json.data).toEqual({ events: [] });

    const { customerId: doomed } = await createCustomer(service);
    expect((await service.call('DELETE', `/sandbox/customer/${doomed}`)).status).toBeLessThan(300);
    const events = await feed(14);
    const res = await service.call('GET', `/sandbox/customer/${doomed}/event`);
    expect(res.json.data.events.map((event: Event) => event.type)).toEqual(['customer.deleted', 'customer.created']);
    expect(res.json.data.events).toEqual(newestFirstOf(events, doomed));
  });

  it('shows what the reader could read directly, exactly as the feed shows it to that reader', async () => {
    const feedAsReader = newestFirstOf(await feed(12, eventsOnly), customerId);
    const res = await service.call('GET', `/sandbox/customer/${customerId}/event`, as(eventsOnly));
    expectSuccess(res, 'customer', 200);
    expect(res.json.data.events).toEqual(feedAsReader);
    expect(res.json.data.events[0].data).toEqual({
      customerId,
      changedFields: ['preferredName'],
      requiredScope: 'customers:read',
    });
    expect(res.text).not.toContain('Recentsdottir');

    const account = await service.call('GET', `/sandbox/account/${accountId}/event`, as(eventsOnly));
    expectSuccess(account, 'account', 200);
    expect(account.json.data.events).toEqual(newestFirstOf(await feed(12, eventsOnly), accountId));
    expect(account.json.data.events.find((event: Event) => event.type === 'account.created').data).toMatchObject({
      accountId,
      requiredScope: 'accounts:read',
    });
  });

  it('an event not numbered yet is not shown; once numbered it is, with the number the feed gives it', async () => {
    const before = (await service.call('GET', `/sandbox/customer/${customerId}/event?limit=50`)).json.data
      .events as Event[];
    // An open transaction that has an id holds numbering back for every write that starts after it (docs/events.md).
    const blocker = await service.database.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT pg_current_xact_id()');
      expectSuccess(
        await service.call('PUT', `/sandbox/customer/${customerId}`, { body: { preferredName: 'Fourth' } }),
        'customer',
        200,
      );
      const { rows } = await service.database.pool.query(
        "SELECT count(*)::int AS n FROM events WHERE resource_id = $1 AND type = 'customer.updated'",
        [customerId],
      );
      expect(rows[0].n).toBe(4); // committed, in the outbox
      const meanwhile = await service.call('GET', `/sandbox/customer/${customerId}/event?limit=50`);
      expect(meanwhile.json.data.events).toEqual(before);
      const graph = await graphql(
        service,
        'query($id: ID!) { customer(customerId: $id) { recentEvents(first: 50) { eventId } } }',
        { id: customerId },
      );
      expect(graph.json.data.customer.recentEvents.map((event: Event) => event.eventId)).toEqual(
        before.map((event) => event.eventId),
      );
    } finally {
      await blocker.query('COMMIT');
      blocker.release();
    }
    const events = await feed(15);
    const after = (await service.call('GET', `/sandbox/customer/${customerId}/event?limit=50`)).json.data
      .events as Event[];
    expect(after).toEqual(newestFirstOf(events, customerId));
    expect(after[0]!.data.preferredName).toBe('Fourth');
    expect(after.slice(1)).toEqual(before);
  });

  it('bad input: VALIDATION_FAILED in the envelope of the record endpoints; without events:read, 403 FORBIDDEN', async () => {
    for (const query of ['limit=0', 'limit=51', 'limit=abc', 'limit=', 'after=3']) {
      const res = await service.call('GET', `/sandbox/customer/${customerId}/event?${query}`);
      expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
    }
    const limit = await service.call('GET', `/sandbox/account/${accountId}/event?limit=51`);
    expectFailure(limit, 'account', 400, 'VALIDATION_FAILED');
    expect(limit.json.error.details).toEqual([expect.objectContaining({ field: 'limit' })]);

    const malformed = await service.call('GET', '/sandbox/customer/not-a-uuid/event');
    expectFailure(malformed, 'customer', 400, 'VALIDATION_FAILED');
    expect(malformed.json.error.details).toEqual([
      expect.objectContaining({ field: 'customerId', code: 'INVALID_FORMAT' }),
    ]);
    expectFailure(await service.call('GET', '/sandbox/account/not-a-uuid/event'), 'account', 400, 'VALIDATION_FAILED');

    const refused = await service.call('GET', `/sandbox/customer/${customerId}/event`, as(customersOnly));
    expectFailure(refused, 'customer', 403, 'FORBIDDEN');
    expect(refused.headers.get('www-authenticate')).toContain('scope="events:read"');
    expectFailure(
      await service.call('GET', `/sandbox/account/${accountId}/event`, as(customersOnly)),
      'account',
      403,
      'FORBIDDEN',
    );
  });
});

const CUSTOMER_EVENTS = `query($id: ID!, $first: Int) {
  customer(customerId: $id) { lastName recentEvents(first: $first) { eventId type sequence occurredAt resourceType resourceId changedFields requiredScope customer { preferredName } } }
}`;
const ACCOUNT_EVENTS =
  'query($id: ID!, $first: Int) { account(accountId: $id) { name recentEvents(first: $first) { eventId type sequence resourceId accountId customerId } } }';

describe('GraphQL Customer.recentEvents and Account.recentEvents', () => {
  it('the same events and sequences as REST, newest first, 10 unless asked', async () => {
    const rest = (await service.call('GET', `/sandbox/customer/${customerId}/event`)).json.data.events as Event[];
    const res = await graphql(service, CUSTOMER_EVENTS, { id: customerId });
    expect(res.json.errors, res.text).toBeUndefined();
    const events = res.json.data.customer.recentEvents;
    expect(events.map((event: Event) => [event.eventId, event.type, event.sequence, event.resourceId])).toEqual(
      rest.map((event) => [event.eventId, event.type, event.sequence, event.resourceId]),
    );
    expect(events[0].customer.preferredName).toBe(rest[0]!.data.preferredName);

    const two = await graphql(service, CUSTOMER_EVENTS, { id: customerId, first: 2 });
    expect(two.json.data.customer.recentEvents.map((event: Event) => event.eventId)).toEqual(
      rest.slice(0, 2).map((event) => event.eventId),
    );

    const account = await graphql(service, ACCOUNT_EVENTS, { id: accountId });
    const restAccount = (await service.call('GET', `/sandbox/account/${accountId}/event`)).json.data.events as Event[];
    expect(account.json.data.account.recentEvents.map((event: Event) => [event.eventId, event.sequence])).toEqual(
      restAccount.map((event) => [event.eventId, event.sequence]),
    );
    expect(account.json.data.account.recentEvents[0]).toMatchObject({
      type: 'account.customer_added',
      accountId,
      customerId: otherCustomerId,
    });
  });

  it('the same visibility as `events`: a reader without customers:read sees no record (through `node`-free paths: the account)', async () => {
    const withAccounts = (
      await issueApiToken(service.database.pool, {
        environments: ['sandbox'],
        scopes: ['accounts:read', 'events:read'],
      })
    ).token;
    const res = await graphql(service, ACCOUNT_EVENTS, { id: accountId }, as(withAccounts));
    expect(res.json.errors, res.text).toBeUndefined();
    const viaEvents = await graphql(
      service,
      '{ events(first: 100) { events { eventId type sequence resourceId accountId customerId } } }',
      undefined,
      as(withAccounts),
    );
    const expected = (viaEvents.json.data.events.events as Event[])
      .filter((event) => event.resourceId === accountId)
      .reverse();
    expect(res.json.data.account.recentEvents).toEqual(expected);
  });

  it('without events:read: FORBIDDEN naming events:read, as for `events`; the rest of the record is answered', async () => {
    const res = await graphql(service, CUSTOMER_EVENTS, { id: customerId }, as(customersOnly));
    expect(errorCodes(res)).toEqual(['FORBIDDEN']);
    expect(res.json.errors[0].extensions.challenge).toEqual({ error: 'insufficient_scope', scope: 'events:read' });
    expect(res.json.errors[0].path).toEqual(['customer', 'recentEvents']);
    expect(res.json.data.customer).toEqual({ lastName: 'Recentsdottir', recentEvents: null });

    const feedRefusal = await graphql(service, '{ events(first: 1) { nextAfter } }', undefined, as(customersOnly));
    expect(feedRefusal.json.errors[0].extensions).toMatchObject({
      code: 'FORBIDDEN',
      challenge: res.json.errors[0].extensions.challenge,
    });

    const served = await graphql(service, CUSTOMER_EVENTS, { id: customerId, first: 1 }, as(customersAndEvents));
    expect(served.json.errors, served.text).toBeUndefined();
    expect(served.json.data.customer.recentEvents).toHaveLength(1);
  });

  it('first outside 1 to 50: VALIDATION_FAILED, nothing read', async () => {
    for (const first of [51, 100]) {
      const res = await graphql(service, ACCOUNT_EVENTS, { id: accountId, first });
      expect(errorCodes(res), res.text).toEqual(['VALIDATION_FAILED']);
      expect(res.json.errors[0].extensions.details).toEqual([
        expect.objectContaining({ field: 'first', code: 'OUT_OF_RANGE' }),
      ]);
      expect(res.json.data.account.recentEvents).toBeNull();
    }
    for (const first of [0, -1, 101]) {
      const res = await graphql(service, CUSTOMER_EVENTS, { id: customerId, first });
      expect(errorCodes(res), res.text).toEqual(['VALIDATION_FAILED']);
      expect(res.json.data ?? null).toBeNull();
    }
  });
});
