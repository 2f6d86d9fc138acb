import { randomInt } from 'node:crypto';
import { type OperationDefinitionNode, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessScope } from '../../src/domain/caller.js';
import { costEstimator } from '../../src/graphql/limits.js';
import { buildGraphqlSchema } from '../../src/graphql/schema.js';
import { issueApiToken } from '../support/api-tokens.js';
import { eventually } from '../support/eventually.js';
import { buildCustomerInput } from '../support/factories.js';
import { buildBusinessInput } from '../features/businesses/support.js';
import { startTestService, type CallResult, type TestService } from '../support/service.js';
import { createCustomer, errorCodes, graphql } from './helpers.js';

/**
 * Beneficial owners over GraphQL (docs/adr/0096), through HTTP against the real database: the mutations with
 * REST's rules and codes (docs/adr/0094), `Customer.beneficialOwners` and `Customer.beneficialOwnerOf` batched
 * per request, the read scope on every field but the ids, and the owner fields of the events.
 */
let service: TestService;
const tokens: Record<'reader' | 'writer' | 'eventsOnly' | 'eventsAndCustomers', string> = {
  reader: '',
  writer: '',
  eventsOnly: '',
  eventsAndCustomers: '',
};
beforeAll(async () => {
  service = await startTestService({ EVENT_SEQUENCER_INTERVAL_MS: '20' });
  const issue = async (scopes: AccessScope[]) =>
    (await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes })).token;
  tokens.reader = await issue(['customers:read']);
  tokens.writer = await issue(['customers:write']);
  tokens.eventsOnly = await issue(['events:read']);
  tokens.eventsAndCustomers = await issue(['events:read', 'customers:read']);
});
afterAll(async () => service?.stop());

const as = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });

/** The data of a response without errors. */
function data(result: CallResult) {
  expect(result.status).toBe(200);
  expect(errorCodes(result)).toEqual([]);
  return result.json.data;
}

async function newBusiness(legalName?: string): Promise<string> {
  const { customerType: _business, ...input } = buildBusinessInput(legalName ? { legalName } : {});
  const result = await graphql(
    service,
    'mutation($input: CreateBusinessCustomerInput!) { createBusinessCustomer(input: $input) { customerId } }',
    { input },
  );
  return data(result).createBusinessCustomer.customerId as string;
}

const newPerson = (lastName?: string) => createCustomer(service, buildCustomerInput(lastName ? { lastName } : {}));

const OWNER = 'customerId prongs ownershipPercentage title addedAt customer { customerId customerType }';
const ADD = `mutation($b: ID!, $input: AddBeneficialOwnerInput!) { addBeneficialOwner(businessCustomerId: $b, input: $input) { ${OWNER} } }`;
const REMOVE = 'mutation($b: ID!, $o: ID!) { removeBeneficialOwner(businessCustomerId: $b, ownerCustomerId: $o) }';
const READ = `query($id: ID!) {
  customer(customerId: $id) {
    customerId version
    beneficialOwners { ${OWNER} }
    beneficialOwnerOf { businessCustomerId prongs ownershipPercentage title addedAt business { customerId business { legalName } } }
  }
}`;

const read = async (id: string) => data(await graphql(service, READ, { id })).customer;
const add = (businessId: string, input: Record<string, unknown>) => graphql(service, ADD, { b: businessId, input });

/** The owners' rows, the events, the audit trail and the customers' versions: a refusal leaves all of them as they were. */
async function snapshot(): Promise<Record<string, string>> {
  const { rows } = await service.database.pool.query<Record<string, string>>(
    `SELECT (SELECT md5(coalesce(string_agg(concat_ws(':', business_customer_id, owner_customer_id, prongs::text, ownership_percentage, title),
                                            ',' ORDER BY business_customer_id, owner_customer_id), '')) FROM beneficial_owners) AS owners,
            (SELECT md5(coalesce(string_agg(concat_ws(':', id, version), ',' ORDER BY id), '')) FROM customers) AS versions,
            (SELECT count(*)::text FROM events) AS events, (SELECT count(*)::text FROM audit_events) AS audit`,
  );
  return rows[0]!;
}

