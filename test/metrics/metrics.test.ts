import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { MAX_GRAPHQL_OPERATION_NAMES, ServiceMetrics } from '../../src/http/metrics.js';
import { createCustomer } from '../rest/helpers.js';
import { issueApiToken } from '../support/api-tokens.js';
import { metricSample as sample } from '../support/metrics.js';
import { startTestService, type TestService } from '../support/service.js';

const METRICS_TOKEN = 'metrics-scraper-token-0123456789';

describe('GET /metrics on the main port, behind METRICS_TOKEN', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ METRICS_TOKEN });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('refuses a missing, wrong or API token with 401 and a Bearer challenge', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer not-the-metrics-token-at-all' },
      { authorization: `Bearer ${service.token}` },
    ];
    for (const headers of attempts) {
      const res = await service.call('GET', '/metrics', { auth: false, headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(res.text).not.toContain('http_requests_total');
    }
  });

  it('counts requests by route pattern and status, never by concrete path; times queries; shows the pool and the process', async () => {
    const { customerId } = await createCustomer(service);
    expect((await service.call('GET', `/sandbox/customer/${customerId}`)).status).toBe(200);
    expect((await service.call('GET', '/sandbox/customer/0193a5c2-7f3e-7c41-9d2a-5b8e4f1c2a10')).status).toBe(404);
    expect((await service.call('GET', '/sandbox/no-such-thing')).status).toBe(404);

    const res = await service.call('GET', '/metrics', {
      auth: false,
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    const route = '/:environment/customer/:customerId';
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status: '200' })).toBe(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route, status: '404' })).toBe(1);
    expect(
      sample(text, 'http_requests_total', { method: 'POST', route: '/:environment/customer', status: '201' }),
    ).toBe(1);
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '(unmatched)', status: '404' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route, status: '200' })).toBe(1);
    expect(text).not.toContain(customerId);
    expect(text).not.toContain('no-such-thing');

    expect(sample(text, 'db_query_duration_seconds_count')).toBeGreaterThan(0);

    // GraphQL operations by name and outcome.
    const graphql = (query: string) => service.call('POST', '/sandbox/graphql', { body: { query } });
    expect((await graphql(`query CustomerCard { customer(customerId: "${customerId}") { customerId } }`)).status).toBe(
      200,
    );
    expect((await graphql('query Broken { customer(customerId: "x") { noSuchField } }')).status).toBe(400);
    const after = (
      await service.call('GET', '/metrics', { auth: false, headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text;
    expect(sample(after, 'graphql_operations_total', { operation: 'CustomerCard', outcome: 'success' })).toBe(1);
    // A document refused by validation never resolved an operation: its name is not trusted.
    expect(sample(after, 'graphql_operations_total', { operation: '(anonymous)', outcome: 'rejected' })).toBe(1);
    expect(
      sample(after, 'graphql_operation_duration_seconds_count', { operation: 'CustomerCard', outcome: 'success' }),
    ).toBe(1);
    expect(sample(text, 'db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_connections_max')).toBe(20);
    expect(sample(text, 'db_pool_waiting_clients')).toBe(0);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});

describe('METRICS_PORT: a separate listener', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ METRICS_PORT: '0' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('serves /metrics there without a token, and nothing else; the API port does not serve it', async () => {
    expect(service.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(service.metricsUrl).not.toBe(service.url);
    const scrape = await fetch(`${service.metricsUrl}/metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('# TYPE http_requests_total counter');
    expect((await fetch(`${service.metricsUrl}/sandbox/customer`)).status).toBe(404);

    const onApiPort = await service.call('GET', '/metrics', { auth: false });
    expect(onApiPort.status).toBe(404);
    expect(onApiPort.json.error.code).toBe('ROUTE_NOT_FOUND');
  });
});

describe('METRICS_PORT without METRICS_TOKEN, the API on every interface (HOST=0.0.0.0)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ HOST: '0.0.0.0', METRICS_PORT: '0' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it("binds the unguarded metrics listener to 127.0.0.1 only: reachable on loopback, refused on this machine's other addresses", async () => {
    const port = new URL(service.metricsUrl!).port;
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    const external = Object.values(networkInterfaces())
      .flatMap((addresses) => addresses ?? [])
      .filter((address) => !address.internal && address.family === 'IPv4');
    for (const { address } of external) {
      // The API port answers there (HOST=0.0.0.0); the metrics port does not listen there at all.
      expect((await fetch(`http://${address}:${new URL(service.url).port}/healthz`)).status).toBe(200);
      await expect(fetch(`http://${address}:${port}/metrics`)).rejects.toThrow();
    }
  });
});

describe('METRICS_PORT with METRICS_TOKEN', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ METRICS_PORT: '0', METRICS_TOKEN });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('still requires the token on the metrics port', async () => {
    expect((await fetch(`${service.metricsUrl}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${service.metricsUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status,
    ).toBe(200);
  });
});

describe('without METRICS_PORT or METRICS_TOKEN (the default)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  const REALM = 'Bearer realm="customer-account-service"';
  const scrape = (authorization?: string) =>
    service.call('GET', '/metrics', { auth: false, headers: authorization === undefined ? {} : { authorization } });

  it('serves /metrics on the API port to bearer tokens with metrics:read: every API_TOKENS token, and managed tokens granted it', async () => {
    expect(service.metricsUrl).toBeUndefined();
    const withStatic = await scrape(`Bearer ${service.token}`);
    expect(withStatic.status).toBe(200);
    expect(withStatic.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(withStatic.text).toContain('# TYPE http_requests_total counter');

    const { token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['metrics:read'],
    });
    expect((await scrape(`Bearer ${token}`)).status).toBe(200);
  });

  it('answers 401 without a token or with a refused one, never 404, and 403 to a token without metrics:read', async () => {
    const missing = await scrape();
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(REALM);
    expect(missing.json.error.code).toBe('UNAUTHENTICATED');
    expect(missing.text).not.toContain('http_requests_total');

    const wrong = await scrape('Bearer not-a-token-of-this-service');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe(
      `${REALM}, error="invalid_token", error_description="The bearer token is not valid."`,
    );

    const { token } = await issueApiToken(service.database.pool, {
      environments: ['*'],
      scopes: ['customers:read', 'accounts:read', 'audit:read'],
    });
    const refused = await scrape(`Bearer ${token}`);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('FORBIDDEN');
    expect(refused.headers.get('www-authenticate')).toBe(
      `${REALM}, error="insufficient_scope", error_description="The token lacks the scope this operation needs: metrics:read.", scope="metrics:read"`,
    );
    expect(refused.text).not.toContain('http_requests_total');
  });
});

describe("recordGraphqlOperation (the GraphQL surface's hook)", () => {
  it('counts operations by name and outcome, anonymous ones as (anonymous), and caps the number of names', async () => {
    const metrics = new ServiceMetrics({ processMetrics: false });
    metrics.recordGraphqlOperation('CustomerWithAccounts', 'success', 0.012);
    metrics.recordGraphqlOperation('CustomerWithAccounts', 'success', 0.02);
    metrics.recordGraphqlOperation('CustomerWithAccounts', 'error', 0.01);
    metrics.recordGraphqlOperation(undefined, 'rejected', 0.001);
    metrics.recordGraphqlOperation('not a graphql name', 'rejected', 0.001);
    for (let i = 0; i < MAX_GRAPHQL_OPERATION_NAMES + 50; i++)
      metrics.recordGraphqlOperation(`Generated${i}`, 'success', 0.001);
    const { body } = await metrics.exposition();
    expect(sample(body, 'graphql_operations_total', { operation: 'CustomerWithAccounts', outcome: 'success' })).toBe(2);
    expect(sample(body, 'graphql_operations_total', { operation: 'CustomerWithAccounts', outcome: 'error' })).toBe(1);
    expect(sample(body, 'graphql_operations_total', { operation: '(anonymous)', outcome: 'rejected' })).toBe(1);
    expect(
      sample(body, 'graphql_operation_duration_seconds_count', {
        operation: 'CustomerWithAccounts',
        outcome: 'success',
      }),
    ).toBe(2);
    // One name is already taken, so 199 generated names get their own series and 51 are folded.
    expect(sample(body, 'graphql_operations_total', { operation: '(other)', outcome: 'success' })).toBe(51);
    expect(sample(body, 'graphql_operations_total', { operation: '(other)', outcome: 'rejected' })).toBe(1);
    expect(body).not.toContain('not a graphql name');
  });
});

describe('metrics configuration', () => {
  const base = { NODE_ENV: 'test' };
  it('has no port or token by default and validates METRICS_PORT, METRICS_HOST and METRICS_TOKEN', () => {
    expect(loadConfig(base).metrics).toEqual({ port: undefined, host: '127.0.0.1', token: undefined });
    expect(loadConfig({ ...base, METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5', METRICS_TOKEN }).metrics).toEqual({
      port: 9464,
      host: '10.0.0.5',
      token: METRICS_TOKEN,
    });
    // Without a token the metrics listener binds loopback only: by default, and refusing any other METRICS_HOST.
    expect(loadConfig({ ...base, HOST: '0.0.0.0', METRICS_PORT: '9464' }).metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
      token: undefined,
    });
    expect(loadConfig({ ...base, HOST: '0.0.0.0', METRICS_PORT: '9464', METRICS_TOKEN }).metrics).toEqual({
      port: 9464,
      host: '0.0.0.0',
      token: METRICS_TOKEN,
    });
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'])
      expect(loadConfig({ ...base, METRICS_PORT: '9464', METRICS_HOST: host }).metrics.host).toBe(host);
    for (const host of ['10.0.0.5', '0.0.0.0', '::', 'metrics.internal']) {
      expect(() => loadConfig({ ...base, METRICS_PORT: '9464', METRICS_HOST: host })).toThrow(
        /METRICS_HOST must be a loopback address \(127\.0\.0\.1, ::1, localhost\) unless METRICS_TOKEN is set/,
      );
    }
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PORT: '3000', METRICS_PORT: '3000' })).toThrow(
      /METRICS_PORT must differ from PORT/,
    );
    expect(() => loadConfig({ ...base, METRICS_HOST: '127.0.0.1' })).toThrow(
      /METRICS_HOST is set without METRICS_PORT/,
    );
  });
});
