import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createAccount, createCustomer, expectSuccess } from '../../rest/helpers.js';
import { graphql } from '../../graphql/helpers.js';
import { eventually } from '../../support/eventually.js';
import { connect, followers, rawInit, refusedUpgrade, type TestClient } from '../../support/subscription-client.js';

const ACCOUNT_SELECTION =
  'accountId name currency amount flags overdraftLimit customerIds balance { posted pending available } customers { customerId preferredName } transactions { nodes { transactionId amount } }';
const TRANSACTION_SELECTION =
  'transactionId accountId type amount authorizedAmount currency description status balanceAfter transferId reversesTransactionId account { accountId amount }';
const CUSTOMER_SELECTION =
  'customerId preferredName firstName middleName lastName dateOfBirth emails phoneNumbers { type number } addresses { type street city state zip } accountIds';

let service: TestService;
const clients: TestClient[] = [];
const open = (options: Parameters<typeof connect>[1] = {}, who: { url: string; token?: string } = service) => {
  const client = connect(who, options);
  clients.push(client);
  return client;
};

beforeAll(async () => {
  service = await startTestService({
    EVENT_SEQUENCER_INTERVAL_MS: '20',
    GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS: '1000',
  });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
  await followers(service, 0);
});
afterAll(async () => service?.stop());

async function newAccount(environment = 'sandbox'): Promise<{ accountId: string; customerId: string }> {
  const { customerId } = await createCustomer(service, {}, environment);
  const account = await createAccount(service, [customerId], environment);
  return { accountId: account.accountId, customerId };
}

describe('GraphQL subscriptions: connection and authentication', () => {
  it('acknowledges a connection whose connection_init payload carries a valid bearer token, as authorization or Authorization', async () => {
    expect(await rawInit(service, { authorization: `Bearer ${service.token}` })).toBe('acknowledged');
    expect(await rawInit(service, { Authorization: `Bearer ${service.token}` })).toBe('acknowledged');
  });

  it('refuses a connection without a valid token with 4401, naming the code', async () => {
    const missing = await rawInit(service, undefined);
    expect(missing).toEqual({
      code: 4401,
      reason: 'UNAUTHENTICATED: Send {"authorization": "Bearer <token>"} as the connection_init payload.',
    });
    expect(await rawInit(service, { authorization: 'Bearer not-a-token-of-this-service' })).toEqual({
      code: 4401,
      reason: 'UNAUTHENTICATED: The bearer token is not valid.',
    });
    expect(await rawInit(service, { authorization: service.token })).toEqual({
      code: 4401,
      reason: 'UNAUTHENTICATED: The Authorization header must be: Bearer <token>.',
    });
    expect(await rawInit(service, { authorization: 42 })).toMatchObject({ code: 4401 });
    expect(
      await rawInit(service, { authorization: `Bearer ${service.token}`, Authorization: `Bearer ${service.token}` }),
    ).toMatchObject({ code: 4401 });
    // A token in the upgrade request's header is not looked at: the protocol carries it in connection_init.
    expect(service.logLines.join('\n')).not.toContain(service.token);
  });

  it('refuses with 4403 a token of another environment, or one that may read neither accounts nor events', async () => {
    const elsewhere = await issueApiToken(service.database.pool, {
      environments: ['production-like'],
      scopes: ['accounts:read', 'events:read'],
    });
    expect(await rawInit(service, { authorization: `Bearer ${elsewhere.token}` })).toEqual({
      code: 4403,
      reason: 'FORBIDDEN: The token may not act in this environment.',
    });
    const customersOnly = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'webhooks:read'],
    });
    expect(await rawInit(service, { authorization: `Bearer ${customersOnly.token}` })).toEqual({
      code: 4403,
      reason: 'FORBIDDEN: The token may not subscribe: it holds neither accounts:read nor events:read.',
    });
  });

  it('answers an unknown environment as a known one until a token valid everywhere names it (4404); refuses an unknown path with 404, and a client offering no subprotocol with 4406', async () => {
    const staging = { url: service.url.replace(/\/$/, '') };
    const bound = await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['events:read'] });
    expect(await rawInit(staging, {}, { environment: 'staging' })).toMatchObject({ code: 4401 });
    expect(
      await rawInit(staging, { authorization: `Bearer ${bound.token}` }, { environment: 'staging' }),
    ).toMatchObject({ code: 4403 });
    expect(await rawInit(staging, { authorization: `Bearer ${service.token}` }, { environment: 'staging' })).toEqual({
      code: 4404,
      reason: 'ENVIRONMENT_NOT_FOUND: Unknown environment: the first path segment is not a configured environment.',
    });
    expect((await refusedUpgrade(`${service.url.replace(/^http/, 'ws')}/sandbox/customer`)).status).toBe(404);
    expect(await rawInit(service, { authorization: `Bearer ${service.token}` }, { protocol: null })).toMatchObject({
      code: 4406,
    });
  });

  it('closes the connection with 4401 once its managed token is revoked (checked again at each subscribe)', async () => {
    const { id, token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['events:read'],
    });
    const client = open({ connectionParams: { authorization: `Bearer ${token}` } });
    const first = client.subscribe('subscription { events { eventId } }');
    await followers(service, 1);
    await service.database.pool.query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [id]);
    // The next subscribe authenticates again, once the change notification has dropped the cached token.
    await eventually(
      () => graphql(service, '{ __typename }', undefined, { headers: { authorization: `Bearer ${token}` } }),
      (answer) => answer.status === 401,
    );
    const second = client.subscribe('subscription { events { eventId } }');
    await Promise.all([first.done, second.done]);
    expect(client.closes).toEqual([{ code: 4401, reason: 'UNAUTHENTICATED: The bearer token has been revoked.' }]);
  });
});

