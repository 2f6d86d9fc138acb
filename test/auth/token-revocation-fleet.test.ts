import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createPrismaClient, type PrismaClient } from '../../src/db/connection/prisma-client.js';
import { PrismaApiTokenStore } from '../../src/features/tokens/index.js';
import { createLogger } from '../../src/logging/logger.js';
import { type RunningService, startService } from '../../src/runtime.js';
import { issueApiToken } from '../support/api-tokens.js';
import { eventually } from '../support/eventually.js';
import { assertNoSensitiveValues } from '../support/factories.js';
import { bearer, challenge } from '../support/http-auth.js';
import { metricSample } from '../support/metrics.js';
import { startTestService, TEST_PII_ENV, type TestService } from '../support/service.js';

/**
 * Two instances on one database, each caching the managed tokens it verified (docs/adr/0099-authentication-caches.md).
 * Their entries would live an hour (AUTH_CACHE_MAX_AGE_MS) and both LISTEN, so a refusal before then comes only
 * from the change notification that the api_tokens trigger sends when the revocation commits: each instance's
 * db_listener_notifications_total{channel="api_token_changed"} shows it arrived.
 */
const METRICS_TOKEN = 'metrics-scraper-token-0123456789';
const CACHE_ENV = { AUTH_CACHE_MAX_AGE_MS: '3600000', METRICS_TOKEN };

let first: TestService;
let second: RunningService;
let prisma: PrismaClient;
const secondLog: string[] = [];

beforeAll(async () => {
  first = await startTestService(CACHE_ENV);
  second = await startInstance(secondLog);
  // What `npm run token -- revoke` runs, from a process of its own.
  prisma = createPrismaClient(first.database.pool);
});

/** Another instance on the first one's database, its log lines kept in `log`. */
function startInstance(log: string[], env: Record<string, string> = {}): Promise<RunningService> {
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: first.databaseUrl,
    API_TOKENS: first.token,
    ENVIRONMENTS: 'sandbox,production-like',
    LOG_LEVEL: 'info',
    LOG_PRETTY: 'false',
    DATABASE_CONNECT_TIMEOUT_MS: '60000',
    DATABASE_STATEMENT_TIMEOUT_MS: '60000',
    ...TEST_PII_ENV,
    ...CACHE_ENV,
    ...env,
  });
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      log.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return startService(config, createLogger({ level: 'info', pretty: false, destination }));
}
afterAll(async () => {
  await prisma?.$disconnect();
  await second?.stop();
  assertNoSensitiveValues(secondLog.join('\n'), "the second instance's log lines");
  await first?.stop();
});

async function scrape(instance: RunningService): Promise<string> {
  const response = await fetch(`${instance.url}/metrics`, { headers: bearer(METRICS_TOKEN) });
  expect(response.status).toBe(200);
  return response.text();
}

const sample = (exposition: string, name: string, labels: Record<string, string> = {}) =>
  metricSample(exposition, name, labels) ?? Number.NaN;
const tokenNotifications = (exposition: string) =>
  sample(exposition, 'db_listener_notifications_total', { channel: 'api_token_changed' });
const cacheHits = (exposition: string) =>
  sample(exposition, 'auth_cache_lookups_total', { cache: 'managed_token', outcome: 'hit' });

const readCustomer = (instance: RunningService, token: string) =>
  fetch(`${instance.url}/sandbox/customer/${randomUUID()}`, { headers: bearer(token) });

