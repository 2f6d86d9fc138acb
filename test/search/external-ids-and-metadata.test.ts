import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../support/api-tokens.js';
import { expectNoChange } from '../support/database.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { graphql, errorCodes } from '../graphql/helpers.js';
import { ACCOUNT_DATA_KEYS, CUSTOMER_DATA_KEYS, expectFailure, expectSuccess } from '../rest/helpers.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/**
 * externalId and metadata on customers and accounts, and the filters on them and on phone numbers
 * (docs/adr/0055-external-ids-and-metadata.md), through REST and GraphQL: shown only when set, a duplicate
 * externalId refused with 409 EXTERNAL_ID_TAKEN and nothing changed, oversize metadata refused with one detail
 * per problem and never the submitted value, and the events carry them only when set.
 */
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const sorted = (keys: string[]) => [...keys].sort();

async function createCustomer(extra: Record<string, unknown> = {}, phone = '+1 555 010 1234'): Promise<string> {
  const res = await service.call('POST', '/sandbox/customer', {
    body: { ...buildCustomerInput({ phoneNumbers: [{ type: 'MOBILE', number: phone }] }), ...extra },
  });
  expectSuccess(res, 'customer', 201);
  return res.json.data.customerId as string;
}

async function createAccount(customerId: string, extra: Record<string, unknown> = {}) {
  const res = await service.call('POST', '/sandbox/account', {
    body: { ...buildAccountInput([customerId]), ...extra },
  });
  expectSuccess(res, 'account', 201);
  return res.json.data;
}

const customerIds = (res: { json: { data: { customers: { customerId: string }[] } } }) =>
  res.json.data.customers.map((customer) => customer.customerId);
const accountIds = (res: { json: { data: { accounts: { accountId: string }[] } } }) =>
  res.json.data.accounts.map((account) => account.accountId);

