import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tableCounts } from '../support/database.js';
import { buildAccountInput, buildCustomerInput, SENSITIVE_VALUES, uniqueSsn } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { createAccount, createCustomer, expectFailure, expectSuccess, parsedLogLines } from './helpers.js';

let service: TestService;
let savedNodeEnv: string | undefined;
beforeAll(async () => {
  // Express's default error handler stays silent when NODE_ENV=test; run the app as in development so
  // that a missing final error handler would print errors (and body-parser's raw bodies) to stderr.
  savedNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'development';
  service = await startTestService();
  process.env.NODE_ENV = savedNodeEnv;
});
afterAll(async () => service?.stop());

const MISSING_ID = '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e';
const WRONG_TOKEN = 'wrong_token_value_0123456789abcdef';

describe('the envelope', () => {
  it('names the log reference log_ref_id on customer endpoints and logRefId on account endpoints, on success and error', async () => {
    const { customerId } = await createCustomer(service);
    expectSuccess(await service.call('GET', `/sandbox/customer/${customerId}`), 'customer', 200);
    expectFailure(await service.call('GET', `/sandbox/customer/${MISSING_ID}`), 'customer', 404, 'CUSTOMER_NOT_FOUND');
    const account = await createAccount(service, [customerId]);
    expectSuccess(await service.call('GET', `/sandbox/account/${account.accountId}`), 'account', 200);
    expectFailure(await service.call('GET', `/sandbox/account/${MISSING_ID}`), 'account', 404, 'ACCOUNT_NOT_FOUND');
    // …also for failures raised before any operation runs:
    expectFailure(
      await service.call('POST', '/sandbox/account', { rawBody: '{', headers: { 'content-type': 'application/json' } }),
      'account',
      400,
      'MALFORMED_REQUEST',
    );
    expectFailure(await service.call('POST', '/sandbox/account', { auth: false }), 'account', 401, 'UNAUTHENTICATED');
    expectFailure(
      await service.call('POST', '/nowhere/account', { body: {} }),
      'account',
      404,
      'ENVIRONMENT_NOT_FOUND',
    );
    expectFailure(
      await service.call('PATCH', '/sandbox/account/x', { body: {} }),
      'account',
      405,
      'METHOD_NOT_ALLOWED',
    );
    expectFailure(
      await service.call('POST', '/sandbox/account', {
        rawBody: 'a=b',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      'account',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('marks responses as not cacheable', async () => {
    const { customerId } = await createCustomer(service);
    expect((await service.call('GET', `/sandbox/customer/${customerId}`)).headers.get('cache-control')).toBe(
      'no-store',
    );
    expect((await service.call('GET', '/nowhere')).headers.get('cache-control')).toBe('no-store');
  });
});

describe('X-Request-Id', () => {
  it('reuses a valid caller id in the header, the envelope and every log line of the request', async () => {
    const requestId = `trace-${Date.now()}.abc_DEF`;
    const { customerId } = await createCustomer(service);
    const res = await service.call('GET', `/sandbox/customer/${customerId}`, {
      headers: { 'x-request-id': requestId },
    });
    expectSuccess(res, 'customer', 200);
    expect(res.json.requestId).toBe(requestId);
    expect(res.json.log_ref_id).toBe(requestId);
    const lines = parsedLogLines(service).filter((line) => line.requestId === requestId);
    expect(lines.find((line) => line.msg === 'request completed')).toMatchObject({
      method: 'GET',
      route: '/:environment/customer/:customerId',
      status: 200,
    });
  });

  it('replaces an invalid caller id with a UUID, also on errors', async () => {
    for (const invalid of ['has spaces', 'x'.repeat(129), 'semi;colon', 'percent%20encoded', '']) {
      const res = await service.call('GET', `/sandbox/account/${MISSING_ID}`, { headers: { 'x-request-id': invalid } });
      expectFailure(res, 'account', 404, 'ACCOUNT_NOT_FOUND');
      expect(res.json.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(res.json.logRefId).toBe(res.json.requestId);
      expect(parsedLogLines(service).some((line) => line.requestId === res.json.requestId)).toBe(true);
    }
    expect(
      service.logLines.filter((line) => line.includes('semi;colon') || line.includes('percent%20encoded')),
    ).toEqual([]);
  });
});

describe('authentication', () => {
  const challenge = 'Bearer realm="customer-account-service"';
  const cases: [string, Record<string, string>, string][] = [
    ['no Authorization header', {}, challenge],
    ['an empty Authorization header', { authorization: '' }, challenge],
    ['a Basic credential', { authorization: 'Basic dXNlcjpwYXNz' }, `${challenge}, error="invalid_request"`],
    ['"Bearer" without a token', { authorization: 'Bearer' }, `${challenge}, error="invalid_request"`],
    ['a token with a space in it', { authorization: 'Bearer two words' }, `${challenge}, error="invalid_request"`],
    ['an unknown token', { authorization: `Bearer ${WRONG_TOKEN}` }, `${challenge}, error="invalid_token"`],
  ];
  for (const [label, headers, expected] of cases) {
    it(`answers 401 UNAUTHENTICATED with WWW-Authenticate for ${label}, and changes nothing`, async () => {
      const before = await tableCounts(service.database.pool);
      const res = await service.call('POST', '/sandbox/customer', { body: buildCustomerInput(), headers, auth: false });
      expectFailure(res, 'customer', 401, 'UNAUTHENTICATED');
      // RFC 6750 §3: the error attribute names the failure; error_description repeats the envelope's message.
      expect(res.headers.get('www-authenticate')).toBe(
        expected === challenge ? expected : `${expected}, error_description="${res.json.error.message}"`,
      );
      expect(await tableCounts(service.database.pool)).toEqual(before);
    });
  }

  it('guards every operation', async () => {
    const { customerId } = await createCustomer(service);
    const account = await createAccount(service, [customerId]);
    const operations: [string, string, 'customer' | 'account'][] = [
      ['POST', '/sandbox/customer', 'customer'],
      ['GET', `/sandbox/customer/${customerId}`, 'customer'],
      ['PUT', `/sandbox/customer/${customerId}`, 'customer'],
      ['DELETE', `/sandbox/customer/${customerId}`, 'customer'],
      ['POST', '/sandbox/account', 'account'],
      ['GET', `/sandbox/account/${account.accountId}`, 'account'],
      ['PUT', `/sandbox/account/${account.accountId}`, 'account'],
      ['DELETE', `/sandbox/account/${account.accountId}`, 'account'],
    ];
    for (const [method, path, family] of operations) {
      const res = await service.call(method, path, {
        auth: false,
        body: method === 'POST' || method === 'PUT' ? { name: 'x' } : undefined,
      });
      expectFailure(res, family, 401, 'UNAUTHENTICATED');
    }
    expectSuccess(await service.call('GET', `/sandbox/account/${account.accountId}`), 'account', 200);
  });

  it('accepts the scheme name in any case (RFC 9110 §11.1)', async () => {
    const { customerId } = await createCustomer(service);
    const res = await service.call('GET', `/sandbox/customer/${customerId}`, {
      headers: { authorization: `bearer ${service.token}` },
    });
    expectSuccess(res, 'customer', 200);
  });
});

describe('routing', () => {
  it('answers 404 ENVIRONMENT_NOT_FOUND for an unconfigured environment, after authentication, without listing the configured ones', async () => {
    const res = await service.call('GET', `/staging/customer/${MISSING_ID}`);
    expectFailure(res, 'customer', 404, 'ENVIRONMENT_NOT_FOUND');
    expect(res.json.error.message).not.toMatch(/sandbox|production-like/);
    // Without a token the environment is not looked at: 401, as on a configured one.
    expectFailure(
      await service.call('GET', `/staging/customer/${MISSING_ID}`, { auth: false }),
      'customer',
      401,
      'UNAUTHENTICATED',
    );
  });

  it('answers 404 ROUTE_NOT_FOUND for paths outside the contract', async () => {
    for (const path of [
      '/',
      '/sandbox',
      '/sandbox/customers',
      '/sandbox/Customer',
      '/sandbox/Account',
      `/sandbox/customer/${MISSING_ID}/accounts`,
      '/v1/sandbox/customer',
    ]) {
      expectFailure(await service.call('GET', path), 'customer', 404, 'ROUTE_NOT_FOUND');
    }
    // Under an account path the answer uses the account endpoints' envelope.
    for (const path of ['/sandbox/account/a/b', '/sandbox/account/']) {
      expectFailure(
        await service.call('PATCH', path.replace('/account/', '/account/x/y/')),
        'account',
        404,
        'ROUTE_NOT_FOUND',
      );
      expectFailure(await service.call('GET', `${path}/more`), 'account', 404, 'ROUTE_NOT_FOUND');
    }
  });

  it('answers 405 METHOD_NOT_ALLOWED with Allow on a known path', async () => {
    const cases: [string, string, string, 'customer' | 'account'][] = [
      ['PUT', '/sandbox/customer', 'POST, GET, HEAD', 'customer'],
      ['DELETE', '/sandbox/customer', 'POST, GET, HEAD', 'customer'],
      ['POST', `/sandbox/customer/${MISSING_ID}`, 'GET, HEAD, PUT, DELETE', 'customer'],
      ['PATCH', `/sandbox/customer/${MISSING_ID}`, 'GET, HEAD, PUT, DELETE', 'customer'],
      ['PUT', '/sandbox/account', 'POST, GET, HEAD', 'account'],
      ['OPTIONS', `/sandbox/account/${MISSING_ID}`, 'GET, HEAD, PUT, DELETE', 'account'],
    ];
    for (const [method, path, allow, family] of cases) {
      const res = await service.call(method, path);
      expectFailure(res, family, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toBe(allow);
    }
  });

  it('answers HEAD like GET, without a body', async () => {
    const { customerId } = await createCustomer(service);
    const res = await service.call('HEAD', `/sandbox/customer/${customerId}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });
});

describe('request bodies', () => {
  const json = { 'content-type': 'application/json' };

  it('answers 400 MALFORMED_REQUEST for a body that is not JSON, without echoing it', async () => {
    const ssn = uniqueSsn();
    const before = await tableCounts(service.database.pool);
    const res = await service.call('POST', '/sandbox/customer', {
      rawBody: `{"socialSecurityNumber": "${ssn}", "firstName": `,
      headers: json,
    });
    expectFailure(res, 'customer', 400, 'MALFORMED_REQUEST');
    expect(res.json.error.message).toBe('The request body is not valid JSON.');
    expect(await tableCounts(service.database.pool)).toEqual(before);
    const put = await service.call('PUT', `/sandbox/account/${MISSING_ID}`, {
      rawBody: "{'name': 'single quotes'}",
      headers: json,
    });
    expectFailure(put, 'account', 400, 'MALFORMED_REQUEST');
  });

  it('never lets a malformed body reach stderr or the logs', async () => {
    const ssn = uniqueSsn();
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      written.push(args.map(String).join(' '));
    });
    const responses = [];
    try {
      for (const rawBody of [`{"socialSecurityNumber": "${ssn}",,}`, `{"socialSecurityNumber": ${ssn}}`]) {
        responses.push(await service.call('POST', '/sandbox/customer', { rawBody, headers: json }));
      }
    } finally {
      stderr.mockRestore();
      consoleError.mockRestore();
    }
    const leaked = (text: string) => text.includes(ssn) || text.includes(ssn.replaceAll('-', ''));
    expect(written.filter(leaked)).toEqual([]);
    expect(service.logLines.filter(leaked)).toEqual([]);
    for (const res of responses) expectFailure(res, 'customer', 400, 'MALFORMED_REQUEST');
  });

  it('answers 413 PAYLOAD_TOO_LARGE above the configured limit (64 KiB by default) and reads up to it', async () => {
    const limit = 64 * 1024;
    const bodyOfSize = (size: number) => {
      const skeleton = JSON.stringify({ preferredName: '' });
      return JSON.stringify({ preferredName: 'x'.repeat(size - skeleton.length) });
    };
    expect(Buffer.byteLength(bodyOfSize(limit))).toBe(limit);
    const atLimit = await service.call('POST', '/sandbox/customer', { rawBody: bodyOfSize(limit), headers: json });
    expectFailure(atLimit, 'customer', 400, 'VALIDATION_FAILED');
    const before = await tableCounts(service.database.pool);
    const over = await service.call('POST', '/sandbox/customer', { rawBody: bodyOfSize(limit + 1), headers: json });
    expectFailure(over, 'customer', 413, 'PAYLOAD_TOO_LARGE');
    expect(over.json.error.message).toContain(String(limit));
    const overAccount = await service.call('PUT', `/sandbox/account/${MISSING_ID}`, {
      rawBody: bodyOfSize(limit * 4),
      headers: json,
    });
    expectFailure(overAccount, 'account', 413, 'PAYLOAD_TOO_LARGE');
    expect(await tableCounts(service.database.pool)).toEqual(before);
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON, whatever it contains', async () => {
    const { customerId } = await createCustomer(service);
    const before = await tableCounts(service.database.pool);
    const body = JSON.stringify(buildCustomerInput());
    for (const headers of [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'application/merge-patch+json' },
      { 'content-type': 'application/json; charset=iso-8859-1' },
      { 'content-type': '' },
    ]) {
      const res = await service.call('POST', '/sandbox/customer', { rawBody: body, headers });
      expectFailure(res, 'customer', 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const put = await service.call('PUT', `/sandbox/customer/${customerId}`, {
      rawBody: '{"preferredName":"X"}',
      headers: { 'content-type': 'text/plain' },
    });
    expectFailure(put, 'customer', 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await tableCounts(service.database.pool)).toEqual(before);
  });

  it('answers 415 for an unknown Content-Encoding and 400 MALFORMED_REQUEST for an undecodable path', async () => {
    const encoded = await service.call('POST', '/sandbox/customer', {
      rawBody: '{}',
      headers: { ...json, 'content-encoding': 'snappy' },
    });
    expectFailure(encoded, 'customer', 415, 'UNSUPPORTED_MEDIA_TYPE');
    const badPath = await service.call('GET', '/sandbox/account/%E0%A4%A');
    expectFailure(badPath, 'account', 400, 'MALFORMED_REQUEST');
    expect(badPath.text).not.toContain('%E0');
  });

  it('accepts application/json with a UTF-8 charset parameter', async () => {
    const res = await service.call('POST', '/sandbox/customer', {
      rawBody: JSON.stringify(buildCustomerInput({ preferredName: 'Zoë' })),
      headers: { 'content-type': 'application/json; charset=UTF-8' },
    });
    expectSuccess(res, 'customer', 201);
  });

  it('authenticates before reading the body: an unauthenticated malformed body is a 401', async () => {
    const res = await service.call('POST', '/sandbox/account', { rawBody: '{', headers: json, auth: false });
    expectFailure(res, 'account', 401, 'UNAUTHENTICATED');
  });
});

describe('the logs', () => {
  it('never contain a test SSN, document locator number or bearer token', async () => {
    // Make sure the scan covers at least one request of each kind, failed ones included.
    const { customerId } = await createCustomer(service);
    await service.call('POST', '/sandbox/account', { body: buildAccountInput([customerId]) });
    await service.call('GET', '/sandbox/customer/x', { headers: { authorization: `Bearer ${WRONG_TOKEN}` } });
    expect(service.logLines.length).toBeGreaterThan(10);
    const secrets = [...SENSITIVE_VALUES, service.token, WRONG_TOKEN];
    const leaks = service.logLines.filter((line) => secrets.some((secret) => line.includes(secret)));
    expect(leaks).toEqual([]);
  });
});
