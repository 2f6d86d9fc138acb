import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaEventStore } from '../../../src/features/events/event.store.js';
import { PrismaWebhookStore } from '../../../src/features/webhooks/webhook.store.js';
import type { AttemptOutcome, ClaimedDelivery } from '../../../src/features/webhooks/ports.js';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { sequenceAll } from '../../support/events.js';
import { buildCustomerInput } from '../../support/factories.js';

/**
 * The delivery table's concurrency rules, on the store: several dispatchers claiming at once each get
 * different deliveries, first attempts follow sequence order per endpoint, and a claim whose dispatcher
 * died is due again when its lease ends.
 */
let h: DomainHarness;
let webhooks: PrismaWebhookStore;
let events: PrismaEventStore;
beforeAll(async () => {
  h = await createDomainHarness();
  webhooks = new PrismaWebhookStore(h.prisma);
  events = new PrismaEventStore(h.prisma);
});
afterAll(async () => h.close());

const success = (delivery: ClaimedDelivery, overrides: Partial<AttemptOutcome> = {}): AttemptOutcome => ({
  deliveryId: delivery.deliveryId,
  leaseId: delivery.leaseId,
  endpointId: delivery.endpointId,
  eventId: delivery.event.eventId,
  succeeded: true,
  statusCode: 200,
  latencyMs: 3,
  error: null,
  retryInMs: null,
  gone: false,
  disableAfterMs: 60_000,
  ...overrides,
});

async function newEvents(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await h.services.customers.create(h.caller(), buildCustomerInput());
  await sequenceAll(events, h.pool);
}

