import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaEventStore } from '../../../src/features/events/event.store.js';
import { readOutboxBacklog } from '../../../src/features/events/outbox-backlog.store.js';
import { PrismaWebhookStore } from '../../../src/features/webhooks/webhook.store.js';
import { ServiceMetrics } from '../../../src/http/metrics.js';
import { createCustomer } from '../../rest/helpers.js';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { sequenceAll } from '../../support/events.js';
import { buildCustomerInput } from '../../support/factories.js';
import { metricSample as sample } from '../../support/metrics.js';
import { startTestService, type TestService } from '../../support/service.js';
import { type Receiver, startReceiver } from './receiver.js';
import { HUNG_TEST_DEADLINE_MS } from '../../support/eventually.js';

const METRICS_TOKEN = 'metrics-scraper-token-for-webhooks-0123';

describe('webhook delivery metrics in /metrics', () => {
  let service: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    service = await startTestService({
      METRICS_TOKEN,
      EVENT_SEQUENCER_INTERVAL_MS: '20',
      WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOKS_RETRY_SCHEDULE: '100ms,200ms',
      // Long enough that no answered attempt times out on a loaded machine (a 300 ms time-out did, in CI; 1 s did in the webhook suite),
      // so only the hanging receiver's first attempt counts as a time-out.
      WEBHOOKS_TIMEOUT_MS: '5000',
      WEBHOOKS_POLL_INTERVAL_MS: '50',
    });
  });
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
  });
  const scrape = async () =>
    (await service.call('GET', '/metrics', { auth: false, headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
      .text;

  it('counts attempts by outcome and attempt, times them, measures commit-to-delivery once per delivery, counts disabled endpoints; never labels an endpoint', async () => {
    receiver.on('/flaky', (nth) => (nth === 1 ? { status: 503 } : { status: 200 }));
    receiver.on('/gone', () => ({ status: 410 }));
    receiver.on('/slow', (nth) => (nth === 1 ? { hang: true } : { status: 204 }));
    const ids: string[] = [];
    for (const path of ['/ok', '/flaky', '/gone', '/slow']) {
      const res = await service.call('POST', '/sandbox/webhook-endpoint', {
        body: { url: receiver.url(path), eventTypes: ['customer.created'] },
      });
      ids.push(res.json.data.endpointId);
    }
    const { customerId } = await createCustomer(service);
    await Promise.all([
      receiver.waitFor('/ok', 1),
      receiver.waitFor('/flaky', 2),
      receiver.waitFor('/gone', 1),
      receiver.waitFor('/slow', 2),
    ]);

    const expected: [Record<string, string>, number][] = [
      [{ outcome: 'success', attempt: 'first' }, 1],
      [{ outcome: 'success', attempt: 'retry' }, 2],
      [{ outcome: 'http_5xx', attempt: 'first' }, 1],
      [{ outcome: 'http_4xx', attempt: 'first' }, 1],
      [{ outcome: 'timeout', attempt: 'first' }, 1],
    ];
    let text = '';
    for (
      const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
      Date.now() < deadline;
      await new Promise((resolve) => setTimeout(resolve, 50))
    ) {
      text = await scrape();
      if (expected.every(([labels, value]) => sample(text, 'webhook_delivery_attempts_total', labels) === value)) break;
    }
    for (const [labels, value] of expected)
      expect(sample(text, 'webhook_delivery_attempts_total', labels), JSON.stringify(labels)).toBe(value);
    // The counters move with each attempt; the backlog gauges are read from the database and reused for a
    // second (src/http/metrics.ts), so a scrape may still show the slow delivery's retry pending: wait for a
    // reading taken after the last attempt.
    const settled = (t: string) =>
      sample(t, 'webhook_deliveries_pending', { state: 'retry' }) === 1 &&
      sample(t, 'webhook_deliveries_pending', { state: 'first_attempt' }) === 0;
    for (
      const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
      !settled(text) && Date.now() < deadline;
      await new Promise((resolve) => setTimeout(resolve, 100))
    )
      text = await scrape();
    expect(sample(text, 'webhook_delivery_attempts_total', { outcome: 'connection_error' })).toBeUndefined();
    expect(sample(text, 'webhook_delivery_duration_seconds_count', { outcome: 'success' })).toBe(3);
    expect(sample(text, 'webhook_delivery_duration_seconds_count', { outcome: 'timeout' })).toBe(1);
    // The timed-out attempt took at least the whole time-out (5 s).
    expect(sample(text, 'webhook_delivery_duration_seconds_bucket', { outcome: 'timeout', le: '0.25' })).toBe(0);
    // Three deliveries succeeded (one at its first attempt, two at their second); the 410 never did.
    expect(sample(text, 'webhook_delivery_age_seconds_count')).toBe(3);
    expect(sample(text, 'webhook_delivery_age_seconds_sum')).toBeGreaterThan(0);
    expect(sample(text, 'webhook_endpoints_disabled_total', { reason: 'gone' })).toBe(1);
    expect(sample(text, 'webhook_endpoints', { state: 'enabled' })).toBe(3);
    expect(sample(text, 'webhook_endpoints', { state: 'disabled' })).toBe(1);
    expect(sample(text, 'outbox_backlog_up')).toBe(1);
    expect(sample(text, 'webhook_deliveries_pending', { state: 'first_attempt' })).toBe(0);
    // The 410's delivery keeps its scheduled retry while its endpoint is disabled: unfinished, of any endpoint.
    expect(sample(text, 'webhook_deliveries_pending', { state: 'retry' })).toBe(1);
    expect(sample(text, 'webhook_delivery_oldest_pending_age_seconds')).toBe(0);
    expect(sample(text, 'events_unsequenced')).toBe(0);
    expect(sample(text, 'events_oldest_unsequenced_age_seconds')).toBe(0);
    for (const id of [...ids, customerId]) expect(text).not.toContain(id);
    expect(text).not.toContain(receiver.url(''));

    // A redelivery of an event delivered before is an attempt, not a second commit-to-delivery sample.
    const redelivered = await service.call(
      'POST',
      `/sandbox/webhook-endpoint/${ids[0]}/delivery/${JSON.parse(receiver.received.find((r) => r.path === '/ok')!.body).data.eventId}/redeliver`,
    );
    expect(redelivered.status).toBe(200);
    await receiver.waitFor('/ok', 2);
    for (
      const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
      Date.now() < deadline;
      await new Promise((resolve) => setTimeout(resolve, 50))
    ) {
      text = await scrape();
      if (sample(text, 'webhook_delivery_attempts_total', { outcome: 'success', attempt: 'retry' }) === 3) break;
    }
    expect(sample(text, 'webhook_delivery_attempts_total', { outcome: 'success', attempt: 'retry' })).toBe(3);
    expect(sample(text, 'webhook_delivery_age_seconds_count')).toBe(3);
  });
});

describe('the outbox backlog statement (read at scrape time)', () => {
  let h: DomainHarness;
  beforeAll(async () => {
    h = await createDomainHarness();
  });
  afterAll(async () => h?.close());

  it('counts unnumbered events and unfinished deliveries (capped), and ages the oldest of each; disabled endpoints wait for nobody', async () => {
    const webhooks = new PrismaWebhookStore(h.prisma);
    const events = new PrismaEventStore(h.prisma);
    expect(await readOutboxBacklog(h.prisma)).toEqual({
      unsequencedEvents: 0,
      oldestUnsequencedSeconds: 0,
      pendingFirstAttempts: 0,
      pendingRetries: 0,
      oldestPendingFirstAttemptSeconds: 0,
      enabledEndpoints: 0,
      disabledEndpoints: 0,
    });
    const [a, b] = await Promise.all(
      ['a', 'b'].map((name) => h.services.webhooks.create(h.caller(), { url: `https://hooks.example.com/${name}` })),
    );
    // An event committed 90 s ago (events never change once written, so it is written that way), then three more.
    await h.pool.query(
      "INSERT INTO events (environment, type, resource_type, resource_id, payload, occurred_at) VALUES ('sandbox', 'customer.deleted', 'customer', gen_random_uuid(), '{}', now() - interval '90 seconds')",
    );
    for (let i = 0; i < 3; i++) await h.services.customers.create(h.caller(), buildCustomerInput());
    // Committed, not numbered yet: the sequencer has not run.
    const waiting = await readOutboxBacklog(h.prisma);
    expect(waiting).toMatchObject({ unsequencedEvents: 4, pendingFirstAttempts: 0, enabledEndpoints: 2 });
    expect(waiting.oldestUnsequencedSeconds).toBeGreaterThanOrEqual(90);
    expect((await readOutboxBacklog(h.prisma, 2)).unsequencedEvents).toBe(2);

    await sequenceAll(events, h.pool);
    await webhooks.fanOut(500);
    const pending = await readOutboxBacklog(h.prisma);
    expect(pending).toMatchObject({
      unsequencedEvents: 0,
      oldestUnsequencedSeconds: 0,
      pendingFirstAttempts: 8,
      pendingRetries: 0,
    });
    expect(pending.oldestPendingFirstAttemptSeconds).toBeGreaterThanOrEqual(90);
    const capped = await readOutboxBacklog(h.prisma, 5);
    expect(capped.pendingFirstAttempts + capped.pendingRetries).toBe(5);

    // Endpoint a's first delivery fails (a retry is scheduled); b's succeeds. (One each: first attempts go in order.)
    const claimed = await webhooks.claim(10, 60_000);
    expect(claimed).toHaveLength(2);
    for (const delivery of claimed) {
      const succeeded = delivery.endpointId === b!.endpoint.endpointId;
      await webhooks.complete({
        deliveryId: delivery.deliveryId,
        leaseId: delivery.leaseId,
        endpointId: delivery.endpointId,
        eventId: delivery.event.eventId,
        succeeded,
        statusCode: succeeded ? 200 : 500,
        latencyMs: 5,
        error: succeeded ? null : 'HTTP 500',
        retryInMs: succeeded ? null : 60_000,
        gone: false,
        disableAfterMs: 3_600_000,
      });
    }
    const afterAttempts = await readOutboxBacklog(h.prisma);
    expect(afterAttempts).toMatchObject({ pendingFirstAttempts: 6, pendingRetries: 1 });
    // The 90-second-old event was delivered (b) or waits for a retry (a): the oldest first attempt waiting is a fresh event's.
    expect(afterAttempts.oldestPendingFirstAttemptSeconds).toBeLessThan(90);

    // Disabled, a's deliveries still count as unfinished, but nothing waits for them.
    await h.services.webhooks.setEnabled(h.caller(), a!.endpoint.endpointId, false);
    await h.services.webhooks.delete(h.caller(), b!.endpoint.endpointId);
    expect(await readOutboxBacklog(h.prisma)).toEqual({
      unsequencedEvents: 0,
      oldestUnsequencedSeconds: 0,
      pendingFirstAttempts: 3,
      pendingRetries: 1,
      oldestPendingFirstAttemptSeconds: 0,
      enabledEndpoints: 0,
      disabledEndpoints: 1,
    });
  });

  it('answers a scrape without the backlog when the statement fails: outbox_backlog_up 0, the gauges NaN; one statement per scrape', async () => {
    const metrics = new ServiceMetrics({ processMetrics: false });
    let reads = 0;
    let fail = false;
    metrics.watchOutbox(async () => {
      reads += 1;
      if (fail) throw new Error('the database is away');
      return {
        unsequencedEvents: 1,
        oldestUnsequencedSeconds: 2,
        pendingFirstAttempts: 3,
        pendingRetries: 4,
        oldestPendingFirstAttemptSeconds: 5,
        enabledEndpoints: 6,
        disabledEndpoints: 7,
      };
    });
    const first = (await metrics.exposition()).body;
    expect(reads).toBe(1);
    expect(sample(first, 'outbox_backlog_up')).toBe(1);
    expect(sample(first, 'webhook_deliveries_pending', { state: 'retry' })).toBe(4);
    expect(sample(first, 'webhook_endpoints', { state: 'disabled' })).toBe(7);

    fail = true;
    const broken = new ServiceMetrics({ processMetrics: false });
    broken.watchOutbox(() => Promise.reject(new Error('the database is away')));
    const text = (await broken.exposition()).body;
    expect(sample(text, 'outbox_backlog_up')).toBe(0);
    expect(sample(text, 'events_unsequenced')).toBeNaN();
    expect(sample(text, 'webhook_delivery_oldest_pending_age_seconds')).toBeNaN();
  });
});
