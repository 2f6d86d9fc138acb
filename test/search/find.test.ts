import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoChange } from '../support/database.js';
import { buildCustomerInput, uniqueSsn } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { expectFailure, expectSuccess } from '../rest/helpers.js';

/**
 * A support agent finds a customer: REST `GET /{env}/customer` with filters, `POST /{env}/customer/search`
 * with a social security number (audited, never in a URL), and the same rules on GraphQL.
 */
let service: TestService;
let mueller: { customerId: string; ssn: string };
let muellerTwin: string;
let other: string;

beforeAll(async () => {
  service = await startTestService();
  const create = async (overrides: Parameters<typeof buildCustomerInput>[0]) => {
    const input = buildCustomerInput(overrides);
    const res = await service.call('POST', '/sandbox/customer', { body: input });
    expectSuccess(res, 'customer', 201);
    return { customerId: res.json.data.customerId as string, ssn: input.socialSecurityNumber };
  };
  mueller = await create({
    firstName: 'Jürgen',
    lastName: 'Müller',
    emails: ['Juergen.Mueller@Example.com'],
    dateOfBirth: '1961-02-03',
  });
  muellerTwin = (await create({ firstName: 'Anna', lastName: 'Mueller-Schmidt', dateOfBirth: '1961-02-03' }))
    .customerId;
  other = (await create({ firstName: 'Zoë', lastName: 'Zimmermann' })).customerId;
  // Another environment's namesake is never found from sandbox.
  await service.call('POST', '/production-like/customer', { body: buildCustomerInput({ lastName: 'Müller' }) });
});
afterAll(async () => service?.stop());

const ids = (res: { json: { data: { customers: { customerId: string }[] } } }) =>
  res.json.data.customers.map((customer) => customer.customerId);

