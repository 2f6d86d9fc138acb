import { describe, expect, it } from 'vitest';
import { assertDocumentedResponse } from './response-contract.js';

/** The checker test/support/service.ts runs on every REST call must be able to fail. */
describe('the response contract check', () => {
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' });
  const customerError = (code: string, logRef = 'log_ref_id') =>
    JSON.stringify({ data: null, success: false, error: { code, message: 'm' }, requestId: 'r-1', [logRef]: 'r-1' });

  it('accepts a documented answer', () => {
    expect(() =>
      assertDocumentedResponse('GET', '/sandbox/customer/abc?x=1', 404, headers, customerError('CUSTOMER_NOT_FOUND')),
    ).not.toThrow();
  });

  it('refuses a status the operation does not document', () => {
    expect(() =>
      assertDocumentedResponse('GET', '/sandbox/customer/abc', 409, headers, customerError('CUSTOMER_HAS_ACCOUNTS')),
    ).toThrow(/status the OpenAPI document does not list/);
  });

  it("refuses an error code not listed for that status, and the other family's log reference", () => {
    expect(() =>
      assertDocumentedResponse('GET', '/sandbox/customer/abc', 404, headers, customerError('ACCOUNT_NOT_FOUND')),
    ).toThrow(/does not match the documented schema/);
    expect(() =>
      assertDocumentedResponse(
        'GET',
        '/sandbox/customer/abc',
        404,
        headers,
        customerError('CUSTOMER_NOT_FOUND', 'logRefId'),
      ),
    ).toThrow(/does not match/);
  });

  it('refuses a success body with an undocumented field, and a missing required header', () => {
    const customer = {
      customerId: '0193a5c2-7f3e-7c41-9d2a-5b8e4f1c2a10',
      accountIds: [],
      addresses: [],
      dateOfBirth: '1985-04-12',
      emails: [],
      firstName: 'A',
      lastName: 'B',
      middleName: '',
      phoneNumbers: [],
      preferredName: 'A',
    };
    const body = (data: object) =>
      JSON.stringify({ data, success: true, error: null, requestId: 'r-1', log_ref_id: 'r-1' });
    const tagged = new Headers(headers);
    tagged.set('etag', '"0193a5c2-7f3e-7c41-9d2a-5b8e4f1c2a10.1"');
    expect(() => assertDocumentedResponse('GET', '/sandbox/customer/abc', 200, tagged, body(customer))).not.toThrow();
    expect(() => assertDocumentedResponse('GET', '/sandbox/customer/abc', 200, headers, body(customer))).toThrow(
      /ETag/,
    );
    expect(() =>
      assertDocumentedResponse(
        'GET',
        '/sandbox/customer/abc',
        200,
        tagged,
        body({ ...customer, socialSecurityNumber: 'x' }),
      ),
    ).toThrow(/does not match/);
    expect(() =>
      assertDocumentedResponse(
        'GET',
        '/sandbox/customer/abc',
        200,
        new Headers({ 'content-type': 'application/json' }),
        body(customer),
      ),
    ).toThrow(/X-Request-Id/);
  });

  it('leaves undocumented methods and paths alone (HEAD, 405s, unknown routes)', () => {
    expect(() => assertDocumentedResponse('HEAD', '/sandbox/customer/abc', 200, headers, '')).not.toThrow();
    expect(() => assertDocumentedResponse('PATCH', '/sandbox/customer/abc', 405, headers, '')).not.toThrow();
    expect(() => assertDocumentedResponse('GET', '/sandbox/customers', 404, headers, '')).not.toThrow();
  });
});
