import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { issueApiToken } from '../support/api-tokens.js';
import { startTestService, type TestService } from '../support/service.js';
import { createAccount, createCustomer, errorCodes, graphql } from './helpers.js';

/**
 * Look-ahead (src/graphql/loaders.ts): a root customer or account whose selection walks nested
 * customers/accounts is read with everything below it in one statement (up to 4 links; deeper levels
 * are read level by level). The answers must be exactly those of level-by-level loading, in the same
 * order, and scopes must still be enforced field by field.
 */
let service: TestService;
let owner: string;
let coOwner: string;
let shared: string;
beforeAll(async () => {
  // Five links deep, every list at the most it can hold, is a cost of about 1.2 billion: the limit is lifted here.
  service = await startTestService({ GRAPHQL_MAX_COST: '1000000000000', GRAPHQL_MAX_DEPTH: '12' });
  [owner, coOwner] = await Promise.all([
    createCustomer(service, buildCustomerInput()),
    createCustomer(service, buildCustomerInput()),
  ]);
  shared = await createAccount(service, buildAccountInput([owner, coOwner], { name: 'Joint' }));
  await createAccount(service, buildAccountInput([owner], { name: 'Own' }));
  await createAccount(service, buildAccountInput([coOwner], { name: 'Theirs' }));
});
afterAll(async () => service?.stop());

async function counted(query: string, variables: Record<string, unknown>, headers?: Record<string, string>) {
  service.statements.count = 0;
  service.statements.names = [];
  const result = await graphql(service, query, variables, { headers });
  return { result, statements: service.statements.count, names: service.statements.names };
}

type Node = {
  customerId?: string;
  accountId?: string;
  accountIds?: string[];
  customerIds?: string[];
  accounts?: Node[];
  customers?: Node[];
};

/** Every nested list holds exactly the records, in the order, of the parent's id list. */
function expectListsMatchIds(node: Node): void {
  if (node.accounts) {
    expect(node.accounts.map((account) => account.accountId)).toEqual(node.accountIds);
    node.accounts.forEach(expectListsMatchIds);
  }
  if (node.customers) {
    expect(node.customers.map((customer) => customer.customerId)).toEqual(node.customerIds);
    node.customers.forEach(expectListsMatchIds);
  }
}

