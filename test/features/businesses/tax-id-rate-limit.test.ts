import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { bearer } from '../../support/http-auth.js';
import { startTestService, type TestService } from '../../support/service.js';
import { buildBusinessInput, uniqueEin } from './support.js';

/** A search by tax id, and a creation refused because the tax id is on file, spend the SSN search budget. */
let service: TestService;
let ein: string;
beforeAll(async () => {
  service = await startTestService({ SSN_SEARCH_RATE_LIMIT_PER_MINUTE: '2' });
  ein = uniqueEin();
  expectSuccess(
    await service.call('POST', '/sandbox/customer', { body: buildBusinessInput({ taxId: ein }) }),
    'customer',
    201,
  );
});
afterAll(async () => service?.stop());

const freshToken = async () =>
  (
    await issueApiToken(service.database.pool, {
      environments: ['*'],
      scopes: ['customers:read', 'customers:write', 'customers:ssn_search'],
    })
  ).token;
const searchAudits = async () =>
  (await service.database.pool.query("SELECT count(*)::int AS n FROM audit_events WHERE operation = 'customer.search'"))
    .rows[0].n as number;

describe('tax id searches and the SSN search budget (2 a minute)', () => {
  it('answers the third tax id search 429 SSN_SEARCH_RATE_LIMITED, searching and auditing nothing', async () => {
    const token = await freshToken();
    for (let i = 0; i < 2; i++)
      expectSuccess(
        await service.call('POST', '/sandbox/customer/search', { body: { taxId: ein }, headers: bearer(token) }),
        'customer',
        200,
      );
    const audited = await searchAudits();
    const refused = await service.call('POST', '/sandbox/customer/search', {
      body: { taxId: ein },
      headers: bearer(token),
    });
    expectFailure(refused, 'customer', 429, 'SSN_SEARCH_RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await searchAudits()).toBe(audited);
    // A search by SSN shares the budget.
    expectFailure(
      await service.call('POST', '/sandbox/customer/search', {
        body: { socialSecurityNumber: '123-45-6789' },
        headers: bearer(token),
      }),
      'customer',
      429,
      'SSN_SEARCH_RATE_LIMITED',
    );
    // A search without a tax id or an SSN costs nothing here.
    expectSuccess(
      await service.call('POST', '/sandbox/customer/search', { body: { legalName: 'Acme' }, headers: bearer(token) }),
      'customer',
      200,
    );
  });

  it('charges a creation refused because the tax id is on file, as an SSN refusal', async () => {
    const token = await freshToken();
    const duplicate = () =>
      service.call('POST', '/sandbox/customer', { body: buildBusinessInput({ taxId: ein }), headers: bearer(token) });
    expectFailure(await duplicate(), 'customer', 409, 'TAX_ID_ALREADY_EXISTS');
    expectFailure(await duplicate(), 'customer', 409, 'TAX_ID_ALREADY_EXISTS');
    expectFailure(await duplicate(), 'customer', 429, 'SSN_SEARCH_RATE_LIMITED');
  });
});
