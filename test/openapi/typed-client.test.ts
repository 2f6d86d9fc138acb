import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiJson } from '../../src/openapi/document.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { CLIENT_TYPES_FILE, clientTypes } from './client-types.js';
import type { paths } from './generated/api.js';
import { assertDocumentedResponse } from './response-contract.js';

/**
 * A client generated from the document (openapi-typescript types + openapi-fetch) drives the service:
 * if the document were too loose or wrong for client generation, this file would not compile or the
 * calls would not line up with the answers.
 */
describe('a typed client generated from openapi.json', () => {
  let service: TestService;
  let client: ReturnType<typeof createClient<paths>>;

  beforeAll(async () => {
    service = await startTestService();
    client = createClient<paths>({
      baseUrl: service.url,
      headers: { Authorization: `Bearer ${service.token}` },
      // Every answer is also checked against the document, as test/support/service.ts does.
      fetch: async (request: Request) => {
        const response = await fetch(request);
        const text = await response.clone().text();
        assertDocumentedResponse(request.method, new URL(request.url).pathname, response.status, response.headers, text);
        return response;
      },
    });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('uses types that are up to date with openapi.json', async () => {
    expect(readFileSync(CLIENT_TYPES_FILE, 'utf8'), 'stale client types: run npm run openapi').toBe(await clientTypes(openApiJson()));
  });

  it('creates and reads a customer and an account, and reads a typed error', async () => {
    const customerInput = buildCustomerInput({ firstName: 'Typed', lastName: 'Client' });
    const created = await client.POST('/{environment}/customer', {
      params: { path: { environment: 'sandbox' }, header: { 'Idempotency-Key': `typed-client-${Date.now()}` } },
      body: customerInput,
    });
    expect(created.response.status).toBe(201);
    const customerId = created.data!.data.customerId;
    expect(created.response.headers.get('location')).toBe(`/sandbox/customer/${customerId}`);
    expect(created.data!.log_ref_id).toBe(created.data!.requestId);

    const opened = await client.POST('/{environment}/account', {
      params: { path: { environment: 'sandbox' } },
      body: buildAccountInput([customerId], { name: 'Typed Savings', type: 'SAVINGS' }),
    });
    expect(opened.response.status).toBe(201);
    const account = opened.data!.data;
    expect(account).toMatchObject({ name: 'Typed Savings', type: 'SAVINGS', amount: 0, currency: 'USD', customers: [customerId], transactions: [], flags: [] });
    expect(opened.data!.logRefId).toBe(opened.data!.requestId);

    const customer = await client.GET('/{environment}/customer/{customerId}', { params: { path: { environment: 'sandbox', customerId } } });
    expect(customer.data!.data).toMatchObject({ customerId, firstName: 'Typed', lastName: 'Client', accountIds: [account.accountId] });

    const readAccount = await client.GET('/{environment}/account/{accountId}', { params: { path: { environment: 'sandbox', accountId: account.accountId } } });
    expect(readAccount.data!.data).toEqual(account);

    const refused = await client.DELETE('/{environment}/customer/{customerId}', { params: { path: { environment: 'sandbox', customerId } } });
    expect(refused.response.status).toBe(409);
    expect(refused.error!.error.code).toBe('CUSTOMER_HAS_ACCOUNTS');
  });
});
