import type { z } from 'zod';
import { environmentNotFound, unauthenticated } from '../auth/errors.js';
import { createAccountSchema, UPDATABLE_ACCOUNT_FIELDS, updateAccountSchema } from '../domain/accounts/account.schemas.js';
import { auditQuerySchema } from '../domain/audit/audit.schemas.js';
import { createCustomerSchema, UPDATABLE_CUSTOMER_FIELDS, updateCustomerSchema } from '../domain/customers/customer.schemas.js';
import {
  accountNotFound,
  customerAlreadyExists,
  customerHasAccounts,
  customerNotFound,
  environmentNotAllowed,
  fieldsNotUpdatable,
  idempotencyKeyInProgress,
  idempotencyKeyReused,
  insufficientScope,
  referencedCustomersNotFound,
  serviceUnavailable,
  validationFailed,
} from '../domain/errors.js';
import type { AccessScope } from '../domain/scope.js';
import { parseInput } from '../domain/validation.js';
import type { EnvelopeFamily } from './envelope.js';
import { malformedRequest, payloadTooLarge, unsupportedMediaType } from '../http/errors.js';
import { rateLimited, tooManyFailedAuthentications } from '../http/rate-limit.js';
import {
  accountDataSchema,
  auditPageDataSchema,
  createdCustomerDataSchema,
  customerDataSchema,
  emptyDataSchema,
} from './response-schemas.js';

/**
 * The REST surface as data: every operation with its path, envelope family, scope, request and response
 * schemas and the failures it can answer. The router (src/rest/router.ts) mounts exactly these routes and
 * the OpenAPI document (src/openapi/document.ts) describes exactly these, so neither can drift from the
 * other. Failures are real error objects: their status, code and headers come from the one error mapping.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface DocumentedFailure {
  /** Unique within an operation; the name of its example in the OpenAPI document. */
  name: string;
  /** When it happens, for the reference. */
  when: string;
  /** The error the service throws; src/rest/error-mapping.ts turns it into status, headers and body. */
  error: unknown;
}

export interface RestRoute {
  operationId: string;
  method: HttpMethod;
  /** Express path pattern; the OpenAPI path template is derived from it. */
  path: string;
  family: EnvelopeFamily;
  tag: 'Customers' | 'Accounts' | 'Audit';
  summary: string;
  description: string;
  scope: AccessScope;
  /** The domain's input schema, for POST and PUT. */
  requestBody?: { schema: z.ZodType; component: string; example: Record<string, unknown> };
  /** The domain's query schema (each property becomes a query parameter). */
  query?: { schema: z.ZodType; example: Record<string, unknown> };
  success: { status: 200 | 201; description: string; data: z.ZodType; component: string };
  /** What can go wrong beyond what every operation of its kind can answer (see `failuresOf`). */
  failures: readonly DocumentedFailure[];
}

/** The id used in examples and in the error examples below. */
export const EXAMPLE_IDS = {
  customerId: '0193a5c2-7f3e-7c41-9d2a-5b8e4f1c2a10',
  otherCustomerId: '0193a5c2-8a11-7e02-8f6b-1c3d5e7f9a21',
  accountId: '0193a5c3-0b42-7d15-a7c9-3e5f7a9b1c32',
} as const;

