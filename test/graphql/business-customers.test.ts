import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessScope } from '../../src/domain/caller.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { issueApiToken } from '../support/api-tokens.js';
import { bearer } from '../support/http-auth.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';
import { startTestService, type TestService } from '../support/service.js';
import { expectSuccess } from '../rest/helpers.js';
import { BUSINESS_DATA_KEYS, buildBusinessInput, uniqueEin, writeCounts } from '../features/businesses/support.js';
import { createAccount, createCustomer, errorCodes, graphql } from './helpers.js';

/**
 * Business customers over GraphQL (docs/adr/0095): the same domain as REST's (docs/adr/0090), a business's own
 * fields under `business`, a person's fields null, never the tax id (the harness scans every answer and log line
 * for the EINs uniqueEin hands out); its events carry its fields as its REST answer shows them.
 */
let service: TestService;
let reader: string;
let ssnSearcher: string;
let budgetSearcher: string;
let eventReader: string;
let eventsOnly: string;

const PROFILE = 'legalName doingBusinessAs entityType formationDate formationState formationCountry industry website';
const FIELDS = `customerId customerType business { ${PROFILE} } preferredName firstName middleName lastName dateOfBirth
  emails phoneNumbers { type number } addresses { type street city state zip } externalId version`;
const CREATE = `mutation($input: CreateBusinessCustomerInput!, $key: String) {
  createBusinessCustomer(input: $input, idempotencyKey: $key) { ${FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateCustomerInput!, $v: Int) {
  updateCustomer(customerId: $id, input: $input, expectedVersion: $v) { ${FIELDS} } }`;
const READ = `query($id: ID!) { customer(customerId: $id) { ${FIELDS} } }`;
const SEARCH = `query($input: CustomerSearchInput!) { searchCustomers(input: $input) { nodes { customerId } } }`;

/** A business's input as GraphQL takes it (no `customerType`: the mutation says it). */
function businessInput(overrides: Parameters<typeof buildBusinessInput>[0] = {}) {
  const { customerType: _business, ...input } = buildBusinessInput(overrides);
  return input;
}

async function createBusiness(overrides: Parameters<typeof buildBusinessInput>[0] = {}) {
  const input = businessInput(overrides);
  const result = await graphql(service, CREATE, { input });
  expect(result.json.errors, JSON.stringify(result.json.errors)).toBeUndefined();
  return { input, customer: result.json.data.createBusinessCustomer };
}

const auditCount = async (operation: string) =>
  (
    await service.database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM audit_events WHERE operation = $1',
      [operation],
    )
  ).rows[0]!.n;

beforeAll(async () => {
  service = await startTestService({ SSN_SEARCH_RATE_LIMIT_PER_MINUTE: '3', EVENT_SEQUENCER_INTERVAL_MS: '20' });
  const token = async (scopes: AccessScope[]) =>
    (await issueApiToken(service.database.pool, { environments: ['*'], scopes, name: scopes.join(' ') })).token;
  reader = await token(['customers:read']);
  ssnSearcher = await token(['customers:ssn_search']);
  budgetSearcher = await token(['customers:ssn_search']);
  eventReader = await token(['events:read', 'customers:read']);
  eventsOnly = await token(['events:read']);
});
afterAll(async () => service?.stop());

