import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { createAccount, createCustomer, errorCodes, graphql } from './helpers.js';

let service: TestService;
let customerIds: string[];
let accountIds: string[];
beforeAll(async () => {
  service = await startTestService();
  customerIds = [];
  for (let i = 0; i < 7; i += 1)
    customerIds.push(await createCustomer(service, buildCustomerInput({ preferredName: `P${i}` })));
  accountIds = [];
  for (let i = 0; i < 3; i += 1) accountIds.push(await createAccount(service, buildAccountInput([customerIds[i]!])));
});
afterAll(async () => service?.stop());

const CUSTOMERS = `query($first: Int, $after: String) {
  customers(first: $first, after: $after) {
    edges { cursor node { customerId } }
    nodes { customerId }
    pageInfo { hasNextPage endCursor }
  }
}`;

async function allPages(first: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let after: string | null = null;
  let pages = 0;
  for (;;) {
    const result = await graphql(service, CUSTOMERS, { first, after });
    expect(result.status).toBe(200);
    const connection = result.json.data.customers;
    pages += 1;
    expect(connection.nodes).toEqual(connection.edges.map((edge: { node: unknown }) => edge.node));
    ids.push(...connection.nodes.map((node: { customerId: string }) => node.customerId));
    if (connection.edges.length > 0) expect(connection.pageInfo.endCursor).toBe(connection.edges.at(-1).cursor);
    if (!connection.pageInfo.hasNextPage) return { ids, pages };
    after = connection.pageInfo.endCursor;
  }
}

describe('cursor pagination', () => {
  it('walks every customer once, in creation (id) order, whatever the page size', async () => {
    for (const size of [1, 3, 7, 100]) {
      const { ids, pages } = await allPages(size);
      expect(ids).toEqual(customerIds);
      expect(pages).toBe(Math.max(1, Math.ceil(customerIds.length / size)));
    }
  });

  it('a page stays stable when records are added after it', async () => {
    const first = await graphql(service, CUSTOMERS, { first: 2 });
    const cursor = first.json.data.customers.pageInfo.endCursor;
    const before = await graphql(service, CUSTOMERS, { first: 3, after: cursor });
    const extra = await createCustomer(service, buildCustomerInput());
    const after = await graphql(service, CUSTOMERS, { first: 3, after: cursor });
    expect(after.json.data.customers.nodes).toEqual(before.json.data.customers.nodes);
    customerIds.push(extra);
  });

  it('pages accounts the same way, each with its customers', async () => {
    const result = await graphql(
      service,
      '{ accounts(first: 2) { nodes { accountId customers { customerId } } pageInfo { hasNextPage endCursor } } }',
    );
    const page = result.json.data.accounts;
    expect(page.nodes.map((n: { accountId: string }) => n.accountId)).toEqual(accountIds.slice(0, 2));
    expect(page.nodes[0].customers).toEqual([{ customerId: customerIds[0] }]);
    expect(page.pageInfo.hasNextPage).toBe(true);
    const rest = await graphql(
      service,
      'query($after: String) { accounts(after: $after) { nodes { accountId } pageInfo { hasNextPage } } }',
      { after: page.pageInfo.endCursor },
    );
    expect(rest.json.data.accounts).toEqual({
      nodes: [{ accountId: accountIds[2] }],
      pageInfo: { hasNextPage: false },
    });
  });

  it('an empty environment has an empty first page with no cursor', async () => {
    const result = await graphql(service, CUSTOMERS, {}, { environment: 'production-like' });
    expect(result.json.data.customers).toEqual({
      edges: [],
      nodes: [],
      pageInfo: { hasNextPage: false, endCursor: null },
    });
  });

  it('refuses a mutation whose nested list asks for more than 100 before it writes: no write hidden behind a nulled answer', async () => {
    const accountId = accountIds[0]!;
    const mutation = `mutation($first: Int) { setAccountFlag(accountId: "${accountId}", flag: DEBITS_BLOCKED) { flags transactions(first: $first) { nodes { transactionId } } } }`;
    const audits = async () =>
      Number(
        (await service.database.pool.query("SELECT count(*) FROM audit_events WHERE operation = 'account.flag.set'"))
          .rows[0].count,
      );
    const before = await audits();
    for (const first of [150, 0]) {
      const refused = await graphql(service, mutation, { first });
      expect(refused.status).toBe(400);
      expect(refused.json.data).toBeUndefined();
      expect(refused.json.errors[0].extensions).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ field: 'first', code: 'OUT_OF_RANGE' }],
      });
    }
    expect(await audits()).toBe(before);
    const account = await graphql(service, `{ account(accountId: "${accountId}") { flags } }`);
    expect(account.json.data.account.flags).toEqual([]);
  });

  it('refuses page sizes outside 1..100 and cursors it did not issue (VALIDATION_FAILED)', async () => {
    for (const first of [0, -1, 101]) {
      const result = await graphql(service, CUSTOMERS, { first });
      expect(errorCodes(result)).toEqual(['VALIDATION_FAILED']);
      expect(result.json.errors[0].extensions.details).toMatchObject([{ field: 'first', code: 'OUT_OF_RANGE' }]);
    }
    const accountCursor = (await graphql(service, '{ accounts(first: 1) { pageInfo { endCursor } } }')).json.data
      .accounts.pageInfo.endCursor;
    for (const after of [
      'garbage',
      customerIds[0],
      accountCursor,
      Buffer.from('customer:not-a-uuid').toString('base64url'),
    ]) {
      const result = await graphql(service, CUSTOMERS, { first: 2, after });
      expect(errorCodes(result)).toEqual(['VALIDATION_FAILED']);
      expect(result.json.errors[0].extensions.details).toMatchObject([{ field: 'after', code: 'INVALID_CURSOR' }]);
    }
  });
});