describe('GET /{environment}/customer', () => {
  it('filters by name prefix (case- and accent-insensitive), email (exact, any case) and date of birth; all given filters hold', async () => {
    const byName = await service.call('GET', '/sandbox/customer?lastName=mull');
    expectSuccess(byName, 'customer', 200);
    expect(ids(byName)).toEqual([mueller.customerId]);
    expect(byName.json.data.customers[0]).toMatchObject({ firstName: 'Jürgen', lastName: 'Müller', accountIds: [] });
    expect(byName.json.data.customers[0]).not.toHaveProperty('socialSecurityNumber');
    expect(ids(await service.call('GET', '/sandbox/customer?lastName=MUE'))).toEqual([muellerTwin]);
    expect(ids(await service.call('GET', '/sandbox/customer?email=juergen.mueller%40example.COM'))).toEqual([
      mueller.customerId,
    ]);
    expect(ids(await service.call('GET', '/sandbox/customer?dateOfBirth=1961-02-03'))).toEqual([
      mueller.customerId,
      muellerTwin,
    ]);
    expect(ids(await service.call('GET', '/sandbox/customer?dateOfBirth=1961-02-03&firstName=ann'))).toEqual([
      muellerTwin,
    ]);
    expect(ids(await service.call('GET', '/sandbox/customer?lastName=zz'))).toEqual([]);
  });

  it('pages in creation order with limit and nextAfter', async () => {
    const first = await service.call('GET', '/sandbox/customer?limit=2');
    expect(ids(first)).toEqual([mueller.customerId, muellerTwin]);
    expect(first.json.data.nextAfter).toBe(muellerTwin);
    const second = await service.call('GET', `/sandbox/customer?limit=2&after=${first.json.data.nextAfter}`);
    expect(ids(second)).toEqual([other]);
    expect(second.json.data.nextAfter).toBeNull();
  });

  it('refuses an SSN in the query string with 400 NOT_ALLOWED_IN_URL, never echoing it, and bad filters with VALIDATION_FAILED', async () => {
    const res = await expectNoChange(service.database.pool, () =>
      service.call('GET', `/sandbox/customer?socialSecurityNumber=${mueller.ssn}`),
    );
    expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
    expect(res.json.error.details).toEqual([
      expect.objectContaining({ field: 'socialSecurityNumber', code: 'NOT_ALLOWED_IN_URL' }),
    ]);
    expect(res.text).not.toContain(mueller.ssn);
    expectFailure(
      await service.call('GET', '/sandbox/customer?dateOfBirth=03/02/1961'),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(await service.call('GET', '/sandbox/customer?limit=0'), 'customer', 400, 'VALIDATION_FAILED');
    expectFailure(await service.call('GET', '/sandbox/customer?nickname=al'), 'customer', 400, 'VALIDATION_FAILED');
  });
});

describe('POST /{environment}/customer/search', () => {
  it('finds a customer by SSN (any spelling of it) and audits the search: who, which filters, how many; never the SSN', async () => {
    // Enrolled one way, searched the other (with or without the dashes).
    const digits = mueller.ssn.replace(/-/g, '');
    const otherSpelling = mueller.ssn.includes('-')
      ? digits
      : `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
    const found = await service.call('POST', '/sandbox/customer/search', {
      body: { socialSecurityNumber: otherSpelling },
    });
    expectSuccess(found, 'customer', 200);
    expect(ids(found)).toEqual([mueller.customerId]);
    expect(found.text).not.toContain(digits);
    expect(found.text).not.toContain(mueller.ssn);
    const none = await service.call('POST', '/sandbox/customer/search', {
      body: { socialSecurityNumber: uniqueSsn(), lastName: 'Mü' },
    });
    expect(ids(none)).toEqual([]);
    const audit = await service.call('GET', '/sandbox/audit-events?operation=customer.search');
    expectSuccess(audit, 'customer', 200);
    const searches = audit.json.data.events;
    expect(
      searches.map((event: { changedFields: string[]; matchedCount: number }) => [
        event.changedFields.sort(),
        event.matchedCount,
      ]),
    ).toEqual([
      [['socialSecurityNumber'], 1],
      [['lastName', 'socialSecurityNumber'], 0],
    ]);
    expect(searches[0].principalId).toMatch(/^static:/);
    expect(JSON.stringify(audit.json)).not.toContain(digits);
    expect(JSON.stringify(audit.json)).not.toContain(mueller.ssn);
  });

  it('searches by the other filters without an SSN, unaudited; refuses an invalid SSN, writing nothing', async () => {
    const before = (
      await service.database.pool.query(
        "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'customer.search'",
      )
    ).rows[0].n;
    expect(ids(await service.call('POST', '/sandbox/customer/search', { body: { lastName: 'zim' } }))).toEqual([other]);
    const invalid = await expectNoChange(service.database.pool, () =>
      service.call('POST', '/sandbox/customer/search', { body: { socialSecurityNumber: '000-12-3456' } }),
    );
    expectFailure(invalid, 'customer', 400, 'VALIDATION_FAILED');
    expect(
      (
        await service.database.pool.query(
          "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'customer.search'",
        )
      ).rows[0].n,
    ).toBe(before);
  });
});

describe('GraphQL', () => {
  const graphql = (query: string, variables?: Record<string, unknown>) =>
    service.call('POST', '/sandbox/graphql', { body: { query, variables } });

  it('customers(filter:) and searchCustomers(input:) follow the same rules as REST', async () => {
    const filtered = await graphql(
      '{ customers(first: 10, filter: { lastName: "mull", firstName: null }) { nodes { customerId lastName } pageInfo { hasNextPage } } }',
    );
    expect(filtered.json.errors, filtered.text).toBeUndefined();
    expect(filtered.json.data.customers).toEqual({
      nodes: [{ customerId: mueller.customerId, lastName: 'Müller' }],
      pageInfo: { hasNextPage: false },
    });

    const searched = await graphql(
      'query($input: CustomerSearchInput!) { searchCustomers(input: $input) { nodes { customerId } } }',
      {
        input: { socialSecurityNumber: mueller.ssn },
      },
    );
    expect(searched.json.errors, searched.text).toBeUndefined();
    expect(searched.json.data.searchCustomers.nodes).toEqual([{ customerId: mueller.customerId }]);

    const invalid = await graphql('{ customers(filter: { email: "not-an-email" }) { nodes { customerId } } }');
    expect(invalid.json.errors[0].extensions.code).toBe('VALIDATION_FAILED');

    const paged = await graphql(
      '{ customers(first: 1, filter: { dateOfBirth: "1961-02-03" }) { nodes { customerId } pageInfo { hasNextPage endCursor } } }',
    );
    expect(paged.json.data.customers.nodes).toEqual([{ customerId: mueller.customerId }]);
    const next = await graphql(
      `{ customers(first: 1, after: "${paged.json.data.customers.pageInfo.endCursor}", filter: { dateOfBirth: "1961-02-03" }) { nodes { customerId } pageInfo { hasNextPage } } }`,
    );
    expect(next.json.data.customers).toEqual({
      nodes: [{ customerId: muellerTwin }],
      pageInfo: { hasNextPage: false },
    });
  });
});

describe('GET /{environment}/account', () => {
  it('filters by holder, type, currency and flag, each alone and together, in id order', async () => {
    const open = async (customerIds: string[], currency: string, type: string) => {
      const res = await service.call('POST', '/sandbox/account', {
        body: { associatedCustomerIds: customerIds, name: 'Find me', currency, type },
      });
      expectSuccess(res, 'account', 201);
      return res.json.data.accountId as string;
    };
    const checking = await open([other], 'USD', 'CHECKING');
    const savings = await open([other, muellerTwin], 'EUR', 'SAVINGS');
    const frozen = await open([muellerTwin], 'USD', 'SAVINGS');
    expectSuccess(await service.call('PUT', `/sandbox/account/${frozen}/flags/FROZEN`), 'account', 200);
    const accountIds = (res: { json: { data: { accounts: { accountId: string }[] } } }) =>
      res.json.data.accounts.map((account) => account.accountId);

    const byHolder = await service.call('GET', `/sandbox/account?customerId=${other}`);
    expectSuccess(byHolder, 'account', 200);
    expect(accountIds(byHolder)).toEqual([checking, savings]);
    expect(byHolder.json.logRefId).toEqual(expect.any(String));
    expect(accountIds(await service.call('GET', `/sandbox/account?customerId=${muellerTwin}&currency=USD`))).toEqual([
      frozen,
    ]);
    expect(accountIds(await service.call('GET', '/sandbox/account?type=SAVINGS'))).toEqual([savings, frozen]);
    expect(accountIds(await service.call('GET', '/sandbox/account?flag=FROZEN'))).toEqual([frozen]);
    expect(accountIds(await service.call('GET', '/sandbox/account?customerId=not-a-uuid'))).toEqual([]);
    const paged = await service.call('GET', '/sandbox/account?limit=1&type=SAVINGS');
    expect(accountIds(paged)).toEqual([savings]);
    expect(
      accountIds(await service.call('GET', `/sandbox/account?limit=1&type=SAVINGS&after=${paged.json.data.nextAfter}`)),
    ).toEqual([frozen]);
    expectFailure(await service.call('GET', '/sandbox/account?flag=ASLEEP'), 'account', 400, 'VALIDATION_FAILED');
    expectFailure(await service.call('GET', '/sandbox/account?currency=usd'), 'account', 400, 'VALIDATION_FAILED');

    const graphql = await service.call('POST', '/sandbox/graphql', {
      body: {
        query: `{ accounts(filter: { flag: FROZEN, customerId: "${muellerTwin}" }) { nodes { accountId flags } } }`,
      },
    });
    expect(graphql.json.errors, graphql.text).toBeUndefined();
    expect(graphql.json.data.accounts.nodes).toEqual([{ accountId: frozen, flags: ['FROZEN'] }]);
  });
});
