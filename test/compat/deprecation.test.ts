import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { checkDeprecation, deprecationHeaders } from '../../src/rest/deprecation.js';
import type { RestRoute } from '../../src/rest/operations/route.js';
import { REST_ROUTES } from '../../src/rest/routes.js';
import { buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * Nothing is deprecated today, so the test builds its own route table in which `getCustomer` is: the service
 * started on it answers that operation with Deprecation (RFC 9745) and Sunset (RFC 8594) headers, refusals
 * included, and the document built from it marks the operation deprecated.
 */
const DEPRECATION = { announced: '2026-12-01', sunset: '2027-06-01', instead: 'GET /{environment}/customer' };
const routes: readonly RestRoute[] = (REST_ROUTES as readonly RestRoute[]).map((route) =>
  route.operationId === 'getCustomer' ? { ...route, deprecated: DEPRECATION } : route,
);

let service: TestService;
beforeAll(async () => {
  service = await startTestService({}, { restRoutes: routes });
});
afterAll(async () => service?.stop());

describe('a deprecated REST operation', () => {
  it('answers with Deprecation and Sunset headers, on success and on refusal; other operations do not', async () => {
    const created = await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() });
    expect(created.headers.get('deprecation')).toBeNull();
    const customerId = created.json.data.customerId as string;

    const read = await service.call('GET', `/sandbox/customer/${customerId}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 11, 1) / 1000}`);
    expect(read.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');

    const missing = await service.call('GET', '/sandbox/customer/0193a5c5-5a97-7260-9c1e-8daecf406b87');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('deprecation')).toBe('@1796083200');
  });

  it('is marked deprecated in the OpenAPI document, with both headers and the way out in its description', () => {
    const operation = buildOpenApiDocument(routes).paths['/{environment}/customer/{customerId}']!.get!;
    expect(operation.deprecated).toBe(true);
    expect(Object.keys((operation.responses['200'] as { headers: object }).headers)).toEqual(
      expect.arrayContaining(['Deprecation', 'Sunset']),
    );
    expect(operation.description).toContain('**Deprecated** since 2026-12-01; removed no earlier than 2027-06-01');
    expect(buildOpenApiDocument().paths['/{environment}/customer/{customerId}']!.get!.deprecated).toBeUndefined();
  });

  it('lives at least six months: a shorter sunset is refused when the routes are mounted', () => {
    expect(() => checkDeprecation('getCustomer', { ...DEPRECATION, sunset: '2027-05-31' })).toThrow(
      /at least 6 months/,
    );
    expect(() => checkDeprecation('getCustomer', DEPRECATION)).not.toThrow();
    expect(deprecationHeaders(DEPRECATION)).toEqual({
      Deprecation: '@1796083200',
      Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
    });
  });
});
