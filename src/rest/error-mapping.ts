import {
  bodyReadFailure,
  headersOf,
  HttpError,
  internalError,
  isCallerError,
  type CallerError,
  statusOf,
} from '../http/errors.js';
import type { ErrorBody } from './envelope.js';

/**
 * Failures as REST envelopes: the HTTP failure vocabulary (src/http/errors.ts) decides status, code,
 * message and headers; this module only shapes the envelope's `error`, and adds the two failures that only
 * the REST route table knows (no such path, wrong method).
 */

export const routeNotFound = () =>
  new HttpError(
    404,
    'ROUTE_NOT_FOUND',
    // No list of endpoints: the one that was here named 4 of them and went stale; the reference names them all.
    'No such path. Every endpoint is listed in the API reference: GET /openapi.json, or /docs in a browser.',
  );

export const methodNotAllowed = (allowed: readonly string[]) =>
  new HttpError(405, 'METHOD_NOT_ALLOWED', `This path accepts only: ${allowed.join(', ')}.`, {
    Allow: allowed.join(', '),
  });

export interface HttpFailure {
  status: number;
  headers: Record<string, string>;
  body: ErrorBody;
  /** Not a failure the caller can act on: the handler logs it. */
  unexpected: boolean;
}

export function toHttpFailure(error: unknown): HttpFailure {
  if (isCallerError(error)) return fromCallerError(error);
  const httpError = bodyReadFailure(error);
  if (httpError) return fromHttpError(httpError, false);
  return fromHttpError(internalError(), true);
}

function fromCallerError(error: CallerError): HttpFailure {
  const body: ErrorBody = { code: error.code, message: error.message };
  const details = 'details' in error ? error.details : undefined;
  if (details && details.length > 0) {
    body.details = details.map((detail) => ({
      ...(detail.field !== undefined && { field: detail.field }),
      code: detail.code,
      message: detail.message,
      ...(detail.value !== undefined && { value: detail.value }),
    }));
  }
  return { status: statusOf(error), headers: headersOf(error), body, unexpected: false };
}

function fromHttpError(error: HttpError, unexpected: boolean): HttpFailure {
  return {
    status: error.status,
    headers: error.headers,
    body: { code: error.code, message: error.message },
    unexpected,
  };
}
