import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDirectiveValues, type GraphQLObjectType, type OperationDefinitionNode, parse } from 'graphql';
import { ACCOUNT_LIMITS } from '../../src/features/accounts/account.schemas.js';
import { CUSTOMER_LIMITS } from '../../src/features/customers/customer.schemas.js';
import { ACCOUNT_FLAGS } from '../../src/features/accounts/account.js';
import { costEstimator } from '../../src/graphql/limits.js';
import { buildGraphqlSchema } from '../../src/graphql/schema.js';
import { startTestService, type TestService } from '../support/service.js';
import { errorCodes, graphql } from './helpers.js';

/** Small limits so each can be crossed with a readable document; the defaults are in docs/graphql.md. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({
    GRAPHQL_MAX_DEPTH: '4',
    GRAPHQL_MAX_ALIASES: '3',
    GRAPHQL_MAX_ROOT_FIELDS: '3',
    GRAPHQL_MAX_COST: '1000',
    GRAPHQL_MAX_TOKENS: '200',
  });
});
afterAll(async () => service?.stop());

const expectRefused = async (query: string, code: string, message: RegExp) => {
  service.statements.count = 0;
  const result = await graphql(service, query);
  expect(result.status).toBe(400);
  expect(errorCodes(result), JSON.stringify(result.json)).toEqual([code]);
  expect(result.json.errors[0].message).toMatch(message);
  expect(result.json).not.toHaveProperty('data');
  expect(service.statements.count).toBe(0); // refused before any resolver ran
};

describe('query limits', () => {
  it('depth: 4 nested selection sets pass, 5 are QUERY_TOO_DEEP', async () => {
    const ok = await graphql(service, '{ customers(first: 1) { edges { node { accounts { accountId } } } } }');
    expect(ok.status).toBe(200);
    await expectRefused(
      '{ customers(first: 1) { edges { node { accounts { customers { customerId } } } } } }',
      'QUERY_TOO_DEEP',
      /nested 5 levels deep; at most 4 .*GRAPHQL_MAX_DEPTH/,
    );
  });

  it('depth counts through fragments', async () => {
    await expectRefused(
      'query { customers(first: 1) { ...C } } fragment C on CustomerConnection { edges { node { accounts { customers { customerId } } } } }',
      'QUERY_TOO_DEEP',
      /nested 5 levels/,
    );
  });

  it('aliases: more than 3 are TOO_MANY_ALIASES', async () => {
    await expectRefused(
      '{ customers { a: pageInfo { b: hasNextPage c: endCursor d: hasNextPage } } }',
      'TOO_MANY_ALIASES',
      /4 aliases; at most 3 .*GRAPHQL_MAX_ALIASES/,
    );
  });

  it('root fields: more than 3 are TOO_MANY_ROOT_FIELDS', async () => {
    await expectRefused(
      '{ customers { pageInfo { hasNextPage } } accounts { pageInfo { hasNextPage } } customer(customerId: "x") { customerId } account(accountId: "x") { accountId } }',
      'TOO_MANY_ROOT_FIELDS',
      /4 root fields; at most 3 .*GRAPHQL_MAX_ROOT_FIELDS/,
    );
  });

  it('cost: page size multiplies nested lists; over the limit is QUERY_TOO_COMPLEX', async () => {
    const query = 'query($n: Int) { customers(first: $n) { nodes { emails } } }';
    const small = await graphql(service, query, { n: 2 });
    expect(small.status).toBe(200);
    service.statements.count = 0;
    const large = await graphql(service, query, { n: 100 });
    expect(large.status).toBe(400);
    expect(errorCodes(large)).toEqual(['QUERY_TOO_COMPLEX']);
    expect(large.json.errors[0].message).toMatch(/estimated cost is 1200; at most 1000 .*GRAPHQL_MAX_COST/); // the example in docs/graphql.md
    expect(service.statements.count).toBe(0);
  });

  it("cost over the limit at the caps is estimated again with the environment's link bounds: one read by key, then the operation", async () => {
    // 100 × (1 + 1 + 100 × 2) = 20,200 at the caps; this environment has no links, so its lists count 1 each.
    const query = '{ customers(first: 100) { nodes { accounts { accountId } } } }';
    service.statements.count = 0;
    service.statements.names = [];
    const result = await graphql(service, query);
    expect(result.status).toBe(200);
    expect(service.statements.names[0]).toBe('cas_links_bounds');
  });

  it('cost counts every list at the most it can hold: the limits the service enforces, not guesses', () => {
    const schema = buildGraphqlSchema();
    const directive = schema.getDirective('listSize')!;
    const assumed = (type: string, field: string) => {
      const node = (schema.getType(type) as GraphQLObjectType).getFields()[field]!.astNode!;
      return (getDirectiveValues(directive, node) as { assumedSize?: number } | undefined)?.assumedSize;
    };
    expect(assumed('Customer', 'accounts')).toBe(CUSTOMER_LIMITS.accounts);
    expect(assumed('Customer', 'accountIds')).toBe(CUSTOMER_LIMITS.accounts);
    expect(assumed('Account', 'customers')).toBe(ACCOUNT_LIMITS.associatedCustomers);
    expect(assumed('Account', 'customerIds')).toBe(ACCOUNT_LIMITS.associatedCustomers);
    expect(assumed('Customer', 'emails')).toBe(CUSTOMER_LIMITS.emails);
    expect(assumed('Customer', 'phoneNumbers')).toBe(CUSTOMER_LIMITS.phoneNumbers);
    expect(assumed('Customer', 'addresses')).toBe(CUSTOMER_LIMITS.addresses);
    expect(assumed('Account', 'flags')).toBe(ACCOUNT_FLAGS.length);
    // Issue 28's query: a customer's accounts' customers' accounts is 100 × 20 × 100 accounts at most.
    const estimate = costEstimator(schema);
    const document = parse(
      'query($id: ID!) { customer(customerId: $id) { accounts { customers { accounts { accountId } } } } }',
    );
    expect(estimate(document, document.definitions[0] as OperationDefinitionNode, { id: 'x' })).toBe(402_101);
  });

  it("the environment's link bounds (docs/adr/0089): the design card's query passes where a customer has one joint account, the worst case at the caps does not", () => {
    const estimate = costEstimator(buildGraphqlSchema());
    const cost = (query: string, bounds?: { accountsPerCustomer: number; customersPerAccount: number }) => {
      const document = parse(query);
      return estimate(document, document.definitions[0] as OperationDefinitionNode, { id: 'x' }, bounds);
    };
    const card =
      'query($id: ID!) { customer(customerId: $id) { accounts { accountId customers { customerId accounts { accountId } } } } }';
    const worst = 'query($id: ID!) { customer(customerId: $id) { accounts { customers { accounts { accountId } } } } }';
    expect(cost(card)).toBe(404_201);
    expect(cost(worst)).toBe(402_101);
    // A customer with an account of their own and a joint one, the co-holder with one of theirs: at most 2 and 2.
    expect(cost(card, { accountsPerCustomer: 2, customersPerAccount: 2 })).toBe(1 + 2 * (1 + 1 + 2 * (1 + 1 + 2 * 2)));
    expect(cost(card, { accountsPerCustomer: 2, customersPerAccount: 2 })).toBeLessThanOrEqual(25_000);
    // At the caps the bounds are the caps: the worst case stays refused. An environment without links counts 1.
    expect(cost(worst, { accountsPerCustomer: 100, customersPerAccount: 20 })).toBe(402_101);
    expect(cost(card, { accountsPerCustomer: 0, customersPerAccount: 0 })).toBe(1 + 1 * (1 + 1 + 1 * (1 + 1 + 1 * 2)));
    // An explicit page of ids is not bounded by links: `first` still wins over both.
    expect(
      cost('{ customers(first: 50) { nodes { accountIds } } }', { accountsPerCustomer: 3, customersPerAccount: 2 }),
    ).toBe(50 * (1 + 1 + 3));
  });

  it('cost of recentEvents under a list: first events per record, the default 10 when first is absent or null (a true upper bound)', () => {
    const estimate = costEstimator(buildGraphqlSchema());
    const cost = (query: string, variables: Record<string, unknown> = {}) => {
      const document = parse(query);
      return estimate(document, document.definitions[0] as OperationDefinitionNode, variables);
    };
    // 50 × (the customer + nodes + first × (an event + eventId)).
    expect(cost('{ customers(first: 50) { nodes { recentEvents(first: 5) { eventId } } } }')).toBe(
      50 * (1 + 1 + 5 * 2),
    );
    const asDefault = 50 * (1 + 1 + 10 * 2);
    expect(cost('{ customers(first: 50) { nodes { recentEvents { eventId } } } }')).toBe(asDefault);
    // null answers the default page, so it costs the default, not one item.
    expect(cost('{ customers(first: 50) { nodes { recentEvents(first: null) { eventId } } } }')).toBe(asDefault);
    expect(
      cost('query($k: Int) { customers(first: 50) { nodes { recentEvents(first: $k) { eventId } } } }', { k: null }),
    ).toBe(asDefault);
    expect(cost('{ accounts(first: 50) { nodes { recentEvents(first: null) { eventId } } } }')).toBe(asDefault);
    // The same for every list with a default page size: `customers(first: null)` is 20 customers.
    expect(cost('{ customers(first: null) { nodes { customerId } } }')).toBe(
      cost('{ customers { nodes { customerId } } }'),
    );
    expect(cost('{ customers { nodes { customerId } } }')).toBe(20 * 3);
  });

  it('document size: more than 200 tokens is DOCUMENT_TOO_LARGE', async () => {
    const fields = Array.from({ length: 250 }, () => 'hasNextPage').join(' ');
    await expectRefused(`{ customers { pageInfo { ${fields} } } }`, 'DOCUMENT_TOO_LARGE', /GRAPHQL_MAX_TOKENS/);
  });

  it('a deliberately broken document is a 400 parse error, never a 500', async () => {
    for (const query of ['{', '}}}', 'query {', '{ a(b: ) }', '"unterminated', '{ ...on }', '#'.repeat(500)]) {
      const result = await graphql(service, query);
      expect(result.status, query).toBe(400);
      expect(['GRAPHQL_PARSE_FAILED', 'BAD_REQUEST', 'DOCUMENT_TOO_LARGE']).toContain(errorCodes(result)[0]);
    }
  });

  it('batching is off: a JSON array of operations is refused', async () => {
    const result = await service.call('POST', '/sandbox/graphql', {
      body: [{ query: '{ __typename }' }, { query: '{ __typename }' }],
    });
    expect(result.status).toBe(400);
    expect(errorCodes(result)).toEqual(['BAD_REQUEST']);
    expect(result.json.errors[0].message).toMatch(/batching disabled/i);
  });

  it('CSRF prevention: a "simple" cross-site request (text/plain POST, or GET without a preflight header) is refused', async () => {
    // A body that is not JSON is refused before Apollo, as in REST (src/http/json-body.ts).
    const post = await service.call('POST', '/sandbox/graphql', {
      rawBody: JSON.stringify({ query: '{ __typename }' }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(post.status).toBe(415);
    expect(errorCodes(post)).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
    const get = await service.call('GET', `/sandbox/graphql?query=${encodeURIComponent('{ __typename }')}`);
    expect(get.status).toBe(400);
    expect(get.json.errors[0].message).toMatch(/Cross-Site Request Forgery/);
  });
});