/** Runs a request that must be refused with `code` and asserts that nothing changed. */
async function expectRefused(request: () => Promise<CallResult>, code: string): Promise<CallResult> {
  const before = await snapshot();
  const result = await request();
  expect(result.status).toBe(200);
  expect(errorCodes(result)).toEqual([code]);
  expect(result.json.data).toBeNull();
  expect(await snapshot()).toEqual(before);
  return result;
}

describe('addBeneficialOwner and the two fields', () => {
  it('records an owner: the answer, the business lists it, the person names the business, the version moved', async () => {
    const [business, person] = [await newBusiness(), await newPerson()];
    const before = await read(business);
    expect(before.beneficialOwners).toEqual([]);
    const owner = data(
      await add(business, {
        customerId: person,
        prongs: ['CONTROL', 'OWNERSHIP'],
        ownershipPercentage: '40',
        title: 'CEO',
      }),
    ).addBeneficialOwner;
    expect(owner).toEqual({
      customerId: person,
      prongs: ['OWNERSHIP', 'CONTROL'],
      ownershipPercentage: '40.00',
      title: 'CEO',
      addedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      customer: { customerId: person, customerType: 'INDIVIDUAL' },
    });
    const after = await read(business);
    expect(after.beneficialOwners).toEqual([owner]);
    expect(after.version).toBeGreaterThan(before.version);
    // A business owns nothing; a person has no owners (null) and names what it owns.
    expect(after.beneficialOwnerOf).toEqual([]);
    const owning = await read(person);
    expect(owning.beneficialOwners).toBeNull();
    expect(owning.beneficialOwnerOf).toEqual([
      {
        businessCustomerId: business,
        prongs: ['OWNERSHIP', 'CONTROL'],
        ownershipPercentage: '40.00',
        title: 'CEO',
        addedAt: owner.addedAt,
        business: { customerId: business, business: { legalName: expect.any(String) } },
      },
    ]);
    // REST answers the same owner.
    const rest = await service.call('GET', `/sandbox/customer/${business}/beneficial-owner`);
    expect(rest.json.data.beneficialOwners).toEqual([
      {
        customerId: person,
        prongs: ['OWNERSHIP', 'CONTROL'],
        ownershipPercentage: '40.00',
        title: 'CEO',
        addedAt: owner.addedAt,
      },
    ]);
  });

  it('a CONTROL owner has no percentage; explicit nulls are absent values; owners list oldest first', async () => {
    const [business, first, second] = [await newBusiness(), await newPerson(), await newPerson()];
    data(await add(business, { customerId: first, prongs: ['CONTROL'], ownershipPercentage: null, title: null }));
    data(await add(business, { customerId: second, prongs: ['OWNERSHIP'], ownershipPercentage: '33.33' }));
    const owners = (await read(business)).beneficialOwners as Record<string, unknown>[];
    expect(
      owners.map(({ customerId, prongs, ownershipPercentage, title }) => ({
        customerId,
        prongs,
        ownershipPercentage,
        title,
      })),
    ).toEqual([
      { customerId: first, prongs: ['CONTROL'], ownershipPercentage: null, title: null },
      { customerId: second, prongs: ['OWNERSHIP'], ownershipPercentage: '33.33', title: null },
    ]);
  });

  it("a mutation's answer reads both sides as they are after it: the new lists and the business's new version", async () => {
    const [business, first, second] = [await newBusiness(), await newPerson(), await newPerson()];
    data(await add(business, { customerId: first, prongs: ['CONTROL'] }));
    const { version } = await read(business);
    const answer = data(
      await graphql(
        service,
        `
          mutation ($b: ID!, $input: AddBeneficialOwnerInput!) {
            addBeneficialOwner(businessCustomerId: $b, input: $input) {
              customer {
                beneficialOwnerOf {
                  business {
                    version
                    beneficialOwners {
                      customerId
                    }
                  }
                }
              }
            }
          }
        `,
        { b: business, input: { customerId: second, prongs: ['CONTROL'] } },
      ),
    ).addBeneficialOwner;
    const [ownership] = answer.customer.beneficialOwnerOf;
    expect(ownership.business.beneficialOwners).toEqual([{ customerId: first }, { customerId: second }]);
    expect(ownership.business.version).toBeGreaterThan(version);
  });
});

