import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { createLogger } from '../../../src/logging/logger.js';
import { type RunningService, startService } from '../../../src/runtime.js';
import { createAccount, createCustomer, expectSuccess } from '../../rest/helpers.js';
import { assertNoSensitiveValues, buildCustomerInput } from '../../support/factories.js';
import { startTestService, TEST_PII_ENV, type TestService } from '../../support/service.js';
import { connect, followers } from '../../support/subscription-client.js';

/**
 * Subscriptions across a fleet and through a shutdown. Instance A never numbers events itself (its
 * sequencer waits a minute), so what its subscribers receive was numbered by instance B, sharing the
 * database, and found by A's feed when B's NOTIFY woke it or by its polling, whichever came first
 * (test/features/webhooks/wake-ups.test.ts isolates the wake-up).
 */
let first: TestService;
let second: RunningService;
const secondLog: string[] = [];

beforeAll(async () => {
  first = await startTestService({
    EVENT_SEQUENCER_INTERVAL_MS: '60000',
    GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS: '50',
  });
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: first.databaseUrl,
    API_TOKENS: first.token,
    ENVIRONMENTS: 'sandbox,production-like',
    LOG_LEVEL: 'info',
    LOG_PRETTY: 'false',
    EVENT_SEQUENCER_INTERVAL_MS: '20',
    // A busy machine (two services, the suite's other file) can be slow to hand out a connection.
    DATABASE_CONNECT_TIMEOUT_MS: '10000',
    ...TEST_PII_ENV,
  });
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      secondLog.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  second = await startService(config, createLogger({ level: 'info', pretty: false, destination }));
});
afterAll(async () => {
  await second?.stop();
  assertNoSensitiveValues(secondLog.join('\n'), "the second instance's log lines");
  await first?.stop();
});

/** The REST harness of the test service, aimed at the second instance. */
const onSecond = (): TestService =>
  ({
    ...first,
    url: second.url,
    call: (method, path, options) => callOn(second.url, method, path, options),
  }) as TestService;
async function callOn(base: string, method: string, path: string, options: { body?: unknown } = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  assertNoSensitiveValues(text, `the second instance's answer to ${method} ${path}`);
  return { status: response.status, headers: response.headers, text, json: JSON.parse(text) };
}

describe('GraphQL subscriptions across instances', () => {
  it('a write on a second instance sharing the database reaches a subscriber of the first', async () => {
    const { customerId } = await createCustomer(onSecond());
    const account = await createAccount(onSecond(), [customerId]);
    await numbered(account.accountId);
    const client = connect(first);
    try {
      const events = client.subscribe(
        'subscription { events(types: ["customer.created", "account.updated"]) { type resourceId customer { firstName } } }',
      );
      const updates = client.subscribe('subscription ($id: ID!) { accountUpdated(accountId: $id) { name } }', {
        id: account.accountId,
      });
      await followers(first, 2);
      // Written after both subscriptions started, on the other instance, which numbers them too.
      const { customerId: later } = await createCustomer(onSecond(), buildCustomerInput({ firstName: 'Grace' }));
      expectSuccess(
        await onSecond().call('PUT', `/sandbox/account/${account.accountId}`, {
          body: { name: 'Fleet', currency: 'USD' },
        }),
        'account',
        200,
      );

      expect(await updates.take(1)).toEqual([{ data: { accountUpdated: { name: 'Fleet' } } }]);
      expect((await events.take(2)).map((result) => result.data.events)).toEqual([
        { type: 'customer.created', resourceId: later, customer: { firstName: 'Grace' } },
        { type: 'account.updated', resourceId: account.accountId, customer: null },
      ]);
    } finally {
      await client.dispose();
    }
  });
});

/** Resolves once the account's creation is numbered (readable in the events API): anything later starts after it. */
async function numbered(accountId: string): Promise<void> {
  for (;;) {
    const page = await first.call('GET', '/sandbox/event?types=account.created&limit=100');
    if ((page.json.data.events as { resourceId: string }[]).some((event) => event.resourceId === accountId)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('shutdown with open subscriptions', () => {
  it('closes every connection with 1001 Going away, ends their subscriptions and the feed, and stops', async () => {
    const service = await startTestService();
    const { customerId } = await createCustomer(service);
    const account = await createAccount(service, [customerId]);
    const client = connect(service);
    const events = client.subscribe('subscription { events { eventId } }');
    const updates = client.subscribe('subscription ($id: ID!) { accountUpdated(accountId: $id) { name } }', {
      id: account.accountId,
    });
    await followers(service, 2);
    expect(service.subscriptions.connections()).toBe(1);

    await service.stop();
    await Promise.all([events.done, updates.done]);
    expect(client.closes).toEqual([{ code: 1001, reason: 'Going away' }]);
    expect(service.subscriptions.connections()).toBe(0);
    expect(service.subscriptions.followers()).toBe(0);
    expect(service.logLines.filter((line) => /shutdown step failed|"level":50/.test(line))).toEqual([]);
    await client.dispose();
  });
});
