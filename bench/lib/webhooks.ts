import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CUSTOMER_COLUMNS } from '../../src/db/sql/columns.js';
import { notNumbered } from '../../src/features/events/event-round-fragments.js';
import type { ReceivedDelivery, ReceiverCommand, ReceiverReply } from '../load/webhook-receiver.js';
import { serviceEnvironment } from './contenders.js';
import type { BenchContext } from './context.js';
import { measureRun, median } from './measure.js';
import { nodeVersion, type RunningServer, startServer } from './processes.js';
import { processCpuMicros, processTreeCpuMicros } from '../../scripts/lib/proc.js';
import { BENCH_ENVIRONMENT } from './seed.js';
import { productionNodeFlags } from '../../scripts/lib/production-start.js';
import { childEnvironment } from '../../scripts/lib/child-environment.js';

/**
 * `webhook-delivery` (issue 16): how fast the service pushes events to a local receiver, and how long an
 * event takes from its write to the receiver. The service runs with its default webhook and sequencer
 * settings (EVENT_SEQUENCER_INTERVAL_MS 100, WEBHOOKS_CONCURRENCY 10, one instance), except that it may
 * deliver to 127.0.0.1 (WEBHOOKS_ALLOW_PRIVATE_NETWORKS, which needs NODE_ENV other than production: test).
 * The receiver (bench/load/webhook-receiver.ts) is a process of its own that answers 200 at once.
 *
 * - Throughput: a backlog of customer.created events committed at once (one INSERT of events whose payloads
 *   are seeded customers, exactly the rows the creation's outbox insert writes), then the time until the
 *   receiver has every delivery: numbering, fan-out, claims, signed POSTs, outcomes. For 1 endpoint (first
 *   attempts to an endpoint go one at a time, in order: its ceiling) and for 10 endpoints (10 attempts in
 *   flight). The backlog is sized by a first, unmeasured run to last about --duration seconds.
 * - Latency: creations through the API at a fixed rate (half the slower measured delivery rate, at most
 *   200/s) for --duration seconds; for each delivery, the receiver's arrival minus the event's occurredAt
 *   (the creating transaction's timestamp, set when its one statement started; the commit follows within
 *   the statement's few milliseconds, so this slightly overstates commit → receiver).
 */

export const WEBHOOK_ENDPOINT_COUNTS = [1, 10] as const;

export interface WebhookThroughputRun {
  endpoints: number;
  events: number;
  deliveries: number;
  seconds: number;
  perSecond: number;
  serverCpuUsPerDelivery: number | null;
  postgresCpuUsPerDelivery: number | null;
}

export interface WebhookLatencyRun {
  endpoints: number;
  ratePerSecond: number;
  /** Creations acknowledged during the run (each a customer.created event). */
  events: number;
  deliveries: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Deliveries still missing when the wait ended (should be 0). */
  missing: number;
}

export interface WebhookDeliveryResult {
  nodeVersion: string;
  throughput: {
    endpoints: number;
    runs: WebhookThroughputRun[];
    medianPerSecond: number;
    medianServerCpuUsPerDelivery: number | null;
    medianPostgresCpuUsPerDelivery: number | null;
  }[];
  latency: {
    endpoints: number;
    ratePerSecond: number;
    runs: WebhookLatencyRun[];
    medianP50Ms: number;
    medianP90Ms: number;
    medianP99Ms: number;
    maxMs: number;
  }[];
  /** Every 50th request verified with standardwebhooks. */
  signaturesVerified: number;
  verificationFailures: string[];
  check: string;
}

interface Receiver {
  baseUrl: string;
  send(command: ReceiverCommand): Promise<ReceiverReply>;
  stop(): void;
}