describe('removeBeneficialOwner', () => {
  it("answers the owner's id; both lists are empty again, and the version moved", async () => {
    const [business, person] = [await newBusiness(), await newPerson()];
    data(await add(business, { customerId: person, prongs: ['OWNERSHIP'], ownershipPercentage: '25' }));
    const { version } = await read(business);
    expect(data(await graphql(service, REMOVE, { b: business, o: person })).removeBeneficialOwner).toBe(person);
    const after = await read(business);
    expect(after.beneficialOwners).toEqual([]);
    expect(after.version).toBeGreaterThan(version);
    expect((await read(person)).beneficialOwnerOf).toEqual([]);
  });
});

describe('refusals: the domain codes through the one mapping, nothing changed', () => {
  it('every rule of the addition', async () => {
    const [business, other, person, second] = [
      await newBusiness(),
      await newBusiness(),
      await newPerson(),
      await newPerson(),
    ];
    data(await add(business, { customerId: person, prongs: ['OWNERSHIP'], ownershipPercentage: '80' }));
    const unknown = '01900000-0000-7000-8000-000000000000';
    await expectRefused(() => add(person, { customerId: second, prongs: ['CONTROL'] }), 'NOT_A_BUSINESS');
    await expectRefused(() => add(business, { customerId: other, prongs: ['CONTROL'] }), 'OWNER_NOT_AN_INDIVIDUAL');
    await expectRefused(() => add(business, { customerId: business, prongs: ['CONTROL'] }), 'OWNER_IS_THE_BUSINESS');
    const over = await expectRefused(
      () => add(business, { customerId: second, prongs: ['OWNERSHIP'], ownershipPercentage: '20.01' }),
      'OWNERSHIP_OVER_100',
    );
    expect(over.json.errors[0].message).toContain('80.00');
    await expectRefused(() => add(business, { customerId: person, prongs: ['CONTROL'] }), 'BENEFICIAL_OWNER_EXISTS');
    await expectRefused(() => add(unknown, { customerId: person, prongs: ['CONTROL'] }), 'CUSTOMER_NOT_FOUND');
    await expectRefused(() => add(business, { customerId: unknown, prongs: ['CONTROL'] }), 'CUSTOMER_NOT_FOUND');
    const invalid = await expectRefused(
      () => add(business, { customerId: second, prongs: ['OWNERSHIP'] }),
      'VALIDATION_FAILED',
    );
    expect(JSON.stringify(invalid.json.errors[0].extensions.details)).toContain('ownershipPercentage');
    await expectRefused(
      () => add(business, { customerId: second, prongs: ['CONTROL'], ownershipPercentage: '10' }),
      'VALIDATION_FAILED',
    );
    await expectRefused(
      () => add(business, { customerId: second, prongs: ['OWNERSHIP'], ownershipPercentage: '100.001' }),
      'VALIDATION_FAILED',
    );
    await expectRefused(
      () => add(business, { customerId: second, prongs: ['CONTROL'], title: 'x'.repeat(101) }),
      'VALIDATION_FAILED',
    );
    // The schema refuses an unknown prong before the domain: nothing changes either.
    const before = await snapshot();
    const prong = await add(business, { customerId: second, prongs: ['VOTING'] });
    expect(errorCodes(prong)).toEqual(['BAD_USER_INPUT']);
    expect(await snapshot()).toEqual(before);
  });

  it('BENEFICIAL_OWNER_LIMIT at 50 owners', async () => {
    const business = await newBusiness();
    const people: string[] = [];
    for (let i = 0; i < 51; i++) people.push(await newPerson());
    for (const person of people.slice(0, 50)) data(await add(business, { customerId: person, prongs: ['CONTROL'] }));
    await expectRefused(
      () => add(business, { customerId: people[50]!, prongs: ['CONTROL'] }),
      'BENEFICIAL_OWNER_LIMIT',
    );
    expect((await read(business)).beneficialOwners).toHaveLength(50);
  }, 180_000);

  it('every rule of the removal', async () => {
    const [business, person] = [await newBusiness(), await newPerson()];
    const remove = (b: string, o: string) => graphql(service, REMOVE, { b, o });
    await expectRefused(() => remove(business, person), 'BENEFICIAL_OWNER_NOT_FOUND');
    await expectRefused(() => remove(person, business), 'NOT_A_BUSINESS');
    await expectRefused(() => remove('01900000-0000-7000-8000-000000000000', person), 'CUSTOMER_NOT_FOUND');
  });

  it('a person who owns a business cannot be deleted: CUSTOMER_IS_A_BENEFICIAL_OWNER', async () => {
    const [business, person] = [await newBusiness(), await newPerson()];
    data(await add(business, { customerId: person, prongs: ['CONTROL'] }));
    await expectRefused(
      () => graphql(service, 'mutation($id: ID!) { deleteCustomer(customerId: $id) }', { id: person }),
      'CUSTOMER_IS_A_BENEFICIAL_OWNER',
    );
  });
});

