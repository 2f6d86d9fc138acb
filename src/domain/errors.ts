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
  | 'forbidden'; // valid credentials that may not do this

export interface ErrorDetail {
  field?: string;
  code: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly kind: ErrorKind,
    message: string,
    readonly details?: ErrorDetail[],
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

export const unauthenticated = (message: string) => new DomainError('UNAUTHENTICATED', 'unauthenticated', message);

export const forbidden = (message: string) => new DomainError('FORBIDDEN', 'forbidden', message);

export const environmentNotFound = (configured: readonly string[]) =>
  new DomainError('ENVIRONMENT_NOT_FOUND', 'not_found', `Unknown environment. Configured environments: ${configured.join(', ')}.`);
