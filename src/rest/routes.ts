import type { z } from 'zod';
import { environmentNotFound, unauthenticated } from '../auth/errors.js';
import { createAccountSchema, UPDATABLE_ACCOUNT_FIELDS, updateAccountSchema } from '../domain/accounts/account.schemas.js';
import { auditQuerySchema } from '../domain/audit/audit.schemas.js';
import { createCustomerSchema, CUSTOMER_LIMITS, UPDATABLE_CUSTOMER_FIELDS, updateCustomerSchema } from '../domain/customers/customer.schemas.js';
import {
  accountBalanceNotZero,
  accountCustomerLimit,
  accountFrozen,
  accountHasTransactions,
  accountNeedsACustomer,
  accountNotFound,
  amountExceedsHold,
  creditsBlocked,
  currencyMismatch,
  customerAccountLimit,
  customerNotLinked,
  debitsBlocked,
  holdExpired,
  insufficientFunds,
  tokenLimitExceeded,
  referencedAccountNotFound,
  reversalNotReversible,
  transactionAlreadyReversed,
  transactionNotFound,
  transactionNotPending,
  transactionNotPosted,
  customerAlreadyExists,
  customerHasAccounts,
  eventNotFound,
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
import { ACCOUNT_FLAGS } from '../domain/accounts/account.js';
import { ACCOUNT_LIMITS, addAccountCustomerSchema, overdraftLimitSchema } from '../domain/accounts/account.schemas.js';
import { EVENT_TYPES } from '../domain/events/event.js';
import { eventQuerySchema } from '../domain/events/event.schemas.js';
import { createWebhookEndpointSchema, updateWebhookEndpointSchema, webhookAttemptsQuerySchema } from '../domain/webhooks/webhook.schemas.js';
import { webhookEndpointDisabled, webhookEndpointLimit, webhookEndpointNotFound, webhookUrlNotAllowed } from '../domain/webhooks/webhook.errors.js';
import { DEFAULT_MAX_ENDPOINTS_PER_ENVIRONMENT } from '../domain/webhooks/webhook.service.js';
import {
  postHoldSchema,
  postTransactionSchema,
  reverseTransactionSchema,
  transactionPageSchema,
  transferSchema,
} from '../domain/ledger/ledger.schemas.js';
import { RECENT_TRANSACTIONS } from '../domain/ledger/transaction.js';
import type { AccessScope } from '../domain/caller.js';
import { parseInput } from '../domain/validation.js';
import type { EnvelopeFamily } from './envelope.js';
import { malformedRequest, payloadTooLarge, unsupportedMediaType } from '../http/errors.js';
import { rateLimited, tooManyFailedAuthentications } from '../http/rate-limit.js';
import { accountDataSchema } from '../presenters/accounts.js';
import { auditPageDataSchema } from '../presenters/audit.js';
import { createdCustomerDataSchema, customerDataSchema } from '../presenters/customers.js';
import { eventDataSchema, eventPageDataSchema } from '../presenters/events.js';
import { transactionDataSchema, transactionPageDataSchema, transferDataSchema } from '../presenters/transactions.js';
import { createdWebhookEndpointDataSchema, redeliveryDataSchema, rotatedWebhookSecretDataSchema, webhookAttemptPageDataSchema, webhookEndpointDataSchema } from '../presenters/webhooks.js';
import { emptyDataSchema } from './response-schemas.js';

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
  tag: 'Customers' | 'Accounts' | 'Transactions' | 'Events' | 'Webhooks' | 'Audit';
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
  /** A POST that is idempotent by itself (repeating it changes nothing more), so it takes no Idempotency-Key. */
  naturallyIdempotent?: true;
  /** A POST that takes no Idempotency-Key for this reason (e.g. its answer holds a secret no record may keep). */
  withoutIdempotencyKey?: string;
}

