/**
 * The error catalogue. Every failure a caller can act on is a DomainError with a stable `code`;
 * REST (src/rest/error-mapping.ts) and GraphQL (src/graphql/error-mapping.ts) each translate the
 * `kind` once. Messages help a developer fix the call and never contain submitted values.
 */
export const ErrorCodes = [
  'VALIDATION_FAILED',
  'FIELD_NOT_UPDATABLE',
  'CUSTOMER_NOT_FOUND',
  'ACCOUNT_NOT_FOUND',
  'CUSTOMER_ALREADY_EXISTS',
  'CUSTOMER_HAS_ACCOUNTS',
  'SERVICE_UNAVAILABLE',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'ENVIRONMENT_NOT_FOUND',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_PROGRESS',
  'RATE_LIMITED',
] as const;
export type ErrorCode = (typeof ErrorCodes)[number];

/** What kind of failure it is; the surfaces choose their status from this, not from the message. */
export type ErrorKind =
  | 'invalid_input' // the request itself is wrong
  | 'not_found' // the addressed record does not exist in this environment
  | 'unprocessable_reference' // the request refers to records that do not exist
  | 'conflict' // the request clashes with the current state
  | 'unavailable' // a dependency (the database) cannot be reached
  | 'unauthenticated' // no valid credentials
  | 'forbidden' // valid credentials that may not do this
  | 'unprocessable' // well-formed, but cannot be processed as sent (an idempotency key reused for another request)
  | 'rate_limited'; // the caller spent its request budget (raised by the HTTP layer's rate limits, src/http/rate-limit.ts)

export interface ErrorDetail {
  field?: string;
  code: string;
  message: string;
}

/**
 * What a refused bearer token should be told (RFC 6750 §3): REST renders it as a `WWW-Authenticate: Bearer`
 * header (src/auth/www-authenticate.ts), GraphQL as `extensions`. No `error` when no credentials were sent.
 */
export interface BearerChallenge {
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  /** The scope the refused operation needs (insufficient_scope only). */
  scope?: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly kind: ErrorKind,
    message: string,
    readonly details?: ErrorDetail[],
    /** Set on every UNAUTHENTICATED and FORBIDDEN error. */
    readonly challenge?: BearerChallenge,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;

export const validationFailed = (details: ErrorDetail[]) =>
  new DomainError('VALIDATION_FAILED', 'invalid_input', 'The request is not valid; see details.', details);

export const fieldsNotUpdatable = (fields: string[], updatable: readonly string[]) =>
  new DomainError(
    'FIELD_NOT_UPDATABLE',
    'invalid_input',
    `These fields cannot be updated: ${fields.join(', ')}. Updatable fields: ${updatable.join(', ')}.`,
    fields.map((field) => ({ field, code: 'FIELD_NOT_UPDATABLE', message: `${field} cannot be changed after creation.` })),
  );

export const customerNotFound = () =>
  new DomainError('CUSTOMER_NOT_FOUND', 'not_found', 'No customer with this id exists in this environment.');

export const accountNotFound = () =>
  new DomainError('ACCOUNT_NOT_FOUND', 'not_found', 'No account with this id exists in this environment.');

export const referencedCustomersNotFound = (customerIds: string[]) =>
  new DomainError(
    'CUSTOMER_NOT_FOUND',
    'unprocessable_reference',
    `${customerIds.length} of the associated customers do not exist in this environment; see details.`,
    customerIds.map((id) => ({ field: 'associatedCustomerIds', code: 'CUSTOMER_NOT_FOUND', message: `No customer ${id} in this environment.` })),
  );

export const customerAlreadyExists = () =>
  new DomainError(
    'CUSTOMER_ALREADY_EXISTS',
    'conflict',
    'A customer with this social security number already exists in this environment.',
  );

export const customerHasAccounts = (accountCount: number) =>
  new DomainError(
    'CUSTOMER_HAS_ACCOUNTS',
    'conflict',
    `The customer still has ${accountCount} account(s); delete them before deleting the customer.`,
  );

export const serviceUnavailable = () =>
  new DomainError('SERVICE_UNAVAILABLE', 'unavailable', 'The service cannot reach its database right now; retry later.');

export const unauthenticated = (message: string, challenge: BearerChallenge = {}) =>
  new DomainError('UNAUTHENTICATED', 'unauthenticated', message, undefined, challenge);

export const forbidden = (message: string, challenge: BearerChallenge = { error: 'insufficient_scope' }) =>
  new DomainError('FORBIDDEN', 'forbidden', message, undefined, challenge);

export const insufficientScope = (required: string) =>
  forbidden(`The token lacks the scope this operation needs: ${required}.`, { error: 'insufficient_scope', scope: required });

export const environmentNotAllowed = () =>
  forbidden('The token may not act in this environment.', { error: 'insufficient_scope' });

/** The identity provider's keys cannot be fetched: the token is neither valid nor invalid yet. */
export const authenticationUnavailable = () =>
  new DomainError('SERVICE_UNAVAILABLE', 'unavailable', 'The service cannot verify bearer tokens right now; retry later.');

export const idempotencyKeyReused = () =>
  new DomainError(
    'IDEMPOTENCY_KEY_REUSED',
    'unprocessable',
    'This Idempotency-Key was already used for a different request; send a new key for a new request.',
  );

export const idempotencyKeyInProgress = () =>
  new DomainError(
    'IDEMPOTENCY_KEY_IN_PROGRESS',
    'conflict',
    'A request with this Idempotency-Key is still being processed; retry shortly to receive its result.',
  );

export const environmentNotFound = (configured: readonly string[]) =>
  new DomainError('ENVIRONMENT_NOT_FOUND', 'not_found', `Unknown environment. Configured environments: ${configured.join(', ')}.`);

/** The caller's budget is spent; the surfaces add Retry-After and RateLimit-* headers. */
export const rateLimited = (retryAfterS: number) =>
  new DomainError('RATE_LIMITED', 'rate_limited', `Too many requests for this token; retry in ${retryAfterS} s.`);

/** Too many refused bearer tokens from one client address (token guessing is slowed down, not just refused). */
export const tooManyFailedAuthentications = (retryAfterS: number) =>
  new DomainError('RATE_LIMITED', 'rate_limited', `Too many failed authentication attempts from this address; retry in ${retryAfterS} s.`);
