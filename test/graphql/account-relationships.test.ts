import { type OperationDefinitionNode, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costEstimator } from '../../src/graphql/limits.js';
import { buildGraphqlSchema } from '../../src/graphql/schema.js';
import { issueApiToken } from '../support/api-tokens.js';
import { expectNoChange as expectNoChangeIn } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { buildBusinessInput } from '../features/businesses/support.js';
import { startTestService, type CallResult, type TestService } from '../support/service.js';
import { createAccount, createCustomer, errorCodes, graphql } from './helpers.js';

/**
 * Account relationships with roles over GraphQL (docs/adr/0093), through HTTP against the real database: the
 * same domain rules as REST (docs/adr/0091), `Account.relationships` listing every customer with its role.
 */
let service: TestService;
const tokens: Record<
  'accountsOnly' | 'readers' | 'customersWriteOnly' | 'accountsWrite' | 'eventsOnly' | 'eventsAndAccounts',
  string
> = {
  eventsOnly: '',
  eventsAndAccounts: '',
  accountsOnly: '',
  readers: '',
  customersWriteOnly: '',
  accountsWrite: '',
};
beforeAll(async () => {
  service = await startTestService({ EVENT_SEQUENCER_INTERVAL_MS: '20' });
  const issue = async (scopes: Parameters<typeof issueApiToken>[1]['scopes']) =>
    (await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes })).token;
  tokens.accountsOnly = await issue(['accounts:read']);
  tokens.readers = await issue(['accounts:read', 'customers:read']);
  tokens.customersWriteOnly = await issue(['customers:write', 'accounts:read', 'customers:read']);
  tokens.accountsWrite = await issue(['accounts:write']);
  tokens.eventsOnly = await issue(['events:read']);
  tokens.eventsAndAccounts = await issue(['events:read', 'accounts:read']);
});
afterAll(async () => service?.stop());

const as = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });
const expectNoChange = <T>(request: () => Promise<T>): Promise<T> => expectNoChangeIn(service.database.pool, request);

/** A business customer, created through GraphQL (docs/adr/0095). */
async function newBusiness(): Promise<string> {
  const { customerType: _business, ...input } = buildBusinessInput();
  const result = await graphql(
    service,
    'mutation($input: CreateBusinessCustomerInput!) { createBusinessCustomer(input: $input) { customerId } }',
    { input },
  );
  expect(result.json.errors).toBeUndefined();
  return result.json.data.createBusinessCustomer.customerId as string;
}

/** The links as stored, in the account's order. */
async function storedRoles(accountId: string): Promise<{ customerId: string; role: string }[]> {
  const { rows } = await service.database.pool.query<{ customerId: string; role: string }>(
    'SELECT customer_id::text AS "customerId", role FROM account_customers WHERE account_id = $1 ORDER BY position',
    [accountId],
  );
  return rows;
}

const newCustomer = () => createCustomer(service, buildCustomerInput());

/** The data of a response without errors. */
function data(result: CallResult) {
  expect(result.status).toBe(200);
  expect(errorCodes(result)).toEqual([]);
  return result.json.data;
}

const RELATIONSHIPS = 'accountId version customerIds relationships { customerId role customer { customerId } }';
const READ = `query($id: ID!) { account(accountId: $id) { ${RELATIONSHIPS} } }`;
const ADD = `mutation($a: ID!, $c: ID!, $role: AccountRole) { addAccountCustomer(accountId: $a, customerId: $c, role: $role) { ${RELATIONSHIPS} } }`;
const SET = `mutation($a: ID!, $c: ID!, $role: AccountRole!, $v: Int) {
  setAccountRelationship(accountId: $a, customerId: $c, role: $role, expectedVersion: $v) { ${RELATIONSHIPS} }
}`;
const REMOVE = `mutation($a: ID!, $c: ID!) { removeAccountCustomer(accountId: $a, customerId: $c) { ${RELATIONSHIPS} } }`;
const CREATE = `mutation($input: CreateAccountInput!, $key: String) { createAccount(input: $input, idempotencyKey: $key) { ${RELATIONSHIPS} } }`;