/** POSTs take an Idempotency-Key, unless repeating them is harmless anyway. */
export const takesIdempotencyKey = (route: Pick<RestRoute, 'method' | 'naturallyIdempotent' | 'withoutIdempotencyKey'>): boolean =>
  route.method === 'POST' && route.naturallyIdempotent !== true && route.withoutIdempotencyKey === undefined;

/** The id used in examples and in the error examples below. */
export const EXAMPLE_IDS = {
  customerId: '0193a5c2-7f3e-7c41-9d2a-5b8e4f1c2a10',
  otherCustomerId: '0193a5c2-8a11-7e02-8f6b-1c3d5e7f9a21',
  accountId: '0193a5c3-0b42-7d15-a7c9-3e5f7a9b1c32',
  otherAccountId: '0193a5c3-1c53-7e26-b8da-4f6a8b0c2d43',
  transactionId: '0193a5c4-2d64-7f37-89eb-5a7b9c1d3e54',
  endpointId: '0193a5c5-3e75-7a48-9afc-6b8cad2e4f65',
  eventId: '0193a5c6-4f86-7b59-8b0d-7c9dbe3f5a76',
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
const EXAMPLE_POST_TRANSACTION = { type: 'CREDIT', amount: 25.5, description: 'Payroll deposit' };
const EXAMPLE_TRANSFER = { fromAccountId: EXAMPLE_IDS.accountId, toAccountId: EXAMPLE_IDS.otherAccountId, amount: 100, description: 'Rent share' };

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

/** Every operation: the path, the token, the environment. */
function requestFailures(scope: AccessScope): DocumentedFailure[] {
  return [
    failure('MALFORMED_REQUEST_path', 'The path cannot be decoded (broken percent-encoding).', malformedRequest('The request could not be read (check the path encoding and headers).')),
    failure('UNAUTHENTICATED_missing', 'No Authorization header.', unauthenticated('Send an Authorization header: Bearer <token>.', {})),
    failure('UNAUTHENTICATED_malformed', 'The Authorization header is not `Bearer <token>`.', unauthenticated('The Authorization header must be: Bearer <token>.', { error: 'invalid_request' })),
    failure('UNAUTHENTICATED_invalid', 'Unknown, expired or revoked token.', unauthenticated('The bearer token is not valid.', { error: 'invalid_token' })),
    failure('FORBIDDEN_environment', 'The token may not act in this environment.', environmentNotAllowed()),
    failure('ENVIRONMENT_NOT_FOUND', 'The first path segment is not a configured environment; checked after the token (without a valid token, or with one bound to other environments, the answer is 401 / 403 as for a known environment).', environmentNotFound()),
    failure('FORBIDDEN_scope', `The token lacks the scope \`${scope}\`.`, insufficientScope(scope)),
    failure('RATE_LIMITED_token', "The token's request budget (RATE_LIMIT_POINTS per RATE_LIMIT_DURATION_S, shared with GraphQL) is spent; retry after Retry-After.", rateLimited(12)),
    failure('RATE_LIMITED_address', 'The token is refused and this client address (IPv6: its /64) has sent too many refused tokens (RATE_LIMIT_AUTH_FAILURES); its refused tokens wait out the window, valid tokens are not affected.', tooManyFailedAuthentications(120)),
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

/** POST: creations and postings take an Idempotency-Key. */
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
    ...(takesIdempotencyKey(route) ? IDEMPOTENCY_FAILURES : []),
    ...route.failures,
    ...SERVER_FAILURES,
  ];
}

const INVALID_EXAMPLES: Record<string, unknown> = {
  createCustomer: { ...EXAMPLE_CREATE_CUSTOMER, dateOfBirth: '12/04/1985', nickname: 'Al' },
  updateCustomer: { preferredName: '' },
  createAccount: { ...EXAMPLE_CREATE_ACCOUNT, currency: 'usd' },
  updateAccount: { name: 'Household Checking' },
  postTransaction: { type: 'DEPOSIT', amount: 25.5 },
  postHold: { amount: 12, currency: 'USD' },
  reverseTransaction: { description: '' },
  createTransfer: { fromAccountId: EXAMPLE_IDS.accountId, amount: 100 },
  addAccountCustomer: {},
  setOverdraftLimit: { overdraftLimit: true },
  createWebhookEndpoint: { url: 'ftp://example.com/hooks' },
  updateWebhookEndpoint: { eventTypes: ['customer.exploded'] },
};
const invalidExampleOf = (route: RestRoute): unknown => INVALID_EXAMPLES[route.operationId] ?? {};

const customerNotFoundFailure = failure('CUSTOMER_NOT_FOUND', 'No customer with this id in this environment (an id that is not a UUID cannot name one).', customerNotFound());
const accountNotFoundFailure = failure('ACCOUNT_NOT_FOUND', 'No account with this id in this environment (an id that is not a UUID cannot name one).', accountNotFound());
const customerAccountLimitFailure = failure(
  'CUSTOMER_ACCOUNT_LIMIT',
  `A customer of the request already holds ${CUSTOMER_LIMITS.accounts} accounts, the most a customer may hold; nothing changes.`,
  customerAccountLimit(CUSTOMER_LIMITS.accounts),
);
const transactionNotFoundFailure = failure('TRANSACTION_NOT_FOUND', 'No transaction with this id on this account.', transactionNotFound());
const transactionNotPendingFailure = failure('TRANSACTION_NOT_PENDING', 'The transaction is not a pending hold (already posted or voided).', transactionNotPending());
const eventNotFoundFailure = failure('EVENT_NOT_FOUND', 'No event with this id in this environment, or it was pruned.', eventNotFound());
const flagValidationFailure = failure(
  'VALIDATION_FAILED_flag',
  `The flag is not one of ${ACCOUNT_FLAGS.join(', ')}.`,
  validationFailed([{ field: 'flag', code: 'INVALID_VALUE', message: `Must be one of ${ACCOUNT_FLAGS.join(', ')}.` }]),
);
/** A partial update naming a field that never changes; `example` is such a field. */
const fieldNotUpdatableFailure = (example: string[], updatable: readonly string[]): DocumentedFailure =>
  failure('FIELD_NOT_UPDATABLE', 'The body names a field that cannot change; nothing changes.', fieldsNotUpdatable(example, updatable));
/** A page's `limit` out of range, with the message the query's own schema gives. */
const limitValidationFailure = (schema: z.ZodType): DocumentedFailure =>
  failure('VALIDATION_FAILED', '`limit` is not a whole number between 1 and 100, or an unknown parameter.', validationFailureOf(schema, { limit: '0' }));
/** What the ledger can refuse when a posting debits or credits an account; nothing is written. */
const postingRefusals = [
  failure('ACCOUNT_FROZEN', 'The account has the FROZEN flag.', accountFrozen()),
  failure('DEBITS_BLOCKED', 'A debit on an account with the DEBITS_BLOCKED flag.', debitsBlocked()),
  failure('CREDITS_BLOCKED', 'A credit on an account with the CREDITS_BLOCKED flag.', creditsBlocked()),
  failure('INSUFFICIENT_FUNDS', 'A debit (or hold) would take the available balance below minus the overdraft limit.', insufficientFunds()),
];
/** A managed token's limits (npm run token -- create --max-amount / --daily-limit); reversals and voids are not limited. */
const tokenLimitFailure = failure(
  'TOKEN_LIMIT_EXCEEDED',
  "The amount is over the token's maximum per posting, or would take its total of the UTC day in the currency over its daily limit; nothing is written.",
  tokenLimitExceeded(),
);
const webhookEndpointNotFoundFailure = failure('WEBHOOK_ENDPOINT_NOT_FOUND', 'No webhook endpoint with this id in this environment.', webhookEndpointNotFound());
const webhookUrlRefusal = failure(
  'WEBHOOK_URL_NOT_ALLOWED',
  'The host is, or resolves to, a private, loopback, link-local, multicast or unspecified address.',
  webhookUrlNotAllowed('the host resolves to a loopback address'),
);
const webhookEndpointLimitRefusal = failure(
  'WEBHOOK_ENDPOINT_LIMIT',
  'The environment already has WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT endpoints (16 by default); nothing was created.',
  webhookEndpointLimit(DEFAULT_MAX_ENDPOINTS_PER_ENVIRONMENT),
);
/** The success answers operations share: the whole record they changed or read, or nothing after a deletion. */
const DELETED: RestRoute['success'] = { status: 200, description: 'Deleted; `data` is an empty object.', data: emptyDataSchema, component: 'Empty' };
const answersAccount = (description: string, status: 200 | 201 = 200): RestRoute['success'] => ({ status, description, data: accountDataSchema, component: 'Account' });
const answersTransaction = (description: string, status: 200 | 201 = 200): RestRoute['success'] => ({ status, description, data: transactionDataSchema, component: 'Transaction' });
const answersEndpoint = (description: string): RestRoute['success'] => ({ status: 200, description, data: webhookEndpointDataSchema, component: 'WebhookEndpoint' });
const SECRET_NO_KEY = 'Takes no Idempotency-Key: the answer holds the secret, which no stored record may keep in clear; on a lost answer, rotate the secret.';
const FLAG_PARAMETER_NOTE = `One of ${ACCOUNT_FLAGS.join(', ')}.`;

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
    failures: [fieldNotUpdatableFailure(['lastName'], UPDATABLE_CUSTOMER_FIELDS), customerNotFoundFailure],
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
    success: DELETED,
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
    success: answersAccount('Created. `Location` names the new account.', 201),
    failures: [
      failure('CUSTOMER_NOT_FOUND', 'Associated customers do not exist in this environment (one detail per id); nothing is created.', referencedCustomersNotFound([EXAMPLE_IDS.otherCustomerId])),
      customerAccountLimitFailure,
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
    success: answersAccount('The account.'),
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
    success: answersAccount('The updated account.'),
    failures: [
      fieldNotUpdatableFailure(['type'], UPDATABLE_ACCOUNT_FIELDS),
      accountNotFoundFailure,
      failure('ACCOUNT_HAS_TRANSACTIONS', 'The currency would change on an account that has transactions.', accountHasTransactions()),
    ],
  },
  {
    operationId: 'deleteAccount',
    method: 'DELETE',
    path: '/:environment/account/:accountId',
    family: 'account',
    tag: 'Accounts',
    summary: 'Delete an account',
    description: 'Deletes the account and its links to customers, only at a zero balance with no pending hold. Its transactions stay in the ledger for audit.',
    scope: 'accounts:write',
    success: DELETED,
    failures: [accountNotFoundFailure, failure('ACCOUNT_BALANCE_NOT_ZERO', 'The account holds money or a pending hold.', accountBalanceNotZero())],
  },
  {
    operationId: 'addAccountCustomer',
    method: 'POST',
    path: '/:environment/account/:accountId/customer',
    family: 'account',
    tag: 'Accounts',
    summary: 'Add a customer to an account',
    description: `Makes an existing customer of the environment one more holder of the account (a joint account), after the others; at most ${ACCOUNT_LIMITS.associatedCustomers}. A customer already on the account leaves it unchanged. Answers the full account.`,
    scope: 'accounts:write',
    naturallyIdempotent: true,
    requestBody: { schema: addAccountCustomerSchema, component: 'AddAccountCustomerRequest', example: { customerId: EXAMPLE_IDS.otherCustomerId } },
    success: answersAccount('The account with the customer.'),
    failures: [
      accountNotFoundFailure,
      failure('CUSTOMER_NOT_FOUND', 'The customer does not exist in this environment; nothing changes.', referencedCustomersNotFound([EXAMPLE_IDS.otherCustomerId])),
      failure('ACCOUNT_CUSTOMER_LIMIT', `The account already has ${ACCOUNT_LIMITS.associatedCustomers} customers.`, accountCustomerLimit(ACCOUNT_LIMITS.associatedCustomers)),
      customerAccountLimitFailure,
    ],
  },
  {
    operationId: 'removeAccountCustomer',
    method: 'DELETE',
    path: '/:environment/account/:accountId/customer/:customerId',
    family: 'account',
    tag: 'Accounts',
    summary: 'Remove a customer from an account',
    description: 'The customer stops being a holder of the account; the last customer cannot be removed (delete the account instead). Answers the full account.',
    scope: 'accounts:write',
    success: answersAccount('The account without the customer.'),
    failures: [
      accountNotFoundFailure,
      failure('CUSTOMER_NOT_FOUND', 'The customer is not a holder of this account.', customerNotLinked()),
      failure('ACCOUNT_NEEDS_A_CUSTOMER', 'The customer is the last one of the account.', accountNeedsACustomer()),
    ],
  },
  {
    operationId: 'setAccountFlag',
    method: 'PUT',
    path: '/:environment/account/:accountId/flags/:flag',
    family: 'account',
    tag: 'Accounts',
    summary: 'Set a flag',
    description: `Sets a flag the ledger enforces (${FLAG_PARAMETER_NOTE}) FROZEN: nothing posts on the account, holds can still be voided. DEBITS_BLOCKED / CREDITS_BLOCKED: no debit / credit posts or is held. Setting a set flag changes nothing. No body. Answers the full account.`,
    scope: 'accounts:controls',
    success: answersAccount('The account with the flag.'),
    failures: [flagValidationFailure, accountNotFoundFailure],
  },
  {
    operationId: 'clearAccountFlag',
    method: 'DELETE',
    path: '/:environment/account/:accountId/flags/:flag',
    family: 'account',
    tag: 'Accounts',
    summary: 'Clear a flag',
    description: `Clears a flag (${FLAG_PARAMETER_NOTE}); clearing a flag that is not set changes nothing. Answers the full account.`,
    scope: 'accounts:controls',
    success: answersAccount('The account without the flag.'),
    failures: [flagValidationFailure, accountNotFoundFailure],
  },
  {
    operationId: 'setOverdraftLimit',
    method: 'PUT',
    path: '/:environment/account/:accountId/overdraft-limit',
    family: 'account',
    tag: 'Accounts',
    summary: 'Set the overdraft limit',
    description: 'How far below zero the available balance may go; 0 (the default) allows no overdraft. A lower limit never changes a balance already below it: it only refuses further debits. Answers the full account.',
    scope: 'accounts:controls',
    requestBody: { schema: overdraftLimitSchema, component: 'OverdraftLimitRequest', example: { overdraftLimit: 500 } },
    success: answersAccount('The account with its new limit.'),
    failures: [accountNotFoundFailure],
  },
  {
    operationId: 'postTransaction',
    method: 'POST',
    path: '/:environment/account/:accountId/transaction',
    family: 'account',
    tag: 'Transactions',
    summary: 'Deposit, withdraw or hold',
    description:
      "Posts a CREDIT (money in) or DEBIT (money out) on the account against the environment's settlement account, in the account's currency. " +
      'With `hold: true` the amount is only authorised (a hold): a DEBIT hold reduces the available balance at once and posts or voids later; `expiresAt` voids it by itself. ' +
      'Answers the transaction; `Location` names it.',
    scope: 'transactions:write',
    requestBody: { schema: postTransactionSchema, component: 'PostTransactionRequest', example: EXAMPLE_POST_TRANSACTION },
    success: answersTransaction('Posted (or held).', 201),
    failures: [accountNotFoundFailure, ...postingRefusals, tokenLimitFailure],
  },
  {
    operationId: 'listTransactions',
    method: 'GET',
    path: '/:environment/account/:accountId/transaction',
    family: 'account',
    tag: 'Transactions',
    summary: "List an account's transactions",
    description: `Newest first, a page at a time (\`limit\` 1–100, default 20; \`after\`: the \`nextAfter\` of the previous page). The account itself carries its ${RECENT_TRANSACTIONS} newest.`,
    scope: 'accounts:read',
    query: { schema: transactionPageSchema, example: { limit: '20' } },
    success: { status: 200, description: 'A page of transactions.', data: transactionPageDataSchema, component: 'TransactionPage' },
    failures: [limitValidationFailure(transactionPageSchema), accountNotFoundFailure],
  },
  {
    operationId: 'getTransaction',
    method: 'GET',
    path: '/:environment/account/:accountId/transaction/:transactionId',
    family: 'account',
    tag: 'Transactions',
    summary: 'Retrieve a transaction',
    description: 'One transaction of the account.',
    scope: 'accounts:read',
    success: answersTransaction('The transaction.'),
    failures: [accountNotFoundFailure, transactionNotFoundFailure],
  },
  {
    operationId: 'postHold',
    method: 'POST',
    path: '/:environment/account/:accountId/transaction/:transactionId/post',
    family: 'account',
    tag: 'Transactions',
    summary: 'Post a hold',
    description: 'Posts a PENDING hold, for its whole amount or a smaller `amount` (the rest is released). Both sides of the hold post together. Answers the transaction, now POSTED.',
    scope: 'transactions:write',
    requestBody: { schema: postHoldSchema, component: 'PostHoldRequest', example: { amount: 20 } },
    success: answersTransaction('The posted transaction.'),
    failures: [
      accountNotFoundFailure,
      transactionNotFoundFailure,
      transactionNotPendingFailure,
      failure('HOLD_EXPIRED', 'The hold is past its expiresAt.', holdExpired()),
      failure('AMOUNT_EXCEEDS_HOLD', '`amount` is more than the hold.', amountExceedsHold()),
      failure('ACCOUNT_FROZEN', 'An account of the hold has the FROZEN flag.', accountFrozen()),
      tokenLimitFailure,
    ],
  },
  {
    operationId: 'voidHold',
    method: 'POST',
    path: '/:environment/account/:accountId/transaction/:transactionId/void',
    family: 'account',
    tag: 'Transactions',
    summary: 'Void a hold',
    description: 'Releases a PENDING hold: its amount is available again. No body. Answers the transaction, now VOIDED.',
    scope: 'transactions:write',
    success: answersTransaction('The voided transaction.'),
    failures: [accountNotFoundFailure, transactionNotFoundFailure, transactionNotPendingFailure],
  },
  {
    operationId: 'reverseTransaction',
    method: 'POST',
    path: '/:environment/account/:accountId/transaction/:transactionId/reverse',
    family: 'account',
    tag: 'Transactions',
    summary: 'Reverse a transaction',
    description:
      'Undoes a POSTED transaction with a new one of the opposite type that names it (`reversesTransactionId`); for a transfer, both sides are reversed together. ' +
      'Posted transactions never change; each is reversed at most once. Answers the reversal on this account; `Location` names it.',
    scope: 'transactions:write',
    requestBody: { schema: reverseTransactionSchema, component: 'ReverseTransactionRequest', example: { description: 'Duplicate payment' } },
    success: answersTransaction('The reversal.', 201),
    failures: [
      accountNotFoundFailure,
      transactionNotFoundFailure,
      failure('TRANSACTION_NOT_POSTED', 'The transaction is a hold (post or void it instead).', transactionNotPosted()),
      failure('TRANSACTION_ALREADY_REVERSED', 'The transaction was reversed before.', transactionAlreadyReversed()),
      failure('REVERSAL_NOT_REVERSIBLE', 'The transaction is itself a reversal.', reversalNotReversible()),
      ...postingRefusals,
    ],
  },
  {
    operationId: 'createTransfer',
    method: 'POST',
    path: '/:environment/transfer',
    family: 'account',
    tag: 'Transactions',
    summary: 'Transfer between accounts',
    description: 'Moves money from one account of the environment to another in the same currency: a DEBIT and a CREDIT posted together, with one transferId. Answers both.',
    scope: 'transactions:write',
    requestBody: { schema: transferSchema, component: 'TransferRequest', example: EXAMPLE_TRANSFER },
    success: { status: 201, description: 'Both transactions of the transfer.', data: transferDataSchema, component: 'Transfer' },
    failures: [
      failure('ACCOUNT_NOT_FOUND', 'fromAccountId or toAccountId names no account of this environment (the detail says which); nothing moves.', referencedAccountNotFound('toAccountId')),
      failure('CURRENCY_MISMATCH', 'The two accounts hold different currencies.', currencyMismatch()),
      ...postingRefusals,
      tokenLimitFailure,
    ],
  },
  {
    operationId: 'listEvents',
    method: 'GET',
    path: '/:environment/event',
    family: 'customer',
    tag: 'Events',
    summary: 'Read the events',
    description:
      'Not in the contract: every committed change of this environment (customers, accounts, holders, flags, transactions), in sequence order, a page at a time. ' +
      'Each write appends its events in its own database statement (an outbox): no event without its change, no change without its event. ' +
      `An event is readable within a moment of its commit, once numbered; \`sequence\` is gapless per environment. Types: ${EVENT_TYPES.join(', ')}. ` +
      'Kept EVENT_RETENTION_DAYS (default 30). Uses the customer endpoints\' envelope (`log_ref_id`).',
    scope: 'events:read',
    query: { schema: eventQuerySchema, example: { after: '0', types: 'customer.created,transaction.posted', limit: '20' } },
    success: { status: 200, description: 'A page of events.', data: eventPageDataSchema, component: 'EventPage' },
    failures: [failure('VALIDATION_FAILED', '`after`, `types` or `limit` is malformed, or an unknown parameter.', validationFailureOf(eventQuerySchema, { limit: '0' }))],
  },
  {
    operationId: 'getEvent',
    method: 'GET',
    path: '/:environment/event/:eventId',
    family: 'customer',
    tag: 'Events',
    summary: 'Retrieve an event',
    description: 'One event of this environment.',
    scope: 'events:read',
    success: { status: 200, description: 'The event.', data: eventDataSchema, component: 'Event' },
    failures: [eventNotFoundFailure],
  },
  {
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    path: '/:environment/webhook-endpoint',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Register a webhook endpoint',
    description:
      'Not in the contract: the events of this environment numbered from now on are POSTed to `url` as Standard Webhooks requests (headers `webhook-id` (the event id), `webhook-timestamp`, `webhook-signature`; body `{ type, timestamp, data }`, `data` being the event as GET /{environment}/event/{eventId} answers it). ' +
      'Delivery is at least once, retried on failure (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h by default); first attempts go out in sequence order per endpoint. ' +
      'The URL must be public: private, loopback, link-local and multicast addresses are refused, at registration and at every delivery. ' +
      'Answers the signing secret, this once. ' + SECRET_NO_KEY,
    scope: 'webhooks:write',
    withoutIdempotencyKey: SECRET_NO_KEY,
    requestBody: { schema: createWebhookEndpointSchema, component: 'CreateWebhookEndpointRequest', example: { url: 'https://hooks.example.com/cas', eventTypes: ['customer.created', 'transaction.posted'] } },
    success: { status: 201, description: 'Registered. `Location` names the endpoint.', data: createdWebhookEndpointDataSchema, component: 'CreatedWebhookEndpoint' },
    failures: [webhookUrlRefusal, webhookEndpointLimitRefusal],
  },
  {
    operationId: 'getWebhookEndpoint',
    method: 'GET',
    path: '/:environment/webhook-endpoint/:endpointId',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Retrieve a webhook endpoint',
    description: 'The endpoint, without its secret, with why it is disabled if it is.',
    scope: 'webhooks:read',
    success: answersEndpoint('The endpoint.'),
    failures: [webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'updateWebhookEndpoint',
    method: 'PUT',
    path: '/:environment/webhook-endpoint/:endpointId',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Update a webhook endpoint',
    description: 'Partial update: send `url`, `eventTypes` or both. Deliveries already due go to the new URL.',
    scope: 'webhooks:write',
    requestBody: { schema: updateWebhookEndpointSchema, component: 'UpdateWebhookEndpointRequest', example: { eventTypes: [] } },
    success: answersEndpoint('The updated endpoint.'),
    failures: [webhookUrlRefusal, webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: '/:environment/webhook-endpoint/:endpointId',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    description: 'Deletes the endpoint, its pending deliveries and its attempts; an attempt in flight may still arrive.',
    scope: 'webhooks:write',
    success: DELETED,
    failures: [webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'listWebhookAttempts',
    method: 'GET',
    path: '/:environment/webhook-endpoint/:endpointId/attempts',
    family: 'customer',
    tag: 'Webhooks',
    summary: "List an endpoint's delivery attempts",
    description: `The latest attempts, newest first (\`limit\` 1–100, default 20): status, latency and a short error. Kept as long as their event (EVENT_RETENTION_DAYS).`,
    scope: 'webhooks:read',
    query: { schema: webhookAttemptsQuerySchema, example: { limit: '20' } },
    success: { status: 200, description: 'The attempts.', data: webhookAttemptPageDataSchema, component: 'WebhookAttemptPage' },
    failures: [limitValidationFailure(webhookAttemptsQuerySchema), webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/:environment/webhook-endpoint/:endpointId/rotate-secret',
    family: 'customer',
    tag: 'Webhooks',
    summary: "Rotate an endpoint's signing secret",
    description:
      'Answers a new secret, this once. Until `previousSecretExpiresAt` (WEBHOOKS_SECRET_OVERLAP_S, default 24 h) every delivery carries two signatures, one per secret, so a receiver verifies with either while it switches. ' +
      'Rotating again within the overlap drops the oldest secret at once. No body. ' + SECRET_NO_KEY,
    scope: 'webhooks:write',
    withoutIdempotencyKey: SECRET_NO_KEY,
    success: { status: 200, description: 'The new secret.', data: rotatedWebhookSecretDataSchema, component: 'RotatedWebhookSecret' },
    failures: [webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'enableWebhookEndpoint',
    method: 'POST',
    path: '/:environment/webhook-endpoint/:endpointId/enable',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Enable a webhook endpoint',
    description:
      'Delivers again: forgets the failures, and retries waiting for a later time are due at once. Events numbered while it was disabled are not sent (read them with GET /{environment}/event, or redeliver one). Enabling an enabled endpoint changes nothing. No body.',
    scope: 'webhooks:write',
    naturallyIdempotent: true,
    success: answersEndpoint('The endpoint.'),
    failures: [webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'disableWebhookEndpoint',
    method: 'POST',
    path: '/:environment/webhook-endpoint/:endpointId/disable',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Disable a webhook endpoint',
    description: 'Stops deliveries (an attempt in flight still completes). The service disables an endpoint by itself on a 410 Gone answer, or after failing for a whole retry window. No body.',
    scope: 'webhooks:write',
    naturallyIdempotent: true,
    success: answersEndpoint('The endpoint.'),
    failures: [webhookEndpointNotFoundFailure],
  },
  {
    operationId: 'redeliverWebhook',
    method: 'POST',
    path: '/:environment/webhook-endpoint/:endpointId/delivery/:eventId/redeliver',
    family: 'customer',
    tag: 'Webhooks',
    summary: 'Redeliver an event',
    description:
      'Sends the event to the endpoint again (or for the first time: an event of before its creation, of the disabled period or of a type it does not take), as soon as a dispatcher is free, with the same `webhook-id`; a failure is retried on what remains of the schedule. No body.',
    scope: 'webhooks:write',
    naturallyIdempotent: true,
    success: { status: 200, description: 'Scheduled.', data: redeliveryDataSchema, component: 'Redelivery' },
    failures: [
      webhookEndpointNotFoundFailure,
      eventNotFoundFailure,
      failure('WEBHOOK_ENDPOINT_DISABLED', 'The endpoint is disabled; enable it first.', webhookEndpointDisabled()),
    ],
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