describe('customers: externalId and metadata over REST', () => {
  it('appear in the write answers and reads only when set: a customer without them has exactly the contract`s fields', async () => {
    const plain = await createCustomer();
    const plainRead = await service.call('GET', `/sandbox/customer/${plain}`);
    expectSuccess(plainRead, 'customer', 200);
    expect(sorted(Object.keys(plainRead.json.data))).toEqual(sorted(CUSTOMER_DATA_KEYS));

    const tagged = await createCustomer({
      externalId: 'crm-0001',
      metadata: { tier: 'gold', region: 'west', dropped: '' },
    });
    const read = await service.call('GET', `/sandbox/customer/${tagged}`);
    expect(sorted(Object.keys(read.json.data))).toEqual(sorted([...CUSTOMER_DATA_KEYS, 'externalId', 'metadata']));
    expect(read.json.data).toMatchObject({ externalId: 'crm-0001', metadata: { tier: 'gold', region: 'west' } });
    expect(read.json.data.metadata).not.toHaveProperty('dropped');

    const list = await service.call('GET', '/sandbox/customer?limit=100');
    const listed = list.json.data.customers as Record<string, unknown>[];
    expect(sorted(Object.keys(listed.find((customer) => customer.customerId === plain)!))).toEqual(
      sorted(CUSTOMER_DATA_KEYS),
    );
    expect(listed.find((customer) => customer.customerId === tagged)).toMatchObject({ externalId: 'crm-0001' });
  });

  it('an update merges metadata (an empty string or null removes a key), changes or clears the externalId, and metadata null removes all', async () => {
    const id = await createCustomer({ externalId: 'crm-0002', metadata: { a: '1', b: '2', c: '3' } });
    const merged = await service.call('PUT', `/sandbox/customer/${id}`, {
      body: { metadata: { a: 'one', b: '', c: null, d: '4' } },
    });
    expectSuccess(merged, 'customer', 200);
    expect(merged.json.data.metadata).toEqual({ a: 'one', d: '4' });
    expect(merged.json.data.externalId).toBe('crm-0002');

    const renamed = await service.call('PUT', `/sandbox/customer/${id}`, { body: { externalId: 'crm-0002-b' } });
    expect(renamed.json.data).toMatchObject({ externalId: 'crm-0002-b', metadata: { a: 'one', d: '4' } });

    const cleared = await service.call('PUT', `/sandbox/customer/${id}`, {
      body: { externalId: null, metadata: null },
    });
    expectSuccess(cleared, 'customer', 200);
    expect(sorted(Object.keys(cleared.json.data))).toEqual(sorted(CUSTOMER_DATA_KEYS));
    // Removing every key leaves no metadata at all, not an empty object.
    await service.call('PUT', `/sandbox/customer/${id}`, { body: { metadata: { only: 'x' } } });
    const emptied = await service.call('PUT', `/sandbox/customer/${id}`, { body: { metadata: { only: null } } });
    expect(emptied.json.data).not.toHaveProperty('metadata');
  });

  it('a duplicate externalId is 409 EXTERNAL_ID_TAKEN and changes nothing; an idempotent replay still answers the first creation', async () => {
    const body = { ...buildCustomerInput(), externalId: 'crm-dup' };
    const first = await service.call('POST', '/sandbox/customer', {
      body,
      headers: { 'Idempotency-Key': 'dup-ext-1' },
    });
    expectSuccess(first, 'customer', 201);
    const replay = await service.call('POST', '/sandbox/customer', {
      body,
      headers: { 'Idempotency-Key': 'dup-ext-1' },
    });
    expectSuccess(replay, 'customer', 201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json.data.customerId).toBe(first.json.data.customerId);

    const clash = await expectNoChange(service.database.pool, () =>
      service.call('POST', '/sandbox/customer', {
        body: { ...buildCustomerInput(), externalId: 'crm-dup' },
        headers: { 'Idempotency-Key': 'dup-ext-2' },
      }),
    );
    expectFailure(clash, 'customer', 409, 'EXTERNAL_ID_TAKEN');
    expect(clash.text).not.toContain('crm-dup');

    const other = await createCustomer({ externalId: 'crm-other', metadata: { keep: 'me' } });
    const before = await service.call('GET', `/sandbox/customer/${other}`);
    const refused = await expectNoChange(service.database.pool, () =>
      service.call('PUT', `/sandbox/customer/${other}`, {
        body: { externalId: 'crm-dup', metadata: { keep: 'changed' }, preferredName: 'Changed' },
      }),
    );
    expectFailure(refused, 'customer', 409, 'EXTERNAL_ID_TAKEN');
    expect((await service.call('GET', `/sandbox/customer/${other}`)).json.data).toEqual(before.json.data);
    // Another environment may use the same external id.
    const elsewhere = await service.call('POST', '/production-like/customer', {
      body: { ...buildCustomerInput(), externalId: 'crm-dup' },
    });
    expectSuccess(elsewhere, 'customer', 201);
  });

  it('refuses oversize metadata with one detail per problem, never echoing a submitted key or value, and writes nothing', async () => {
    const longKey = `k${'x'.repeat(40)}`;
    const longValue = `v${'y'.repeat(500)}`;
    const metadata: Record<string, unknown> = { [longKey]: 'fine', big: longValue, count: 42 };
    for (let i = 0; Object.keys(metadata).length < 51; i++) metadata[`key${i}`] = `secret-value-${i}`;
    const res = await expectNoChange(service.database.pool, () =>
      service.call('POST', '/sandbox/customer', { body: { ...buildCustomerInput(), metadata } }),
    );
    expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
    expect(res.json.error.details).toEqual([
      { field: 'metadata', code: 'TOO_LONG', message: 'Must have at most 50 keys.' },
      { field: 'metadata', code: 'TOO_LONG', message: 'Key 1 (in the order sent) must be at most 40 characters.' },
      { field: 'metadata.big', code: 'TOO_LONG', message: 'Must be at most 500 characters.' },
      {
        field: 'metadata.count',
        code: 'INVALID_TYPE',
        message: 'Must be a string (an empty string or null removes the key).',
      },
    ]);
    expect(res.text).not.toContain(longKey);
    expect(res.text).not.toContain(longValue);
    expect(res.text).not.toContain('secret-value');

    const id = await createCustomer();
    const tooLongId = await service.call('PUT', `/sandbox/customer/${id}`, { body: { externalId: 'e'.repeat(129) } });
    expectFailure(tooLongId, 'customer', 400, 'VALIDATION_FAILED');
    expect(tooLongId.json.error.details).toEqual([expect.objectContaining({ field: 'externalId', code: 'TOO_LONG' })]);
    expectFailure(
      await service.call('PUT', `/sandbox/customer/${id}`, { body: { metadata: ['a'] } }),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
  });

  it('an update that would leave more than 50 keys is refused by the database`s count, and changes nothing', async () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    const id = await createCustomer({ metadata: fifty });
    const before = await service.call('GET', `/sandbox/customer/${id}`);
    const res = await service.call('PUT', `/sandbox/customer/${id}`, {
      body: { metadata: { extra: 'v' }, preferredName: 'Other' },
    });
    expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
    expect(res.json.error.details).toEqual([expect.objectContaining({ field: 'metadata', code: 'TOO_LONG' })]);
    expect((await service.call('GET', `/sandbox/customer/${id}`)).json.data).toEqual(before.json.data);
    // Replacing one key with another keeps 50: allowed.
    const swapped = await service.call('PUT', `/sandbox/customer/${id}`, {
      body: { metadata: { k0: null, extra: 'v' } },
    });
    expectSuccess(swapped, 'customer', 200);
    expect(Object.keys(swapped.json.data.metadata)).toHaveLength(50);
  });
});