describe('createBusinessCustomer and reads', () => {
  it('creates a business and answers its type, its profile and null person fields, as every read does', async () => {
    const { input, customer } = await createBusiness({ formationState: null, industry: null });
    expect(customer).toMatchObject({
      customerType: 'BUSINESS',
      business: {
        legalName: input.legalName,
        doingBusinessAs: 'Acme',
        entityType: 'LLC',
        formationDate: '2015-03-01',
        formationState: null,
        formationCountry: 'US',
        industry: null,
        website: 'https://acme.example.com',
      },
      preferredName: null,
      firstName: null,
      middleName: null,
      lastName: null,
      dateOfBirth: null,
      emails: input.emails,
      version: 1,
    });
    expect(Object.keys(customer.business).sort()).toEqual(PROFILE.split(' ').sort());
    const read = await graphql(service, READ, { id: customer.customerId }, { headers: bearer(reader), auth: false });
    expect(read.json.errors).toBeUndefined();
    expect(read.json.data.customer).toEqual(customer);
    // REST answers the same business (one domain, two surfaces).
    const rest = await service.call('GET', `/sandbox/customer/${customer.customerId}`);
    expectSuccess(rest, 'customer', 200);
    expect(Object.keys(rest.json.data).sort()).toEqual(BUSINESS_DATA_KEYS);
    expect(rest.json.data.legalName).toBe(customer.business.legalName);
  });

  it('answers a person as before, customerType INDIVIDUAL and no business', async () => {
    const id = await createCustomer(service, buildCustomerInput());
    const read = await graphql(service, READ, { id });
    expect(read.json.data.customer).toMatchObject({ customerType: 'INDIVIDUAL', business: null });
    expect(read.json.data.customer.firstName).toEqual(expect.any(String));
  });

  it('replays an idempotent creation, creating nothing more', async () => {
    const input = businessInput();
    const first = await graphql(service, CREATE, { input, key: 'gql-business-1' });
    const before = await writeCounts(service);
    const again = await graphql(service, CREATE, { input, key: 'gql-business-1' });
    expect(again.json.errors).toBeUndefined();
    expect(again.json.data.createBusinessCustomer.customerId).toBe(first.json.data.createBusinessCustomer.customerId);
    expect(again.json.extensions?.idempotentReplayed).toBeTruthy();
    expect(await writeCounts(service)).toEqual(before);
  });

  it('reads a business reached through an account walk whole, with its profile; ids alone only without its fields', async () => {
    const { customer } = await createBusiness();
    const accountId = await createAccount(service, buildAccountInput([customer.customerId]));
    const query = (fields: string) =>
      `query($id: ID!) { account(accountId: $id) { accountId customers { customerId ${fields} accounts { accountId } } } }`;
    service.statements.names = [];
    const slim = await graphql(service, query(''), { id: accountId });
    expect(slim.json.errors).toBeUndefined();
    expect(service.statements.names).toEqual(['cas_links_ids']);
    service.statements.names = [];
    const whole = await graphql(service, query('customerType business { legalName } lastName'), { id: accountId });
    expect(whole.json.errors).toBeUndefined();
    expect(service.statements.names).toContain('cas_links_records');
    expect(service.statements.names).not.toContain('cas_links_ids');
    expect(whole.json.data.account.customers).toEqual([
      {
        customerId: customer.customerId,
        customerType: 'BUSINESS',
        business: { legalName: customer.business.legalName },
        lastName: null,
        accounts: [{ accountId }],
      },
    ]);
  });
});

describe('refusals, with their codes, changing nothing', () => {
  it('refuses a duplicate tax id (TAX_ID_ALREADY_EXISTS, audited), and a bad input (VALIDATION_FAILED)', async () => {
    const taxId = uniqueEin();
    await createBusiness({ taxId });
    const refusals = await auditCount('customer.create.refused');
    const before = await writeCounts(service);
    const duplicate = await graphql(service, CREATE, { input: businessInput({ taxId: taxId.replace('-', '') }) });
    expect(errorCodes(duplicate)).toEqual(['TAX_ID_ALREADY_EXISTS']);
    expect(duplicate.json.data).toBeNull();
    const bad = await graphql(service, CREATE, { input: businessInput({ taxId: '12-345' }) });
    expect(errorCodes(bad)).toEqual(['VALIDATION_FAILED']);
    expect(JSON.stringify(bad.json.errors)).toContain('taxId');
    const future = await graphql(service, CREATE, { input: businessInput({ formationDate: '2999-01-01' }) });
    expect(errorCodes(future)).toEqual(['VALIDATION_FAILED']);
    expect(await auditCount('customer.create.refused')).toBe(refusals + 1);
    const { events: _refusalAudit, ...after } = await writeCounts(service);
    const { events: _before, ...rest } = before;
    expect(after).toEqual(rest);
  });

  it("refuses a person's field on a business and a business's field on a person (FIELD_NOT_FOR_CUSTOMER_TYPE)", async () => {
    const { customer } = await createBusiness();
    const person = await createCustomer(service, buildCustomerInput());
    const before = await writeCounts(service);
    const onBusiness = await graphql(service, UPDATE, { id: customer.customerId, input: { preferredName: 'Bob' } });
    expect(errorCodes(onBusiness)).toEqual(['FIELD_NOT_FOR_CUSTOMER_TYPE']);
    const onPerson = await graphql(service, UPDATE, { id: person, input: { website: 'https://a.example.com' } });
    expect(errorCodes(onPerson)).toEqual(['FIELD_NOT_FOR_CUSTOMER_TYPE']);
    const stale = await graphql(service, UPDATE, { id: customer.customerId, input: { industry: '5411' }, v: 7 });
    expect(errorCodes(stale)).toEqual(['PRECONDITION_FAILED']);
    expect(await writeCounts(service)).toEqual(before);
  });
});