const read = async (accountId: string) => data(await graphql(service, READ, { id: accountId })).account;
const rel = (customerId: string, role: string) => ({ customerId, role, customer: { customerId } });

describe('Account.relationships', () => {
  it('lists every customer as an OWNER when no other role is given, in customerIds order', async () => {
    const [first, second] = [await newCustomer(), await newCustomer()];
    const accountId = await createAccount(service, buildAccountInput([first, second]));
    expect((await read(accountId)).relationships).toEqual([rel(first, 'OWNER'), rel(second, 'OWNER')]);
  });

  it('lists the owners and the other roles, on a read, a page and through a customer', async () => {
    const [owner, beneficiary] = [await newCustomer(), await newCustomer()];
    const accountId = await createAccount(service, buildAccountInput([owner]));
    data(await graphql(service, ADD, { a: accountId, c: beneficiary, role: 'BENEFICIARY' }));
    const expected = [rel(owner, 'OWNER'), rel(beneficiary, 'BENEFICIARY')];
    expect((await read(accountId)).relationships).toEqual(expected);
    const page = data(
      await graphql(
        service,
        `
          query ($c: ID) {
            accounts(filter: { customerId: $c }) {
              nodes {
                accountId
                relationships {
                  customerId
                  role
                  customer {
                    customerId
                  }
                }
              }
            }
          }
        `,
        { c: beneficiary },
      ),
    );
    expect(page.accounts.nodes).toEqual([{ accountId, relationships: expected }]);
    const through = data(
      await graphql(
        service,
        `
          query ($id: ID!) {
            customer(customerId: $id) {
              accounts {
                accountId
                relationships {
                  role
                  customer {
                    firstName
                    accountIds
                  }
                }
              }
            }
          }
        `,
        { id: beneficiary },
      ),
    );
    const [account] = through.customer.accounts;
    expect(account.relationships.map((r: { role: string }) => r.role)).toEqual(['OWNER', 'BENEFICIARY']);
    expect(account.relationships[1].customer.accountIds).toEqual([accountId]);
    expect(typeof account.relationships[0].customer.firstName).toBe('string');
  });
});

