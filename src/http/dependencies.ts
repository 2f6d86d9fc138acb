import type { Authenticator } from '../auth/bearer-token.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { DomainServices } from '../features/services.js';
import type { StatementPdfRenderer } from '../features/history/index.js';
import type { RestRoute } from '../rest/operations/route.js';
import type { Logger } from '../logging/logger.js';
import type { RateLimits } from './rate-limit.js';
import type { ServiceMetrics } from './metrics.js';

export interface Readiness {
  ready: boolean;
  checks: Record<string, 'ok' | 'failed' | 'pending'>;
  /** What the database behind DATABASE_URL is now, as the last check found it (and the replica's state, if one is set). */
  database?: DatabaseRole;
}

/**
 * `primary`: the server takes writes. `standby`: it is in recovery (a replica, or a failover under way): reads
 * work, writes answer 503 until the load balancer reaches the new primary. `unknown`: it could not be asked.
 * `replica`: whether lag-tolerant reads may go to DATABASE_REPLICA_URL now (absent without one).
 */
export interface DatabaseRole {
  role: 'primary' | 'standby' | 'unknown';
  replica?: 'usable' | 'down' | 'lagging';
}

/** Whether the process can still do its job by itself; false means "restart me" (GET /healthz answers 503). */
export interface Liveness {
  live: boolean;
  /** Parts worth naming, e.g. the embedded PostgreSQL's supervisor state. */
  checks?: Record<string, string>;
  /** Why the process is not live, for the operator. */
  message?: string;
}

/**
 * Read replicas (DATABASE_REPLICA_URL; docs/adr/0040-read-replicas.md). Each request runs in a read scope
 * that says whether its reads tolerate lag and which consistency token it presented; a request that wrote
 * gets its writes' token back.
 */
export interface ReadConsistency {
  run<T>(request: { lagTolerant: boolean; presentedToken: string | undefined }, handle: () => T): T;
  /** For GraphQL, where only the parsed document says whether the operation is a query. */
  allowLagTolerantReads(allowed: boolean): void;
  /** The consistency token of the current request's writes; undefined when it wrote nothing. */
  currentToken(): string | undefined;
}

/** Everything the HTTP surfaces need, built once by the composition root (src/runtime.ts). */
export interface HttpDependencies {
  config: Config;
  logger: Logger;
  services: DomainServices;
  authenticator: Authenticator;
  environments: ReadonlySet<string>;
  rateLimits: RateLimits;
  /** The clock of GraphQL's execution deadline (src/clock.ts' systemClock when absent). */
  clock?: Clock;
  /** Statement PDFs: drawn off the event loop, bounded, those of ended periods kept by content (src/features/history/statement-pdfs.ts). */
  statementPdfs: StatementPdfRenderer;
  checkReadiness(): Promise<Readiness>;
  /** Absent: live while the process answers (an external database's outage never needs a restart of this process). */
  checkLiveness?: () => Liveness;
  /** Prometheus metrics; the GraphQL surface reports operations with `metrics.recordGraphqlOperation`. */
  metrics?: ServiceMetrics;
  /** Absent without DATABASE_REPLICA_URL: every read on the primary, no consistency tokens. */
  readConsistency?: ReadConsistency;
  /** The REST route table; src/rest/routes.ts's REST_ROUTES unless a test builds its own (e.g. with a deprecated operation). */
  restRoutes?: readonly RestRoute[];
}
