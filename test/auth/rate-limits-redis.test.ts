import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/postgres/embedded-postgres.js';
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
if (!available) process.stderr.write(`Skipping the Redis rate limit tests: ${REDIS_SERVER} is absent (apt-get install -y redis-server).\n`);

let redisProcess: ChildProcess | undefined;
let redis: Redis;
let redisUrl: string;
const services: TestService[] = [];
const token = `shared_${randomBytes(32).toString('base64url')}`;

async function startRedis(): Promise<void> {
  const port = await freePort();
  redisProcess = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  redisUrl = `redis://127.0.0.1:${port}/0`;
  redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {}); // the test stops the server on purpose
  for (let attempt = 0; ; attempt++) {
    try {
      await redis.connect();
      return;
    } catch (error) {
      if (attempt > HUNG_TEST_DEADLINE_MS / 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Both instances' clients are connected, so no request is counted by the in-memory fallback. */
async function bothInstancesConnected(): Promise<void> {
  for (let attempt = 0; attempt < HUNG_TEST_DEADLINE_MS / 50; attempt++) {
    const clients = (await redis.client('LIST')) as string;
    if (clients.trim().split('\n').length >= 3) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the service instances did not connect to Redis');
}

describe.skipIf(!available)('rate limits in Redis (REDIS_URL)', () => {
  beforeAll(async () => {
    await startRedis();
    for (let i = 0; i < 2; i++) {
      services.push(await startTestService({ API_TOKENS: token, REDIS_URL: redisUrl, RATE_LIMIT_POINTS: '4', RATE_LIMIT_DURATION_S: '60' }));
    }
    await bothInstancesConnected();
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
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(warnings()).toHaveLength(1);
    expect(a.logLines.some((line) => line.includes(token))).toBe(false);
  });
});
