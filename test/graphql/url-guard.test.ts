import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInputObjectType } from 'graphql';
import { SECRET_INPUT_FIELDS } from '../../src/features/customers/customer-search.js';
import { buildGraphqlSchema } from '../../src/graphql/schema.js';
import { sensitiveNamesInJson } from '../../src/graphql/url-guard.js';
import { buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { createCustomer, errorCodes, graphql } from './helpers.js';

/**
 * GraphQL over GET puts the document and variables in the URL, which proxies and load balancers log: a URL
 * naming a secret-bearing input field is refused with SENSITIVE_FIELD_IN_URL before anything runs
 * (src/graphql/url-guard.ts); mutations over GET are Apollo's 405; ordinary queries over GET still work.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const SEARCH = 'query Search($i: CustomerSearchInput!) { searchCustomers(input: $i) { nodes { customerId } } }';
// A GET passes Apollo's CSRF prevention only with a header a browser's simple request cannot carry.
const PREFLIGHTED = { 'apollo-require-preflight': 'true' };

const get = (parameters: Record<string, unknown>, options: { auth?: boolean } = {}) => {
  const search = new URLSearchParams(
    Object.entries(parameters).map(([name, value]): [string, string] => [
      name,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
  return service.call('GET', `/sandbox/graphql?${search}`, { headers: PREFLIGHTED, ...options });
};

const expectRefused = (result: Awaited<ReturnType<typeof get>>, fields: string) => {
  expect(result.status).toBe(400);
  expect(errorCodes(result)).toEqual(['SENSITIVE_FIELD_IN_URL']);
  expect(result.json.errors[0].message).toBe(
    `${fields} must not travel in a URL, where proxies and load balancers log it: send this operation as a POST with a JSON body (the values as variables).`,
  );
  expect(result.json.errors[0].extensions.requestId).toBe(result.headers.get('x-request-id'));
  expect(result.json.data).toBeUndefined();
};

describe('GraphQL over GET and secret-bearing input fields', () => {
  it('the list of secret input fields is every input field schema.graphql marks write-only', () => {
    const schema = buildGraphqlSchema();
    const writeOnly = new Set<string>();
    const inputFields = new Set<string>();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isInputObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        inputFields.add(field.name);
        if (/write-only/i.test(field.description ?? '')) writeOnly.add(field.name);
      }
    }
    expect([...writeOnly].sort()).toEqual([...SECRET_INPUT_FIELDS].sort());
    for (const name of SECRET_INPUT_FIELDS) expect(inputFields).toContain(name);
  });

  it('refuses a GET with the SSN in the variables, before the token is looked at, and the access line carries no query string', async () => {
    const input = buildCustomerInput();
    await createCustomer(service, input);
    const variables = { i: { socialSecurityNumber: input.socialSecurityNumber } };
    const refused = await get({ query: SEARCH, variables });
    expectRefused(refused, 'socialSecurityNumber');
    // Also without a token (or with a refused one): the URL is the problem, whoever sends it.
    expectRefused(await get({ query: SEARCH, variables }, { auth: false }), 'socialSecurityNumber');
    // Nested anywhere in the variables (a list, an object), and in extensions too.
    expectRefused(
      await get({ query: SEARCH, variables: { i: {}, more: [{ deeper: { documentLocatorNumber: 1 } }] } }),
      'documentLocatorNumber',
    );
    expectRefused(
      await get({ query: '{ __typename }', extensions: { x: { socialSecurityNumber: '1' } } }),
      'socialSecurityNumber',
    );
    // A business's tax id, as a search input or under any of the names REST refuses in a query string.
    expectRefused(await get({ query: SEARCH, variables: { i: { taxId: '12-3456789' } } }), 'taxId');
    expectRefused(await get({ query: '{ __typename }', variables: { ein: '123456789' } }), 'ein');

    const requestId = refused.headers.get('x-request-id')!;
    const line = service.logLines.find((text) => text.includes(requestId) && text.includes('request completed'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ method: 'GET', route: '/:environment/graphql', status: 400 });
    expect(line).not.toContain('?');
    expect(line).not.toContain('searchCustomers');
    expect(line).not.toContain('variables');
    expect(service.logLines.filter((text) => text.includes(requestId)).join('\n')).not.toContain(
      input.socialSecurityNumber,
    );
  });

  it('refuses a GET with the SSN inline in the document, as an input-object field or as an argument', async () => {
    const ssn = buildCustomerInput().socialSecurityNumber;
    expectRefused(
      await get({ query: `{ searchCustomers(input: { socialSecurityNumber: "${ssn}" }) { nodes { customerId } } }` }),
      'socialSecurityNumber',
    );
    // Not a field of the schema: still never in a URL (Apollo would refuse it too, after reading it).
    expectRefused(await get({ query: `{ customer(customerId: "x", ssn: "${ssn}") { customerId } }` }), 'ssn');
  });

  it("refuses a GET mutation: carrying a secret with SENSITIVE_FIELD_IN_URL, otherwise with Apollo's 405 (POST only), executing nothing", async () => {
    const input = buildCustomerInput();
    const create = 'mutation Create($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId } }';
    expectRefused(await get({ query: create, variables: { input } }), 'socialSecurityNumber, documentLocatorNumber');

    const customerId = await createCustomer(service, buildCustomerInput());
    const mutation = await get({
      query: 'mutation Delete($id: ID!) { deleteCustomer(customerId: $id) }',
      variables: { id: customerId },
    });
    expect(mutation.status).toBe(405);
    expect(mutation.headers.get('allow')).toBe('POST');
    expect(errorCodes(mutation)).toEqual(['BAD_REQUEST']);
    expect(mutation.json.errors[0].message).toBe('GET requests only support query operations, not mutation operations');
    // Nothing ran: the customer is still there.
    const still = await graphql(service, 'query($id: ID!) { customer(customerId: $id) { customerId } }', {
      id: customerId,
    });
    expect(still.json.data.customer).toEqual({ customerId });
  });

  it('still answers an ordinary query over GET, also one whose string values happen to spell a secret field name', async () => {
    const customerId = await createCustomer(service, buildCustomerInput({ lastName: 'Guard' }));
    const ordinary = await get({
      query: 'query($id: ID!) { customer(customerId: $id) { customerId lastName } }',
      variables: { id: customerId },
    });
    expect(ordinary.status).toBe(200);
    expect(ordinary.json).toEqual({ data: { customer: { customerId, lastName: 'Guard' } } });
    // The document is parsed, not searched: a value (or a variable's value) is no field name.
    const lookalike = await get({
      query: '{ customers(filter: { lastName: "socialSecurityNumber" }) { nodes { customerId } } }',
    });
    expect(lookalike.status).toBe(200);
    expect(lookalike.json).toEqual({ data: { customers: { nodes: [] } } });
    const valueOnly = await get({
      query: 'query($n: String) { customers(filter: { lastName: $n }) { nodes { customerId } } }',
      variables: { n: 'documentLocatorNumber' },
    });
    expect(valueOnly.status).toBe(200);
  });

  it('answers the same search by POST', async () => {
    const input = buildCustomerInput();
    const customerId = await createCustomer(service, input);
    const result = await graphql(service, SEARCH, { i: { socialSecurityNumber: input.socialSecurityNumber } });
    expect(result.status).toBe(200);
    expect(result.json).toEqual({ data: { searchCustomers: { nodes: [{ customerId }] } } });
  });

  it('walks JSON of any depth without recursion', () => {
    let deep: unknown = { socialSecurityNumber: '1' };
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(sensitiveNamesInJson(deep)).toEqual(['socialSecurityNumber']);
    expect(sensitiveNamesInJson({ a: ['socialSecurityNumber'], b: 'documentLocatorNumber' })).toEqual([]);
  });
});