describe('addAccountCustomer with a role', () => {
  it('links an OWNER without a role, and each other role when given one', async () => {
    const owner = await newCustomer();
    const accountId = await createAccount(service, buildAccountInput([owner]));
    const joint = await newCustomer();
    const added = data(await graphql(service, ADD, { a: accountId, c: joint })).addAccountCustomer;
    expect(added.relationships).toEqual([rel(owner, 'OWNER'), rel(joint, 'OWNER')]);
    const expected = [rel(owner, 'OWNER'), rel(joint, 'OWNER')];
    // An explicit null role is an absent one.
    const nullRole = await newCustomer();
    const answered = data(await graphql(service, ADD, { a: accountId, c: nullRole, role: null })).addAccountCustomer;
    expected.push(rel(nullRole, 'OWNER'));
    expect(answered.relationships).toEqual(expected);
    for (const role of ['AUTHORIZED_SIGNER', 'AUTHORIZED_USER', 'BENEFICIARY', 'CUSTODIAN']) {
      const customerId = await newCustomer();
      const answer = data(await graphql(service, ADD, { a: accountId, c: customerId, role })).addAccountCustomer;
      expected.push(rel(customerId, role));
      expect(answer.relationships).toEqual(expected);
    }
    expect(await storedRoles(accountId)).toEqual(expected.map(({ customerId, role }) => ({ customerId, role })));
  });

  it('the same customer with the same role changes nothing; with another role: CUSTOMER_ALREADY_LINKED, nothing changed', async () => {
    const [owner, signer] = [await newCustomer(), await newCustomer()];
    const accountId = await createAccount(service, buildAccountInput([owner]));
    const first = data(
      await graphql(service, ADD, { a: accountId, c: signer, role: 'AUTHORIZED_SIGNER' }),
    ).addAccountCustomer;
    const again = data(
      await graphql(service, ADD, { a: accountId, c: signer, role: 'AUTHORIZED_SIGNER' }),
    ).addAccountCustomer;
    expect(again).toEqual(first);
    const refused = await expectNoChange(() => graphql(service, ADD, { a: accountId, c: signer, role: 'CUSTODIAN' }));
    expect(errorCodes(refused)).toEqual(['CUSTOMER_ALREADY_LINKED']);
    expect(refused.json.data).toBeNull();
    expect((await read(accountId)).relationships).toEqual(first.relationships);
  });

  it('a BUSINESS customer as a signer or user: ROLE_REQUIRES_INDIVIDUAL, nothing changed; as a custodian it is linked', async () => {
    const owner = await newCustomer();
    const accountId = await createAccount(service, buildAccountInput([owner]));
    const business = await newBusiness();
    for (const role of ['AUTHORIZED_SIGNER', 'AUTHORIZED_USER']) {
      const refused = await expectNoChange(() => graphql(service, ADD, { a: accountId, c: business, role }));
      expect(errorCodes(refused)).toEqual(['ROLE_REQUIRES_INDIVIDUAL']);
    }
    expect(await storedRoles(accountId)).toEqual([{ customerId: owner, role: 'OWNER' }]);
    data(await graphql(service, ADD, { a: accountId, c: business, role: 'CUSTODIAN' }));
    expect(await storedRoles(accountId)).toEqual([
      { customerId: owner, role: 'OWNER' },
      { customerId: business, role: 'CUSTODIAN' },
    ]);
  });

  it('an unknown role is refused by the schema, nothing executed', async () => {
    const accountId = await createAccount(service, buildAccountInput([await newCustomer()]));
    const customerId = await newCustomer();
    const refused = await expectNoChange(() => graphql(service, ADD, { a: accountId, c: customerId, role: 'KING' }));
    expect(refused.status).toBe(400);
    expect(errorCodes(refused)).toEqual(['BAD_USER_INPUT']);
    expect(JSON.stringify(refused.json)).not.toContain('KING');
  });
});

