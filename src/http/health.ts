import { Router } from 'express';
import type { HttpDependencies } from './dependencies.js';

/** Liveness and readiness for orchestrators; no auth, no personal data. */
export function healthRouter(deps: Pick<HttpDependencies, 'checkReadiness' | 'checkLiveness'>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    const liveness = deps.checkLiveness?.() ?? { live: true };
    res.status(liveness.live ? 200 : 503).json({
      status: liveness.live ? 'ok' : 'unhealthy',
      ...(liveness.checks && { checks: liveness.checks }),
      ...(liveness.message !== undefined && { message: liveness.message }),
    });
  });
  router.get('/readyz', async (_req, res) => {
    const readiness = await deps.checkReadiness();
    res.status(readiness.ready ? 200 : 503).json({
      status: readiness.ready ? 'ready' : 'unready',
      checks: readiness.checks,
      ...(readiness.database && { database: readiness.database }),
    });
  });
  return router;
}
