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

/** Everything the HTTP surfaces need, built once by the composition root (src/runtime.ts). */
export interface HttpDependencies {
  config: Config;
  logger: Logger;
  services: DomainServices;
  authenticator: Authenticator;
  environments: ReadonlySet<string>;
  rateLimits: RateLimits;
  checkReadiness(): Promise<Readiness>;
  /** Prometheus metrics; the GraphQL surface reports operations with `metrics.recordGraphqlOperation`. */
  metrics?: ServiceMetrics;
}