describe('look-ahead from the selection set', () => {
  it('reads customer -> accounts -> customers -> accounts in one statement, lists in the order of the id lists', async () => {
    const { result, statements } = await counted(
      `query($id: ID!) { customer(customerId: $id) { customerId accountIds accounts { accountId customerIds customers { customerId accountIds accounts { accountId name } } } } }`,
      { id: owner },
    );
    expect(result.json.errors).toBeUndefined();
    expect(statements).toBe(1);
    const customer = result.json.data.customer as Node;
    expect(customer.accounts).toHaveLength(2);
    expectListsMatchIds(customer);
  });

  it('follows fragments and inline fragments, and starts from an account as well', async () => {
    const { result, statements } = await counted(
      `query($id: ID!) { account(accountId: $id) { ...Owners } }
       fragment Owners on Account { accountId customerIds customers { ... on Customer { customerId accountIds accounts { accountId } } } }`,
      { id: shared },
    );
    expect(result.json.errors).toBeUndefined();
    expect(statements).toBe(1);
    expectListsMatchIds(result.json.data.account as Node);
  });

  it('reads levels beyond 4 links level by level, with the same answers', async () => {
    const deep = `query($id: ID!) { customer(customerId: $id) { customerId accountIds accounts { accountId customerIds customers {
      customerId accountIds accounts { accountId customerIds customers { customerId accountIds accounts { accountId } } } } } } }`;
    // A chain c1 -J1- c2 -J2- c3 -J3- c4: from c1, J3 is 5 links away.
    const chain = await Promise.all(Array.from({ length: 4 }, () => createCustomer(service, buildCustomerInput())));
    for (let i = 0; i < 3; i++)
      await createAccount(service, buildAccountInput([chain[i]!, chain[i + 1]!], { name: `J${i + 1}` }));
    const { result, statements } = await counted(deep, { id: chain[0] });
    expect(result.json.errors).toBeUndefined();
    expect(statements).toBe(2);
    expectListsMatchIds(result.json.data.customer as Node);
    const fifthLevel = JSON.stringify(result.json.data).match(/"accountId":"[^"]+"/g)!;
    expect(new Set(fifthLevel).size).toBe(3);
  });

  it('batches root fields of one request: each kind of root walked by its own service call, the walks one statement in the store', async () => {
    const { result, statements } = await counted(
      `query($c: ID!, $a: ID!, $d: ID!) {
         a: customer(customerId: $c) { accountIds accounts { accountId } }
         b: customer(customerId: $d) { accountIds accounts { accountId } }
         c: account(accountId: $a) { customerIds customers { customerId } } }`,
      { c: owner, d: coOwner, a: shared },
    );
    expect(result.json.errors).toBeUndefined();
    expect(statements).toBe(1);
    for (const node of Object.values(result.json.data as Record<string, Node>)) expectListsMatchIds(node);
  });

  it('reads ids and links alone, in one walk, when the selection asks for nothing else; whole records otherwise', async () => {
    const idsOnly = `query($id: ID!) { customer(customerId: $id) { customerId id __typename accounts { accountId customers {
      ... on Customer { customerId accounts { ...AccountId } } } } } }
      fragment AccountId on Account { accountId id }`;
    const slim = await counted(idsOnly, { id: owner });
    expect(slim.result.json.errors).toBeUndefined();
    expect(slim.names).toEqual(['cas_links_ids']);
    const whole = await counted(idsOnly.replace('{ accountId id }', '{ accountId id name }'), { id: owner });
    expect(whole.names).toEqual(['cas_links_records']);
    const withoutNames = JSON.parse(
      JSON.stringify(whole.result.json.data, (key, value: unknown) => (key === 'name' ? undefined : value)),
    );
    expect(slim.result.json.data).toEqual(withoutNames);
    expect((slim.result.json.data.customer as { accounts: Node[] }).accounts).toHaveLength(2);
    // A list's relation read takes the same shapes: ids alone below the page, whole records when a field needs them.
    const page = (below: string) => `{ customers(first: 50) { nodes { customerId accounts { ${below} } } } }`;
    const idsBelowPage = await counted(page('accountId customers { customerId }'), {});
    expect(idsBelowPage.result.json.errors).toBeUndefined();
    expect(idsBelowPage.names.filter((name) => name.startsWith('cas_links'))).toEqual(['cas_links_ids']);
    const recordsBelowPage = await counted(page('accountId name customers { customerId }'), {});
    expect(recordsBelowPage.names.filter((name) => name.startsWith('cas_links'))).toEqual(['cas_links_records']);
  });

  it('walks for any selection with nested records, and reads a record alone by id', async () => {
    for (const selection of [
      'customerId accounts { accountId customers { customerId firstName } }',
      'customerId accounts { accountId customers { customerId lastName @skip(if: true) } }',
      'customerId accounts { accountId ... on Node { id } }',
      'customerId accountIds accounts { accountId }',
    ]) {
      const { result, names } = await counted(`query($id: ID!) { customer(customerId: $id) { ${selection} } }`, {
        id: owner,
      });
      expect(result.json.errors, selection).toBeUndefined();
      expect(names, selection).toEqual(['cas_links_records']);
    }
    // Without nested records, an ids-only root is one plain look-up of ids and links.
    const { result, names } = await counted(`query($id: ID!) { account(accountId: $id) { accountId } }`, {
      id: shared,
    });
    expect(result.json.data.account).toEqual({ accountId: shared });
    expect(names).toEqual(['cas_account_find_by_ids']);
    const missing = await counted(
      `query($id: ID!) { customer(customerId: $id) { customerId accounts { accountId } } }`,
      {
        id: '01900000-0000-7000-8000-000000000000',
      },
    );
    expect(missing.result.json.data.customer).toBeNull();
  });

  it('still refuses nested accounts to a token without accounts:read, and answers its customers', async () => {
    const { token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read'],
    });
    const headers = { authorization: `Bearer ${token}` };
    const nested = await counted(
      `query($id: ID!) { customer(customerId: $id) { customerId accounts { accountId } } }`,
      { id: owner },
      headers,
    );
    expect(errorCodes(nested.result)).toEqual(['FORBIDDEN']);
    const mixed = await counted(
      `query($id: ID!, $a: ID!) { customer(customerId: $id) { customerId } account(accountId: $a) { accountId customers { customerId } } }`,
      { id: owner, a: shared },
      headers,
    );
    expect(mixed.result.json.data?.customer).toEqual({ customerId: owner });
    expect(errorCodes(mixed.result)).toEqual(['FORBIDDEN']);
  });
});
