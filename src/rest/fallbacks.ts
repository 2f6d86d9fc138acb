import type { ErrorRequestHandler, RequestHandler } from 'express';
import { logUnexpected } from '../http/errors.js';
import type { Logger } from '../logging/logger.js';
import { envelopeFamilyOf, sendEnvelope } from './envelope.js';
import { routeNotFound, toHttpFailure } from './error-mapping.js';

/** Last in the app: any request no router answered. */
export const unmatchedRoute: RequestHandler = () => {
  throw routeNotFound();
};

/**
 * Last in the app, for every error of every router: answers in the envelope and replaces Express's
 * default handler, which would print the error (body-parser's includes the raw body, possibly an SSN).
 * Unexpected errors are logged with the request's logger, without their message (src/http/errors.ts).
 */
export function finalErrorHandler(fallbackLogger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const logger = res.locals.logger ?? fallbackLogger;
    const failure = toHttpFailure(error);
    if (failure.unexpected) logUnexpected(logger, error);
    if (res.headersSent) {
      // Too late for an envelope: cut the connection so the client sees a failure, not a truncated success.
      res.destroy();
      return;
    }
    sendEnvelope(res, envelopeFamilyOf(req.originalUrl), failure.status, { error: failure.body }, failure.headers);
  };
}