describe('setAccountRelationship', () => {
  it('changes a role, moves the version, and the same role again changes nothing', async () => {
    const [owner, other] = [await newCustomer(), await newCustomer()];
    const accountId = await createAccount(service, buildAccountInput([owner, other]));
    const before = await read(accountId);
    const changed = data(
      await graphql(service, SET, { a: accountId, c: other, role: 'AUTHORIZED_USER', v: before.version }),
    ).setAccountRelationship;
    expect(changed.relationships).toEqual([rel(owner, 'OWNER'), rel(other, 'AUTHORIZED_USER')]);
    expect(changed.version).toBeGreaterThan(before.version);
    expect(await read(accountId)).toEqual(changed);
    const same = data(await graphql(service, SET, { a: accountId, c: other, role: 'AUTHORIZED_USER' }));
    expect(same.setAccountRelationship).toEqual(changed);
    // Back to OWNER: the account's customers are all owners again.
    const back = data(await graphql(service, SET, { a: accountId, c: other, role: 'OWNER' })).setAccountRelationship;
    expect(back.relationships).toEqual([rel(owner, 'OWNER'), rel(other, 'OWNER')]);
  });

  it('writes account.relationship_changed and its audit event', async () => {
    const [owner, other] = [await newCustomer(), await newCustomer()];
    const accountId = await createAccount(service, buildAccountInput([owner, other]));
    data(await graphql(service, SET, { a: accountId, c: other, role: 'BENEFICIARY' }));
    const { rows: events } = await service.database.pool.query(
      "SELECT payload FROM events WHERE type = 'account.relationship_changed' AND resource_id = $1",
      [accountId],
    );
    expect(events.map((row) => row.payload)).toEqual([
      expect.objectContaining({ accountId, customerId: other, role: 'BENEFICIARY' }),
    ]);
    const { rows: audits } = await service.database.pool.query(
      "SELECT 1 FROM audit_events WHERE operation = 'account.customer.role.set' AND resource_id = $1",
      [accountId],
    );
    expect(audits).toHaveLength(1);
  });

  it('the event reads over GraphQL with its role, which a token without accounts:read does not see', async () => {
    const [owner, other] = [await newCustomer(), await newCustomer()];
    const accountId = await createAccount(service, buildAccountInput([owner, other]));
    data(await graphql(service, SET, { a: accountId, c: other, role: 'CUSTODIAN' }));
    const EVENTS = `{ events(types: ["account.relationship_changed"], first: 100) { events { type accountId customerId role changedFields } } }`;
    const eventOf = async (token: string) =>
      (
        await eventually(
          () => graphql(service, EVENTS, undefined, as(token)),
          (result) =>
            result.status === 200 &&
            result.json.data?.events.events.some((event: { accountId: string }) => event.accountId === accountId),
        )
      ).json.data.events.events.filter((event: { accountId: string }) => event.accountId === accountId);
    const event = {
      type: 'account.relationship_changed',
      accountId,
      customerId: other,
      changedFields: ['relationships'],
    };
    expect(await eventOf(tokens.eventsAndAccounts)).toEqual([{ ...event, role: 'CUSTODIAN' }]);
    expect(await eventOf(tokens.eventsOnly)).toEqual([{ ...event, role: null }]);
  });

  it('the last OWNER keeps its role and cannot be removed: LAST_OWNER, nothing changed', async () => {
    const [owner, custodian] = [await newCustomer(), await newCustomer()];
    const accountId = await createAccount(service, buildAccountInput([owner]));
    data(await graphql(service, ADD, { a: accountId, c: custodian, role: 'CUSTODIAN' }));
    const before = await read(accountId);
    const demoted = await expectNoChange(() => graphql(service, SET, { a: accountId, c: owner, role: 'BENEFICIARY' }));
    expect(errorCodes(demoted)).toEqual(['LAST_OWNER']);
    expect(demoted.json.data).toBeNull();
    const removed = await expectNoChange(() => graphql(service, REMOVE, { a: accountId, c: owner }));
    expect(errorCodes(removed)).toEqual(['LAST_OWNER']);
    expect(await read(accountId)).toEqual(before);
  });

  it('a BUSINESS customer as a signer: ROLE_REQUIRES_INDIVIDUAL, nothing changed', async () => {
    const [owner, business] = [await newCustomer(), await newBusiness()];
    const accountId = await createAccount(service, buildAccountInput([owner, business]));
    const before = await read(accountId);
    const refused = await expectNoChange(() =>
      graphql(service, SET, { a: accountId, c: business, role: 'AUTHORIZED_SIGNER' }),
    );
    expect(errorCodes(refused)).toEqual(['ROLE_REQUIRES_INDIVIDUAL']);
    expect(await read(accountId)).toEqual(before);
  });

  it('a stale expectedVersion: PRECONDITION_FAILED; a customer not linked: CUSTOMER_NOT_FOUND; no account: ACCOUNT_NOT_FOUND', async () => {
    const [owner, other, stranger] = [await newCustomer(), await newCustomer(), await newCustomer()];
    const accountId = await createAccount(service, buildAccountInput([owner, other]));
    const before = await read(accountId);
    const stale = await expectNoChange(() =>
      graphql(service, SET, { a: accountId, c: other, role: 'BENEFICIARY', v: before.version - 1 }),
    );
    expect(errorCodes(stale)).toEqual(['PRECONDITION_FAILED']);
    const notLinked = await expectNoChange(() => graphql(service, SET, { a: accountId, c: stranger, role: 'OWNER' }));
    expect(errorCodes(notLinked)).toEqual(['CUSTOMER_NOT_FOUND']);
    const noAccount = await graphql(service, SET, {
      a: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e',
      c: other,
      role: 'OWNER',
    });
    expect(errorCodes(noAccount)).toEqual(['ACCOUNT_NOT_FOUND']);
    expect(await read(accountId)).toEqual(before);
  });
});

