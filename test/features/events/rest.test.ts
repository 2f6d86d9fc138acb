import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { SENSITIVE_VALUES } from '../../support/factories.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { eventually } from '../../support/eventually.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ EVENT_SEQUENCER_INTERVAL_MS: '20' });
});
afterAll(async () => service?.stop());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Event = { eventId: string; type: string; sequence: number; resourceId: string; data: any };

/**
 * The sequencer numbers only the events of transactions older than every transaction still running in the
 * PostgreSQL cluster (the snapshot's xmin), and the other test files' databases share the cluster: one pass run
 * on demand numbers what it may, so these read after a pass, and run another until the events are there (the
 * deadline only stops a hung test).
 */
async function afterSequencerPasses(path: string, accept: (events: Event[]) => boolean): Promise<Event[]> {
  const res = await eventually(
    async () => {
      await service.jobs.eventOutbox.runOnce();
      return service.call('GET', path);
    },
    (answer) => answer.status === 200 && accept(answer.json.data.events as Event[]),
  );
  expectSuccess(res, 'customer', 200);
  return res.json.data.events;
}

/** Every event after `after`, once at least `atLeast` of them are numbered. */
async function eventsAfter(after: number, atLeast: number, environment = 'sandbox'): Promise<Event[]> {
  const events = await afterSequencerPasses(
    `/${environment}/event?after=${after}&limit=100`,
    (read) => read.length >= atLeast,
  );
  expect(events.length).toBeGreaterThanOrEqual(atLeast);
  return events;
}

/** Resolves once the sequencer has numbered the event of `type` about `resourceId` (this file's database holds few). */
async function numbered(type: string, resourceId: string): Promise<void> {
  const events = await afterSequencerPasses(`/sandbox/event?types=${type}&limit=100`, (read) =>
    read.some((event) => event.resourceId === resourceId),
  );
  expect(events.some((event) => event.resourceId === resourceId)).toBe(true);
}

async function lastSequence(): Promise<number> {
  const { rows } = await service.database.pool.query<{ last: string | null }>(
    "SELECT max(last_sequence)::text AS last FROM event_rounds WHERE environment = 'sandbox'",
  );
  return Number(rows[0]!.last ?? 0);
}

