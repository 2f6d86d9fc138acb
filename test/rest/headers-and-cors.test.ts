import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../graphql/helpers.js';
import { buildCustomerInput } from '../support/factories.js';
import { type CallResult, startTestService, type TestService } from '../support/service.js';

/** helmet's headers on every kind of answer, the pages that set their own CSP, and one CORS allow-list for both surfaces. */
const APP = 'https://app.bank.example';
const API_CSP = "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'";
/** Headers that only mean something for a rendered document: on the HTML pages, not on JSON answers. */
const DOCUMENT_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ CORS_ORIGINS: `https://studio.apollographql.com,${APP}` });
});
afterAll(async () => service?.stop());

/** OWASP's set for APIs (REST Security Cheat Sheet, "Security headers"), on every answer. */
function expectApiSecurityHeaders(res: CallResult, csp = API_CSP): void {
  expect(res.headers.get('x-powered-by')).toBeNull();
  expect(res.headers.get('content-security-policy')).toBe(csp);
  expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
}

function documentHeadersOf(res: CallResult): Record<string, string | null> {
  return Object.fromEntries(Object.keys(DOCUMENT_HEADERS).map((name) => [name, res.headers.get(name)]));
}

describe('security headers (helmet)', () => {
  it('on REST answers, successes and errors alike, without the document-only headers', async () => {
    const created = await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() });
    expect(created.status).toBe(201);
    for (const res of [
      created,
      await service.call('GET', `/sandbox/customer/${String(created.json.data.customerId)}`),
      await service.call('GET', `/sandbox/customer/${randomUUID()}`),
      await service.call('GET', '/sandbox/customer/x', { auth: false }),
      await service.call('GET', '/no/such/path'),
    ]) {
      expectApiSecurityHeaders(res);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(Object.values(documentHeadersOf(res)).every((value) => value === null)).toBe(true);
    }
  });

  it('on GraphQL answers and health checks', async () => {
    expectApiSecurityHeaders(await graphql(service, '{ __typename }'));
    expectApiSecurityHeaders(await graphql(service, '{ __typename }', undefined, { auth: false }));
    expectApiSecurityHeaders(await service.call('GET', '/healthz', { auth: false }));
  });

  it('gives the API reference page the document headers as well', async () => {
    const page = await service.call('GET', '/docs', { auth: false });
    expect(page.status).toBe(200);
    expectApiSecurityHeaders(page, page.headers.get('content-security-policy')!);
    expect(documentHeadersOf(page)).toEqual(DOCUMENT_HEADERS);
  });

  it('leaves the offline GraphiQL its own strict policy, with the document headers', async () => {
    const page = await service.call('GET', '/sandbox/graphiql', { auth: false });
    expectApiSecurityHeaders(page, page.headers.get('content-security-policy')!);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self'; /);
    expect(documentHeadersOf(page)).toEqual(DOCUMENT_HEADERS);
  });

  it("lets the Sandbox landing page's own <meta> policy govern (Apollo's CDN, nonces), keeping frame-ancestors", async () => {
    const page = await service.call('GET', '/sandbox/graphql', { auth: false, headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<meta http-equiv="Content-Security-Policy"');
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(documentHeadersOf(page)).toEqual(DOCUMENT_HEADERS);
  });
});

describe('CORS from CORS_ORIGINS, on both surfaces', () => {
  const preflight = (path: string, origin: string, method: string) =>
    service.call('OPTIONS', path, {
      auth: false,
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization,content-type,idempotency-key',
      },
    });

  it("answers a listed origin's REST preflight and exposes the headers a client needs", async () => {
    const res = await preflight('/sandbox/customer', APP, 'POST');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PUT,DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type,idempotency-key');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const post = await service.call('POST', '/sandbox/customer', {
      body: buildCustomerInput(),
      headers: { origin: APP },
    });
    expect(post.status).toBe(201);
    expect(post.headers.get('access-control-allow-origin')).toBe(APP);
    expect(post.headers.get('access-control-expose-headers')).toBe(
      'X-Request-Id,Location,ETag,Idempotent-Replayed,Consistency-Token,WWW-Authenticate,Deprecation,Sunset,RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset,Retry-After',
    );
  });

  it('gives nothing to an origin not on the list, and servers still get 405 for OPTIONS', async () => {
    const res = await preflight('/sandbox/customer', 'https://evil.example', 'POST');
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const post = await service.call('POST', '/sandbox/customer', {
      body: buildCustomerInput(),
      headers: { origin: 'https://evil.example' },
    });
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    expect((await service.call('OPTIONS', '/sandbox/customer', { auth: false })).status).toBe(405);
  });

  it('uses the same list for GraphQL', async () => {
    const res = await preflight('/sandbox/graphql', APP, 'POST');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    const evil = await preflight('/sandbox/graphql', 'https://evil.example', 'POST');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    // Without a listed Origin, OPTIONS is just an unsupported method, as PUT or DELETE would be.
    const put = await service.call('PUT', '/sandbox/graphql', { auth: false });
    for (const res of [evil, await service.call('OPTIONS', '/sandbox/graphql', { auth: false })]) {
      expect(res.status).toBe(400);
      expect(res.json.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual(
        put.json.errors.map((error: { extensions: { code: string } }) => error.extensions.code),
      );
    }
  });
});