describe('createAccount with relationships', () => {
  it('gives the named customers their roles; the others, and every customer with a null list, are owners', async () => {
    const [owner, signer, beneficiary] = [await newCustomer(), await newCustomer(), await newCustomer()];
    const input = buildAccountInput([owner, signer, beneficiary]);
    const created = data(
      await graphql(service, CREATE, {
        input: {
          ...input,
          relationships: [
            { customerId: beneficiary, role: 'BENEFICIARY' },
            { customerId: signer, role: 'AUTHORIZED_SIGNER' },
          ],
        },
      }),
    ).createAccount;
    expect(created.relationships).toEqual([
      rel(owner, 'OWNER'),
      rel(signer, 'AUTHORIZED_SIGNER'),
      rel(beneficiary, 'BENEFICIARY'),
    ]);
    expect(await read(created.accountId)).toEqual(created);
    const plain = data(await graphql(service, CREATE, { input: { ...input, relationships: null } })).createAccount;
    expect(plain.relationships).toEqual([rel(owner, 'OWNER'), rel(signer, 'OWNER'), rel(beneficiary, 'OWNER')]);
  });

  it('a replay with the same idempotency key answers the first account with its roles', async () => {
    const [owner, user] = [await newCustomer(), await newCustomer()];
    const input = {
      ...buildAccountInput([owner, user]),
      relationships: [{ customerId: user, role: 'AUTHORIZED_USER' }],
    };
    const first = await graphql(service, CREATE, { input, key: `roles-${user}` });
    const again = await graphql(service, CREATE, { input, key: `roles-${user}` });
    expect(again.json.extensions.idempotentReplayed).toEqual(['createAccount']);
    expect(data(again).createAccount).toEqual(data(first).createAccount);
  });

  it('refuses, creating nothing: NOT_ASSOCIATED and OWNER_REQUIRED details, ROLE_REQUIRES_INDIVIDUAL per business', async () => {
    const [owner, outsider, business] = [await newCustomer(), await newCustomer(), await newBusiness()];
    const create = (relationships: unknown, ids = [owner, business]) =>
      expectNoChange(() => graphql(service, CREATE, { input: { ...buildAccountInput(ids), relationships } }));
    const notAssociated = await create([{ customerId: outsider, role: 'BENEFICIARY' }]);
    expect(errorCodes(notAssociated)).toEqual(['VALIDATION_FAILED']);
    expect(notAssociated.json.errors[0].extensions.details).toEqual([
      expect.objectContaining({ field: 'relationships.0.customerId', code: 'NOT_ASSOCIATED' }),
    ]);
    const noOwner = await create([{ customerId: owner, role: 'CUSTODIAN' }], [owner]);
    expect(errorCodes(noOwner)).toEqual(['VALIDATION_FAILED']);
    expect(noOwner.json.errors[0].extensions.details).toEqual([
      expect.objectContaining({ field: 'relationships', code: 'OWNER_REQUIRED' }),
    ]);
    const person = await create([{ customerId: business, role: 'AUTHORIZED_SIGNER' }]);
    expect(errorCodes(person)).toEqual(['ROLE_REQUIRES_INDIVIDUAL']);
    expect(person.json.errors[0].extensions.details).toEqual([
      expect.objectContaining({ field: 'relationships', code: 'ROLE_REQUIRES_INDIVIDUAL' }),
    ]);
  });
});

