import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics (docs/operations.md, "Metrics"). One instance per running service,
 * with its own registry, so several services in one process (the tests) never share counters.
 *
 * Labels are bounded: routes are patterns (`/:environment/customer/:customerId`), never concrete paths;
 * GraphQL operation names are capped (see `recordGraphqlOperation`).
 */

/** How a GraphQL operation ended: `success` (no errors), `error` (errors while executing), `rejected` (refused before executing: syntax, validation, limits, authentication). */
export type GraphqlOutcome = 'success' | 'error' | 'rejected';

const HTTP_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
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
  private readonly operationNames = new Set<string>();

  constructor(options: ServiceMetricsOptions = {}) {
    const registers = [this.registry];
    this.httpRequests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route pattern and status.', labelNames: ['method', 'route', 'status'], registers });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the first byte of a request to the last byte of its answer, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS_S,
      registers,
    });
    this.graphqlOperations = new Counter({ name: 'graphql_operations_total', help: 'GraphQL operations, by operation name and outcome (success, error, rejected).', labelNames: ['operation', 'outcome'], registers });
    this.graphqlDuration = new Histogram({
      name: 'graphql_operation_duration_seconds',
      help: 'GraphQL operation duration, by operation name and outcome.',
      labelNames: ['operation', 'outcome'],
      buckets: HTTP_BUCKETS_S,
      registers,
    });
    this.queryDuration = new Histogram({ name: 'db_query_duration_seconds', help: 'SQL statement duration, as seen by the connection pool.', buckets: QUERY_BUCKETS_S, registers });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** Express middleware, mounted first: counts every answer by route pattern and status when it is sent. */
  readonly httpMiddleware: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const labels = { method: req.method, route: routePattern(req), status: String(res.statusCode) };
      this.httpRequests.inc(labels);
      this.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };

  /**
   * For the GraphQL surface: one call per operation when its response is ready. `name` is the operation
   * name from the document (undefined or empty for anonymous operations); `seconds` its duration.
   */
  recordGraphqlOperation(name: string | undefined | null, outcome: GraphqlOutcome, seconds: number): void {
    const labels = { operation: this.operationLabel(name), outcome };
    this.graphqlOperations.inc(labels);
    this.graphqlDuration.observe(labels, seconds);
  }

  /** For the pool's onQuery callback (src/db/pool.ts). */
  observeQuery(durationMs: number): void {
    this.queryDuration.observe(durationMs / 1000);
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
    new Gauge({ name: 'db_pool_connections_max', help: 'Maximum size of the PostgreSQL pool (DATABASE_POOL_SIZE).', registers, collect() { this.set(pool.options.max ?? 10); } });
    new Gauge({ name: 'db_pool_waiting_clients', help: 'Requests waiting for a free connection.', registers, collect() { this.set(pool.waitingCount); } });
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

/** The pattern of the route that answered (`/:environment/customer/:customerId`), never the concrete path. */
function routePattern(req: Request): string {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  return typeof route === 'string' ? `${req.baseUrl}${route}` : UNMATCHED_ROUTE;
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