describe('customer filters: externalId, phoneNumber, metadata', () => {
  let gold: string;
  let goldEast: string;
  let silver: string;

  beforeAll(async () => {
    gold = await createCustomer(
      { externalId: 'filter-gold', metadata: { level: 'gold', zone: 'west' } },
      '(555) 123-4567',
    );
    goldEast = await createCustomer(
      { externalId: 'filter-gold-east', metadata: { level: 'gold', zone: 'east' } },
      '+44 20 7946 0958',
    );
    silver = await createCustomer({ metadata: { level: 'silver', zone: 'west' } }, '555.123.9999');
  });

  it('GET: externalId exact; phone numbers in E.164 on both sides; every metadata[key]=value must hold', async () => {
    expect(customerIds(await service.call('GET', '/sandbox/customer?externalId=filter-gold'))).toEqual([gold]);
    expect(customerIds(await service.call('GET', '/sandbox/customer?externalId=FILTER-GOLD'))).toEqual([]);
    expect(
      customerIds(await service.call('GET', `/sandbox/customer?phoneNumber=${encodeURIComponent('+15551234567')}`)),
    ).toEqual([gold]);
    expect(
      customerIds(await service.call('GET', `/sandbox/customer?phoneNumber=${encodeURIComponent('1 (555) 123-4567')}`)),
    ).toEqual([gold]);
    expect(
      customerIds(
        await service.call('GET', `/sandbox/customer?phoneNumber=${encodeURIComponent('+44 (0)20 7946 0958')}`),
      ),
    ).toEqual([goldEast]);
    expect(customerIds(await service.call('GET', '/sandbox/customer?phoneNumber=5551239999'))).toEqual([silver]);
    expect(customerIds(await service.call('GET', '/sandbox/customer?metadata[level]=gold'))).toEqual([gold, goldEast]);
    expect(
      customerIds(await service.call('GET', '/sandbox/customer?metadata%5Blevel%5D=gold&metadata%5Bzone%5D=west')),
    ).toEqual([gold]);
    expect(
      customerIds(
        await service.call(
          'GET',
          '/sandbox/customer?metadata[zone]=west&metadata[level]=silver&externalId=filter-gold',
        ),
      ),
    ).toEqual([]);
    expect(customerIds(await service.call('GET', '/sandbox/customer?metadata[zone]=west&lastName=do&limit=1'))).toEqual(
      [gold],
    );
  });

  it('GET: refuses a malformed metadata parameter, an unreadable phone number and an unknown parameter with VALIDATION_FAILED', async () => {
    const nested = await service.call('GET', '/sandbox/customer?metadata[a][b]=x');
    expectFailure(nested, 'customer', 400, 'VALIDATION_FAILED');
    expect(nested.json.error.details).toEqual([
      expect.objectContaining({ field: 'metadata[a][b]', code: 'UNKNOWN_FIELD' }),
    ]);
    const bare = await service.call('GET', '/sandbox/customer?metadata=x');
    expectFailure(bare, 'customer', 400, 'VALIDATION_FAILED');
    const empty = await service.call('GET', '/sandbox/customer?metadata[level]=');
    expectFailure(empty, 'customer', 400, 'VALIDATION_FAILED');
    expect(empty.json.error.details).toEqual([expect.objectContaining({ field: 'metadata.level', code: 'TOO_SHORT' })]);
    const phone = await service.call('GET', '/sandbox/customer?phoneNumber=%2B');
    expectFailure(phone, 'customer', 400, 'VALIDATION_FAILED');
    expect(phone.json.error.details).toEqual([expect.objectContaining({ field: 'phoneNumber' })]);
  });

  it('POST search takes the same filters in its body', async () => {
    const res = await service.call('POST', '/sandbox/customer/search', {
      body: { metadata: { level: 'gold' }, phoneNumber: '+1 555 123 4567' },
    });
    expectSuccess(res, 'customer', 200);
    expect(customerIds(res)).toEqual([gold]);
    expect(
      customerIds(await service.call('POST', '/sandbox/customer/search', { body: { externalId: 'filter-gold-east' } })),
    ).toEqual([goldEast]);
  });

  it('a changed phone number is found by its new number only', async () => {
    const id = await createCustomer({}, '(555) 777-0001');
    expect(customerIds(await service.call('GET', '/sandbox/customer?phoneNumber=%2B15557770001'))).toEqual([id]);
    await service.call('PUT', `/sandbox/customer/${id}`, {
      body: { phoneNumbers: [{ type: 'HOME', number: '555-777-0002' }] },
    });
    expect(customerIds(await service.call('GET', '/sandbox/customer?phoneNumber=%2B15557770001'))).toEqual([]);
    expect(customerIds(await service.call('GET', '/sandbox/customer?phoneNumber=5557770002'))).toEqual([id]);
  });
});