/** Request examples. The SSN is the well-known documentation example (area 123), never a real person's. */
export const EXAMPLE_CREATE_CUSTOMER = {
  socialSecurityNumber: '123-45-6789',
  dateOfBirth: '1985-04-12',
  documentLocatorNumber: 12345678901,
  preferredName: 'Alex',
  firstName: 'Alexandra',
  middleName: 'Jane',
  lastName: 'Doe',
  emails: ['alex.doe@example.com'],
  phoneNumbers: [{ type: 'MOBILE', number: '+1 555 010 1234' }],
  addresses: [{ type: 'HOME', street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' }],
};
const EXAMPLE_UPDATE_CUSTOMER = { preferredName: 'Sandy', emails: ['sandy.doe@example.com'] };
const EXAMPLE_CREATE_ACCOUNT = {
  associatedCustomerIds: [EXAMPLE_IDS.customerId, EXAMPLE_IDS.otherCustomerId],
  name: 'Joint Checking',
  currency: 'USD',
  type: 'CHECKING',
};
const EXAMPLE_UPDATE_ACCOUNT = { name: 'Household Checking', currency: 'USD' };

/** The real VALIDATION_FAILED of `schema` for `input`, so examples show the domain's own messages. */
function validationFailureOf(schema: z.ZodType, input: unknown): unknown {
  try {
    parseInput(schema, input);
  } catch (error) {
    return error;
  }
  throw new Error('The invalid example passed validation; fix the example.');
}

const failure = (name: string, when: string, error: unknown): DocumentedFailure => ({ name, when, error });

/** Every operation: the path, the environment, the token. */
function requestFailures(scope: AccessScope): DocumentedFailure[] {
  return [
    failure('MALFORMED_REQUEST_path', 'The path cannot be decoded (broken percent-encoding).', malformedRequest('The request could not be read (check the path encoding and headers).')),
    failure('ENVIRONMENT_NOT_FOUND', 'The first path segment is not a configured environment; checked before the token.', environmentNotFound(['sandbox'])),
    failure('UNAUTHENTICATED_missing', 'No Authorization header.', unauthenticated('Send an Authorization header: Bearer <token>.', {})),
    failure('UNAUTHENTICATED_malformed', 'The Authorization header is not `Bearer <token>`.', unauthenticated('The Authorization header must be: Bearer <token>.', { error: 'invalid_request' })),
    failure('UNAUTHENTICATED_invalid', 'Unknown, expired or revoked token.', unauthenticated('The bearer token is not valid.', { error: 'invalid_token' })),
    failure('FORBIDDEN_environment', 'The token may not act in this environment.', environmentNotAllowed()),
    failure('FORBIDDEN_scope', `The token lacks the scope \`${scope}\`.`, insufficientScope(scope)),
    failure('RATE_LIMITED_token', "The token's request budget (RATE_LIMIT_POINTS per RATE_LIMIT_DURATION_S, shared with GraphQL) is spent; retry after Retry-After.", rateLimited(12)),
    failure('RATE_LIMITED_address', 'Too many refused tokens from this client address (RATE_LIMIT_AUTH_FAILURES); every request from it waits out the window.', tooManyFailedAuthentications(120)),
  ];
}

/** Every operation, last: the service itself. */
const SERVER_FAILURES: DocumentedFailure[] = [
  failure('INTERNAL_ERROR', 'Anything unexpected; logged under the requestId, never detailed in the answer.', new Error('unexpected')),
  failure('SERVICE_UNAVAILABLE', 'The database (or the token store or identity provider) cannot be reached; retry after the Retry-After delay.', serviceUnavailable()),
];

/** POST and PUT: the JSON body is read after authentication. */
function bodyFailures(schema: z.ZodType, invalidExample: unknown): DocumentedFailure[] {
  return [
    failure('VALIDATION_FAILED', 'A field is missing, of the wrong type, malformed, too long or unknown, or the body is not a JSON object.', validationFailureOf(schema, invalidExample)),
    failure('MALFORMED_REQUEST_body', 'The body is not valid JSON, or shorter than its Content-Length.', malformedRequest('The request body is not valid JSON.')),
    failure('PAYLOAD_TOO_LARGE', 'The body is larger than BODY_LIMIT (default 64 KiB).', payloadTooLarge(65536)),
    failure('UNSUPPORTED_MEDIA_TYPE', 'The body is not `application/json` in UTF-8 (or has an unknown Content-Encoding).', unsupportedMediaType()),
  ];
}

/** POST: creations take an Idempotency-Key. */
const IDEMPOTENCY_FAILURES: DocumentedFailure[] = [
  failure('VALIDATION_FAILED_idempotency_key', 'The Idempotency-Key header is empty, longer than 255 characters or not printable ASCII.', validationFailed([{ field: 'idempotencyKey', code: 'TOO_SHORT', message: 'Must not be empty.' }])),
  failure('IDEMPOTENCY_KEY_REUSED', 'The Idempotency-Key was used before for a different request; nothing is created.', idempotencyKeyReused()),
  failure('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still running; retry shortly to get its result.', idempotencyKeyInProgress()),
];

/** Every failure `route` can answer, in the order the service checks them. */
export function failuresOf(route: RestRoute): DocumentedFailure[] {
  return [
    ...requestFailures(route.scope),
    ...(route.requestBody ? bodyFailures(route.requestBody.schema, invalidExampleOf(route)) : []),
    ...(route.method === 'POST' ? IDEMPOTENCY_FAILURES : []),
    ...route.failures,
    ...SERVER_FAILURES,
  ];
}

const INVALID_EXAMPLES: Record<string, unknown> = {
  createCustomer: { ...EXAMPLE_CREATE_CUSTOMER, dateOfBirth: '12/04/1985', nickname: 'Al' },
  updateCustomer: { preferredName: '' },
  createAccount: { ...EXAMPLE_CREATE_ACCOUNT, currency: 'usd' },
  updateAccount: { name: 'Household Checking' },
};
const invalidExampleOf = (route: RestRoute): unknown => INVALID_EXAMPLES[route.operationId] ?? {};

const customerNotFoundFailure = failure('CUSTOMER_NOT_FOUND', 'No customer with this id in this environment (an id that is not a UUID cannot name one).', customerNotFound());
const accountNotFoundFailure = failure('ACCOUNT_NOT_FOUND', 'No account with this id in this environment (an id that is not a UUID cannot name one).', accountNotFound());

export const REST_ROUTES = [
  {
    operationId: 'createCustomer',
    method: 'POST',
    path: '/:environment/customer',
    family: 'customer',
    tag: 'Customers',
    summary: 'Create a customer',
    description:
      'Enrols a customer with no accounts and no restrictions, and answers its id, which clients must store. ' +
      'The social security number and document locator number are stored encrypted and never returned.',
    scope: 'customers:write',
    requestBody: { schema: createCustomerSchema, component: 'CreateCustomerRequest', example: EXAMPLE_CREATE_CUSTOMER },
    success: { status: 201, description: 'Created. `Location` names the new customer.', data: createdCustomerDataSchema, component: 'CreatedCustomer' },
    failures: [
      failure('CUSTOMER_ALREADY_EXISTS', 'A customer with this social security number exists in this environment (with or without dashes).', customerAlreadyExists()),
    ],
  },
  {
    operationId: 'getCustomer',
    method: 'GET',
    path: '/:environment/customer/:customerId',
    family: 'customer',
    tag: 'Customers',
    summary: 'Retrieve a customer',
    description: 'Answers the customer, without its social security number and document locator number.',
    scope: 'customers:read',
    success: { status: 200, description: 'The customer.', data: customerDataSchema, component: 'Customer' },
    failures: [customerNotFoundFailure],
  },
  {
    operationId: 'updateCustomer',
    method: 'PUT',
    path: '/:environment/customer/:customerId',
    family: 'customer',
    tag: 'Customers',
    summary: 'Update a customer',
    description:
      `Partial update: send only the fields to change (${UPDATABLE_CUSTOMER_FIELDS.join(', ')}); a list replaces the stored list whole. ` +
      'Identity fields (social security number, document locator number, date of birth, names) can never change. Answers the full updated customer.',
    scope: 'customers:write',
    requestBody: { schema: updateCustomerSchema, component: 'UpdateCustomerRequest', example: EXAMPLE_UPDATE_CUSTOMER },
    success: { status: 200, description: 'The updated customer.', data: customerDataSchema, component: 'Customer' },
    failures: [
      failure('FIELD_NOT_UPDATABLE', 'The body names a field that cannot change; nothing changes.', fieldsNotUpdatable(['lastName'], UPDATABLE_CUSTOMER_FIELDS)),
      customerNotFoundFailure,
    ],
  },
  {
    operationId: 'deleteCustomer',
    method: 'DELETE',
    path: '/:environment/customer/:customerId',
    family: 'customer',
    tag: 'Customers',
    summary: 'Delete a customer',
    description: 'Deletes the customer for good. Refused while any account is associated with it: delete those first.',
    scope: 'customers:write',
    success: { status: 200, description: 'Deleted; `data` is an empty object.', data: emptyDataSchema, component: 'Empty' },
    failures: [
      customerNotFoundFailure,
      failure('CUSTOMER_HAS_ACCOUNTS', 'The customer still has accounts.', customerHasAccounts(2)),
    ],
  },
  {
    operationId: 'createAccount',
    method: 'POST',
    path: '/:environment/account',
    family: 'account',
    tag: 'Accounts',
    summary: 'Create an account',
    description: 'Opens an account for one or more existing customers: amount 0, no transactions, no flags. Answers the full account.',
    scope: 'accounts:write',
    requestBody: { schema: createAccountSchema, component: 'CreateAccountRequest', example: EXAMPLE_CREATE_ACCOUNT },
    success: { status: 201, description: 'Created. `Location` names the new account.', data: accountDataSchema, component: 'Account' },
    failures: [
      failure('CUSTOMER_NOT_FOUND', 'Associated customers do not exist in this environment (one detail per id); nothing is created.', referencedCustomersNotFound([EXAMPLE_IDS.otherCustomerId])),
    ],
  },
  {
    operationId: 'getAccount',
    method: 'GET',
    path: '/:environment/account/:accountId',
    family: 'account',
    tag: 'Accounts',
    summary: 'Retrieve an account',
    description: 'Answers the account with the ids of its customers.',
    scope: 'accounts:read',
    success: { status: 200, description: 'The account.', data: accountDataSchema, component: 'Account' },
    failures: [accountNotFoundFailure],
  },
  {
    operationId: 'updateAccount',
    method: 'PUT',
    path: '/:environment/account/:accountId',
    family: 'account',
    tag: 'Accounts',
    summary: 'Update an account',
    description: `Sets the account's ${UPDATABLE_ACCOUNT_FIELDS.join(' and ')} (both required); its type never changes. Answers the full account.`,
    scope: 'accounts:write',
    requestBody: { schema: updateAccountSchema, component: 'UpdateAccountRequest', example: EXAMPLE_UPDATE_ACCOUNT },
    success: { status: 200, description: 'The updated account.', data: accountDataSchema, component: 'Account' },
    failures: [
      failure('FIELD_NOT_UPDATABLE', 'The body names a field that cannot change; nothing changes.', fieldsNotUpdatable(['type'], UPDATABLE_ACCOUNT_FIELDS)),
      accountNotFoundFailure,
    ],
  },
  {
    operationId: 'deleteAccount',
    method: 'DELETE',
    path: '/:environment/account/:accountId',
    family: 'account',
    tag: 'Accounts',
    summary: 'Delete an account',
    description: 'Deletes the account and its links to customers.',
    scope: 'accounts:write',
    success: { status: 200, description: 'Deleted; `data` is an empty object.', data: emptyDataSchema, component: 'Empty' },
    failures: [accountNotFoundFailure],
  },
  {
    operationId: 'listAuditEvents',
    method: 'GET',
    path: '/:environment/audit-events',
    family: 'customer',
    tag: 'Audit',
    summary: 'Read the audit trail',
    description:
      'Not in the contract: every successful write of this environment, oldest first, a page at a time. ' +
      'Events name the fields a write set, never their values. Uses the customer endpoints\' envelope (`log_ref_id`).',
    scope: 'audit:read',
    query: { schema: auditQuerySchema, example: { first: 20, operation: 'customer.create' } },
    success: { status: 200, description: 'A page of events.', data: auditPageDataSchema, component: 'AuditPage' },
    failures: [
      failure('VALIDATION_FAILED', 'A filter is malformed or unknown, or `from` is not before `to`.', validationFailureOf(auditQuerySchema, { first: '0' })),
    ],
  },
] as const satisfies readonly RestRoute[];

export type OperationId = (typeof REST_ROUTES)[number]['operationId'];
