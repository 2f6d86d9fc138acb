import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EndpointDisabledBy } from '../features/webhooks/index.js';

/**
 * The service's Prometheus metrics (docs/reference/metrics.md). One instance per running service,
 * with its own registry, so several services in one process (the tests) never share counters.
 *
 * Labels are bounded: routes are patterns (`/:environment/customer/:customerId`), never concrete paths;
 * GraphQL operation names are capped (see `recordGraphqlOperation`).
 */

/**
 * The outbox's backlog the gauges show, as src/features/events/outbox-backlog.store.ts reads it (declared here because the
 * HTTP layer does not import the database layer; the composition root, src/runtime.ts, connects the two).
 */
export interface OutboxBacklog {
  unsequencedEvents: number;
  oldestUnsequencedSeconds: number;
  pendingFirstAttempts: number;
  pendingRetries: number;
  oldestPendingFirstAttemptSeconds: number;
  enabledEndpoints: number;
  disabledEndpoints: number;
}

/** One finished webhook attempt (src/features/webhooks/webhook-delivery.job.ts, AttemptReport). */
export interface WebhookAttemptSample {
  statusCode: number | null;
  failure: 'address_refused' | 'timeout' | 'connection_error' | 'not_sent' | null;
  firstAttempt: boolean;
  latencyMs: number;
  deliveredAfterMs: number | null;
  disabledEndpoint: EndpointDisabledBy | null;
}

/**
 * The service's quotas (docs/reference/limits.md, "Quotas"): each has a limit (`quota_limit`), refusals
 * (`quota_refusals_total`) and, where this instance can see it, its fullest use (`quota_usage`).
 */
export const QUOTAS = [
  'webhook_endpoints_per_environment',
  'graphql_ws_connections_per_principal',
  'graphql_ws_connections_per_address',
  'event_feed_followers',
  'ledger_exports',
  'statement_pdf_renders',
] as const;
export type Quota = (typeof QUOTAS)[number];

/** How a GraphQL operation ended: `success` (no errors), `error` (errors while executing), `rejected` (refused before executing: syntax, validation, limits, authentication). */
export type GraphqlOutcome = 'success' | 'error' | 'rejected';

const HTTP_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
/** Webhook attempts: from a fast local receiver to WEBHOOKS_TIMEOUT_MS (at most 60 s). */
const WEBHOOK_BUCKETS_S = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Commit to delivery: a moment when all is well, hours when a receiver was down and retries caught up. */
const DELIVERY_AGE_BUCKETS_S = [
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
  30,
  60,
  300,
  1800,
  3600,
  4 * 3600,
  12 * 3600,
  24 * 3600,
  48 * 3600,
];
/** How long one scrape waits for the backlog statement before answering without it. */
const BACKLOG_TIMEOUT_MS = 2000;
/** Several gauges read the same backlog; one statement serves a whole scrape (and scrapes this close). */
const BACKLOG_REUSE_MS = 1000;
const UNMATCHED_ROUTE = '(unmatched)';
const ANONYMOUS_OPERATION = '(anonymous)';
const OTHER_OPERATIONS = '(other)';
/** Clients choose operation names: past this many distinct names, new ones are counted as `(other)`. */
export const MAX_GRAPHQL_OPERATION_NAMES = 200;
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;

export interface ServiceMetricsOptions {
  /** Node.js process metrics (CPU, memory, event loop, GC); on by default. */
  processMetrics?: boolean;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly graphqlOperations: Counter<'operation' | 'outcome'>;
  private readonly graphqlDuration: Histogram<'operation' | 'outcome'>;
  private readonly queryDuration: Histogram;
  private readonly webhookAttempts: Counter<'outcome' | 'attempt'>;
  private readonly webhookDuration: Histogram<'outcome'>;
  private readonly webhookDeliveryAge: Histogram;
  private readonly webhookEndpointsDisabled: Counter<'reason'>;
  private readonly quotaLimits: Gauge<'quota'>;
  private readonly quotaRefusals: Counter<'quota'>;
  private readonly quotaUsage = new Map<Quota, () => number>();
  private readonly statementPdfs: Counter<'outcome'>;
  private readonly authCacheLookups: Counter<'cache' | 'outcome'>;
  private statementPdfCacheBytes: () => number = () => 0;
  private readonly operationNames = new Set<string>();

