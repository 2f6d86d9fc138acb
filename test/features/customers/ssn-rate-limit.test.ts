import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { expectNoChange } from '../../support/database.js';
import { buildCustomerInput } from '../../support/factories.js';
import { bearer, countRows } from '../../support/http-auth.js';
import { type CallResult, startTestService, type TestService } from '../../support/service.js';

/**
 * Searches by social security number have their own per-token budget (SSN_SEARCH_RATE_LIMIT_PER_MINUTE), on top
 * of the request budget, spent by REST's POST /customer/search and GraphQL's searchCustomers together.
 */
let service: TestService;
let ssn: string;
let customerId: string;

beforeAll(async () => {
  service = await startTestService({ SSN_SEARCH_RATE_LIMIT_PER_MINUTE: '2' });
  const input = buildCustomerInput({ lastName: 'Budget' });
  const created = await service.call('POST', '/sandbox/customer', { body: input });
  expectSuccess(created, 'customer', 201);
  ssn = input.socialSecurityNumber;
  customerId = created.json.data.customerId;
});
afterAll(async () => service?.stop());

const freshToken = async () =>
  (
    await issueApiToken(service.database.pool, {
      environments: ['*'],
      scopes: ['customers:read', 'customers:ssn_search'],
    })
  ).token;
const SEARCH = 'query($input: CustomerSearchInput!) { searchCustomers(input: $input) { nodes { customerId } } }';
const restSearch = (token: string, body: unknown) =>
  service.call('POST', '/sandbox/customer/search', { body, headers: bearer(token) });
const gqlSearch = (token: string, input: unknown) => graphql(service, SEARCH, { input }, { headers: bearer(token) });
const searchAudits = () => countRows(service, 'audit_events', "operation = 'customer.search'");

function expectRetryAfter(res: CallResult): void {
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('SSN search budget (SSN_SEARCH_RATE_LIMIT_PER_MINUTE=2)', () => {
  it('REST and GraphQL spend one budget; the third SSN search is 429 SSN_SEARCH_RATE_LIMITED with Retry-After, searching and auditing nothing', async () => {
    const token = await freshToken();
    const first = await restSearch(token, { socialSecurityNumber: ssn });
    expectSuccess(first, 'customer', 200);
    expect(first.json.data.customers.map((c: { customerId: string }) => c.customerId)).toEqual([customerId]);
    const second = await gqlSearch(token, { socialSecurityNumber: ssn });
    expect(second.status).toBe(200);
    expect(second.json.data.searchCustomers.nodes).toEqual([{ customerId }]);
    const audits = await searchAudits();

    const refused = await expectNoChange(service.database.pool, () => restSearch(token, { socialSecurityNumber: ssn }));
    expectFailure(refused, 'customer', 429, 'SSN_SEARCH_RATE_LIMITED');
    expectRetryAfter(refused);
    expect(refused.json.error.message).toMatch(
      /^Too many searches by social security number for this token; retry in \d+ s\.$/,
    );

    const refusedGql = await gqlSearch(token, { socialSecurityNumber: ssn });
    expect(refusedGql.status).toBe(429);
    expect(errorCodes(refusedGql)).toEqual(['SSN_SEARCH_RATE_LIMITED']);
    expectRetryAfter(refusedGql);
    expect(await searchAudits()).toBe(audits);
  });

  it('searches without an SSN, other requests and other tokens are not limited by it', async () => {
    const token = await freshToken();
    for (let i = 0; i < 2; i++) expectSuccess(await restSearch(token, { socialSecurityNumber: ssn }), 'customer', 200);
    expectFailure(await restSearch(token, { socialSecurityNumber: ssn }), 'customer', 429, 'SSN_SEARCH_RATE_LIMITED');

    // By name, on both surfaces, and any other read: still answered.
    for (let i = 0; i < 3; i++) expectSuccess(await restSearch(token, { lastName: 'Budget' }), 'customer', 200);
    const byName = await gqlSearch(token, { lastName: 'Budget' });
    expect(byName.json.data.searchCustomers.nodes).toEqual([{ customerId }]);
    expectSuccess(
      await service.call('GET', `/sandbox/customer/${customerId}`, { headers: bearer(token) }),
      'customer',
      200,
    );

    // Another token has its own budget.
    expectSuccess(await restSearch(await freshToken(), { socialSecurityNumber: ssn }), 'customer', 200);
  });
});
