import type { Authenticator } from '../auth/bearer-token.js';
import type { Config } from '../config/config.js';
import type { DomainServices } from '../domain/services.js';
import type { Logger } from '../logging/logger.js';
import type { RateLimits } from './rate-limit.js';
import type { ServiceMetrics } from './metrics.js';

export interface Readiness {
  ready: boolean;
  checks: Record<string, 'ok' | 'failed' | 'pending'>;
}

/** Whether the process can still do its job by itself; false means "restart me" (GET /healthz answers 503). */
export interface Liveness {
  live: boolean;
  /** Parts worth naming, e.g. the embedded PostgreSQL's supervisor state. */
  checks?: Record<string, string>;
  /** Why the process is not live, for the operator. */
  message?: string;
}

/** Everything the HTTP surfaces need, built once by the composition root (src/runtime.ts). */
export interface HttpDependencies {
  config: Config;
  logger: Logger;
  services: DomainServices;
  authenticator: Authenticator;
  environments: ReadonlySet<string>;
  rateLimits: RateLimits;
  checkReadiness(): Promise<Readiness>;
  /** Absent: live while the process answers (an external database's outage never needs a restart of this process). */
  checkLiveness?: () => Liveness;
  /** Prometheus metrics; the GraphQL surface reports operations with `metrics.recordGraphqlOperation`. */
  metrics?: ServiceMetrics;
}