describe('updateCustomer on a business', () => {
  it('changes its trading name, website, industry and contacts; null clears an optional field; the version moves', async () => {
    const { customer } = await createBusiness();
    const updated = await graphql(service, UPDATE, {
      id: customer.customerId,
      input: { doingBusinessAs: null, website: 'https://new.example.com', industry: '5411', emails: [] },
      v: customer.version,
    });
    expect(updated.json.errors).toBeUndefined();
    const answer = updated.json.data.updateCustomer;
    expect(answer.business).toEqual({
      ...customer.business,
      doingBusinessAs: null,
      website: 'https://new.example.com',
      industry: '5411',
    });
    expect(answer.emails).toEqual([]);
    expect(answer.version).toBeGreaterThan(customer.version);
    expect(answer.firstName).toBeNull();
  });
});

describe('customers(filter) and searchCustomers', () => {
  it('filters by customerType and by a prefix of the legal name', async () => {
    const stem = `Zyxwv ${Date.now()}`;
    const { customer } = await createBusiness({ legalName: `${stem} Holdings Inc` });
    await createBusiness({ legalName: `Other ${stem}` });
    const list = (filter: Record<string, unknown>) =>
      graphql(
        service,
        `
          query ($f: CustomerFilter) {
            customers(filter: $f, first: 100) {
              nodes {
                customerId
                customerType
              }
            }
          }
        `,
        {
          f: filter,
        },
      );
    const byName = await list({ legalName: stem.toLowerCase(), customerType: 'BUSINESS' });
    expect(byName.json.errors).toBeUndefined();
    expect(byName.json.data.customers.nodes).toEqual([{ customerId: customer.customerId, customerType: 'BUSINESS' }]);
    const people = await list({ customerType: 'INDIVIDUAL' });
    const types = new Set(people.json.data.customers.nodes.map((node: { customerType: string }) => node.customerType));
    expect([...types]).toEqual(['INDIVIDUAL']);
    const bad = await list({ legalName: 'x'.repeat(201) });
    expect(errorCodes(bad)).toEqual(['VALIDATION_FAILED']);
  });

  it('searches by tax id with customers:ssn_search only, audited, never answering the number', async () => {
    const taxId = uniqueEin();
    const { customer } = await createBusiness({ taxId });
    const withReader = await graphql(service, SEARCH, { input: { taxId } }, { headers: bearer(reader), auth: false });
    expect(errorCodes(withReader)).toEqual(['FORBIDDEN']);
    const searches = await auditCount('customer.search');
    const found = await graphql(
      service,
      SEARCH,
      { input: { taxId: taxId.replace('-', '') } },
      { headers: bearer(ssnSearcher), auth: false },
    );
    expect(found.json.errors).toBeUndefined();
    // Its fields beyond the id need customers:read, as a person's found by SSN.
    expect(found.json.data.searchCustomers.nodes).toEqual([{ customerId: customer.customerId }]);
    expect(await auditCount('customer.search')).toBe(searches + 1);
    const audit = await service.database.pool.query(
      "SELECT to_jsonb(a)::text AS row FROM audit_events a WHERE operation = 'customer.search'",
    );
    for (const { row } of audit.rows) expect(row).not.toContain(taxId.replace('-', ''));
    // The SSN search's scope is a search by name's too: customers:read does not search by tax id, ssn_search not by name.
    const byName = await graphql(
      service,
      SEARCH,
      { input: { lastName: 'A' } },
      { headers: bearer(ssnSearcher), auth: false },
    );
    expect(errorCodes(byName)).toEqual(['FORBIDDEN']);
  });

  it('spends the SSN search budget: the fourth search by tax id is SSN_SEARCH_RATE_LIMITED, searching nothing', async () => {
    const taxId = uniqueEin();
    const search = () =>
      graphql(service, SEARCH, { input: { taxId } }, { headers: bearer(budgetSearcher), auth: false });
    for (let i = 0; i < 3; i++) expect((await search()).json.errors).toBeUndefined();
    const searches = await auditCount('customer.search');
    const refused = await search();
    expect(errorCodes(refused)).toEqual(['SSN_SEARCH_RATE_LIMITED']);
    expect(refused.status).toBe(429);
    expect(await auditCount('customer.search')).toBe(searches);
  });
});

