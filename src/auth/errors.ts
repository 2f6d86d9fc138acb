/**
 * Failures of the request layer, before any domain operation runs: the caller is not authenticated, the
 * path names no configured environment, or a request budget is spent (src/http/rate-limit.ts). They are
 * not domain rules, so they live here and not in src/domain/errors.ts; both surfaces render them with the
 * domain's errors through the one HTTP failure vocabulary (src/http/errors.ts).
 */
export const REQUEST_ERROR_CODES = [
  'UNAUTHENTICATED',
  'ENVIRONMENT_NOT_FOUND',
  'RATE_LIMITED',
  'SSN_SEARCH_RATE_LIMITED',
  'ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED',
] as const;
export type RequestErrorCode = (typeof REQUEST_ERROR_CODES)[number];

export type RequestErrorKind =
  | 'unauthenticated' // no valid credentials
  | 'not_found' // the path's environment is not configured
  | 'rate_limited'; // the caller spent its request budget

/**
 * What a refused bearer token should be told (RFC 6750 §3): rendered as a `WWW-Authenticate: Bearer` header
 * (src/auth/www-authenticate.ts) and, in GraphQL, as `extensions.challenge`. No `error` when no credentials
 * were sent.
 */
export interface BearerChallenge {
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  /** The scope the refused operation needs (insufficient_scope only). */
  scope?: string;
}

export class RequestError extends Error {
  constructor(
    readonly code: RequestErrorCode,
    readonly kind: RequestErrorKind,
    message: string,
    /** Set on every UNAUTHENTICATED error. */
    readonly challenge?: BearerChallenge,
    /** A refusal by a budget that the auth step did not describe (the SSN search budget): its Retry-After, in seconds. */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

export const isRequestError = (error: unknown): error is RequestError => error instanceof RequestError;

export const unauthenticated = (message: string, challenge: BearerChallenge = {}) =>
  new RequestError('UNAUTHENTICATED', 'unauthenticated', message, challenge);

/**
 * The path names no configured environment. The message never lists the configured ones (they are not the
 * caller's business, and a list would help enumerate them).
 */
export const environmentNotFound = () =>
  new RequestError(
    'ENVIRONMENT_NOT_FOUND',
    'not_found',
    'Unknown environment: the first path segment is not a configured environment.',
  );
