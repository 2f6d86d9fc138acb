import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createCustomer, expectSuccess } from '../rest/helpers.js';
import { issueApiToken } from '../support/api-tokens.js';
import { UNNUMBERED } from '../support/events.js';
import { startTestService, type TestService } from '../support/service.js';
import { errorCodes, graphql } from './helpers.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/**
 * No N+1 for `Customer.recentEvents` / `Account.recentEvents` (docs/adr/0073-a-records-recent-events.md): under a
 * list, every record's events are read in one statement per record type and `first` (the loaders of
 * src/graphql/loaders.ts, the domain's `events.recentOfMany`), whatever the number of records. Each record still
 * gets exactly what REST's `GET …/{id}/event?limit=` answers for it. Statements are counted by the pg pool's own
 * instrumentation, reset just before the request.
 */
let service: TestService;
let customersOnly: string;
/** Oldest first, as `customers` lists them. */
const customerIds: string[] = [];
const accountIds: string[] = [];
const CUSTOMERS = 24;

const BATCH = 'cas_event_recent_of_many';
const SINGLE = 'cas_event_recent';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Event = { eventId: string; type: string; sequence: number; resourceId: string; [field: string]: any };
const summary = (event: Event) => [event.eventId, event.type, event.sequence, event.resourceId];

beforeAll(async () => {
  // The queries below are deliberately wide; the cost limit is not what this file tests.
  service = await startTestService({ EVENT_SEQUENCER_INTERVAL_MS: '20', GRAPHQL_MAX_COST: '1000000' });
  customersOnly = (
    await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read'],
    })
  ).token;
  for (let i = 0; i < CUSTOMERS; i++)
    customerIds.push((await createCustomer(service, { lastName: `Batch${i}` })).customerId);
  // Customer i has 1 + i % 5 events (its creation and i % 5 updates): some fewer than `first`, some more.
  await Promise.all(
    customerIds.map(async (customerId, i) => {
      for (let update = 0; update < i % 5; update++) {
        expectSuccess(
          await service.call('PUT', `/sandbox/customer/${customerId}`, { body: { preferredName: `P${i}-${update}` } }),
          'customer',
          200,
        );
      }
    }),
  );
  // The first 6 customers hold an account each, some of them frozen (account.updated).
  for (let i = 0; i < 6; i++) accountIds.push((await createAccount(service, [customerIds[i]!])).accountId);
  for (const accountId of accountIds.slice(0, 3))
    expectSuccess(await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`), 'account', 200);
  // Every event numbered (the sequencer runs every 20 ms), so REST and GraphQL read the same ones.
  for (const deadline = Date.now() + HUNG_TEST_DEADLINE_MS; ;) {
    const { rows } = await service.database.pool.query<{ n: number }>(UNNUMBERED);
    if (rows[0]!.n === 0) break;
    if (Date.now() > deadline) throw new Error('events still unnumbered');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}, 120_000);
afterAll(async () => service?.stop());

async function restEvents(family: 'customer' | 'account', id: string, limit: number): Promise<Event[]> {
  const res = await service.call('GET', `/sandbox/${family}/${id}/event?limit=${limit}`);
  expectSuccess(res, family, 200);
  return res.json.data.events;
}

/** The request's statements (names of the prepared ones) and its answer. */
async function measured(query: string, variables?: Record<string, unknown>, options?: Parameters<typeof graphql>[3]) {
  service.statements.count = 0;
  service.statements.names.length = 0;
  const result = await graphql(service, query, variables, options);
  return { result, count: service.statements.count, names: [...service.statements.names] };
}

const CUSTOMER_EVENTS = `query($n: Int, $k: Int) {
  customers(first: $n) { nodes { customerId recentEvents(first: $k) { eventId type sequence resourceId customer { lastName } } } }
}`;

describe('recentEvents under a list: one statement per record type and first', () => {
  it('8 or 24 customers: the same statements, one of them the batched events read; each customer exactly its own events, newest first, cut at first', async () => {
    const small = await measured(CUSTOMER_EVENTS, { n: 8, k: 3 });
    const large = await measured(CUSTOMER_EVENTS, { n: CUSTOMERS, k: 3 });
    for (const { result } of [small, large]) expect(result.json.errors, result.text).toBeUndefined();
    expect(large.result.json.data.customers.nodes).toHaveLength(CUSTOMERS);
    expect(large.count).toBe(small.count);
    expect(large.names.filter((name) => name === BATCH)).toHaveLength(1);
    expect(large.names).not.toContain(SINGLE);

    const nodes = large.result.json.data.customers.nodes as { customerId: string; recentEvents: Event[] }[];
    expect(nodes.map((node) => node.customerId)).toEqual(customerIds);
    for (const [i, node] of nodes.entries()) {
      const expected = await restEvents('customer', node.customerId, 3);
      expect(expected).toHaveLength(Math.min(3, 1 + (i % 5)));
      expect(node.recentEvents.map(summary)).toEqual(expected.map(summary));
      expect(node.recentEvents.every((event) => event.resourceId === node.customerId)).toBe(true);
      const sequences = node.recentEvents.map((event) => event.sequence);
      expect(sequences).toEqual([...sequences].sort((a, b) => b - a));
      expect(node.recentEvents.at(-1)!.customer.lastName).toBe(`Batch${i}`);
    }
  });

  it('two values of first: one statement each, each answer as asked (the default 10 when first is null)', async () => {
    const query = `query($n: Int) { customers(first: $n) { nodes { customerId
      newest: recentEvents(first: 1) { eventId }
      all: recentEvents(first: null) { eventId }
      again: recentEvents(first: 1) { eventId }
    } } }`;
    const { result, names } = await measured(query, { n: CUSTOMERS });
    expect(result.json.errors, result.text).toBeUndefined();
    expect(names.filter((name) => name === BATCH)).toHaveLength(2);
    for (const [i, node] of (
      result.json.data.customers.nodes as { customerId: string; newest: Event[]; all: Event[]; again: Event[] }[]
    ).entries()) {
      const expected = (await restEvents('customer', node.customerId, 10)).map((event) => event.eventId);
      expect(node.all.map((event) => event.eventId)).toEqual(expected);
      expect(node.all).toHaveLength(1 + (i % 5));
      expect(node.newest.map((event) => event.eventId)).toEqual(expected.slice(0, 1));
      expect(node.again).toEqual(node.newest);
    }
  });

  it("customers and their accounts: one statement per record type; an account's events are its own", async () => {
    const query = `query { customers(first: ${CUSTOMERS}) { nodes { customerId recentEvents(first: 2) { eventId }
      accounts { accountId recentEvents(first: 5) { eventId type sequence resourceId } } } } }`;
    const { result, names } = await measured(query);
    expect(result.json.errors, result.text).toBeUndefined();
    expect(names.filter((name) => name === BATCH)).toHaveLength(2);
    const accounts = (
      result.json.data.customers.nodes as { accounts: { accountId: string; recentEvents: Event[] }[] }[]
    ).flatMap((node) => node.accounts);
    expect(accounts.map((account) => account.accountId)).toEqual(accountIds);
    for (const [i, account] of accounts.entries()) {
      const expected = await restEvents('account', account.accountId, 5);
      expect(expected.map((event) => event.type)).toEqual(
        i < 3 ? ['account.updated', 'account.created'] : ['account.created'],
      );
      expect(account.recentEvents.map(summary)).toEqual(expected.map(summary));
    }
  });

  it('a token without events:read: every recentEvents null with FORBIDDEN, the customers answered, no events read', async () => {
    const { result, names } = await measured(
      CUSTOMER_EVENTS,
      { n: CUSTOMERS, k: 3 },
      { auth: false, headers: { authorization: `Bearer ${customersOnly}` } },
    );
    expect(result.status).toBe(200);
    expect(errorCodes(result)).toEqual(Array.from({ length: CUSTOMERS }, () => 'FORBIDDEN'));
    expect(result.json.errors.map((error: { path: unknown[] }) => error.path)).toEqual(
      customerIds.map((_, i) => ['customers', 'nodes', i, 'recentEvents']),
    );
    expect(result.json.errors[0].extensions.challenge).toEqual({ error: 'insufficient_scope', scope: 'events:read' });
    expect(result.json.data.customers.nodes).toEqual(
      customerIds.map((customerId) => ({ customerId, recentEvents: null })),
    );
    expect(names).not.toContain(BATCH);
    expect(names).not.toContain(SINGLE);
  });
});
