import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { sendWebhook, type SendResult } from '../../../src/features/webhooks/webhook-http.js';
import { createLogger } from '../../../src/logging/logger.js';
import { type RunningService, startService } from '../../../src/runtime.js';
import { connect, followers } from '../../support/subscription-client.js';
import { createCustomer } from '../../rest/helpers.js';
import { HUNG_TEST_DEADLINE_MS } from '../../support/eventually.js';
import { assertNoSensitiveValues, buildCustomerInput } from '../../support/factories.js';
import { startTestService, TEST_PII_ENV, type TestService } from '../../support/service.js';
import { type Receiver, startReceiver } from './receiver.js';

/**
 * Waking other instances with LISTEN/NOTIFY (docs/adr/0046-listen-notify-wake-ups.md), on real PostgreSQL.
 * Instance A numbers every event (its sequencer runs every 20 ms); instance B never does and never polls: its
 * sequencer, webhook and subscription intervals are an hour, beyond this whole file (and beyond the hang-stopping
 * deadline of every wait in it). So whatever B delivers, it was woken for by a notification (or by its listener's
 * (re)connection), whatever the time it took: the test waits for the delivery itself, not for a bound on its
 * latency, and B's /metrics counts the wake-ups.
 */
const NEVER = '3600000';
/** Only to stop a test that hangs: far above a loaded machine's wake-up, far below B's hour. */
const DEADLINE_MS = HUNG_TEST_DEADLINE_MS;

/**
 * A's only attempt slot, held by an attempt to /held that is in flight until the test ends it: never by the
 * clock (a receiver that merely does not answer would free it after WEBHOOKS_TIMEOUT_MS).
 */
let releaseHeld: (result: SendResult) => void = () => undefined;
const held = new Promise<SendResult>((resolve) => (releaseHeld = resolve));
let heldStarted: () => void = () => undefined;
const heldInFlight = new Promise<void>((resolve) => (heldStarted = resolve));

let a: TestService;
let receiver: Receiver;
const instances: { service: RunningService; log: string[] }[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  a = await startTestService(
    {
      EVENT_SEQUENCER_INTERVAL_MS: '20',
      WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
      // A's one attempt slot is what the first test keeps busy, so that B has to deliver.
      WEBHOOKS_CONCURRENCY: '1',
      WEBHOOKS_POLL_INTERVAL_MS: NEVER,
      GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS: NEVER,
    },
    {
      webhookSend: (url, headers, body, options) => {
        if (!url.endsWith('/held')) return sendWebhook(url, headers, body, options);
        heldStarted();
        return held;
      },
    },
  );
});
afterAll(async () => {
  // First: it ends the attempt A holds in flight, so A's stop does not wait for it.
  releaseHeld({
    succeeded: false,
    statusCode: null,
    failure: 'timeout',
    latencyMs: 0,
    error: 'ended by the test',
    retryAfterMs: null,
  });
  await receiver?.close();
  for (const { service, log } of instances.reverse()) {
    await service.stop();
    assertNoSensitiveValues(log.join('\n'), "another instance's log lines");
  }
  await a?.stop();
});

/** Another instance of the service on A's database (what a second pod or VM is). */
async function startInstance(env: Record<string, string>): Promise<{ service: RunningService; log: string[] }> {
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: a.databaseUrl,
    API_TOKENS: a.token,
    ENVIRONMENTS: 'sandbox,production-like',
    LOG_LEVEL: 'info',
    LOG_PRETTY: 'false',
    MIGRATE_ON_START: 'false',
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
    // A busy machine (three services, the suite's other file) can be slow to hand out a connection.
    DATABASE_CONNECT_TIMEOUT_MS: '10000',
    ...TEST_PII_ENV,
    ...env,
  });
  const log: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      log.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const instance = {
    service: await startService(config, createLogger({ level: 'info', pretty: false, destination })),
    log,
  };
  instances.push(instance);
  return instance;
}

