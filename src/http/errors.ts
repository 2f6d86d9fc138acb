import { isRequestError, type RequestError } from '../auth/errors.js';
import { challengeHeaderFor } from '../auth/www-authenticate.js';
import { type DomainError, isDomainError } from '../domain/errors.js';
import { sqlState } from '../logging/error-causes.js';
import type { Logger } from '../logging/logger.js';

/**
 * The one HTTP failure vocabulary of both surfaces: the status of every error kind, the failures that only
 * exist in HTTP (reading the body, routing), the fixed answer to anything unexpected and what may be logged
 * about it. REST (src/rest/error-mapping.ts) renders these as envelopes, GraphQL
 * (src/graphql/error-mapping.ts) as GraphQL errors; neither decides a status or a message of its own.
 * Messages are fixed texts: nothing a caller sent is ever echoed.
 */

/** A failure the caller can act on: a domain rule (src/domain/errors.ts) or the request layer (src/auth/errors.ts). */
export type CallerError = DomainError | RequestError;

export const isCallerError = (error: unknown): error is CallerError => isDomainError(error) || isRequestError(error);

const STATUS_BY_KIND: Record<CallerError['kind'], number> = {
  invalid_input: 400,
  not_found: 404,
  unprocessable_reference: 422,
  unprocessable: 422,
  conflict: 409,
  precondition_failed: 412,
  unavailable: 503,
  unauthenticated: 401,
  forbidden: 403,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
};

export const statusOf = (error: CallerError): number => STATUS_BY_KIND[error.kind];

/**
 * RFC 6750 §3: 401 and 403 carry the challenge of src/auth/www-authenticate.ts; 503 asks the caller to retry
 * shortly. A 429's Retry-After and RateLimit-* headers are set by the rate limit step
 * (src/http/authenticate-request.ts); a refusal of the SSN search budget carries its own Retry-After.
 */
export function headersOf(error: CallerError): Record<string, string> {
  if (error.kind === 'unavailable') return { 'Retry-After': '1' };
  if (isRequestError(error) && error.retryAfterS !== undefined) return { 'Retry-After': String(error.retryAfterS) };
  const challenge = challengeHeaderFor(error);
  return challenge === undefined ? {} : { 'WWW-Authenticate': challenge };
}

export type HttpOnlyErrorCode =
  | 'MALFORMED_REQUEST'
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOT_ACCEPTABLE'
  | 'TOO_MANY_CONNECTIONS'
  | 'INTERNAL_ERROR';

/** A failure of HTTP itself, with its status, code, fixed message and headers. */
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

export const payloadTooLarge = (limitBytes: number | undefined) =>
  new HttpError(
    413,
    'PAYLOAD_TOO_LARGE',
    limitBytes === undefined
      ? 'The request body is too large.'
      : `The request body is larger than the limit of ${limitBytes} bytes.`,
  );

export const unsupportedMediaType = (message = 'Send the request body as JSON with Content-Type: application/json.') =>
  new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', message);

/** The Accept header names no representation the operation has (RFC 9110 §15.5.7); the message lists them. */
export const notAcceptable = (available: readonly string[]) =>
  new HttpError(
    406,
    'NOT_ACCEPTABLE',
    `This operation answers ${available.join(', ')}; send one of them in Accept (or none).`,
  );

/** The client's address has more connections open than HTTP_MAX_CONNECTIONS_PER_ADDRESS (src/http/server.ts). */
export const tooManyConnections = () =>
  new HttpError(
    503,
    'TOO_MANY_CONNECTIONS',
    'Too many connections from this address are open; reuse an open one (keep-alive) or retry after closing some.',
    { 'Retry-After': '1' },
  );

/** The answer to anything unexpected, on both surfaces. */
export const internalError = () =>
  new HttpError(500, 'INTERNAL_ERROR', 'Something went wrong on our side. Quote the requestId if you report it.');

/**
 * What went wrong while reading a request body, or undefined when `error` is not a body-reading failure.
 * Errors of body-parser (and of the router's parameter decoding) carry a `type` and a status. Their
 * messages, and body-parser's `body` property, may contain what the caller sent (an SSN in a broken
 * JSON body): only the type is read here.
 */
export function bodyReadFailure(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
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
      return unsupportedMediaType(
        'Unsupported Content-Encoding; send the body uncompressed, or gzip, deflate or br compressed.',
      );
    case 'request.aborted':
      return malformedRequest('The request body ended before its announced length.');
    case 'request.size.invalid':
      return malformedRequest('The request body length does not match its Content-Length header.');
    default:
      return status === 400
        ? malformedRequest('The request could not be read (check the path encoding and headers).')
        : undefined;
  }
}

/**
 * What may be logged about an unexpected error: its type, driver code, PostgreSQL's SQLSTATE (five
 * characters; Prisma's P2010 alone does not tell "prepared statement already exists" behind a pooler from
 * any other failed statement) and stack frames, never its message, which can hold submitted values (a
 * database error quotes the row it refused, body-parser's the raw body). The stack's first line repeats
 * the message, so only its frames are kept.
 */
export function describeUnexpected(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  const state = sqlState(error);
  return {
    name: error.name,
    ...(typeof code === 'string' && { code }),
    ...(state !== undefined && state !== code && /^[0-9A-Z]{5}$/.test(state) && { sqlState: state }),
    stack: (error.stack ?? '')
      .split('\n')
      .filter((line) => line.trimStart().startsWith('at '))
      .slice(0, 15),
  };
}

/** Logs an unexpected error once, with the request's logger (request id, principal, environment), under our own key. */
export function logUnexpected(logger: Logger, error: unknown, fields: Record<string, unknown> = {}): void {
  logger.error({ ...fields, error: describeUnexpected(error) }, 'unexpected error while handling a request');
}