async function startReceiver(ctx: BenchContext): Promise<Receiver> {
  const child: ChildProcess = spawn(ctx.referenceNode, ['--import', 'tsx', 'bench/load/webhook-receiver.ts'], {
    cwd: ctx.repoRoot,
    env: childEnvironment({ NODE_ENV: 'production' }),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies: ((reply: ReceiverReply) => void)[] = [];
  let listening!: (port: number) => void;
  const port = new Promise<number>((resolve) => (listening = resolve));
  child.on('message', (reply: ReceiverReply) => {
    if (reply.kind === 'listening') listening(reply.port);
    else replies.shift()?.(reply);
  });
  const baseUrl = `http://127.0.0.1:${await Promise.race([port, sleep(30_000).then(() => Promise.reject(new Error('the webhook receiver did not start')))])}`;
  return {
    baseUrl,
    send: (command) =>
      new Promise((resolve) => {
        replies.push(resolve);
        child.send(command);
      }),
    stop: () => child.kill('SIGTERM'),
  };
}

export async function runWebhookDelivery(ctx: BenchContext, node: string): Promise<WebhookDeliveryResult> {
  const receiver = await startReceiver(ctx);
  let server: RunningServer | undefined;
  try {
    server = await startServer({
      name: 'service-webhooks',
      command: node,
      args: [...productionNodeFlags(ctx.repoRoot), 'dist/main.js'],
      cwd: ctx.repoRoot,
      env: serviceEnvironment(ctx, ctx.db.benchUrl, path.join(ctx.workDir, 'webhooks-data'), {
        NODE_ENV: 'test',
        WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
      }),
      readyPath: '/readyz',
      readyStatus: 200,
      logDir: ctx.logDir,
    });
    return await measureWebhooks(ctx, server, receiver);
  } finally {
    await server?.stop();
    receiver.stop();
  }
}

async function measureWebhooks(
  ctx: BenchContext,
  server: RunningServer,
  receiver: Receiver,
): Promise<WebhookDeliveryResult> {
  const pool = ctx.benchPool;
  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${server.baseUrl}/${BENCH_ENVIRONMENT}${route}`, {
      method,
      headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as { data: Record<string, unknown> };
    if (res.status >= 300)
      throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(json).slice(0, 200)}`);
    return json.data;
  };
  /** Every event of the database numbered: a new endpoint then starts after all of them. */
  const settled = async () => {
    for (let waited = 0; waited < 60_000; waited += 100) {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM events e WHERE ${notNumbered('e')}`,
      );
      if (rows[0]!.n === 0) return;
      await sleep(100);
    }
    throw new Error('events still unnumbered after 60 s');
  };
  const register = async (count: number, run: string): Promise<string[]> => {
    await settled();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const path = `/${run}/e${i}`;
      const data = await api('POST', '/webhook-endpoint', {
        url: `${receiver.baseUrl}${path}`,
        eventTypes: ['customer.created'],
      });
      await receiver.send({ cmd: 'secret', path, secret: data.secret as string });
      ids.push(data.endpointId as string);
    }
    await receiver.send({ cmd: 'reset' });
    return ids;
  };
  /** Deleting an endpoint deletes its deliveries; the attempts already in flight finish. */
  const unregister = async (ids: string[]) => {
    for (const id of ids) await api('DELETE', `/webhook-endpoint/${id}`);
    let last = -1;
    for (;;) {
      await sleep(1500);
      const reply = (await receiver.send({ cmd: 'count' })) as { count: number };
      if (reply.count === last) return;
      last = reply.count;
    }
  };
  const collect = async () =>
    (await receiver.send({ cmd: 'collect' })) as Extract<ReceiverReply, { kind: 'collected' }>;
  const firstArrivals = (deliveries: ReceivedDelivery[]) => {
    const first = new Map<string, ReceivedDelivery>();
    for (const d of deliveries) if (!first.has(`${d.path} ${d.webhookId}`)) first.set(`${d.path} ${d.webhookId}`, d);
    return [...first.values()];
  };
  let runCounter = 0;
  let signaturesVerified = 0;
  const verificationFailures: string[] = [];
  const problems: string[] = [];

  /** A backlog of `events` customer.created events in one commit; until the receiver has all events × endpoints. */
  const throughputRun = async (endpoints: number, events: number): Promise<WebhookThroughputRun> => {
    const ids = await register(endpoints, `t${++runCounter}`);
    const expected = events * endpoints;
    await pool.query(
      `INSERT INTO events (environment, type, resource_type, resource_id, payload)
       SELECT $1, 'customer.created', 'customer', x.id, to_jsonb(x)
       FROM (SELECT ${CUSTOMER_COLUMNS} FROM customers c WHERE c.environment = $1 ORDER BY c.id LIMIT $2) x`,
      [BENCH_ENVIRONMENT, events],
    );
    const committedMs = performance.timeOrigin + performance.now();
    // From the commit on: writing the events is the writes' cost (outbox-cost), not the delivery's.
    const serverBefore = processCpuMicros(server.pid);
    const postgresBefore = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
    const deadline = Date.now() + 300_000;
    let reply = (await receiver.send({ cmd: 'count' })) as Extract<ReceiverReply, { kind: 'count' }>;
    while (reply.count < expected && Date.now() < deadline) {
      await sleep(50);
      reply = (await receiver.send({ cmd: 'count' })) as Extract<ReceiverReply, { kind: 'count' }>;
    }
    const serverAfter = processCpuMicros(server.pid);
    const postgresAfter = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
    const collected = await collect();
    signaturesVerified += collected.verified;
    verificationFailures.push(...collected.verificationFailures);
    const delivered = firstArrivals(collected.deliveries).length;
    if (delivered < expected)
      problems.push(
        `throughput run with ${endpoints} endpoint(s): ${expected - delivered} of ${expected} deliveries missing after 300 s`,
      );
    const seconds = (reply.lastArrivedMs - committedMs) / 1000;
    const perDelivery = (before: number | undefined, after: number | undefined) =>
      before === undefined || after === undefined || delivered === 0 ? null : (after - before) / delivered;
    await unregister(ids);
    return {
      endpoints,
      events,
      deliveries: delivered,
      seconds,
      perSecond: delivered / seconds,
      serverCpuUsPerDelivery: perDelivery(serverBefore, serverAfter),
      postgresCpuUsPerDelivery: perDelivery(postgresBefore, postgresAfter),
    };
  };

  /** Creations through the API at `rate` per second; each delivery's arrival minus its event's occurredAt. */
  const latencyRun = async (endpoints: number, rate: number): Promise<WebhookLatencyRun> => {
    const ids = await register(endpoints, `l${++runCounter}`);
    const { rows: cursor } = await pool.query<{ last: string }>(
      'SELECT coalesce((SELECT last FROM event_sequences WHERE environment = $1), 0)::text AS last',
      [BENCH_ENVIRONMENT],
    );
    await measureRun(ctx, server, 'rest-post-customer', ctx.options.durationSeconds, rate);
    await settled();
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM events WHERE environment = $1 AND type = 'customer.created' AND sequence > $2::bigint",
      [BENCH_ENVIRONMENT, cursor[0]!.last],
    );
    const events = rows[0]!.n;
    const expected = events * endpoints;
    for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
      if (((await receiver.send({ cmd: 'count' })) as { count: number }).count >= expected) break;
      await sleep(100);
    }
    const collected = await collect();
    signaturesVerified += collected.verified;
    verificationFailures.push(...collected.verificationFailures);
    const firsts = firstArrivals(collected.deliveries);
    const latencies = firsts.map((d) => d.arrivedMs - d.occurredAtMs).sort((a, b) => a - b);
    const at = (p: number) =>
      latencies.length === 0
        ? Number.NaN
        : latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;
    await unregister(ids);
    const missing = Math.max(0, expected - firsts.length);
    if (missing > 0)
      problems.push(
        `latency run with ${endpoints} endpoint(s): ${missing} of ${expected} deliveries missing after 120 s`,
      );
    return {
      endpoints,
      ratePerSecond: rate,
      events,
      deliveries: firsts.length,
      p50Ms: at(50),
      p90Ms: at(90),
      p99Ms: at(99),
      maxMs: latencies.at(-1) ?? Number.NaN,
      missing,
    };
  };

  const quick = ctx.options.quick;
  const { rows: population } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM customers WHERE environment = $1',
    [BENCH_ENVIRONMENT],
  );
  const throughput: WebhookDeliveryResult['throughput'] = [];
  for (const endpoints of WEBHOOK_ENDPOINT_COUNTS) {
    // Unmeasured: warms the path up and sizes the backlog so that a run lasts about --duration seconds.
    const probe = await throughputRun(endpoints, Math.min(population[0]!.n, quick ? 100 : 500));
    const events = Math.max(
      100,
      Math.min(20_000, population[0]!.n, Math.round((probe.perSecond * ctx.options.durationSeconds) / endpoints)),
    );
    ctx.log(
      `[webhook-delivery] ${endpoints} endpoint(s): warm-up ${probe.perSecond.toFixed(0)} deliveries/s; backlog of ${events} events per run`,
    );
    const runs: WebhookThroughputRun[] = [];
    for (let run = 1; run <= ctx.options.runs; run++) {
      const measured = await throughputRun(endpoints, events);
      runs.push(measured);
      ctx.log(
        `[webhook-delivery] ${endpoints} endpoint(s) run ${run}/${ctx.options.runs}: ${measured.deliveries} deliveries in ${measured.seconds.toFixed(1)} s = ${measured.perSecond.toFixed(0)}/s; server ${measured.serverCpuUsPerDelivery?.toFixed(0)} µs, PostgreSQL ${measured.postgresCpuUsPerDelivery?.toFixed(0)} µs per delivery`,
      );
    }
    const medianOrNull = (values: (number | null)[]) =>
      values.some((v) => v === null) ? null : median(values as number[]);
    throughput.push({
      endpoints,
      runs,
      medianPerSecond: median(runs.map((r) => r.perSecond)),
      medianServerCpuUsPerDelivery: medianOrNull(runs.map((r) => r.serverCpuUsPerDelivery)),
      medianPostgresCpuUsPerDelivery: medianOrNull(runs.map((r) => r.postgresCpuUsPerDelivery)),
    });
  }

  // One rate for every latency run: well under what one endpoint sustains, so the figure is the pipeline's, not a queue's.
  const perEndpointCeiling = Math.min(...throughput.map((t) => t.medianPerSecond / t.endpoints));
  const rate = Math.max(5, Math.min(200, Math.floor(perEndpointCeiling / 2)));
  const latency: WebhookDeliveryResult['latency'] = [];
  for (const endpoints of WEBHOOK_ENDPOINT_COUNTS) {
    const runs: WebhookLatencyRun[] = [];
    for (let run = 1; run <= ctx.options.runs; run++) {
      const measured = await latencyRun(endpoints, rate);
      runs.push(measured);
      ctx.log(
        `[webhook-delivery] latency, ${endpoints} endpoint(s), ${rate} creations/s, run ${run}/${ctx.options.runs}: ${measured.deliveries} deliveries, p50 ${measured.p50Ms.toFixed(1)} ms, p99 ${measured.p99Ms.toFixed(1)} ms, max ${measured.maxMs.toFixed(0)} ms`,
      );
    }
    latency.push({
      endpoints,
      ratePerSecond: rate,
      runs,
      medianP50Ms: median(runs.map((r) => r.p50Ms)),
      medianP90Ms: median(runs.map((r) => r.p90Ms)),
      medianP99Ms: median(runs.map((r) => r.p99Ms)),
      maxMs: Math.max(...runs.map((r) => r.maxMs)),
    });
  }
  if (verificationFailures.length > 0)
    problems.push(`${verificationFailures.length} sampled deliveries failed verification: ${verificationFailures[0]}`);
  const check =
    problems.length === 0
      ? `every delivery arrived; ${signaturesVerified} sampled deliveries verified with standardwebhooks`
      : `FAILED: ${problems.join('; ')}`;
  return {
    nodeVersion: nodeVersion(ctx.referenceNode),
    throughput,
    latency,
    signaturesVerified,
    verificationFailures: verificationFailures.slice(0, 10),
    check,
  };
}
