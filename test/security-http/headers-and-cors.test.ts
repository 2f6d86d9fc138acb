import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../graphql/helpers.js';
import { buildCustomerInput } from '../support/factories.js';
import { type CallResult, startTestService, type TestService } from '../support/service.js';

/** helmet's headers on every kind of answer, the pages that set their own CSP, and one CORS allow-list for both surfaces. */
const APP = 'https://app.bank.example';
const API_CSP = "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'";

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ CORS_ORIGINS: `https://studio.apollographql.com,${APP}` });
});
afterAll(async () => service?.stop());

function expectSecurityHeaders(res: CallResult, csp = API_CSP): void {
  expect(res.headers.get('x-powered-by')).toBeNull();
  expect(res.headers.get('content-security-policy')).toBe(csp);
  expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(res.headers.get('x-permitted-cross-domain-policies')).toBe('none');
}

describe('security headers (helmet)', () => {
  it('on REST answers, successes and errors alike', async () => {
    expectSecurityHeaders(await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() }));
    expectSecurityHeaders(await service.call('GET', `/sandbox/customer/${randomUUID()}`));
    expectSecurityHeaders(await service.call('GET', '/sandbox/customer/x', { auth: false }));
    expectSecurityHeaders(await service.call('GET', '/no/such/path'));
  });

  it('on GraphQL answers and health checks', async () => {
    expectSecurityHeaders(await graphql(service, '{ __typename }'));
    expectSecurityHeaders(await graphql(service, '{ __typename }', undefined, { auth: false }));
    expectSecurityHeaders(await service.call('GET', '/healthz', { auth: false }));
  });

  it('leaves the offline GraphiQL its own strict policy', async () => {
    const page = await service.call('GET', '/sandbox/graphiql', { auth: false });
    expectSecurityHeaders(page, page.headers.get('content-security-policy')!);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self'; /);
  });

  it("lets the Sandbox landing page's own <meta> policy govern (Apollo's CDN, nonces), keeping frame-ancestors", async () => {
    const page = await service.call('GET', '/sandbox/graphql', { auth: false, headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<meta http-equiv="Content-Security-Policy"');
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('CORS from CORS_ORIGINS, on both surfaces', () => {
  const preflight = (path: string, origin: string, method: string) =>
    service.call('OPTIONS', path, {
      auth: false,
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
    });

  it('answers a listed origin\'s REST preflight and exposes the headers a client needs', async () => {
    const res = await preflight('/sandbox/customer', APP, 'POST');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PUT,DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type,idempotency-key');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const post = await service.call('POST', '/sandbox/customer', { body: buildCustomerInput(), headers: { origin: APP } });
    expect(post.status).toBe(201);
    expect(post.headers.get('access-control-allow-origin')).toBe(APP);
    expect(post.headers.get('access-control-expose-headers')).toBe(
      'X-Request-Id,Location,Idempotent-Replayed,WWW-Authenticate,RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset,Retry-After',
    );
  });

  it('gives nothing to an origin not on the list, and servers still get 405 for OPTIONS', async () => {
    const res = await preflight('/sandbox/customer', 'https://evil.example', 'POST');
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const post = await service.call('POST', '/sandbox/customer', { body: buildCustomerInput(), headers: { origin: 'https://evil.example' } });
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    expect((await service.call('OPTIONS', '/sandbox/customer', { auth: false })).status).toBe(405);
  });

  it('uses the same list for GraphQL', async () => {
    const res = await preflight('/sandbox/graphql', APP, 'POST');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    const evil = await preflight('/sandbox/graphql', 'https://evil.example', 'POST');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });
});