/** One sample of `name` (with its labels, as exposed) in the instance's /metrics; undefined when absent. */
async function metric(service: { url: string }, name: string): Promise<number | undefined> {
  const response = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${a.token}` } });
  const text = await response.text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/**
 * Waits until `read` answers something `accept` takes; after `timeoutMs` (only a hung test's minutes) fails with
 * the last answer. Never a bound on how fast: B cannot poll within it, so only a wake-up explains what it sees.
 */
async function until<T>(
  what: string,
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = DEADLINE_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const listening = (service: { url: string }) =>
  until(
    'db_listener_connected',
    () => metric(service, 'db_listener_connected'),
    (value) => value === 1,
  );

async function register(path: string): Promise<{ secret: string }> {
  const res = await a.call('POST', '/sandbox/webhook-endpoint', {
    body: { url: receiver.url(path), eventTypes: ['customer.created'] },
  });
  expect(res.status, res.text).toBe(201);
  return { secret: res.json.data.secret };
}

/** The customer.created deliveries `path` received, verified with the Standard Webhooks library, as customer ids. */
function deliveredCustomers(path: string, secret: string): string[] {
  return receiver.received
    .filter((request) => request.path === path)
    .map(
      (request) =>
        (new Webhook(secret).verify(request.body, request.headers) as { data: { resourceId: string } }).data.resourceId,
    );
}

/** The listener connections of every instance on A's database (application_name of src/db/connection/notifications.ts). */
async function terminateListeners(): Promise<number> {
  const { rows } = await a.database.pool.query<{ terminated: boolean }>(
    "SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'customer-account-service-listener'",
  );
  return rows.filter((row) => row.terminated).length;
}

describe('waking other instances (LISTEN/NOTIFY)', () => {
  let b: { service: RunningService; log: string[] };
  let second: { secret: string };
  const bClient = () => ({ url: b.service.url, token: a.token, subscriptions: b.service.subscriptions });

  it("an event numbered by A is delivered by B to a webhook endpoint: the fan-out's NOTIFY woke B's dispatcher (B never polls)", async () => {
    // A's only attempt slot: an attempt to /held in flight until afterAll ends it. B is not running yet, so A takes it.
    await register('/held');
    await createCustomer(a);
    await heldInFlight;

    b = await startInstance({
      EVENT_SEQUENCER_INTERVAL_MS: NEVER,
      WEBHOOKS_POLL_INTERVAL_MS: NEVER,
      GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS: NEVER,
    });
    await listening(b.service);
    second = await register('/second');
    const { customerId } = await createCustomer(a, buildCustomerInput({ firstName: 'Wake' }));

    // A numbers it and fans it out (its own sequencer woke it) but has no free slot; B claims it.
    await until(
      'deliveries to /second',
      async () => deliveredCustomers('/second', second.secret),
      (ids) => ids.includes(customerId),
    );
    // B counts the attempt once the receiver's answer is recorded, a moment after the receiver has it.
    await until(
      "B's successful first attempts",
      () => metric(b.service, 'webhook_delivery_attempts_total{outcome="success",attempt="first"}'),
      (value) => value === 1,
    );
    expect(await metric(b.service, 'db_listener_notifications_total{channel="deliveries_due"}')).toBeGreaterThanOrEqual(
      1,
    );
    // A's attempt to /held is still in flight (until afterAll ends it): A delivered nothing, and sent nothing else.
    expect(await metric(a, 'webhook_delivery_attempts_total{outcome="success",attempt="first"}')).toBeUndefined();
    expect(receiver.received.filter((request) => request.path === '/held')).toEqual([]);
  });

  it("an event numbered by A reaches a GraphQL subscriber of B: the sequencer's NOTIFY woke B's event feed (B never polls)", async () => {
    const client = connect(bClient());
    try {
      const events = client.subscribe('subscription { events(types: ["customer.created"]) { type resourceId } }');
      await followers(bClient(), 1);
      const before = (await metric(b.service, 'db_listener_notifications_total{channel="events_numbered"}')) ?? 0;
      const { customerId } = await createCustomer(a);
      expect(await events.take(1, DEADLINE_MS)).toEqual([
        { data: { events: { type: 'customer.created', resourceId: customerId } } },
      ]);
      expect(await metric(b.service, 'db_listener_notifications_total{channel="events_numbered"}')).toBeGreaterThan(
        before,
      );
    } finally {
      await client.dispose();
    }
  });

  it('the listener survives pg_terminate_backend: it reconnects and wake-ups work again', async () => {
    expect(await metric(b.service, 'db_listener_connections_total')).toBe(1);
    // A's and B's listeners.
    expect(await terminateListeners()).toBe(2);
    await until(
      'B reconnected',
      async () => [
        await metric(b.service, 'db_listener_connections_total'),
        await metric(b.service, 'db_listener_connected'),
      ],
      ([connections, connected]) => connections === 2 && connected === 1,
    );
    expect(b.log.some((line) => line.includes('the LISTEN connection was lost'))).toBe(true);
    expect(b.log.some((line) => line.includes('listening for wake-ups again'))).toBe(true);

    // Both wake-ups reach B again: a subscriber and a webhook endpoint (A's slot is still held).
    const client = connect(bClient());
    try {
      const events = client.subscribe('subscription { events(types: ["customer.created"]) { resourceId } }');
      await followers(bClient(), 1);
      const { customerId } = await createCustomer(a);
      expect(await events.take(1, DEADLINE_MS)).toEqual([{ data: { events: { resourceId: customerId } } }]);
      await until(
        'deliveries to /second',
        async () => deliveredCustomers('/second', second.secret),
        (ids) => ids.includes(customerId),
      );
    } finally {
      await client.dispose();
    }
    expect(b.log.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });

  it('while the listener cannot connect, polling still delivers; it comes back when it can (DATABASE_LISTEN_URL with its own role)', async () => {
    // A role of its own for the listener, so that the test can refuse its logins (and only its logins).
    const role = `cas_listen_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    await a.database.pool.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    const listenUrl = new URL(a.databaseUrl);
    listenUrl.username = role;
    listenUrl.password = password;
    const c = await startInstance({
      DATABASE_LISTEN_URL: listenUrl.toString(),
      EVENT_SEQUENCER_INTERVAL_MS: NEVER,
      GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS: '200',
    });
    const cClient = { url: c.service.url, token: a.token, subscriptions: c.service.subscriptions };
    try {
      await listening(c.service);
      const { rows } = await a.database.pool.query(
        "SELECT usename FROM pg_stat_activity WHERE application_name = 'customer-account-service-listener' AND usename = $1",
        [role],
      );
      expect(rows).toHaveLength(1);

      await a.database.pool.query(`ALTER ROLE ${role} NOLOGIN`);
      await a.database.pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
      await until(
        'C not listening',
        () => metric(c.service, 'db_listener_connected'),
        (value) => value === 0,
      );

      const client = connect(cClient);
      try {
        const events = client.subscribe('subscription { events(types: ["customer.created"]) { resourceId } }');
        await followers(cClient, 1);
        const { customerId } = await createCustomer(a);
        // Found by C's feed polling every 200 ms: the listener is still refused.
        expect(await events.take(1, DEADLINE_MS)).toEqual([{ data: { events: { resourceId: customerId } } }]);
        expect(await metric(c.service, 'db_listener_connected')).toBe(0);
        expect(c.log.some((line) => line.includes('the LISTEN connection was lost'))).toBe(true);
      } finally {
        await client.dispose();
      }

      await a.database.pool.query(`ALTER ROLE ${role} LOGIN`);
      await listening(c.service);
      expect(await metric(c.service, 'db_listener_connections_total')).toBe(2);
    } finally {
      await c.service.stop();
      instances.splice(instances.indexOf(c), 1);
      assertNoSensitiveValues(c.log.join('\n'), "instance C's log lines");
      expect(c.log.join('\n')).not.toContain(password);
      await a.database.pool.query(`DROP ROLE IF EXISTS ${role}`);
    }
  });

  it('DATABASE_LISTEN=false: no listener, no listener metrics (polling only)', async () => {
    const d = await startInstance({ DATABASE_LISTEN: 'false', EVENT_SEQUENCER_INTERVAL_MS: NEVER });
    expect(await metric(d.service, 'db_listener_connected')).toBeUndefined();
    const { rows } = await a.database.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'customer-account-service-listener'",
    );
    // A's and B's only.
    expect(rows[0]!.n).toBe(2);
  });
});