describe('scopes, as REST', () => {
  it('relationships needs accounts:read; its customer needs customers:read (null with FORBIDDEN), as Account.customers', async () => {
    const [owner, beneficiary] = [await newCustomer(), await newCustomer()];
    const accountId = await createAccount(service, buildAccountInput([owner]));
    data(await graphql(service, ADD, { a: accountId, c: beneficiary, role: 'BENEFICIARY' }));
    const roles = await graphql(
      service,
      'query($id: ID!) { account(accountId: $id) { relationships { customerId role } } }',
      { id: accountId },
      as(tokens.accountsOnly),
    );
    expect(data(roles).account.relationships).toEqual([
      { customerId: owner, role: 'OWNER' },
      { customerId: beneficiary, role: 'BENEFICIARY' },
    ]);
    const withCustomer = await graphql(service, READ, { id: accountId }, as(tokens.accountsOnly));
    expect(errorCodes(withCustomer)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    expect(withCustomer.json.errors[0].extensions.challenge).toEqual(
      expect.objectContaining({ scope: 'customers:read' }),
    );
    expect(withCustomer.json.data.account.relationships.map((r: { customer: unknown }) => r.customer)).toEqual([
      null,
      null,
    ]);
    expect(data(await graphql(service, READ, { id: accountId }, as(tokens.readers))).account.relationships).toEqual([
      rel(owner, 'OWNER'),
      rel(beneficiary, 'BENEFICIARY'),
    ]);
  });

  it('the mutations need accounts:write (FORBIDDEN, nothing changed); with it alone they work and answer the identity', async () => {
    const [owner, other, more] = [await newCustomer(), await newCustomer(), await newCustomer()];
    const accountId = await createAccount(service, buildAccountInput([owner, other]));
    const setRole = `mutation($a: ID!, $c: ID!) { setAccountRelationship(accountId: $a, customerId: $c, role: CUSTODIAN) { accountId } }`;
    const addRole = `mutation($a: ID!, $c: ID!) { addAccountCustomer(accountId: $a, customerId: $c, role: BENEFICIARY) { accountId } }`;
    for (const document of [setRole, addRole]) {
      const c = document === setRole ? other : more;
      const refused = await expectNoChange(() =>
        graphql(service, document, { a: accountId, c }, as(tokens.customersWriteOnly)),
      );
      expect(errorCodes(refused)).toEqual(['FORBIDDEN']);
      expect(refused.json.errors[0].extensions.challenge).toEqual(expect.objectContaining({ scope: 'accounts:write' }));
    }
    expect(await storedRoles(accountId)).toEqual([
      { customerId: owner, role: 'OWNER' },
      { customerId: other, role: 'OWNER' },
    ]);
    expect(data(await graphql(service, setRole, { a: accountId, c: other }, as(tokens.accountsWrite)))).toEqual({
      setAccountRelationship: { accountId },
    });
    data(await graphql(service, addRole, { a: accountId, c: more }, as(tokens.accountsWrite)));
    expect(await storedRoles(accountId)).toEqual([
      { customerId: owner, role: 'OWNER' },
      { customerId: other, role: 'CUSTODIAN' },
      { customerId: more, role: 'BENEFICIARY' },
    ]);
    // The roles are account data: accounts:write alone does not read them.
    const shaped = await graphql(
      service,
      `
        mutation ($a: ID!, $c: ID!) {
          setAccountRelationship(accountId: $a, customerId: $c, role: OWNER) {
            accountId
            relationships {
              role
            }
          }
        }
      `,
      { a: accountId, c: other },
      as(tokens.accountsWrite),
    );
    expect(errorCodes(shaped)).toEqual(['FORBIDDEN']);
    expect(shaped.json.errors[0].extensions.challenge).toEqual(expect.objectContaining({ scope: 'accounts:read' }));
  });
});

describe('no N+1', () => {
  const PAGE = `query($c: ID) { accounts(filter: { customerId: $c }) { nodes { relationships { role customer { customerId } } } } }`;

  /** A customer holding `accounts` accounts, each with two more customers of other roles; answers the page's statements. */
  async function statementsOfPage(accounts: number): Promise<number> {
    const holder = await newCustomer();
    for (let i = 0; i < accounts; i++) {
      const [beneficiary, signer] = [await newCustomer(), await newCustomer()];
      await createAccount(service, {
        ...buildAccountInput([holder, beneficiary, signer]),
        relationships: [
          { customerId: beneficiary, role: 'BENEFICIARY' },
          { customerId: signer, role: 'AUTHORIZED_SIGNER' },
        ],
      });
    }
    service.statements.count = 0;
    const result = await graphql(service, PAGE, { c: holder });
    const statements = service.statements.count;
    const nodes = data(result).accounts.nodes as { relationships: { role: string; customer: unknown }[] }[];
    expect(nodes).toHaveLength(accounts);
    for (const node of nodes) {
      expect(node.relationships.map((r) => r.role)).toEqual(['OWNER', 'BENEFICIARY', 'AUTHORIZED_SIGNER']);
      expect(node.relationships.every((r) => r.customer !== null)).toBe(true);
    }
    return statements;
  }

  it('a page of accounts with their relationships and customers: the page and one read of the customers, whatever its size', async () => {
    const small = await statementsOfPage(2);
    const large = await statementsOfPage(6);
    expect(small).toBe(2);
    expect(large).toBe(small);
  }, 120_000);
});

describe('no N+1 below a relationship', () => {
  it("a relationship's customer with its accounts: the account and one walk of the links, whatever the counts", async () => {
    const statementsOf = async (customers: number) => {
      const ids: string[] = [];
      for (let i = 0; i < customers; i++) ids.push(await newCustomer());
      for (const id of ids) await createAccount(service, buildAccountInput([id], { name: 'Own' }));
      const accountId = await createAccount(service, {
        ...buildAccountInput(ids),
        relationships: ids.slice(1).map((customerId) => ({ customerId, role: 'BENEFICIARY' })),
      });
      service.statements.count = 0;
      const result = await graphql(
        service,
        'query($id: ID!) { account(accountId: $id) { relationships { role customer { accounts { accountId } } } } }',
        { id: accountId },
      );
      const statements = service.statements.count;
      const relationships = data(result).account.relationships as { customer: { accounts: unknown[] } }[];
      expect(relationships).toHaveLength(customers);
      for (const relationship of relationships) expect(relationship.customer.accounts).toHaveLength(2);
      return statements;
    };
    const small = await statementsOf(2);
    expect(small).toBe(2);
    expect(await statementsOf(5)).toBe(small);
  });
});

describe('cost', () => {
  it('relationships is sized as Account.customers: 20 at the caps, the link bound of the environment below them', () => {
    const estimate = costEstimator(buildGraphqlSchema());
    const cost = (query: string, bounds?: { accountsPerCustomer: number; customersPerAccount: number }) => {
      const document = parse(query);
      return estimate(document, document.definitions[0] as OperationDefinitionNode, { id: 'x' }, bounds);
    };
    const customers = 'query($id: ID!) { account(accountId: $id) { customers { customerId } } }';
    const roles = 'query($id: ID!) { account(accountId: $id) { relationships { customerId } } }';
    expect(cost(roles)).toBe(1 + 20 * 2);
    expect(cost(roles)).toBe(cost(customers));
    expect(cost(roles, { accountsPerCustomer: 3, customersPerAccount: 2 })).toBe(1 + 2 * 2);
    // The customer below a relationship costs what a customer of `customers` does.
    expect(
      cost(
        'query($id: ID!) { account(accountId: $id) { relationships { role customer { accounts { accountId } } } } }',
      ),
    ).toBe(1 + 20 * (1 + 1 + 1 + 100 * 2));
  });
});
