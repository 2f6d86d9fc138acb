import type { NextFunction, Request, Response } from 'express';
import { requestIdFrom } from '../auth/request-context.js';
import { deferredChild, type Logger } from '../logging/logger.js';

declare module 'express-serve-static-core' {
  interface Locals {
    requestId: string;
    logger: Logger;
  }
}

/**
 * First middleware of every request: fixes the request id (echoed in X-Request-Id), gives the
 * request a logger stamped with it, and writes one access-log line when the response is done.
 * The line carries the route pattern, never the concrete path (ids) or any header or body.
 */
export function requestLogging(logger: Logger) {
  const accessLog = logger.isLevelEnabled('info');
  return (req: Request, res: Response, next: NextFunction) => {
    const requestId = requestIdFrom(req.get('x-request-id'));
    const started = performance.now();
    res.locals.requestId = requestId;
    res.locals.logger = deferredChild(logger, { requestId });
    res.setHeader('X-Request-Id', requestId);
    // The level is fixed at start (LOG_LEVEL): below info there is no access line to prepare.
    if (!accessLog) {
      next();
      return;
    }
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      res.locals.logger.info(
        {
          method: req.method,
          route: route ? `${req.baseUrl}${route}` : undefined,
          status: res.statusCode,
          latencyMs: Math.round((performance.now() - started) * 10) / 10,
        },
        'request completed',
      );
    });
    next();
  };
}
