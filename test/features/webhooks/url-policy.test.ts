import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_PORTS, loadConfig } from '../../../src/config/config.js';
import { forbiddenAddressReason } from '../../../src/features/webhooks/addresses.js';
import { createUrlGuard, sendWebhook } from '../../../src/features/webhooks/webhook-http.js';
import { startReceiver } from './receiver.js';
import { TEST_STATIC_TOKEN } from '../../support/static-token.js';
import { tableCounts } from '../../support/database.js';
import { startTestService, type TestService } from '../../support/service.js';
import { configProblems } from '../../support/config.js';
import { expectFailure, expectSuccess } from '../../rest/helpers.js';
import { serviceWithSsrfGuard } from './ssrf-guard.js';
import { ATTEMPT_TIMEOUT_MS } from './settings.js';

/**
 * What a webhook URL may name beside its address: ports (WEBHOOKS_ALLOWED_PORTS) and, in production, https only;
 * and the address ranges added for issue 28 (Azure's wire server, IPv4 inside IPv6, local-use NAT64).
 */

// A public address literal (no DNS needed); nothing is ever delivered to it here.
const PUBLIC = '93.184.215.14';

describe('the address rules', () => {
  it("refuses Azure's wire server, local-use NAT64, and private or metadata IPv4 carried in mapped, translated or NAT64 IPv6", () => {
    expect(forbiddenAddressReason('168.63.129.16')).toBe('cloud platform endpoint (Azure wire server)');
    expect(forbiddenAddressReason('64:ff9b:1::8.8.8.8')).toBe('local-use NAT64');
    expect(forbiddenAddressReason('64:ff9b:1:ffff::1')).toBe('local-use NAT64');
    expect(forbiddenAddressReason('::ffff:169.254.169.254')).toBe('link-local (cloud metadata)');
    expect(forbiddenAddressReason('::ffff:a9fe:a9fe')).toBe('link-local (cloud metadata)');
    expect(forbiddenAddressReason('::ffff:0:10.0.0.1')).toBe('private');
    expect(forbiddenAddressReason('64:ff9b::127.0.0.1')).toBe('loopback');
    expect(forbiddenAddressReason('64:ff9b::a83f:8110')).toBe('cloud platform endpoint (Azure wire server)');
  });

  it('still accepts public addresses, also through the mapped and well-known NAT64 forms', () => {
    for (const address of [
      '8.8.8.8',
      '168.63.129.17',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '2606:4700::1111',
      '64:ff9b:2::1',
    ]) {
      expect(forbiddenAddressReason(address), address).toBeNull();
    }
  });
});

describe('the URL guard', () => {
  const guard = createUrlGuard(false, { allowedPorts: DEFAULT_WEBHOOK_PORTS, requireHttps: false });
  const production = createUrlGuard(false, { allowedPorts: DEFAULT_WEBHOOK_PORTS, requireHttps: true });

  it("allows 443, 80 and 8443 by default (a URL without a port uses its scheme's), refuses any other port", async () => {
    for (const url of [
      `https://${PUBLIC}/h`,
      `http://${PUBLIC}/h`,
      `https://${PUBLIC}:443/h`,
      `https://${PUBLIC}:8443/h`,
      `http://${PUBLIC}:80/h`,
    ]) {
      expect(await guard.check(new URL(url)), url).toBeNull();
    }
    for (const port of [22, 25, 6379, 8080, 9200, 65535]) {
      expect(await guard.check(new URL(`https://${PUBLIC}:${port}/h`))).toBe(
        `port ${port} is not allowed (allowed: 443, 80, 8443)`,
      );
    }
    expect(
      await createUrlGuard(false, { allowedPorts: '*', requireHttps: false }).check(
        new URL(`https://${PUBLIC}:9999/h`),
      ),
    ).toBeNull();
  });

  it('requires https when asked (production), whatever the port', async () => {
    expect(await production.check(new URL(`https://${PUBLIC}/h`))).toBeNull();
    expect(await production.check(new URL(`http://${PUBLIC}/h`))).toBe('only https URLs are allowed in production');
    expect(await production.check(new URL(`http://${PUBLIC}:443/h`))).toBe('only https URLs are allowed in production');
  });
});

