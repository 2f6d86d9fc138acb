import { challengeHeaderFor } from '../auth/www-authenticate.js';
import { type DomainError, type ErrorKind, isDomainError } from '../domain/errors.js';
import type { ErrorBody } from './envelope.js';

/**
 * The one translation from failures to HTTP: domain errors by their kind, the failures that only exist
 * in HTTP (routing, media types, body reading) by their own codes, and everything else as a masked
 * INTERNAL_ERROR. Messages are fixed texts: nothing a caller sent is ever echoed.
 */

export type HttpOnlyErrorCode =
  | 'MALFORMED_REQUEST'
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INTERNAL_ERROR';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: HttpOnlyErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const malformedRequest = (message: string) => new HttpError(400, 'MALFORMED_REQUEST', message);

export const routeNotFound = () =>
  new HttpError(
    404,
    'ROUTE_NOT_FOUND',
    'No such path. Endpoints: POST /{environment}/customer, GET|PUT|DELETE /{environment}/customer/{customerId}, POST /{environment}/account, GET|PUT|DELETE /{environment}/account/{accountId}.',
  );

export const methodNotAllowed = (allowed: readonly string[]) =>
  new HttpError(405, 'METHOD_NOT_ALLOWED', `This path accepts only: ${allowed.join(', ')}.`, { Allow: allowed.join(', ') });

export const payloadTooLarge = (limitBytes: number | undefined) =>
  new HttpError(
    413,
    'PAYLOAD_TOO_LARGE',
    limitBytes === undefined ? 'The request body is too large.' : `The request body is larger than the limit of ${limitBytes} bytes.`,
  );

export const unsupportedMediaType = (message = 'Send the request body as JSON with Content-Type: application/json.') =>
  new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', message);

const internalError = () =>
  new HttpError(500, 'INTERNAL_ERROR', 'Something went wrong on our side. Quote the requestId if you report it.');

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid_input: 400,
  not_found: 404,
  unprocessable_reference: 422,
  unprocessable: 422,
  conflict: 409,
  unavailable: 503,
  unauthenticated: 401,
  forbidden: 403,
  rate_limited: 429,
};

export interface HttpFailure {
  status: number;
  headers: Record<string, string>;
  body: ErrorBody;
  /** Not a failure the caller can act on: the handler logs it. */
  unexpected: boolean;
}

export function toHttpFailure(error: unknown): HttpFailure {
  if (isDomainError(error)) return fromDomainError(error);
  if (error instanceof HttpError) return fromHttpError(error, false);
  const bodyError = fromBodyReadError(error);
  if (bodyError) return fromHttpError(bodyError, false);
  return fromHttpError(internalError(), true);
}

function fromDomainError(error: DomainError): HttpFailure {
  const body: ErrorBody = { code: error.code, message: error.message };
  if (error.details && error.details.length > 0) {
    body.details = error.details.map((detail) =>
      detail.field === undefined ? { code: detail.code, message: detail.message } : { field: detail.field, code: detail.code, message: detail.message },
    );
  }
  return { status: STATUS_BY_KIND[error.kind], headers: headersFor(error), body, unexpected: false };
}

/**
 * RFC 6750 §3: 401 and 403 carry the challenge the auth layer attached to the error (it knows whether the
 * token was missing, malformed, refused or short of a scope); 503 asks the caller to retry shortly. A 429's
 * Retry-After and RateLimit-* headers are already set by the rate limit step (src/http/authenticate-request.ts).
 */
function headersFor(error: DomainError): Record<string, string> {
  if (error.kind === 'unavailable') return { 'Retry-After': '1' };
  const challenge = challengeHeaderFor(error);
  return challenge === undefined ? {} : { 'WWW-Authenticate': challenge };
}

function fromHttpError(error: HttpError, unexpected: boolean): HttpFailure {
  return { status: error.status, headers: error.headers, body: { code: error.code, message: error.message }, unexpected };
}

/**
 * Errors of body-parser (and of the router's parameter decoding) carry a `type` and a status. Their
 * messages, and body-parser's `body` property, may contain what the caller sent (an SSN in a broken
 * JSON body): only the type is read here.
 */
function fromBodyReadError(error: unknown): HttpError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, status, limit } = error as { type?: unknown; status?: unknown; limit?: unknown };
  switch (type) {
    case 'entity.parse.failed':
      return malformedRequest('The request body is not valid JSON.');
    case 'entity.too.large':
      return payloadTooLarge(typeof limit === 'number' ? limit : undefined);
    case 'charset.unsupported':
      return unsupportedMediaType('Send the JSON body encoded as UTF-8.');
    case 'encoding.unsupported':
      return unsupportedMediaType('Unsupported Content-Encoding; send the body uncompressed, or gzip, deflate or br compressed.');
    case 'request.aborted':
      return malformedRequest('The request body ended before its announced length.');
    case 'request.size.invalid':
      return malformedRequest('The request body length does not match its Content-Length header.');
    default:
      return status === 400 ? malformedRequest('The request could not be read (check the path encoding and headers).') : undefined;
  }
}
