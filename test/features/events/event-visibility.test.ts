import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { buildCustomerInput } from '../../support/factories.js';
import { startTestService, type TestService } from '../../support/service.js';
import { connect, followers } from '../../support/subscription-client.js';
import { HUNG_TEST_DEADLINE_MS } from '../../support/eventually.js';

/**
 * An event shows what its reader could read directly (docs/adr/0002-events-respect-read-scopes.md): with
 * `events:read` alone, customer, account and transaction events carry ids and changed field names, never a
 * name, an address or an amount; with the record's read scope, the record itself. The same on the events
 * API, GraphQL and the subscription.
 */

let service: TestService;
let eventsOnly: string;
let eventsAndCustomers: string;
let customer: ReturnType<typeof buildCustomerInput>;
let customerId: string;
let accountId: string;
let transactionId: string;

beforeAll(async () => {
  service = await startTestService({ EVENT_SEQUENCER_INTERVAL_MS: '20' });
  eventsOnly = (await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['events:read'] }))
    .token;
  eventsAndCustomers = (
    await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['events:read', 'customers:read'] })
  ).token;

  customer = buildCustomerInput({ lastName: 'Withheldsson', emails: ['withheld.person@example.com'] });
  customerId = (await service.call('POST', '/sandbox/customer', { body: customer })).json.data.customerId;
  await service.call('PUT', `/sandbox/customer/${customerId}`, { body: { preferredName: 'Quietly' } });
  accountId = (
    await service.call('POST', '/sandbox/account', {
      body: { associatedCustomerIds: [customerId], name: 'Private savings', currency: 'USD', type: 'SAVINGS' },
    })
  ).json.data.accountId;
  transactionId = (
    await service.call('POST', `/sandbox/account/${accountId}/transaction`, {
      body: { type: 'CREDIT', amount: 4321.5, description: 'Inheritance' },
    })
  ).json.data.transactionId;
  await eventsNumbered(4);
});
afterAll(async () => service?.stop());

async function eventsNumbered(count: number): Promise<void> {
  for (const deadline = Date.now() + HUNG_TEST_DEADLINE_MS; Date.now() < deadline;) {
    const res = await service.call('GET', '/sandbox/event?after=0&limit=100');
    if (res.json.data.events.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${count} events were numbered`);
}

const readEvents = async (token: string) => {
  const res = await service.call('GET', '/sandbox/event?after=0&limit=100', {
    auth: false,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status, res.text).toBe(200);
  return res;
};

/** What a reader without customers:read or accounts:read must never see. */
function expectNoRecordValues(text: string): void {
  for (const value of [
    'Withheldsson',
    'withheld.person@example.com',
    'Quietly',
    customer.firstName,
    'Private savings',
    '4321.5',
    'Inheritance',
  ]) {
    expect(text, `"${value}" leaked`).not.toContain(value);
  }
}

describe('the events API', () => {
  it('with events:read alone: ids, changed field names and the scope that is lacking; no record values', async () => {
    const res = await readEvents(eventsOnly);
    expectNoRecordValues(res.text);
    const byType = Object.fromEntries(
      res.json.data.events.map((event: { type: string; data: unknown }) => [event.type, event.data]),
    );
    expect(byType['customer.created']).toEqual({
      customerId,
      changedFields: expect.arrayContaining(['firstName', 'lastName', 'emails']),
      requiredScope: 'customers:read',
    });
    expect(byType['customer.updated']).toEqual({
      customerId,
      changedFields: ['preferredName'],
      requiredScope: 'customers:read',
    });
    expect(byType['account.created']).toEqual({
      accountId,
      changedFields: expect.arrayContaining(['name', 'currency']),
      requiredScope: 'accounts:read',
    });
    expect(byType['transaction.posted']).toEqual({ transactionId, accountId, requiredScope: 'accounts:read' });

    const one = res.json.data.events.find((event: { type: string }) => event.type === 'customer.updated');
    const single = await service.call('GET', `/sandbox/event/${one.eventId}`, {
      auth: false,
      headers: { authorization: `Bearer ${eventsOnly}` },
    });
    expect(single.json.data.data).toEqual({
      customerId,
      changedFields: ['preferredName'],
      requiredScope: 'customers:read',
    });
  });

  it('with customers:read too: the customer events carry the customer; the account events stay withheld', async () => {
    const res = await readEvents(eventsAndCustomers);
    const byType = Object.fromEntries(
      res.json.data.events.map((event: { type: string; data: unknown }) => [event.type, event.data]),
    );
    expect(byType['customer.updated']).toMatchObject({
      customerId,
      lastName: 'Withheldsson',
      preferredName: 'Quietly',
    });
    expect(byType['customer.updated']).not.toHaveProperty('changedFields');
    expect(byType['account.created']).toMatchObject({ accountId, requiredScope: 'accounts:read' });
    expect(res.text).not.toContain('Private savings');
  });

  it('with every scope (the static token): every record, as before', async () => {
    const res = await readEvents(service.token);
    const byType = Object.fromEntries(
      res.json.data.events.map((event: { type: string; data: unknown }) => [event.type, event.data]),
    );
    expect(byType['account.created']).toMatchObject({ accountId, name: 'Private savings' });
    expect(byType['transaction.posted']).toMatchObject({ transactionId, description: 'Inheritance' });
    expect(res.text).not.toContain('requiredScope');
  });
});

describe('GraphQL', () => {
  it('the events query withholds the records the token may not read', async () => {
    const res = await service.call('POST', '/sandbox/graphql', {
      auth: false,
      headers: { authorization: `Bearer ${eventsOnly}` },
      body: {
        query:
          '{ events(first: 100) { events { type customerId accountId changedFields requiredScope customer { lastName } account { name } transaction { amount } } } }',
      },
    });
    expect(res.json.errors, res.text).toBeUndefined();
    expectNoRecordValues(res.text);
    const byType = Object.fromEntries(
      res.json.data.events.events.map((event: { type: string }) => [event.type, event]),
    );
    expect(byType['customer.updated']).toEqual({
      type: 'customer.updated',
      customerId,
      accountId: null,
      changedFields: ['preferredName'],
      requiredScope: 'customers:read',
      customer: null,
      account: null,
      transaction: null,
    });
    expect(byType['transaction.posted']).toMatchObject({
      accountId,
      requiredScope: 'accounts:read',
      transaction: null,
    });
  });

  it('the events subscription withholds them too', async () => {
    const client = connect(
      { url: service.url, token: eventsOnly },
      { connectionParams: { authorization: `Bearer ${eventsOnly}` } },
    );
    const subscription = client.subscribe(
      'subscription { events { type customerId changedFields requiredScope customer { lastName } } }',
    );
    await followers(service, 1);
    await service.call('PUT', `/sandbox/customer/${customerId}`, {
      body: { emails: ['withheld.person@example.com', 'second@example.com'] },
    });
    const [next] = await subscription.take(1);
    expect(next.data.events).toEqual({
      type: 'customer.updated',
      customerId,
      changedFields: ['emails'],
      requiredScope: 'customers:read',
      customer: null,
    });
    expect(client.messages.join('\n')).not.toContain('Withheldsson');
    subscription.unsubscribe();
    await client.dispose();
  });
});