describe('managed tokens cached on two instances', () => {
  it('a revocation is refused on both instances once its notification arrives, though their entries would live an hour', async () => {
    // Both instances listen: their cached entries are then served up to AUTH_CACHE_MAX_AGE_MS.
    for (const instance of [first, second])
      expect(
        sample(
          await eventually(
            () => scrape(instance),
            (text) => sample(text, 'db_listener_connected') === 1,
          ),
          'db_listener_connected',
        ),
      ).toBe(1);
    const { id, token } = await issueApiToken(first.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read'],
    });
    const hitsBefore = cacheHits(await scrape(second));
    for (const instance of [first, second]) {
      expect((await readCustomer(instance, token)).status).toBe(404);
      expect((await readCustomer(instance, token)).status).toBe(404);
    }
    // The second instance answered the token from memory.
    expect(cacheHits(await scrape(second))).toBeGreaterThan(hitsBefore);
    const notifiedBefore = await Promise.all([first, second].map(async (i) => tokenNotifications(await scrape(i))));

    expect(await new PrismaApiTokenStore(prisma).revoke(id, new Date(), () => [])).toBe('revoked');

    for (const instance of [first, second]) {
      const refused = await eventually(
        () => readCustomer(instance, token),
        (response) => response.status !== 404,
      );
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe(
        challenge('invalid_token', 'The bearer token has been revoked.'),
      );
    }
    const notifiedAfter = await Promise.all([first, second].map(async (i) => tokenNotifications(await scrape(i))));
    expect(notifiedAfter[0]).toBeGreaterThan(notifiedBefore[0]!);
    expect(notifiedAfter[1]).toBeGreaterThan(notifiedBefore[1]!);
  });

  it("a token's narrowed scopes apply on the other instance once notified; a last use notifies nothing, a deletion does", async () => {
    const { id, token } = await issueApiToken(first.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read'],
    });
    expect((await readCustomer(second, token)).status).toBe(404);
    // The trigger's notifications as any listener sees them, in commit order.
    const listener = new pg.Client({ connectionString: first.databaseUrl });
    await listener.connect();
    const payloads: string[] = [];
    listener.on('notification', ({ payload }) => payloads.push(payload ?? ''));
    await listener.query('LISTEN cas_api_token_changed');
    try {
      // What every instance writes once a minute per token: only last_used_at.
      await new PrismaApiTokenStore(prisma).touch(id, new Date(Date.now() + 120_000));
      await first.database.pool.query("UPDATE api_tokens SET scopes = '{accounts:read}' WHERE id = $1", [id]);
      const refused = await eventually(
        () => readCustomer(second, token),
        (response) => response.status !== 404,
      );
      expect(refused.status).toBe(403);
      await eventually(
        async () => payloads.length,
        (count) => count > 0,
      );
      // The scope change's notification came first: the last use, committed before it, sent none.
      expect(payloads).toEqual([id]);
      await first.database.pool.query('DELETE FROM api_tokens WHERE id = $1', [id]);
      await eventually(
        async () => payloads.length,
        (count) => count > 1,
      );
      expect(payloads).toEqual([id, id]);
      const deleted = await eventually(
        () => readCustomer(second, token),
        (response) => response.status !== 403,
      );
      expect(deleted.status).toBe(401);
    } finally {
      await listener.end();
    }
  });

  it('an instance that does not listen (DATABASE_LISTEN=false) refuses a revoked token too: its entries live a second at most', async () => {
    const unlistenedLog: string[] = [];
    const unlistened = await startInstance(unlistenedLog, { DATABASE_LISTEN: 'false' });
    try {
      const exposition = await scrape(unlistened);
      expect(metricSample(exposition, 'db_listener_connected')).toBeUndefined();
      const { id, token } = await issueApiToken(first.database.pool, {
        environments: ['sandbox'],
        scopes: ['customers:read'],
      });
      expect((await readCustomer(unlistened, token)).status).toBe(404);
      await first.database.pool.query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [id]);
      // No notification can reach it; the entry's one second (UNNOTIFIED_MAX_AGE_MS) is all that stands between.
      const refused = await eventually(
        () => readCustomer(unlistened, token),
        (response) => response.status !== 404,
      );
      expect(refused.status).toBe(401);
    } finally {
      await unlistened.stop();
      assertNoSensitiveValues(unlistenedLog.join('\n'), "the unlistening instance's log lines");
    }
  });
});
