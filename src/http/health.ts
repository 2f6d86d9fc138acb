import { Router } from 'express';
import type { HttpDependencies } from './dependencies.js';

/** Liveness and readiness for orchestrators; no auth, no personal data. */
export function healthRouter(deps: Pick<HttpDependencies, 'checkReadiness'>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const readiness = await deps.checkReadiness();
    res.status(readiness.ready ? 200 : 503).json({ status: readiness.ready ? 'ready' : 'unready', checks: readiness.checks });
  });
  return router;
}