describe('scopes', () => {
  it('the mutations need customers:write; a write alone answers the ids, every other field needs customers:read', async () => {
    const [business, person] = [await newBusiness(), await newPerson()];
    const refused = await expectRefused(
      () =>
        graphql(service, ADD, { b: business, input: { customerId: person, prongs: ['CONTROL'] } }, as(tokens.reader)),
      'FORBIDDEN',
    );
    expect(refused.json.errors[0].message).toContain('customers:write');
    await expectRefused(() => graphql(service, REMOVE, { b: business, o: person }, as(tokens.reader)), 'FORBIDDEN');

    const written = await graphql(
      service,
      'mutation($b: ID!, $input: AddBeneficialOwnerInput!) { addBeneficialOwner(businessCustomerId: $b, input: $input) { customerId prongs } }',
      { b: business, input: { customerId: person, prongs: ['CONTROL'] } },
      as(tokens.writer),
    );
    expect(errorCodes(written)).toEqual(['FORBIDDEN']);
    expect(written.json.errors[0].path).toEqual(['addBeneficialOwner', 'prongs']);
    expect((await read(business)).beneficialOwners).toHaveLength(1);
    const ids = await graphql(
      service,
      'mutation($b: ID!, $o: ID!) { removeBeneficialOwner(businessCustomerId: $b, ownerCustomerId: $o) }',
      { b: business, o: person },
      as(tokens.writer),
    );
    expect(data(ids).removeBeneficialOwner).toBe(person);
  });

  it('the fields need customers:read: a reader gets them, a token without it FORBIDDEN', async () => {
    const [business, person] = [await newBusiness(), await newPerson()];
    data(await add(business, { customerId: person, prongs: ['CONTROL'] }));
    const reader = await graphql(service, READ, { id: business }, as(tokens.reader));
    expect(data(reader).customer.beneficialOwners).toHaveLength(1);
    const eventsOnly = await graphql(
      service,
      'query($id: ID!) { customer(customerId: $id) { beneficialOwners { customerId } } }',
      { id: business },
      as(tokens.eventsOnly),
    );
    expect(errorCodes(eventsOnly)).toEqual(['FORBIDDEN']);
  });
});

describe('events', () => {
  it('exposes the owner fields of customer.beneficial_owner_added / _removed, withheld without customers:read', async () => {
    const [business, person] = [await newBusiness(), await newPerson()];
    data(
      await add(business, {
        customerId: person,
        prongs: ['OWNERSHIP', 'CONTROL'],
        ownershipPercentage: '50',
        title: 'COO',
      }),
    );
    data(await graphql(service, REMOVE, { b: business, o: person }));
    const EVENTS = `{ events(types: ["customer.beneficial_owner_added", "customer.beneficial_owner_removed"], first: 100) {
      events { type resourceId customerId ownerCustomerId prongs ownershipPercentage title changedFields requiredScope }
    } }`;
    const eventsOf = async (token: string) =>
      (
        await eventually(
          () => graphql(service, EVENTS, undefined, as(token)),
          (result) =>
            result.status === 200 &&
            result.json.data?.events.events.filter((event: { resourceId: string }) => event.resourceId === business)
              .length === 2,
        )
      ).json.data.events.events.filter((event: { resourceId: string }) => event.resourceId === business);
    const shown = {
      resourceId: business,
      customerId: business,
      ownerCustomerId: person,
      prongs: ['OWNERSHIP', 'CONTROL'],
      ownershipPercentage: '50.00',
      title: 'COO',
      changedFields: ['beneficialOwners'],
      requiredScope: null,
    };
    expect(await eventsOf(tokens.eventsAndCustomers)).toEqual([
      { type: 'customer.beneficial_owner_added', ...shown },
      { type: 'customer.beneficial_owner_removed', ...shown },
    ]);
    const withheld = {
      resourceId: business,
      customerId: business,
      ownerCustomerId: null,
      prongs: null,
      ownershipPercentage: null,
      title: null,
      changedFields: ['beneficialOwners'],
      requiredScope: 'customers:read',
    };
    expect(await eventsOf(tokens.eventsOnly)).toEqual([
      { type: 'customer.beneficial_owner_added', ...withheld },
      { type: 'customer.beneficial_owner_removed', ...withheld },
    ]);
  });
});