describe('accounts: externalId and metadata over REST', () => {
  it('create, read, update, filter; shape unchanged when unused; 409 on a duplicate, nothing changed', async () => {
    const holder = await createCustomer();
    const plain = await createAccount(holder);
    expect(sorted(Object.keys(plain))).toEqual(sorted(ACCOUNT_DATA_KEYS));
    expect(sorted(Object.keys((await service.call('GET', `/sandbox/account/${plain.accountId}`)).json.data))).toEqual(
      sorted(ACCOUNT_DATA_KEYS),
    );

    const tagged = await createAccount(holder, {
      externalId: 'ledger-1',
      metadata: { product: 'basic', branch: '12' },
    });
    expect(tagged).toMatchObject({ externalId: 'ledger-1', metadata: { product: 'basic', branch: '12' } });
    expect(sorted(Object.keys(tagged))).toEqual(sorted([...ACCOUNT_DATA_KEYS, 'externalId', 'metadata']));

    const updated = await service.call('PUT', `/sandbox/account/${tagged.accountId}`, {
      body: { name: 'Renamed', currency: 'USD', metadata: { branch: null, product: 'premium' } },
    });
    expectSuccess(updated, 'account', 200);
    expect(updated.json.data).toMatchObject({
      name: 'Renamed',
      externalId: 'ledger-1',
      metadata: { product: 'premium' },
    });
    expect(updated.json.data.metadata).not.toHaveProperty('branch');

    expect(accountIds(await service.call('GET', '/sandbox/account?externalId=ledger-1'))).toEqual([tagged.accountId]);
    expect(accountIds(await service.call('GET', '/sandbox/account?metadata[product]=premium&currency=USD'))).toEqual([
      tagged.accountId,
    ]);
    expect(accountIds(await service.call('GET', '/sandbox/account?metadata[product]=basic'))).toEqual([]);

    const clash = await expectNoChange(service.database.pool, () =>
      service.call('POST', '/sandbox/account', { body: { ...buildAccountInput([holder]), externalId: 'ledger-1' } }),
    );
    expectFailure(clash, 'account', 409, 'EXTERNAL_ID_TAKEN');
    const before = (await service.call('GET', `/sandbox/account/${plain.accountId}`)).json.data;
    const refused = await service.call('PUT', `/sandbox/account/${plain.accountId}`, {
      body: { name: 'Other', currency: 'USD', externalId: 'ledger-1' },
    });
    expectFailure(refused, 'account', 409, 'EXTERNAL_ID_TAKEN');
    expect((await service.call('GET', `/sandbox/account/${plain.accountId}`)).json.data).toEqual(before);

    const cleared = await service.call('PUT', `/sandbox/account/${tagged.accountId}`, {
      body: { name: 'Renamed', currency: 'USD', externalId: null, metadata: null },
    });
    expect(sorted(Object.keys(cleared.json.data))).toEqual(sorted(ACCOUNT_DATA_KEYS));
  });

  it('refuses oversize account metadata with one detail per problem', async () => {
    const holder = await createCustomer();
    const res = await expectNoChange(service.database.pool, () =>
      service.call('POST', '/sandbox/account', {
        body: { ...buildAccountInput([holder]), metadata: { ['k'.repeat(41)]: 'v', ok: 'w'.repeat(501), flag: true } },
      }),
    );
    expectFailure(res, 'account', 400, 'VALIDATION_FAILED');
    expect(
      res.json.error.details.map((detail: { field: string; code: string }) => [detail.field, detail.code]),
    ).toEqual([
      ['metadata', 'TOO_LONG'],
      ['metadata.ok', 'TOO_LONG'],
      ['metadata.flag', 'INVALID_TYPE'],
    ]);
    expect(res.text).not.toContain('k'.repeat(41));
    expect(res.text).not.toContain('w'.repeat(501));
  });
});