describe('GraphQL subscriptions: what they deliver', () => {
  it('accountUpdated: the account after a REST update, as the account query presents it; ends when the account is deleted', async () => {
    const { accountId } = await newAccount();
    const client = open();
    const updates = client.subscribe(
      `subscription Updates($id: ID!) { accountUpdated(accountId: $id) { ${ACCOUNT_SELECTION} } }`,
      { id: accountId },
    );
    await followers(service, 1);
    expectSuccess(
      await service.call('PUT', `/sandbox/account/${accountId}`, { body: { name: 'Household', currency: 'USD' } }),
      'account',
      200,
    );
    const [first] = await updates.take(1);
    const query = await graphql(service, `query ($id: ID!) { account(accountId: $id) { ${ACCOUNT_SELECTION} } }`, {
      id: accountId,
    });
    expect(first).toEqual({ data: { accountUpdated: query.json.data.account } });
    expect(first.data.accountUpdated.name).toBe('Household');

    expectSuccess(await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`), 'account', 200);
    const [, second] = await updates.take(2);
    expect(second.data.accountUpdated.flags).toEqual(['FROZEN']);
    expectSuccess(await service.call('DELETE', `/sandbox/account/${accountId}/flags/FROZEN`), 'account', 200);
    await updates.take(3);

    expectSuccess(await service.call('DELETE', `/sandbox/account/${accountId}`), 'account', 200);
    await updates.done;
    expect(updates.failure).toBeUndefined();
    expect(updates.results).toHaveLength(3);
  });

  it('transactionPosted: deposits and a transfer via REST reach the subscribers of each account; a pending hold only once it posts', async () => {
    const a = await newAccount();
    const b = await newAccount();
    const client = open();
    const onA = client.subscribe(
      `subscription ($id: ID!) { transactionPosted(accountId: $id) { ${TRANSACTION_SELECTION} } }`,
      { id: a.accountId },
    );
    const onB = client.subscribe(
      `subscription ($id: ID!) { transactionPosted(accountId: $id) { ${TRANSACTION_SELECTION} } }`,
      { id: b.accountId },
    );
    await followers(service, 2);

    const deposit = await service.call('POST', `/sandbox/account/${a.accountId}/transaction`, {
      body: { type: 'CREDIT', amount: 100, description: 'Payroll' },
    });
    expectSuccess(deposit, 'account', 201);
    const hold = await service.call('POST', `/sandbox/account/${a.accountId}/transaction`, {
      body: { type: 'DEBIT', amount: 30, hold: true },
    });
    expectSuccess(hold, 'account', 201);
    const transfer = await service.call('POST', '/sandbox/transfer', {
      body: { fromAccountId: a.accountId, toAccountId: b.accountId, amount: 20 },
    });
    expectSuccess(transfer, 'account', 201);
    expectSuccess(
      await service.call('POST', `/sandbox/account/${a.accountId}/transaction/${hold.json.data.transactionId}/post`, {
        body: { amount: 25 },
      }),
      'account',
      200,
    );

    const onAResults = (await onA.take(3)).map((result) => result.data.transactionPosted);
    expect(onAResults.map((transaction) => [transaction.type, transaction.amount, transaction.status])).toEqual([
      ['CREDIT', '100', 'POSTED'],
      ['DEBIT', '20', 'POSTED'],
      ['DEBIT', '25', 'POSTED'],
    ]);
    expect(onAResults[0].transactionId).toBe(deposit.json.data.transactionId);
    expect(onAResults[2].transactionId).toBe(hold.json.data.transactionId);
    const [credit] = await onB.take(1);
    expect(credit.data.transactionPosted).toMatchObject({
      type: 'CREDIT',
      amount: '20',
      accountId: b.accountId,
      transferId: onAResults[1].transferId,
    });

    // Presented as the transaction query presents it (the nested account is read as it is now).
    const query = await graphql(
      service,
      `query ($a: ID!, $t: ID!) { transaction(accountId: $a, transactionId: $t) { ${TRANSACTION_SELECTION} } }`,
      { a: b.accountId, t: credit.data.transactionPosted.transactionId },
    );
    expect(credit.data.transactionPosted).toEqual(query.json.data.transaction);
    expect(onA.results).toHaveLength(3);
  });

  it('events(types): in sequence order, filtered by type, presented as the events query presents them, with no SSN or DLN anywhere', async () => {
    const client = open();
    const selection = `eventId type sequence resourceId customer { ${CUSTOMER_SELECTION} } customerId`;
    const created = client.subscribe(`subscription { events(types: ["customer.created"]) { ${selection} } }`);
    const all = client.subscribe(`subscription { events { ${selection} } }`);
    await followers(service, 2);
    const { customerId } = await createCustomer(service);
    expectSuccess(
      await service.call('PUT', `/sandbox/customer/${customerId}`, { body: { preferredName: 'Lex' } }),
      'customer',
      200,
    );
    expectSuccess(await service.call('DELETE', `/sandbox/customer/${customerId}`), 'customer', 200);

    const every = (await all.take(3)).map((result) => result.data.events);
    expect(every.map((event) => event.type)).toEqual(['customer.created', 'customer.updated', 'customer.deleted']);
    expect(every.map((event) => event.sequence)).toEqual([
      every[0].sequence,
      every[0].sequence + 1,
      every[0].sequence + 2,
    ]);
    const [onlyCreated] = await created.take(1);
    expect(onlyCreated.data.events).toEqual(every[0]);
    const page = await graphql(
      service,
      `query ($after: SafeInt) { events(after: $after) { events { ${selection} } } }`,
      { after: every[0].sequence - 1 },
    );
    expect(page.json.data.events.events.slice(0, 3)).toEqual(every);
    expect(every[1].customer.preferredName).toBe('Lex');
    expect(every[2]).toMatchObject({ customer: null, customerId });

    // One more event of another type, then the filtered subscription still has only the creation.
    await createCustomer(service);
    await all.take(4);
    expect(created.results).toHaveLength(2);
    expect(created.results[1].data.events.type).toBe('customer.created');
    // Every message was checked for the SSNs and DLNs this test process handed out (subscription-client.ts).
    expect(client.messages.length).toBeGreaterThanOrEqual(6);
  });

  it('keeps environments apart: a subscriber of production-like sees nothing of sandbox; an account of another environment does not exist', async () => {
    const sandboxClient = open();
    const otherClient = open({ environment: 'production-like' });
    const sandboxEvents = sandboxClient.subscribe('subscription { events { type resourceId } }');
    const otherEvents = otherClient.subscribe('subscription { events { type resourceId } }');
    await followers(service, 2);
    const inSandbox = await createCustomer(service);
    await sandboxEvents.take(1);
    const elsewhere = await createCustomer(service, {}, 'production-like');
    const [first] = await otherEvents.take(1);
    expect(first.data.events.resourceId).toBe(elsewhere.customerId);
    expect(otherEvents.results).toHaveLength(1);
    expect(sandboxEvents.results.map((result) => result.data.events.resourceId)).toEqual([inSandbox.customerId]);

    const { accountId } = await newAccount();
    for (const id of [accountId, '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e', 'not-an-id']) {
      const refused = otherClient.subscribe(
        'subscription ($id: ID!) { accountUpdated(accountId: $id) { accountId } }',
        { id },
      );
      await refused.done;
      // Refused before the stream exists: graphql-js answers errors without `data`.
      expect(refused.results).toEqual([
        {
          errors: [
            expect.objectContaining({
              message: 'No account with this id exists in this environment.',
              path: ['accountUpdated'],
              extensions: expect.objectContaining({ code: 'ACCOUNT_NOT_FOUND' }),
            }),
          ],
        },
      ]);
    }
  });
});

describe('GraphQL subscriptions: scopes, limits and refusals', () => {
  it('needs the scope the equivalent query needs: accounts:read for the account subscriptions, events:read for events', async () => {
    const { accountId } = await newAccount();
    const accountsOnly = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['accounts:read'],
    });
    const eventsOnly = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['events:read'],
    });
    const withAccounts = open({ connectionParams: { authorization: `Bearer ${accountsOnly.token}` } });
    const withEvents = open({ connectionParams: { authorization: `Bearer ${eventsOnly.token}` } });

    const events = withAccounts.subscribe('subscription { events { eventId } }');
    await events.done;
    expect(events.results[0].errors[0]).toMatchObject({
      message: expect.any(String),
      extensions: { code: 'FORBIDDEN', challenge: { error: 'insufficient_scope', scope: 'events:read' } },
    });
    const account = withEvents.subscribe(
      'subscription ($id: ID!) { transactionPosted(accountId: $id) { transactionId } }',
      { id: accountId },
    );
    await account.done;
    expect(account.results[0].errors[0].extensions).toMatchObject({
      code: 'FORBIDDEN',
      challenge: { scope: 'accounts:read' },
    });

    const allowed = withAccounts.subscribe('subscription ($id: ID!) { accountUpdated(accountId: $id) { name } }', {
      id: accountId,
    });
    await followers(service, 1);
    expectSuccess(
      await service.call('PUT', `/sandbox/account/${accountId}`, { body: { name: 'Scoped', currency: 'USD' } }),
      'account',
      200,
    );
    expect((await allowed.take(1))[0]).toEqual({ data: { accountUpdated: { name: 'Scoped' } } });
  });

  it('applies the HTTP limits and error codes to subscription documents, before anything runs', async () => {
    const client = open();
    const refusal = async (query: string, variables?: Record<string, unknown>) => {
      const subscription = client.subscribe(query, variables);
      await subscription.done;
      expect(subscription.results).toEqual([]);
      return (subscription.failure as { extensions: { code: string }; message: string }[]).map((error) => ({
        code: error.extensions.code,
        message: error.message,
      }));
    };
    const deep = `subscription { events { customer { ${'accounts { customers { '.repeat(5)}customerId${' } }'.repeat(5)} } } }`;
    expect(await refusal(deep)).toEqual([
      { code: 'QUERY_TOO_DEEP', message: expect.stringContaining('GRAPHQL_MAX_DEPTH') },
    ]);
    const costly =
      'subscription { events { customer { accounts { transactions(first: 100) { nodes { account { customers { accounts { accountId } } } } } } } } }';
    expect(await refusal(costly)).toEqual([
      { code: 'QUERY_TOO_COMPLEX', message: expect.stringContaining('GRAPHQL_MAX_COST') },
    ]);
    expect(await refusal('{ customers { nodes { customerId } } }')).toEqual([
      { code: 'GRAPHQL_VALIDATION_FAILED', message: expect.stringContaining('subscriptions only') },
    ]);
    expect(await refusal('subscription { events { nope } }')).toEqual([
      {
        code: 'GRAPHQL_VALIDATION_FAILED',
        message: 'Cannot query field "nope" on type "Event". Did you mean "role" or "type"?',
      },
    ]);
    expect(await refusal('subscription { events { eventId } accountUpdated(accountId: "x") { name } }')).toEqual([
      { code: 'GRAPHQL_VALIDATION_FAILED', message: 'Anonymous Subscription must select only one top level field.' },
    ]);
    expect(await refusal('subscription { events { eventId }')).toEqual([
      { code: 'GRAPHQL_PARSE_FAILED', message: expect.stringMatching(/^Syntax Error/) },
    ]);
    expect(await refusal(`subscription { ${'__typename '.repeat(2500)}}`)).toEqual([
      { code: 'DOCUMENT_TOO_LARGE', message: expect.stringContaining('GRAPHQL_MAX_TOKENS') },
    ]);
    const badVariable = await refusal('subscription ($id: ID!) { accountUpdated(accountId: $id) { name } }', {
      id: { ssn: '123-45-6789' },
    });
    expect(badVariable).toEqual([
      { code: 'BAD_USER_INPUT', message: expect.stringMatching(/^Variable "\$id" has an invalid value/) },
    ]);
    expect(JSON.stringify(badVariable)).not.toContain('123-45-6789');

    // Over HTTP, a subscription is refused at validation, pointing to the WebSocket.
    const http = await graphql(service, 'subscription { events { eventId } }');
    expect(http.status).toBe(400);
    expect(http.json.errors[0]).toMatchObject({
      message: expect.stringContaining('WebSocket'),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('answers VALIDATION_FAILED for an unknown event type, as the events query does', async () => {
    const client = open();
    const subscription = client.subscribe('subscription { events(types: ["customer.exploded"]) { eventId } }');
    await subscription.done;
    expect(subscription.results[0].errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const query = await graphql(service, '{ events(types: ["customer.exploded"]) { nextAfter } }');
    expect(subscription.results[0].errors[0].extensions.details).toEqual(query.json.errors[0].extensions.details);
  });
});

describe('GraphQL subscriptions: the failed-authentication budget HTTP uses', () => {
  let limited: TestService;
  beforeAll(async () => {
    limited = await startTestService({ RATE_LIMIT_AUTH_FAILURES: '2' });
  });
  afterAll(async () => limited?.stop());

  it('counts refused tokens of connection_init against the address, then refuses further refused tokens with 1013 (as HTTP answers 429), never a valid one', async () => {
    expect(await rawInit(limited, { authorization: 'Bearer wrong-token-number-one' })).toMatchObject({ code: 4401 });
    expect(await rawInit(limited, { authorization: 'Bearer wrong-token-number-two' })).toMatchObject({ code: 4401 });
    const refused = await rawInit(limited, { authorization: 'Bearer wrong-token-number-three' });
    expect(refused).toEqual({
      code: 1013,
      reason: expect.stringMatching(
        /^RATE_LIMITED: Too many failed authentication attempts from this address; retry in \d+ s\.$/,
      ),
    });
    expect(
      (
        await graphql(limited, '{ __typename }', undefined, {
          headers: { authorization: 'Bearer wrong-token-number-four' },
        })
      ).status,
    ).toBe(429);
    expect((await graphql(limited, '{ __typename }')).status).toBe(200);
  });
});
