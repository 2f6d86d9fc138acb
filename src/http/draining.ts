import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logging/logger.js';
import type { Readiness } from './dependencies.js';

/**
 * Connection draining: on SIGTERM the instance first answers /readyz with 503 for SHUTDOWN_DRAIN_MS while
 * it goes on serving every request, so a load balancer's health checks (HAProxy, a Kubernetes Service)
 * take it out of rotation before its listener closes; only then does the graceful stop begin. Without
 * it, requests routed to the instance in the moment between its listener closing and the balancer
 * noticing would be refused.
 */
export interface Drain {
  /** `check`, except while draining: not ready. */
  readiness(check: () => Promise<Readiness>): () => Promise<Readiness>;
  /** Starts draining and resolves once the drain time is over (at once when it is 0). */
  drain(): Promise<void>;
}

export function createDrain(drainMs: number, logger: Logger): Drain {
  let draining = false;
  return {
    readiness: (check) => async () => (draining ? { ready: false, checks: { shutdown: 'pending' } } : check()),
    async drain() {
      if (drainMs <= 0 || draining) return;
      draining = true;
      logger.info({ drainMs }, 'draining: /readyz answers 503 while requests are still served');
      await sleep(drainMs);
    },
  };
}
