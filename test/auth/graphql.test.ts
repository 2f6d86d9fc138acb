import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { createCustomer, errorCodes, graphql } from '../graphql/helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const QUERY = '{ customers(first: 1) { nodes { customerId } } }';

describe('authentication and environments (same request context as REST)', () => {
  const realm = 'Bearer realm="customer-account-service"';
  it.each([
    ['no Authorization header', undefined, realm],
    [
      'a malformed header',
      'Basic dXNlcjpwYXNz',
      `${realm}, error="invalid_request", error_description="The Authorization header must be: Bearer <token>."`,
    ],
    [
      'an unknown token',
      'Bearer not-a-configured-token-at-all',
      `${realm}, error="invalid_token", error_description="The bearer token is not valid."`,
    ],
    [
      'an empty bearer',
      'Bearer ',
      `${realm}, error="invalid_request", error_description="The Authorization header must be: Bearer <token>."`,
    ],
  ])(
    'answers 401 UNAUTHENTICATED to %s, with the same WWW-Authenticate as REST and no data',
    async (_case, authorization, challenge) => {
      const result = await graphql(service, QUERY, undefined, {
        auth: false,
        headers: authorization ? { authorization } : {},
      });
      expect(result.status).toBe(401);
      expect(result.headers.get('www-authenticate')).toBe(challenge);
      expect(errorCodes(result)).toEqual(['UNAUTHENTICATED']);
      expect(result.json).not.toHaveProperty('data');
      expect(result.json.errors[0].extensions.requestId).toBe(result.headers.get('x-request-id'));
    },
  );

  it('authenticates before looking at the document: a broken query without a token is still 401', async () => {
    const result = await graphql(service, '{ this is not graphql', undefined, { auth: false });
    expect(result.status).toBe(401);
    expect(errorCodes(result)).toEqual(['UNAUTHENTICATED']);
  });

  it('answers 404 ENVIRONMENT_NOT_FOUND for an unknown environment with a valid token (no list of environments), 401 without one', async () => {
    const result = await graphql(service, QUERY, undefined, { environment: 'staging' });
    expect(result.status).toBe(404);
    expect(errorCodes(result)).toEqual(['ENVIRONMENT_NOT_FOUND']);
    expect(result.json.errors[0].message).not.toMatch(/sandbox|production-like/);
    const anonymous = await graphql(service, QUERY, undefined, { environment: 'staging', auth: false });
    expect(anonymous.status).toBe(401);
    expect(errorCodes(anonymous)).toEqual(['UNAUTHENTICATED']);
  });

  it("uses the caller's X-Request-Id as extensions.requestId and in the logs", async () => {
    const result = await graphql(
      service,
      '{ customer(customerId: 1) { customerId } customers(first: 0) { nodes { customerId } } }',
      undefined,
      {
        headers: { 'x-request-id': 'trace-graphql-auth-1' },
      },
    );
    expect(result.headers.get('x-request-id')).toBe('trace-graphql-auth-1');
    expect(result.json.errors[0].extensions.requestId).toBe('trace-graphql-auth-1');
    expect(service.logLines.some((line) => line.includes('"requestId":"trace-graphql-auth-1"'))).toBe(true);
  });

  it('accepts a valid token in any letter case of the scheme and serves GET queries', async () => {
    const post = await graphql(service, QUERY, undefined, {
      auth: false,
      headers: { authorization: `bearer ${service.token}` },
    });
    expect(post.status).toBe(200);
    const get = await service.call('GET', `/sandbox/graphql?query=${encodeURIComponent(QUERY)}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(get.status).toBe(200);
    expect(get.json.data.customers.nodes).toEqual([]);
  });

  it('refuses mutations over GET (405, Allow: POST)', async () => {
    const mutation = 'mutation { deleteAccount(accountId: "00000000-0000-7000-8000-000000000000") }';
    const result = await service.call('GET', `/sandbox/graphql?query=${encodeURIComponent(mutation)}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(result.status).toBe(405);
    expect(result.headers.get('allow')).toBe('POST');
  });

  it('keeps environments apart: a sandbox customer does not exist in production-like', async () => {
    const customerId = await createCustomer(service, buildCustomerInput());
    const query = 'query($id: ID!) { customer(customerId: $id) { customerId } node(id: $id) { id } }';
    const here = await graphql(service, query, { id: customerId });
    expect(here.json.data).toEqual({ customer: { customerId }, node: { id: customerId } });
    const there = await graphql(service, query, { id: customerId }, { environment: 'production-like' });
    expect(there.json).toEqual({ data: { customer: null, node: null } });
  });

  it('never writes the bearer token to the logs', () => {
    expect(service.logLines.length).toBeGreaterThan(5);
    expect(service.logLines.filter((line) => line.includes(service.token))).toEqual([]);
  });
});