describe('webhook deliveries under concurrent dispatchers', () => {
  it('fan-out is idempotent; four dispatchers claim every delivery exactly once, first attempts in sequence order per endpoint', async () => {
    const endpoints = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        h.services.webhooks.create(h.caller(), { url: `https://hooks.example.com/${name}` }),
      ),
    );
    await newEvents(15);
    expect((await webhooks.fanOut(500)).created).toBe(45);
    expect((await webhooks.fanOut(500)).created).toBe(0);

    const claims: string[] = [];
    const completedOrder = new Map<string, number[]>();
    const dispatcher = async () => {
      for (let idle = 0; idle < 20;) {
        const claimed = await webhooks.claim(4, 60_000);
        if (claimed.length === 0) {
          idle += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        idle = 0;
        for (const delivery of claimed) {
          claims.push(delivery.deliveryId);
          const order = completedOrder.get(delivery.endpointId) ?? [];
          order.push(delivery.event.sequence);
          completedOrder.set(delivery.endpointId, order);
          await webhooks.complete(success(delivery));
        }
      }
    };
    await Promise.all([dispatcher(), dispatcher(), dispatcher(), dispatcher()]);
    expect(claims).toHaveLength(45);
    expect(new Set(claims).size).toBe(45);
    for (const { endpoint } of endpoints) {
      const order = completedOrder.get(endpoint.endpointId)!;
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    const { rows } = await h.pool.query(
      "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered' AND attempts = 1",
    );
    expect(rows[0].n).toBe(45);
  });

  it("a claim looks at each endpoint's next first attempt and the due retries, not at every waiting delivery: its table scans do not grow with the backlog", async () => {
    await h.pool.query('DELETE FROM webhook_endpoints');
    const created = await Promise.all(
      ['x', 'y'].map((name) =>
        h.services.webhooks.create(h.caller(), { url: `https://hooks.example.com/backlog-${name}` }),
      ),
    );
    await newEvents(1);
    // A backlog of 300 events (copies of a real customer.created event), numbered and fanned out: 600 first attempts due.
    await h.pool.query(
      `INSERT INTO events (environment, type, resource_type, resource_id, payload)
       SELECT e.environment, e.type, e.resource_type, e.resource_id, e.payload FROM (SELECT * FROM events WHERE type = 'customer.created' ORDER BY txid DESC, id DESC LIMIT 1) e, generate_series(1, 300)`,
    );
    // Every one of them numbered: one sequencer call leaves events behind while another test file's
    // transaction is open in the same cluster, and an endpoint would then have only one delivery.
    await sequenceAll(events, h.pool);
    expect((await webhooks.fanOut(500)).created).toBe(602);
    // One endpoint's earlier delivery failed and its retry is due: retries are not held back by the order.
    const x = created[0]!.endpoint.endpointId;
    await h.pool.query(
      "UPDATE webhook_deliveries SET attempts = 1, status = 'failed' WHERE id = (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY sequence DESC LIMIT 1)",
      [x],
    );

    // The claim's own scans of webhook_deliveries: PostgreSQL's counters of this session not yet flushed
    // (pg_stat_xact_user_tables), read on the claim's connection just before and just after it.
    const { claimed, scans } = await h.prisma.$transaction(async (tx) => {
      const count = async () =>
        (
          await tx.$queryRawUnsafe<{ scans: number }[]>(
            "SELECT (seq_scan + coalesce(idx_scan, 0))::int AS scans FROM pg_stat_xact_user_tables WHERE relname = 'webhook_deliveries'",
          )
        )[0]!.scans;
      const before = await count();
      const claimed = await new PrismaWebhookStore(tx as unknown as typeof h.prisma).claim(10, 60_000);
      return { claimed, scans: (await count()) - before };
    });
    const { rows } = await h.pool.query(
      'SELECT endpoint_id, min(sequence)::int AS first FROM webhook_deliveries WHERE attempts = 0 GROUP BY endpoint_id',
    );
    const firstOf = new Map(rows.map((row) => [row.endpoint_id as string, row.first as number]));
    // Each endpoint's lowest waiting sequence, plus endpoint x's due retry: three, whatever the backlog.
    expect(claimed).toHaveLength(3);
    for (const delivery of claimed) {
      if (delivery.attempts === 0) expect(delivery.event.sequence).toBe(firstOf.get(delivery.endpointId));
      else expect(delivery.endpointId).toBe(x);
    }
    // Testing each of the 600 waiting deliveries against its endpoint's earlier ones took one scan per delivery.
    expect(scans).toBeLessThan(40);
  });

  it('a claim whose dispatcher died is due again when its lease ends; the stale dispatcher cannot record over the new claim', async () => {
    await h.pool.query('DELETE FROM webhook_endpoints');
    const { endpoint } = await h.services.webhooks.create(h.caller(), { url: 'https://hooks.example.com/lease' });
    await newEvents(2);
    await webhooks.fanOut(500);
    // A lease longer than the test: it ends when the test says so (below), not after a wait on the clock.
    const [first] = await webhooks.claim(10, 3600_000);
    expect(first).toBeDefined();
    // Its first attempt has not finished: the endpoint's next event waits, and the leased one is not due.
    expect(await webhooks.claim(10, 3600_000)).toEqual([]);
    // The dispatcher died; its lease ends (a claim's lease is the delivery's next_attempt_at).
    const ended = await h.pool.query(
      "UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 millisecond' WHERE id = $1 AND lease_id = $2",
      [first!.deliveryId, first!.leaseId],
    );
    expect(ended.rowCount).toBe(1);
    const [again] = await webhooks.claim(10, 60_000);
    expect(again!.deliveryId).toBe(first!.deliveryId);
    expect(again!.leaseId).not.toBe(first!.leaseId);
    await webhooks.complete(success(first!, { succeeded: false, statusCode: 500, retryInMs: 1000 }));
    const { rows } = await h.pool.query('SELECT status, attempts FROM webhook_deliveries WHERE id = $1', [
      first!.deliveryId,
    ]);
    expect(rows[0]).toEqual({ status: 'pending', attempts: 0 });
    await webhooks.complete(success(again!));
    const [next] = await webhooks.claim(10, 60_000);
    expect(next!.event.sequence).toBeGreaterThan(again!.event.sequence);
    expect(endpoint.enabled).toBe(true);
  });
});