describe('events carry externalId and metadata only when set', () => {
  it('customer.created / account.updated payloads; withheld without the read scope', async () => {
    const plain = await createCustomer();
    const tagged = await createCustomer({ externalId: 'evt-1', metadata: { source: 'import' } });
    const account = await createAccount(tagged);
    await service.call('PUT', `/sandbox/account/${account.accountId}`, {
      body: { name: 'N', currency: 'USD', metadata: { plan: 'p1' } },
    });
    type Event = { type: string; resourceId: string; data: Record<string, unknown> };
    const find = async (token: string, type: string, resourceId: string): Promise<Event> => {
      for (let waited = 0; ; waited += 50) {
        const res = await service.call('GET', `/sandbox/event?types=${type}&limit=100`, {
          auth: false,
          headers: { authorization: `Bearer ${token}` },
        });
        const event = (res.json.data.events as Event[]).find((candidate) => candidate.resourceId === resourceId);
        if (event) return event;
        if (waited > HUNG_TEST_DEADLINE_MS) throw new Error(`no ${type} event for ${resourceId}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    expect(sorted(Object.keys((await find(service.token, 'customer.created', plain)).data))).toEqual(
      sorted(CUSTOMER_DATA_KEYS),
    );
    expect((await find(service.token, 'customer.created', tagged)).data).toMatchObject({
      externalId: 'evt-1',
      metadata: { source: 'import' },
    });
    expect((await find(service.token, 'account.created', account.accountId)).data).toEqual(account);
    expect((await find(service.token, 'account.updated', account.accountId)).data).toMatchObject({
      metadata: { plan: 'p1' },
    });

    const eventsOnly = (
      await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['events:read'] })
    ).token;
    const withheld = await find(eventsOnly, 'customer.created', tagged);
    expect(withheld.data).toEqual({
      customerId: tagged,
      changedFields: expect.arrayContaining(['externalId', 'metadata']),
      requiredScope: 'customers:read',
    });
  });
});

describe('GraphQL', () => {
  const FIELDS = 'customerId externalId metadata';

  it('creates, reads, updates and filters customers and accounts by externalId and metadata; EXTERNAL_ID_TAKEN on a duplicate', async () => {
    const input = {
      ...buildCustomerInput({ phoneNumbers: [{ type: 'MOBILE', number: '(555) 321-0001' }] }),
      externalId: 'gql-1',
      metadata: { tier: 'platinum' },
    };
    const created = await graphql(
      service,
      `mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { ${FIELDS} } }`,
      { input },
    );
    expect(created.json.errors).toBeUndefined();
    const customerId = created.json.data.createCustomer.customerId as string;
    expect(created.json.data.createCustomer).toEqual({
      customerId,
      externalId: 'gql-1',
      metadata: { tier: 'platinum' },
    });

    const filtered = await graphql(
      service,
      `query { customers(first: 10, filter: { metadata: { tier: "platinum" }, phoneNumber: "+15553210001" }) { nodes { ${FIELDS} } } }`,
    );
    expect(filtered.json.data.customers.nodes).toEqual([
      { customerId, externalId: 'gql-1', metadata: { tier: 'platinum' } },
    ]);
    const byId = await graphql(
      service,
      'query($id: String) { customers(first: 10, filter: { externalId: $id }) { nodes { customerId } } }',
      { id: 'gql-1' },
    );
    expect(byId.json.data.customers.nodes).toEqual([{ customerId }]);
    const searched = await graphql(
      service,
      'query { searchCustomers(input: { externalId: "gql-1", metadata: { tier: "platinum" } }) { nodes { customerId } } }',
    );
    expect(searched.json.data.searchCustomers.nodes).toEqual([{ customerId }]);

    const updated = await graphql(
      service,
      `mutation($id: ID!, $input: UpdateCustomerInput!) { updateCustomer(customerId: $id, input: $input) { ${FIELDS} } }`,
      {
        id: customerId,
        input: { externalId: null, metadata: { tier: null, color: 'teal' } },
      },
    );
    expect(updated.json.data.updateCustomer).toEqual({ customerId, externalId: null, metadata: { color: 'teal' } });

    const plain = await graphql(
      service,
      `mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { ${FIELDS} } }`,
      { input: buildCustomerInput() },
    );
    expect(plain.json.data.createCustomer).toMatchObject({ externalId: null, metadata: null });

    const duplicate = await graphql(
      service,
      'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId } }',
      {
        input: { ...buildCustomerInput(), externalId: 'filter-gold' },
      },
    );
    expect(errorCodes(duplicate)).toEqual(['EXTERNAL_ID_TAKEN']);

    const account = await graphql(
      service,
      'mutation($input: CreateAccountInput!) { createAccount(input: $input) { accountId externalId metadata } }',
      {
        input: { ...buildAccountInput([customerId]), externalId: 'gql-acct', metadata: { purpose: 'savings' } },
      },
    );
    const accountId = account.json.data.createAccount.accountId as string;
    expect(account.json.data.createAccount).toEqual({
      accountId,
      externalId: 'gql-acct',
      metadata: { purpose: 'savings' },
    });
    const accounts = await graphql(
      service,
      'query { accounts(first: 5, filter: { externalId: "gql-acct", metadata: { purpose: "savings" } }) { nodes { accountId } } }',
    );
    expect(accounts.json.data.accounts.nodes).toEqual([{ accountId }]);
    const renamed = await graphql(
      service,
      'mutation($id: ID!) { updateAccount(accountId: $id, input: { name: "S", currency: "USD", metadata: { purpose: "" } }) { metadata } }',
      { id: accountId },
    );
    expect(renamed.json.data.updateAccount).toEqual({ metadata: null });
    // Nested: a customer's accounts show their own fields.
    const nested = await graphql(service, 'query($id: ID!) { customer(customerId: $id) { accounts { externalId } } }', {
      id: customerId,
    });
    expect(nested.json.data.customer.accounts).toEqual([{ externalId: 'gql-acct' }]);
  });

  it('refuses bad metadata with VALIDATION_FAILED details, never echoing the value', async () => {
    const res = await graphql(
      service,
      'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId } }',
      {
        input: { ...buildCustomerInput(), metadata: { note: 'z'.repeat(501), n: 5 } },
      },
    );
    expect(errorCodes(res)).toEqual(['VALIDATION_FAILED']);
    expect(res.json.errors[0].extensions.details.map((detail: { field: string }) => detail.field)).toEqual([
      'metadata.note',
      'metadata.n',
    ]);
    expect(res.text).not.toContain('z'.repeat(501));
    const notObject = await graphql(
      service,
      'query { customers(first: 1, filter: { metadata: "tier" }) { nodes { customerId } } }',
    );
    expect(notObject.json.errors).toBeDefined();
    expect(notObject.text).not.toContain('"tier"}');
  });
});
