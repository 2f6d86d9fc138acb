import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/postgres/embedded-postgres.js';
import { reportRedisOutages } from '../../src/http/rate-limit.js';
import { expectFailure } from '../rest/helpers.js';
import { graphql } from '../graphql/helpers.js';
import { startTestService, type TestService } from '../support/service.js';
import { bearer } from '../support/http-auth.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/**
 * REDIS_URL: two instances of the service spend one budget. A real redis-server (Debian's package) is started
 * on a free port for this file and stopped after it.
 */
const REDIS_SERVER = '/usr/bin/redis-server';
const available = existsSync(REDIS_SERVER);
if (!available)
  process.stderr.write(
    `Skipping the Redis rate limit tests: ${REDIS_SERVER} is absent (apt-get install -y redis-server).\n`,
  );

let redisProcess: ChildProcess | undefined;
let redis: Redis;
let redisUrl: string;
const services: TestService[] = [];
const token = `shared_${randomBytes(32).toString('base64url')}`;

/** Starts redis-server on `port` and answers once it said it accepts connections (its log, on stdout), connecting `redis` to it. */
async function startRedisServer(port: number): Promise<void> {
  const started = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  redisProcess = started;
  await new Promise<void>((resolve, reject) => {
    let log = '';
    started.stdout.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes('Ready to accept connections')) resolve();
    });
    started.once('exit', (code) =>
      reject(new Error(`redis-server exited (${code}) before accepting connections:\n${log}`)),
    );
  });
  started.stdout.resume();
}

async function startRedis(): Promise<void> {
  const port = await freePort();
  await startRedisServer(port);
  redisUrl = `redis://127.0.0.1:${port}/0`;
  redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {}); // the test stops the server on purpose
  await redis.connect();
}

/** Connected clients but the test's own: each service instance waits for its Redis client's first connection before it listens (RateLimits.connected). */
async function serviceClients(): Promise<number> {
  const clients = (await redis.client('LIST')) as string;
  return clients.trim().split('\n').length - 1;
}

describe.skipIf(!available)('rate limits in Redis (REDIS_URL)', () => {
  beforeAll(async () => {
    await startRedis();
    for (let i = 0; i < 2; i++) {
      services.push(
        await startTestService({
          API_TOKENS: token,
          REDIS_URL: redisUrl,
          RATE_LIMIT_POINTS: '4',
          RATE_LIMIT_DURATION_S: '60',
        }),
      );
    }
    // Both instances' clients are connected, so no request is counted by the in-memory fallback.
    expect(await serviceClients()).toBe(2);
  });
  afterAll(async () => {
    for (const service of services) await service.stop();
    redis?.disconnect();
    redisProcess?.kill();
  });

  it('two instances spend one budget per token, over REST and GraphQL', async () => {
    const [a, b] = services as [TestService, TestService];
    const answers = [
      await a.call('GET', `/sandbox/customer/${randomUUID()}`, { headers: bearer(token) }),
      await graphql(b, '{ __typename }', undefined, { headers: bearer(token) }),
      await b.call('GET', `/sandbox/customer/${randomUUID()}`, { headers: bearer(token) }),
      await graphql(a, '{ __typename }', undefined, { headers: bearer(token) }),
    ];
    expect(answers.map((res) => res.headers.get('ratelimit-remaining'))).toEqual(['3', '2', '1', '0']);
    for (const service of [a, b]) {
      const refused = await service.call('GET', `/sandbox/customer/${randomUUID()}`, { headers: bearer(token) });
      expectFailure(refused, 'customer', 429, 'RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const keys = await redis.keys('cas:rl:principal:*');
    expect(keys).toEqual([expect.stringMatching(/^cas:rl:principal:static:/)]);
  });

  it('keeps serving, counting in memory per instance, when Redis goes away (one warning, no token in the log)', async () => {
    const [a] = services as [TestService];
    redisProcess?.kill();
    await new Promise((resolve) => redisProcess?.once('exit', resolve));
    // The token spent its shared budget in Redis; this instance's own counters start afresh (rate limits
    // degrade to per instance, they are neither lifted nor turned into errors).
    const served = await a.call('GET', `/sandbox/customer/${randomUUID()}`, { headers: bearer(token) });
    expect(served.status).toBe(404);
    expect(served.headers.get('ratelimit-limit')).toBe('4');
    expect(served.headers.get('ratelimit-remaining')).toBe('3');
    // ioredis reports the outage when its first reconnection fails, shortly after.
    const warnings = () => a.logLines.filter((line) => line.includes('Redis for rate limits is unreachable'));
    await expect.poll(() => warnings().length, { timeout: HUNG_TEST_DEADLINE_MS }).toBe(1);
    // Redis comes back on its port; the instance logs its return once its client is ready again. Every failed
    // reconnection of the outage came before that line, so the warnings counted then are the outage's all.
    await startRedisServer(Number(new URL(redisUrl).port));
    await expect
      .poll(() => a.logLines.some((line) => line.includes('Redis for rate limits is reachable again')), {
        timeout: HUNG_TEST_DEADLINE_MS,
      })
      .toBe(true);
    expect(warnings()).toHaveLength(1);
    expect(a.logLines.some((line) => line.includes(token))).toBe(false);
  });
});

describe('one warning per Redis outage', () => {
  it('warns at the first failed (re)connection only, and logs the return once; the next outage warns again', () => {
    const client = new EventEmitter();
    const logged: string[] = [];
    const logger = {
      warn: (_fields: object, message: string) => logged.push(`warn ${message}`),
      info: (message: string) => logged.push(`info ${message}`),
    };
    reportRedisOutages(
      client as unknown as Parameters<typeof reportRedisOutages>[0],
      logger as unknown as Parameters<typeof reportRedisOutages>[1],
    );
    client.emit('ready');
    for (let i = 0; i < 3; i++) client.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6390'));
    client.emit('ready');
    client.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6390'));
    client.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6390'));
    expect(logged).toEqual([
      'warn Redis for rate limits is unreachable; counting in memory per instance until it is back',
      'info Redis for rate limits is reachable again',
      'warn Redis for rate limits is unreachable; counting in memory per instance until it is back',
    ]);
  });
});