describe("a business's events", () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function restEventsOf(customerId: string, count: number, token: string): Promise<any[]> {
    for (const deadline = Date.now() + HUNG_TEST_DEADLINE_MS; ;) {
      const res = await service.call('GET', `/sandbox/customer/${customerId}/event`, {
        auth: false,
        headers: bearer(token),
      });
      expectSuccess(res, 'customer', 200);
      if (res.json.data.events.length >= count || Date.now() > deadline) return res.json.data.events;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('carry its fields as its REST answer shows them (never the tax id), withheld without customers:read', async () => {
    const { input, customer } = await createBusiness();
    await graphql(service, UPDATE, { id: customer.customerId, input: { website: 'https://events.example.com' } });
    const [updated, created] = await restEventsOf(customer.customerId, 2, eventReader);
    const rest = await service.call('GET', `/sandbox/customer/${customer.customerId}`);
    expect(updated.type).toBe('customer.updated');
    expect(updated.data).toEqual(rest.json.data);
    expect(created.type).toBe('customer.created');
    expect(created.data).toEqual({ ...rest.json.data, website: 'https://acme.example.com' });
    const withheld = await restEventsOf(customer.customerId, 2, eventsOnly);
    expect(withheld[0].data).toEqual({
      customerId: customer.customerId,
      changedFields: ['website'],
      requiredScope: 'customers:read',
    });
    // The environment's feed answers the same events.
    const feed = await service.call('GET', '/sandbox/event?after=0&limit=100', {
      auth: false,
      headers: bearer(eventReader),
    });
    expectSuccess(feed, 'customer', 200);
    const fromFeed = feed.json.data.events.filter(
      (event: { resourceId: string }) => event.resourceId === customer.customerId,
    );
    expect(fromFeed.map((event: { data: unknown }) => event.data)).toEqual([created.data, updated.data]);
    // The outbox rows themselves hold no tax id, in either spelling.
    const { rows } = await service.database.pool.query<{ payload: string }>(
      'SELECT payload::text AS payload FROM events WHERE resource_id = $1',
      [customer.customerId],
    );
    expect(rows).toHaveLength(2);
    for (const { payload } of rows) {
      expect(payload).not.toContain(input.taxId);
      expect(payload).not.toContain(input.taxId.replace('-', ''));
      expect(payload).not.toMatch(/taxId|tax_id/);
    }
    // GraphQL's `events`: the same event, its customer a business.
    const gqlFeed = await graphql(
      service,
      `
        query ($types: [String!]) {
          events(types: $types, first: 100) {
            events {
              resourceId
              customer {
                customerType
                lastName
                business {
                  legalName
                  website
                }
              }
            }
          }
        }
      `,
      { types: ['customer.updated'] },
      { headers: bearer(eventReader), auth: false },
    );
    expect(gqlFeed.json.errors).toBeUndefined();
    const mine = gqlFeed.json.data.events.events.filter(
      (event: { resourceId: string }) => event.resourceId === customer.customerId,
    );
    expect(mine).toEqual([
      {
        resourceId: customer.customerId,
        customer: {
          customerType: 'BUSINESS',
          lastName: null,
          business: { legalName: input.legalName, website: 'https://events.example.com' },
        },
      },
    ]);
  });
});
