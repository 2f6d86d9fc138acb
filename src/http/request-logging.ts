import type { NextFunction, Request, Response } from 'express';
import { requestIdFrom } from '../auth/request-context.js';
import { deferredChild, type Logger } from '../logging/logger.js';

declare module 'express-serve-static-core' {
  interface Locals {
    requestId: string;
    logger: Logger;
  }
}

/** Where each answer is counted once it is sent (the service's metrics, src/http/metrics.ts). */
export interface AnswerRecorder {
  recordHttpAnswer(method: string, route: string | undefined, status: number, seconds: number): void;
}

/**
 * First middleware of every request: fixes the request id (echoed in X-Request-Id), gives the
 * request a logger stamped with it, and when the response is done writes one access-log line and counts the
 * answer in the metrics, from one 'finish' listener (each listener is a closure and an event dispatch per request).
 * The line carries the route pattern, never the concrete path (ids) or any header or body.
 */
export function requestLogging(logger: Logger, metrics?: AnswerRecorder) {
  const accessLog = logger.isLevelEnabled('info');
  return (req: Request, res: Response, next: NextFunction) => {
    const requestId = requestIdFrom(req.get('x-request-id'));
    const started = performance.now();
    res.locals.requestId = requestId;
    res.locals.logger = deferredChild(logger, { requestId });
    res.setHeader('X-Request-Id', requestId);
    // The level is fixed at start (LOG_LEVEL): below info there is no access line to prepare.
    if (!accessLog && metrics === undefined) {
      next();
      return;
    }
    res.on('finish', () => {
      const elapsedMs = performance.now() - started;
      const route = (req.route as { path?: unknown } | undefined)?.path;
      // The pattern of the route that answered (`/:environment/customer/:customerId`), never the concrete path.
      const pattern = typeof route === 'string' ? `${req.baseUrl}${route}` : undefined;
      metrics?.recordHttpAnswer(req.method, pattern, res.statusCode, elapsedMs / 1000);
      if (accessLog)
        res.locals.logger.info(
          { method: req.method, route: pattern, status: res.statusCode, latencyMs: Math.round(elapsedMs * 10) / 10 },
          'request completed',
        );
    });
    next();
  };
}
