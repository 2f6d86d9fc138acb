import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { expectNoChange } from '../../support/database.js';
import { buildCustomerInput } from '../../support/factories.js';
import { bearer, challenge } from '../../support/http-auth.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * A search by social security number is its own operation, with its own scope (`customers:ssn_search`): support's
 * `customers:read` finds customers by name, contact or externalId, and no longer tells whether a number is on file.
 */
let service: TestService;
let ssn: string;
let customerId: string;
let readOnly: string;
let ssnOnly: string;
const lastName = `Scoped${Date.now()}`;

beforeAll(async () => {
  service = await startTestService();
  const input = buildCustomerInput({ lastName });
  const created = await service.call('POST', '/sandbox/customer', { body: input });
  expectSuccess(created, 'customer', 201);
  ssn = input.socialSecurityNumber;
  customerId = created.json.data.customerId;
  readOnly = (
    await issueApiToken(service.database.pool, { environments: ['*'], scopes: ['customers:read'], name: 'support' })
  ).token;
  ssnOnly = (
    await issueApiToken(service.database.pool, {
      environments: ['*'],
      scopes: ['customers:ssn_search'],
      name: 'onboarding',
    })
  ).token;
});
afterAll(async () => service?.stop());

const SEARCH = 'query($input: CustomerSearchInput!) { searchCustomers(input: $input) { nodes { customerId } } }';
const restSearch = (token: string, body: unknown) =>
  service.call('POST', '/sandbox/customer/search', { body, headers: bearer(token) });
const gqlSearch = (token: string, input: unknown) => graphql(service, SEARCH, { input }, { headers: bearer(token) });

describe('searching customers by social security number', () => {
  it('is refused to a customers:read token: 403 FORBIDDEN, insufficient scope customers:ssn_search (REST and GraphQL), nothing audited', async () => {
    for (const body of [{ socialSecurityNumber: ssn }, { socialSecurityNumber: ssn, lastName }]) {
      const refused = await expectNoChange(service.database.pool, () => restSearch(readOnly, body));
      expectFailure(refused, 'customer', 403, 'FORBIDDEN');
      expect(refused.headers.get('www-authenticate')).toBe(
        challenge(
          'insufficient_scope',
          'The token lacks the scope this operation needs: customers:ssn_search.',
          'customers:ssn_search',
        ),
      );
      const refusedGql = await expectNoChange(service.database.pool, () => gqlSearch(readOnly, body));
      expect(errorCodes(refusedGql)).toEqual(['FORBIDDEN']);
      expect(refusedGql.json.errors[0].extensions.challenge).toEqual({
        error: 'insufficient_scope',
        scope: 'customers:ssn_search',
      });
      expect(refusedGql.json.data).toBeNull();
    }
  });

  it('the same customers:read token still searches by name (REST and GraphQL)', async () => {
    const byName = await restSearch(readOnly, { lastName });
    expectSuccess(byName, 'customer', 200);
    expect(byName.json.data.customers.map((c: { customerId: string }) => c.customerId)).toEqual([customerId]);
    const byNameGql = await gqlSearch(readOnly, { lastName });
    expect(byNameGql.json.errors).toBeUndefined();
    expect(byNameGql.json.data.searchCustomers.nodes).toEqual([{ customerId }]);
  });

  it('is served to a customers:ssn_search token alone, which cannot search by name, and to the static token (every scope)', async () => {
    expect(
      (await restSearch(ssnOnly, { socialSecurityNumber: ssn })).json.data.customers.map(
        (c: { customerId: string }) => c.customerId,
      ),
    ).toEqual([customerId]);
    expect((await gqlSearch(ssnOnly, { socialSecurityNumber: ssn, lastName })).json.data.searchCustomers.nodes).toEqual(
      [{ customerId }],
    );
    expectFailure(await restSearch(ssnOnly, { lastName }), 'customer', 403, 'FORBIDDEN');
    expectSuccess(
      await service.call('POST', '/sandbox/customer/search', { body: { socialSecurityNumber: ssn } }),
      'customer',
      200,
    );
  });

  it('viewer names the scope to the tokens that hold it, so a client offers the search only to them', async () => {
    const viewer = async (token: string) =>
      (await graphql(service, '{ viewer { scopes } }', undefined, { headers: bearer(token) })).json.data.viewer.scopes;
    expect(await viewer(readOnly)).toEqual(['customers:read']);
    expect(await viewer(ssnOnly)).toEqual(['customers:ssn_search']);
    expect(await viewer(service.token)).toContain('customers:ssn_search');
  });
});