  constructor(options: ServiceMetricsOptions = {}) {
    const registers = [this.registry];
    this.authCacheLookups = new Counter({
      name: 'auth_cache_lookups_total',
      help: 'Bearer tokens looked up in the authentication caches, by cache (managed_token, jwt) and outcome (hit: answered from memory; miss: verified in full).',
      labelNames: ['cache', 'outcome'],
      registers,
    });
    for (const cache of ['managed_token', 'jwt'])
      for (const outcome of ['hit', 'miss']) this.authCacheLookups.inc({ cache, outcome }, 0);
    this.httpRequests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the first byte of a request to the last byte of its answer, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS_S,
      registers,
    });
    this.graphqlOperations = new Counter({
      name: 'graphql_operations_total',
      help: 'GraphQL operations, by operation name and outcome (success, error, rejected).',
      labelNames: ['operation', 'outcome'],
      registers,
    });
    this.graphqlDuration = new Histogram({
      name: 'graphql_operation_duration_seconds',
      help: 'GraphQL operation duration, by operation name and outcome.',
      labelNames: ['operation', 'outcome'],
      buckets: HTTP_BUCKETS_S,
      registers,
    });
    this.queryDuration = new Histogram({
      name: 'db_query_duration_seconds',
      help: 'SQL statement duration, as seen by the connection pool.',
      buckets: QUERY_BUCKETS_S,
      registers,
    });
    // Labels are a fixed vocabulary, never an endpoint id or URL: clients create endpoints without bound.
    this.webhookAttempts = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts made by this instance, by outcome (success, http_3xx, http_4xx, http_5xx, http_other, timeout, connection_error, address_refused, not_sent) and attempt (first, retry).',
      labelNames: ['outcome', 'attempt'],
      registers,
    });
    this.webhookDuration = new Histogram({
      name: 'webhook_delivery_duration_seconds',
      help: "One webhook attempt, from the request to the answer's status line (or the failure), by outcome.",
      labelNames: ['outcome'],
      buckets: WEBHOOK_BUCKETS_S,
      registers,
    });
    this.webhookDeliveryAge = new Histogram({
      name: 'webhook_delivery_age_seconds',
      help: "From an event's commit to its first successful delivery to an endpoint (retries included): end-to-end webhook latency.",
      buckets: DELIVERY_AGE_BUCKETS_S,
      registers,
    });
    this.webhookEndpointsDisabled = new Counter({
      name: 'webhook_endpoints_disabled_total',
      help: 'Webhook endpoints this instance disabled after an attempt, by reason (gone: a 410 answer; failing_window: every attempt failed for the whole retry schedule).',
      labelNames: ['reason'],
      registers,
    });
    // Labels: the quota's name only, never who hit it (principals and addresses are unbounded).
    this.quotaLimits = new Gauge({
      name: 'quota_limit',
      help: "Each quota's configured limit, by quota.",
      labelNames: ['quota'],
      registers,
    });
    this.quotaRefusals = new Counter({
      name: 'quota_refusals_total',
      help: 'Requests this instance refused because a quota was full, by quota.',
      labelNames: ['quota'],
      registers,
    });
    for (const quota of QUOTAS) this.quotaRefusals.inc({ quota }, 0);
    const usage = this.quotaUsage;
    new Gauge({
      name: 'quota_usage',
      help: 'How full each quota this instance enforces in memory is: open GraphQL WebSocket connections of the busiest principal and of the busiest client address, event feed followers in total, ledger exports running, statement PDFs rendering or queued.',
      labelNames: ['quota'],
      registers,
      collect() {
        for (const [quota, read] of usage) this.set({ quota }, read());
      },
    });
    this.statementPdfs = new Counter({
      name: 'statement_pdfs_total',
      help: 'Statement PDFs this instance answered, by outcome (rendered: drawn by a rendering worker; cached: a statement of an ended period answered from memory, or shared with an identical render in flight).',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['rendered', 'cached']) this.statementPdfs.inc({ outcome }, 0);
    const statementPdfCacheBytes = () => this.statementPdfCacheBytes();
    new Gauge({
      name: 'statement_pdf_cache_bytes',
      help: 'Bytes of statement PDFs of ended periods this instance keeps in memory (at most STATEMENT_PDF_CACHE_BYTES).',
      registers,
      collect() {
        this.set(statementPdfCacheBytes());
      },
    });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** Each (method, route pattern, status)'s children, made once: a label lookup hashes the labels on every call. */
  private readonly httpChildren = new Map<
    string,
    {
      requests: ReturnType<Counter<'method' | 'route' | 'status'>['labels']>;
      duration: ReturnType<Histogram<'method' | 'route' | 'status'>['labels']>;
    }
  >();

  /**
   * One answer, once its last byte is sent (the request log's one 'finish' listener calls it,
   * src/http/request-logging.ts): counted and timed by method, route pattern and status.
   */
  recordHttpAnswer(method: string, route: string | undefined, status: number, seconds: number): void {
    const pattern = route ?? UNMATCHED_ROUTE;
    const key = `${method} ${status} ${pattern}`;
    let children = this.httpChildren.get(key);
    if (children === undefined) {
      const labels = { method, route: pattern, status: String(status) };
      children = { requests: this.httpRequests.labels(labels), duration: this.httpDuration.labels(labels) };
      this.httpChildren.set(key, children);
    }
    children.requests.inc();
    children.duration.observe(seconds);
  }

  /**
   * For the GraphQL surface: one call per operation when its response is ready. `name` is the operation
   * name from the document (undefined or empty for anonymous operations); `seconds` its duration.
   */
  recordGraphqlOperation(name: string | undefined | null, outcome: GraphqlOutcome, seconds: number): void {
    const labels = { operation: this.operationLabel(name), outcome };
    this.graphqlOperations.inc(labels);
    this.graphqlDuration.observe(labels, seconds);
  }

  /** For the pool's onQuery callback (src/db/connection/pool.ts). */
  observeQuery(durationMs: number): void {
    this.queryDuration.observe(durationMs / 1000);
  }

  /** For the webhook dispatcher's onAttempt hook (src/features/webhooks/webhook-delivery.job.ts). */
  recordWebhookAttempt(sample: WebhookAttemptSample): void {
    const outcome = webhookOutcome(sample);
    this.webhookAttempts.inc({ outcome, attempt: sample.firstAttempt ? 'first' : 'retry' });
    // An attempt never sent took no time on the wire.
    if (outcome !== 'not_sent') this.webhookDuration.observe({ outcome }, sample.latencyMs / 1000);
    if (sample.deliveredAfterMs !== null) this.webhookDeliveryAge.observe(sample.deliveredAfterMs / 1000);
    if (sample.disabledEndpoint) this.webhookEndpointsDisabled.inc({ reason: sample.disabledEndpoint });
  }

  setQuotaLimit(quota: Quota, limit: number): void {
    this.quotaLimits.set({ quota }, limit);
  }

  /** `read` answers the quota's current use, at each scrape. */
  watchQuotaUsage(quota: Quota, read: () => number): void {
    this.quotaUsage.set(quota, read);
  }

  quotaRefused(quota: Quota): void {
    this.quotaRefusals.inc({ quota });
  }

  /** For the statement PDF renderer (src/features/history/statement-pdfs.ts): one answered PDF, drawn or from memory. */
  recordStatementPdf(outcome: 'rendered' | 'cached'): void {
    this.statementPdfs.inc({ outcome });
  }

  /** `read` answers the bytes of statement PDFs kept in memory, at each scrape. */
  watchStatementPdfCache(read: () => number): void {
    this.statementPdfCacheBytes = read;
  }

  /**
   * The outbox's backlog, read when scraped: one statement per scrape (reused for a second by the other
   * gauges), abandoned after 2 s; when it fails, `outbox_backlog_up` is 0 and the other gauges are NaN.
   */
  watchOutbox(read: () => Promise<OutboxBacklog>): void {
    let last: { at: number; backlog: Promise<OutboxBacklog | undefined> } | undefined;
    const backlog = () => {
      if (!last || Date.now() - last.at > BACKLOG_REUSE_MS)
        last = { at: Date.now(), backlog: withinTime(read(), BACKLOG_TIMEOUT_MS).catch(() => undefined) };
      return last.backlog;
    };
    const registers = [this.registry];
    const gauge = (name: string, help: string, value: (backlog: OutboxBacklog) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const current = await backlog();
          this.set(current ? value(current) : Number.NaN);
        },
      });
    new Gauge({
      name: 'outbox_backlog_up',
      help: 'Whether the last scrape could read the outbox backlog below (1) or not (0: the database did not answer within 2 s).',
      registers,
      async collect() {
        this.set((await backlog()) ? 1 : 0);
      },
    });
    gauge(
      'events_unsequenced',
      "Committed events not numbered yet (the sequencer's backlog; capped at 10000).",
      (b) => b.unsequencedEvents,
    );
    gauge(
      'events_oldest_unsequenced_age_seconds',
      'Age of the oldest committed event not numbered yet; 0 when none waits (a long-running transaction holds numbering back).',
      (b) => b.oldestUnsequencedSeconds,
    );
    new Gauge({
      name: 'webhook_deliveries_pending',
      help: 'Webhook deliveries not finished yet (neither delivered nor exhausted), of any endpoint, by state (first_attempt: waiting for or in its first attempt; retry: an attempt failed, the next is scheduled); both together capped at 10000.',
      labelNames: ['state'],
      registers,
      async collect() {
        const current = await backlog();
        this.set({ state: 'first_attempt' }, current ? current.pendingFirstAttempts : Number.NaN);
        this.set({ state: 'retry' }, current ? current.pendingRetries : Number.NaN);
      },
    });
    gauge(
      'webhook_delivery_oldest_pending_age_seconds',
      "Age (since its event's commit) of the oldest delivery to an enabled endpoint still waiting for its first attempt; 0 when none waits.",
      (b) => b.oldestPendingFirstAttemptSeconds,
    );
    new Gauge({
      name: 'webhook_endpoints',
      help: 'Webhook endpoints, by state (enabled, disabled).',
      labelNames: ['state'],
      registers,
      async collect() {
        const current = await backlog();
        this.set({ state: 'enabled' }, current ? current.enabledEndpoints : Number.NaN);
        this.set({ state: 'disabled' }, current ? current.disabledEndpoints : Number.NaN);
      },
    });
  }

  /** One bearer token looked up in an authentication cache (docs/adr/0099-authentication-caches.md). */
  authCacheLookup(cache: 'managed_token' | 'jwt', hit: boolean): void {
    this.authCacheLookups.inc({ cache, outcome: hit ? 'hit' : 'miss' });
  }

  /**
   * The wake-up listener's (src/db/connection/notifications.ts): whether it is LISTENing, how often it (re)connected,
   * and the notifications it received by channel. Registered only when the service listens
   * (DATABASE_LISTEN), so that a fleet that polls on purpose raises no "not connected" alert.
   */
  watchListener(): {
    connectionChanged(connected: boolean): void;
    notified(channel: 'events_numbered' | 'deliveries_due' | 'api_token_changed'): void;
  } {
    const registers = [this.registry];
    const connected = new Gauge({
      name: 'db_listener_connected',
      help: "Whether this instance's LISTEN connection for wake-ups is up (1) or reconnecting (0: other instances' work is found by polling meanwhile).",
      registers,
    });
    connected.set(0);
    const connections = new Counter({
      name: 'db_listener_connections_total',
      help: 'Times the LISTEN connection was established (more than 1: it was lost and came back).',
      registers,
    });
    const notifications = new Counter({
      name: 'db_listener_notifications_total',
      help: 'Notifications received on the LISTEN connection, by channel (events_numbered: a sequencer numbered events; deliveries_due: webhook deliveries became due; api_token_changed: a managed token was revoked or changed).',
      labelNames: ['channel'],
      registers,
    });
    notifications.inc({ channel: 'events_numbered' }, 0);
    notifications.inc({ channel: 'deliveries_due' }, 0);
    notifications.inc({ channel: 'api_token_changed' }, 0);
    return {
      connectionChanged(up) {
        connected.set(up ? 1 : 0);
        if (up) connections.inc();
      },
      notified(channel) {
        notifications.inc({ channel });
      },
    };
  }

  /** Exposes the pool's connections (total, idle, in use) and waiting clients, read at each scrape. */
  watchPool(pool: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount' | 'options'>): void {
    const registers = [this.registry];
    new Gauge({
      name: 'db_pool_connections',
      help: 'Connections of the PostgreSQL pool, by state (idle, in_use).',
      labelNames: ['state'],
      registers,
      collect() {
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      },
    });
    new Gauge({
      name: 'db_pool_connections_max',
      help: 'Maximum size of the PostgreSQL pool (DATABASE_POOL_SIZE).',
      registers,
      collect() {
        this.set(pool.options.max ?? 10);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_clients',
      help: 'Requests waiting for a free connection.',
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  /** The Prometheus text exposition of every metric. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private operationLabel(name: string | undefined | null): string {
    if (!name) return ANONYMOUS_OPERATION;
    // GraphQL names match this already; anything else did not come from a parsed document.
    if (!GRAPHQL_NAME.test(name)) return OTHER_OPERATIONS;
    if (this.operationNames.has(name)) return name;
    if (this.operationNames.size >= MAX_GRAPHQL_OPERATION_NAMES) return OTHER_OPERATIONS;
    this.operationNames.add(name);
    return name;
  }
}

/** The attempt's class: success, the status class of a refusal, or why no answer came. */
function webhookOutcome({ statusCode, failure }: Pick<WebhookAttemptSample, 'statusCode' | 'failure'>): string {
  if (statusCode === null) return failure ?? 'connection_error';
  if (statusCode >= 200 && statusCode < 300) return 'success';
  if (statusCode >= 300 && statusCode < 600) return `http_${Math.floor(statusCode / 100)}xx`;
  return 'http_other';
}

function withinTime<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may scrape GET /metrics: with METRICS_TOKEN only `Authorization: Bearer <METRICS_TOKEN>` (compared in
 * constant time over digests; anything else is a text/plain 401); without it, the caller decides (the API
 * port asks for a bearer token with `metrics:read`, src/app.ts; a METRICS_PORT listener is open, its host
 * being the protection).
 */
export function metricsTokenGuard(token: string): RequestHandler {
  const expected = digest(token);
  return (req, res, next) => {
    const presented = /^Bearer[ ]+(\S+)[ ]*$/i.exec(req.get('authorization') ?? '')?.[1];
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      res.status(401).type('text/plain').send('Send Authorization: Bearer <METRICS_TOKEN>.\n');
      return;
    }
    next();
  };
}

/** GET /metrics itself, behind whichever guard the caller mounted before it. */
export function metricsExposition(metrics: ServiceMetrics): RequestHandler {
  return async (_req, res) => {
    const { contentType, body } = await metrics.exposition();
    res.setHeader('Cache-Control', 'no-store');
    res.type(contentType).send(body);
  };
}