describe('the outbox and GET /{environment}/event', () => {
  it('appends one event per committed write, in order, with the resource as its endpoint presents it', async () => {
    await eventsAfter(0, 0);
    const start = await lastSequence();
    const { customerId } = await createCustomer(service);
    const account = await createAccount(service, [customerId]);
    const deposit = await service.call('POST', `/sandbox/account/${account.accountId}/transaction`, {
      body: { type: 'CREDIT', amount: 10 },
    });
    await service.call('PUT', `/sandbox/account/${account.accountId}/flags/FROZEN`);
    await service.call('PUT', `/sandbox/customer/${customerId}`, { body: { preferredName: 'Evented' } });

    const events = await eventsAfter(start, 5);
    expect(events.map((event) => event.type)).toEqual([
      'customer.created',
      'account.created',
      'transaction.posted',
      'account.updated',
      'customer.updated',
    ]);
    expect(events.map((event) => event.sequence)).toEqual([start + 1, start + 2, start + 3, start + 4, start + 5]);
    const customer = await service.call('GET', `/sandbox/customer/${customerId}`);
    expect(events[4]!.data).toEqual(customer.json.data);
    expect(events[1]!.data).toEqual({ ...account, transactions: [] });
    expect(events[2]!.data).toEqual(deposit.json.data);
    expect(events[3]!.data.flags).toEqual(['FROZEN']);
    const one = await service.call('GET', `/sandbox/event/${events[2]!.eventId}`);
    expectSuccess(one, 'customer', 200);
    expect(one.json.data).toEqual(events[2]);
  });

  it('a refused write appends nothing; a transfer appends one event per account', async () => {
    const { customerId } = await createCustomer(service);
    const from = await createAccount(service, [customerId]);
    const to = await createAccount(service, [customerId]);
    await numbered('account.created', to.accountId); // and so every write before it: `start` must be past them all
    const start = await lastSequence();
    const refused = await service.call('POST', '/sandbox/transfer', {
      body: { fromAccountId: from.accountId, toAccountId: to.accountId, amount: 5 },
    });
    expectFailure(refused, 'account', 409, 'INSUFFICIENT_FUNDS');
    await service.call('POST', `/sandbox/account/${from.accountId}/transaction`, {
      body: { type: 'CREDIT', amount: 5 },
    });
    await service.call('POST', '/sandbox/transfer', {
      body: { fromAccountId: from.accountId, toAccountId: to.accountId, amount: 5 },
    });
    const events = await eventsAfter(start, 3);
    expect(events.map((event) => [event.type, event.data.accountId, event.data.type])).toEqual([
      ['transaction.posted', from.accountId, 'CREDIT'],
      ...[
        ['transaction.posted', from.accountId, 'DEBIT'],
        ['transaction.posted', to.accountId, 'CREDIT'],
      ].sort((a, b) => (events[1]!.data.accountId === a[1] ? -1 : events[1]!.data.accountId === b[1] ? 1 : 0)),
    ]);
    expect(events[1]!.data.transferId).toBe(events[2]!.data.transferId);
  });

  it('filters by type and pages by sequence; never carries an SSN or document locator number', async () => {
    let last = '';
    for (let i = 0; i < 3; i++) last = (await createCustomer(service)).customerId;
    await numbered('customer.created', last);
    const all = await eventsAfter(0, 1);
    const created = await service.call('GET', '/sandbox/event?types=customer.created&limit=2');
    expect(created.json.data.events.every((event: Event) => event.type === 'customer.created')).toBe(true);
    const next = await service.call(
      'GET',
      `/sandbox/event?types=customer.created&limit=2&after=${created.json.data.nextAfter}`,
    );
    expect(next.json.data.events[0].sequence).toBeGreaterThan(created.json.data.nextAfter);
    const text =
      JSON.stringify(all) + JSON.stringify((await service.database.pool.query('SELECT payload FROM events')).rows);
    for (const secret of SENSITIVE_VALUES) expect(text).not.toContain(secret);
    expectFailure(
      await service.call('GET', '/sandbox/event?types=customer.exploded'),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await service.call('GET', '/sandbox/event/0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e'),
      'customer',
      404,
      'EVENT_NOT_FOUND',
    );
  });

  it('sequences are per environment and gapless under concurrent writes', async () => {
    await Promise.all(Array.from({ length: 30 }, () => createCustomer(service, {}, 'production-like')));
    const events = await eventsAfter(0, 30, 'production-like');
    const sequences = events.map((event) => event.sequence);
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
  });

  it('needs events:read', async () => {
    const { token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read'],
    });
    const res = await service.call('GET', '/sandbox/event', {
      auth: false,
      headers: { authorization: `Bearer ${token}` },
    });
    expectFailure(res, 'customer', 403, 'FORBIDDEN');
  });
});

describe('GraphQL events and event(eventId)', () => {
  it('answers the same events as REST, with the record each carries', async () => {
    const rest = await eventsAfter(0, 1);
    const result = await graphql(
      service,
      `
        query ($after: SafeInt) {
          events(after: $after, first: 100) {
            nextAfter
            events {
              eventId
              type
              sequence
              resourceId
              customer {
                customerId
                preferredName
              }
              transaction {
                transactionId
                amount
              }
            }
          }
        }
      `,
      { after: 0 },
    );
    expect(result.json.errors).toBeUndefined();
    const events = result.json.data.events.events;
    expect(events.slice(0, rest.length).map((event: Event) => [event.eventId, event.sequence])).toEqual(
      rest.map((event) => [event.eventId, event.sequence]),
    );
    const created = events.find((event: { type: string }) => event.type === 'customer.created');
    expect(created.customer.customerId).toBe(created.resourceId);
    const one = await graphql(service, 'query ($id: ID!) { event(eventId: $id) { eventId type } }', {
      id: created.eventId,
    });
    expect(one.json.data.event).toEqual({ eventId: created.eventId, type: 'customer.created' });
    const none = await graphql(service, 'query { event(eventId: "0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e") { eventId } }');
    expect(none.json.data.event).toBeNull();
    const invalid = await graphql(service, 'query { events(types: ["customer.exploded"]) { nextAfter } }');
    expect(errorCodes(invalid)).toEqual(['VALIDATION_FAILED']);
  });
});