describe('at every delivery attempt', () => {
  it('refuses a URL the policy no longer allows (registered before it) without connecting', async () => {
    const receiver = await startReceiver();
    try {
      const url = receiver.url('/old-endpoint');
      const options = { timeoutMs: ATTEMPT_TIMEOUT_MS, allowPrivateNetworks: true };
      const port = new URL(url).port;
      const narrowed = await sendWebhook(url, {}, '{}', {
        ...options,
        policy: { allowedPorts: [443], requireHttps: false },
      });
      expect(narrowed).toMatchObject({
        succeeded: false,
        failure: 'address_refused',
        error: `refused: port ${port} is not allowed (allowed: 443)`,
      });
      const httpsOnly = await sendWebhook(url, {}, '{}', {
        ...options,
        policy: { allowedPorts: '*', requireHttps: true },
      });
      expect(httpsOnly).toMatchObject({
        succeeded: false,
        failure: 'address_refused',
        error: 'refused: only https URLs are allowed in production',
      });
      expect(receiver.received).toHaveLength(0);
      // The same URL under the policy it was registered with is delivered.
      expect(
        await sendWebhook(url, {}, '{}', { ...options, policy: { allowedPorts: '*', requireHttps: false } }),
      ).toMatchObject({ succeeded: true });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('configuration', () => {
  const base = { NODE_ENV: 'test' };
  const production = {
    NODE_ENV: 'production',
    API_TOKENS: TEST_STATIC_TOKEN,
    PII_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
    PII_ACTIVE_KEY: 'k1',
    PII_BLIND_INDEX_KEY: Buffer.alloc(32, 2).toString('base64'),
  };

  it('defaults to 443, 80, 8443 (any port when private networks are allowed, for local receivers); https only in production', () => {
    expect(loadConfig(base).webhooks).toMatchObject({ allowedPorts: [443, 80, 8443], requireHttps: false });
    expect(loadConfig({ ...base, WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true' }).webhooks.allowedPorts).toBe('*');
    expect(
      loadConfig({ ...base, WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOKS_ALLOWED_PORTS: '443' }).webhooks
        .allowedPorts,
    ).toEqual([443]);
    expect(loadConfig({ ...base, WEBHOOKS_ALLOWED_PORTS: ' 443, 9443,443' }).webhooks.allowedPorts).toEqual([
      443, 9443,
    ]);
    expect(loadConfig({ ...base, WEBHOOKS_ALLOWED_PORTS: '*' }).webhooks.allowedPorts).toBe('*');
    expect(loadConfig(production).webhooks).toMatchObject({ allowedPorts: [443, 80, 8443], requireHttps: true });
  });

  it('refuses malformed port lists', () => {
    for (const value of ['0', '65536', '443,', 'https', '443;80']) {
      expect(configProblems({ ...base, WEBHOOKS_ALLOWED_PORTS: value }), value).toEqual([
        expect.stringMatching(/WEBHOOKS_ALLOWED_PORTS must be \* or comma-separated ports/),
      ]);
    }
  });
});

describe('over HTTP', () => {
  const strict = serviceWithSsrfGuard();

  it('registers a public https URL on an allowed port; refuses another port with WEBHOOK_URL_NOT_ALLOWED naming the port, writing nothing', async () => {
    for (const url of [`https://${PUBLIC}/hook`, `https://${PUBLIC}:8443/hook`]) {
      const created = await strict().call('POST', '/sandbox/webhook-endpoint', { body: { url } });
      expectSuccess(created, 'customer', 201);
      expectSuccess(
        await strict().call('DELETE', `/sandbox/webhook-endpoint/${created.json.data.endpointId}`),
        'customer',
        200,
      );
    }
    const before = await tableCounts(strict().database.pool);
    const refused = await strict().call('POST', '/sandbox/webhook-endpoint', {
      body: { url: `https://${PUBLIC}:6379/hook` },
    });
    expectFailure(refused, 'customer', 400, 'WEBHOOK_URL_NOT_ALLOWED');
    expect(refused.json.error.message).toBe(
      'Webhooks cannot be sent to this URL: port 6379 is not allowed (allowed: 443, 80, 8443).',
    );
    expect(refused.json.error.details).toEqual([
      { field: 'url', code: 'WEBHOOK_URL_NOT_ALLOWED', message: expect.stringContaining('port 6379') },
    ]);
    expect(refused.text).not.toContain(PUBLIC);
    expect(await tableCounts(strict().database.pool)).toEqual(before);
  });
});

describe('over HTTP in production (NODE_ENV=production)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ NODE_ENV: 'production' });
  });
  afterAll(async () => service?.stop());

  it('refuses an http URL with WEBHOOK_URL_NOT_ALLOWED, accepts https', async () => {
    const before = await tableCounts(service.database.pool);
    const refused = await service.call('POST', '/sandbox/webhook-endpoint', { body: { url: `http://${PUBLIC}/hook` } });
    expectFailure(refused, 'customer', 400, 'WEBHOOK_URL_NOT_ALLOWED');
    expect(refused.json.error.message).toBe(
      'Webhooks cannot be sent to this URL: only https URLs are allowed in production.',
    );
    expect(await tableCounts(service.database.pool)).toEqual(before);
    const created = await service.call('POST', '/sandbox/webhook-endpoint', {
      body: { url: `https://${PUBLIC}/hook` },
    });
    expectSuccess(created, 'customer', 201);
    expectSuccess(
      await service.call('DELETE', `/sandbox/webhook-endpoint/${created.json.data.endpointId}`),
      'customer',
      200,
    );
  });
});