describe('no N+1', () => {
  it('a page of businesses with their owners, and of people with what they own: a constant number of statements', async () => {
    const statementsOf = async (businesses: number) => {
      const run = `Owned${randomInt(1_000_000_000)}`;
      for (let i = 0; i < businesses; i++) {
        const business = await newBusiness(`${run} ${i} LLC`);
        for (const share of ['30', '20']) {
          const person = await newPerson(run);
          data(await add(business, { customerId: person, prongs: ['OWNERSHIP'], ownershipPercentage: share }));
        }
      }
      service.statements.count = 0;
      service.statements.names = [];
      const owners = await graphql(
        service,
        `
          query ($n: String) {
            customers(filter: { legalName: $n }, first: 10) {
              nodes {
                customerId
                beneficialOwners {
                  ownershipPercentage
                  customer {
                    customerId
                    firstName
                  }
                }
              }
            }
          }
        `,
        { n: run },
      );
      const ownerStatements = service.statements.count;
      const ownerNames = [...service.statements.names].sort();
      service.statements.names = [];
      const businessNodes = data(owners).customers.nodes as { beneficialOwners: { customer: unknown }[] }[];
      expect(businessNodes).toHaveLength(businesses);
      for (const node of businessNodes) {
        expect(node.beneficialOwners).toHaveLength(2);
        expect(node.beneficialOwners.every((owner) => owner.customer !== null)).toBe(true);
      }
      service.statements.count = 0;
      const owned = await graphql(
        service,
        `
          query ($n: String) {
            customers(filter: { lastName: $n }, first: 10) {
              nodes {
                customerId
                beneficialOwnerOf {
                  ownershipPercentage
                  business {
                    customerId
                    business {
                      legalName
                    }
                  }
                }
              }
            }
          }
        `,
        { n: run },
      );
      const ownedStatements = service.statements.count;
      const ownedNames = [...service.statements.names].sort();
      const personNodes = data(owned).customers.nodes as { beneficialOwnerOf: { business: unknown }[] }[];
      expect(personNodes).toHaveLength(2 * businesses);
      for (const node of personNodes) {
        expect(node.beneficialOwnerOf).toHaveLength(1);
        expect(node.beneficialOwnerOf[0]!.business).not.toBeNull();
      }
      return { ownerStatements, ownedStatements, ownerNames, ownedNames };
    };
    const small = await statementsOf(2);
    const large = await statementsOf(5);
    expect(large).toEqual(small);
    // The page (unnamed), its businesses' profiles, the owners of all of them in one statement, their customers in one.
    expect(small.ownerStatements).toBe(4);
    expect(small.ownerNames).toEqual(
      ['', 'cas_beneficial_owner_list_of_many', 'cas_business_profiles_by_ids', 'cas_customer_find_by_ids'].sort(),
    );
    // The page of people, what all of them own in one statement, those businesses in one, with their profiles.
    expect(small.ownedStatements).toBe(4);
    expect(small.ownedNames).toEqual(
      [
        '',
        'cas_beneficial_owner_ownerships_of_many',
        'cas_business_profiles_by_ids',
        'cas_customer_find_by_ids',
      ].sort(),
    );
  }, 180_000);
});

describe('cost', () => {
  it('the lists are sized by their bounds: 50 owners, 100 businesses owned', () => {
    const estimate = costEstimator(buildGraphqlSchema());
    const cost = (query: string) => {
      const document = parse(query);
      return estimate(document, document.definitions[0] as OperationDefinitionNode, { id: 'x' });
    };
    const base = cost('query($id: ID!) { customer(customerId: $id) { customerId } }');
    expect(cost('query($id: ID!) { customer(customerId: $id) { beneficialOwners { customerId } } }')).toBe(
      base! - 1 + 50 * 2,
    );
    expect(cost('query($id: ID!) { customer(customerId: $id) { beneficialOwnerOf { businessCustomerId } } }')).toBe(
      base! - 1 + 100 * 2,
    );
  });
});
