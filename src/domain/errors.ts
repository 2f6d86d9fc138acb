import { isRecordId } from './ids.js';
import type { AccessScope } from './caller.js';

/**
 * The domain's error catalogue. Every failure of a domain rule is a DomainError with a stable `code`; the
 * HTTP failure vocabulary (src/http/errors.ts) gives each `kind` its status once, for REST and GraphQL.
 * The request layer's own failures (unauthenticated, unknown environment, rate limits) are in
 * src/auth/errors.ts. Messages help a developer fix the call and never contain submitted values.
 */
export const ErrorCodes = [
  'VALIDATION_FAILED',
  'FIELD_NOT_UPDATABLE',
  'CUSTOMER_NOT_FOUND',
  'ACCOUNT_NOT_FOUND',
  'CUSTOMER_ALREADY_EXISTS',
  'CUSTOMER_HAS_ACCOUNTS',
  // A customer's or an account's externalId is unique per environment and kind (docs/adr/0055-external-ids-and-metadata.md).
  'EXTERNAL_ID_TAKEN',
  'SERVICE_UNAVAILABLE',
  'FORBIDDEN',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_PROGRESS',
  // The ledger (src/features/ledger): each refusal writes nothing.
  'TRANSACTION_NOT_FOUND',
  'TRANSFER_NOT_FOUND',
  'INSUFFICIENT_FUNDS',
  'CURRENCY_MISMATCH',
  'ACCOUNT_FROZEN',
  'DEBITS_BLOCKED',
  'CREDITS_BLOCKED',
  'TRANSACTION_NOT_PENDING',
  'TRANSACTION_NOT_POSTED',
  'TRANSACTION_ALREADY_REVERSED',
  'REVERSAL_NOT_REVERSIBLE',
  'HOLD_EXPIRED',
  'AMOUNT_EXCEEDS_HOLD',
  'TOKEN_LIMIT_EXCEEDED',
  'ACCOUNT_BALANCE_NOT_ZERO',
  'ACCOUNT_HAS_TRANSACTIONS',
  'ACCOUNT_NEEDS_A_CUSTOMER',
  'ACCOUNT_CUSTOMER_LIMIT',
  'CUSTOMER_ACCOUNT_LIMIT',
  // Account relationships (docs/adr/0091-account-relationship-roles.md).
  'LAST_OWNER',
  'ROLE_REQUIRES_INDIVIDUAL',
  'CUSTOMER_ALREADY_LINKED',
  'EVENT_NOT_FOUND',
  // History and statements (src/features/history).
  'STATEMENT_TOO_LARGE',
  // The instance already runs LEDGER_EXPORT_MAX_CONCURRENT ledger exports (docs/adr/0069-ledger-export-memory-and-concurrency.md).
  'LEDGER_EXPORTS_FULL',
  // The instance already renders or queues STATEMENT_PDF_MAX_PENDING statement PDFs (docs/statements.md, "Rendering a PDF").
  'STATEMENT_RENDERING_BUSY',
  // Webhooks (src/features/webhooks/webhook.errors.ts).
  'WEBHOOK_ENDPOINT_NOT_FOUND',
  'WEBHOOK_URL_NOT_ALLOWED',
  'WEBHOOK_ENDPOINT_DISABLED',
  'WEBHOOK_ENDPOINT_LIMIT',
  // GraphQL subscriptions: the instance follows as many event streams as it may (GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS).
  'SUBSCRIPTIONS_FULL',
  // Optimistic concurrency (src/domain/versions.ts): If-Match or expectedVersion names a version that is not the record's.
  'PRECONDITION_FAILED',
  'TAX_ID_ALREADY_EXISTS',
  'FIELD_NOT_FOR_CUSTOMER_TYPE',
  // Beneficial owners of a business (docs/adr/0094-beneficial-owners.md).
  'NOT_A_BUSINESS',
  'OWNER_NOT_AN_INDIVIDUAL',
  'OWNER_IS_THE_BUSINESS',
  'OWNERSHIP_OVER_100',
  'BENEFICIAL_OWNER_EXISTS',
  'BENEFICIAL_OWNER_NOT_FOUND',
  'BENEFICIAL_OWNER_LIMIT',
  'CUSTOMER_IS_A_BENEFICIAL_OWNER',
  // Customer verification (docs/adr/0101-customer-verification.md).
  'VERIFICATION_TRANSITION_NOT_ALLOWED',
  'VERIFICATION_PROVIDER_NOT_CONFIGURED',
  // The gates and the http provider's callback (docs/adr/0104-verification-http-provider-and-gates.md).
  'VERIFICATION_REQUIRED',
  'VERIFICATION_CALLBACK_SIGNATURE_INVALID',
  'VERIFICATION_CHECK_NOT_FOUND',
  'VERIFICATION_CHECK_COMPLETED',
  // Verification documents (docs/adr/0103-verification-documents.md).
  'DOCUMENT_NOT_FOUND',
  'DOCUMENT_TYPE_MISMATCH',
  'DOCUMENT_CONTENT_TOO_LARGE',
  'DOCUMENT_ALREADY_REVIEWED',
  'DOCUMENT_REVIEW_BY_UPLOADER',
  // The instance already reads its maximum of document uploads at once (the memory bound of docs/adr/0103).
  'DOCUMENT_UPLOADS_BUSY',
  // Environment clocks (docs/adr/0102-environment-clocks-and-end-of-day.md).
  'CLOCK_NOT_ADJUSTABLE',
  'CLOCK_CANNOT_GO_BACK',
  'CLOCK_ADVANCE_TOO_FAR',
  // Accounts close, customers archive (docs/adr/0106-account-and-customer-lifecycle.md).
  'ACCOUNT_CLOSED',
  'ACCOUNT_HAS_PENDING_HOLDS',
  'ACCOUNT_NOT_CLOSED',
  'ACCOUNT_REOPEN_WINDOW_PASSED',
  'CUSTOMER_ARCHIVED',
  'CUSTOMER_HAS_OPEN_ACCOUNTS',
  // Dormancy (docs/adr/0109-dormancy-and-escheatment.md).
  'ACCOUNT_DORMANT',
  'ACCOUNT_NOT_DORMANT',
  // Account and routing numbers (docs/adr/0107-account-and-routing-numbers.md).
  'ACCOUNT_NUMBER_NOT_FOUND',
  'ACCOUNT_NUMBER_CANCELED',
  // Deposit products (docs/adr/0112-deposit-products.md).
  'PRODUCT_NOT_FOUND',
  'PRODUCT_CODE_TAKEN',
  'PRODUCT_RATE_NOT_ALLOWED',
  'PRODUCT_MISMATCH',
  // A product's minimums and limits, enforced by the posting statement (docs/adr/0114-product-minimums-and-limits.md).
  'MINIMUM_BALANCE',
  'WITHDRAWAL_LIMIT_EXCEEDED',
  'MINIMUM_OPENING_DEPOSIT',
  // Interest (docs/adr/0113-interest.md).
  'INTEREST_NOT_APPLICABLE',
  // Tax forms (docs/adr/0116-tax-form-1099-int.md).
  'TAX_FORM_NOT_APPLICABLE',
  'TAX_FORM_PAYER_NOT_CONFIGURED',
] as const;
export type ErrorCode = (typeof ErrorCodes)[number];

/** What kind of failure it is; the surfaces choose their status from this, not from the message. */
export type ErrorKind =
  | 'invalid_input' // the request itself is wrong
  | 'not_found' // the addressed record does not exist in this environment
  | 'unprocessable_reference' // the request refers to records that do not exist
  | 'conflict' // the request clashes with the current state
  | 'precondition_failed' // the request's condition on the record's version does not hold (RFC 9110 §13.1.1)
  | 'unavailable' // a dependency (the database) cannot be reached
  | 'forbidden' // valid credentials that may not do this
  | 'too_large' // a body larger than the operation takes (a document over its limit)
  | 'unsupported_media_type' // a body whose content is not what its media type says
  | 'unprocessable'; // well-formed, but cannot be processed as sent (an idempotency key reused for another request)

export interface ErrorDetail {
  field?: string;
  code: string;
  message: string;
  /** The amount or count the detail is about, as exact decimal text (a product's minimum or limit, what the account has). */
  value?: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly kind: ErrorKind,
    message: string,
    readonly details?: ErrorDetail[],
    /** FORBIDDEN only: the access scope the refused operation needs, when a scope (not the environment) is missing. */
    readonly requiredScope?: AccessScope,
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
    fields.map((field) => ({
      field,
      code: 'FIELD_NOT_UPDATABLE',
      message: `${field} cannot be changed after creation.`,
    })),
  );

/** Fields of the other kind of customer (a person's on a business, a business's on a person): named, never dropped. */
export const fieldsNotForCustomerType = (fields: string[], customerType: 'INDIVIDUAL' | 'BUSINESS') =>
  new DomainError(
    'FIELD_NOT_FOR_CUSTOMER_TYPE',
    'invalid_input',
    `These fields are not fields of a${customerType === 'BUSINESS' ? ' business' : 'n individual'} customer: ${fields.join(', ')}.`,
    fields.map((field) => ({
      field,
      code: 'FIELD_NOT_FOR_CUSTOMER_TYPE',
      message: `${field} is not a field of a${customerType === 'BUSINESS' ? ' business' : 'n individual'} customer.`,
    })),
  );

/** A business with this tax id exists in the environment (docs/adr/0090); the id itself is never echoed. */
export const taxIdAlreadyExists = () =>
  new DomainError(
    'TAX_ID_ALREADY_EXISTS',
    'conflict',
    'A business customer with this tax id already exists in this environment.',
    [
      {
        field: 'taxId',
        code: 'TAX_ID_ALREADY_EXISTS',
        message: 'Must be unique among the businesses of this environment.',
      },
    ],
  );

export const customerNotFound = () =>
  new DomainError('CUSTOMER_NOT_FOUND', 'not_found', 'No customer with this id exists in this environment.');

export const accountNotFound = () =>
  new DomainError('ACCOUNT_NOT_FOUND', 'not_found', 'No account with this id exists in this environment.');

export const referencedCustomersNotFound = (customerIds: readonly string[], field = 'associatedCustomerIds') =>
  new DomainError(
    'CUSTOMER_NOT_FOUND',
    'unprocessable_reference',
    `${customerIds.length} of the associated customers do not exist in this environment; see details.`,
    // A well-formed id is named (ids are not personal data); any other text is never echoed.
    customerIds.map((id) => ({
      field,
      code: 'CUSTOMER_NOT_FOUND',
      message: isRecordId(id)
        ? `No customer ${id} in this environment.`
        : 'No customer has this id: it is not an id the service issued.',
    })),
  );

export const customerAlreadyExists = () =>
  new DomainError(
    'CUSTOMER_ALREADY_EXISTS',
    'conflict',
    'A customer with this social security number already exists in this environment.',
  );

/**
 * The environment already has a record of this kind with this externalId (unique per environment and kind);
 * nothing was written, and the id itself is never echoed.
 */
export const externalIdTaken = (kind: 'customer' | 'account' | 'transaction' | 'transfer') =>
  new DomainError(
    'EXTERNAL_ID_TAKEN',
    'conflict',
    `Another ${kind} of this environment already has this externalId; nothing was changed.`,
    [
      {
        field: 'externalId',
        code: 'EXTERNAL_ID_TAKEN',
        message: `Must be unique among the ${kind}s of this environment.`,
      },
    ],
  );

export const customerHasAccounts = (accountCount: number) =>
  new DomainError(
    'CUSTOMER_HAS_ACCOUNTS',
    'conflict',
    `The customer still has ${accountCount} account(s); delete them before deleting the customer.`,
  );

/** If-Match or expectedVersion names a version the record no longer has (or never had); nothing was changed. */
export const preconditionFailed = () =>
  new DomainError(
    'PRECONDITION_FAILED',
    'precondition_failed',
    'The record has changed since the version this request names (If-Match or expectedVersion); nothing was changed. Read it again and retry with its current version.',
  );

/** The instance follows its maximum of live event streams; another instance, or later, has room. */
export const subscriptionsFull = (limit: number) =>
  new DomainError(
    'SUBSCRIPTIONS_FULL',
    'unavailable',
    `This instance serves its maximum of ${limit} subscriptions; try again later (another connection may reach another instance).`,
  );

/**
 * The instance runs its maximum of ledger exports, each holding a snapshot and a database connection for its
 * whole run; later, or another instance, has room. Unavailable (503), not a rate limit: no caller asked too often.
 */
export const ledgerExportsFull = (limit: number) =>
  new DomainError(
    'LEDGER_EXPORTS_FULL',
    'unavailable',
    `This instance runs its maximum of ${limit} ledger exports at once; retry when one has finished (another instance may have room).`,
  );

/**
 * The instance renders (or has queued) its maximum of statement PDFs, each a few seconds of a rendering worker's
 * CPU; later, or another instance, has room. Unavailable (503), not a rate limit: no caller asked too often.
 */
export const statementRenderingBusy = (limit: number) =>
  new DomainError(
    'STATEMENT_RENDERING_BUSY',
    'unavailable',
    `This instance is rendering or has queued its maximum of ${limit} statement PDFs; retry shortly (another instance may have room), or ask for the statement as JSON or CSV.`,
  );

export const serviceUnavailable = () =>
  new DomainError(
    'SERVICE_UNAVAILABLE',
    'unavailable',
    'The service cannot reach its database right now; retry later.',
  );

export const forbidden = (message: string, requiredScope?: AccessScope) =>
  new DomainError('FORBIDDEN', 'forbidden', message, undefined, requiredScope);

export const insufficientScope = (required: AccessScope) =>
  forbidden(`The token lacks the scope this operation needs: ${required}.`, required);

export const environmentNotAllowed = () => forbidden('The token may not act in this environment.');

/** The identity provider's keys cannot be fetched: the token is neither valid nor invalid yet. */
export const authenticationUnavailable = () =>
  new DomainError(
    'SERVICE_UNAVAILABLE',
    'unavailable',
    'The service cannot verify bearer tokens right now; retry later.',
  );

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

export const transactionNotFound = () =>
  new DomainError('TRANSACTION_NOT_FOUND', 'not_found', 'No transaction with this id exists on this account.');

export const transferNotFound = () =>
  new DomainError('TRANSFER_NOT_FOUND', 'not_found', 'No transfer with this id exists in this environment.');

/** A transfer names an account that does not exist: the request refers to it, it is not the addressed resource. */
export const referencedAccountNotFound = (field: string) =>
  new DomainError(
    'ACCOUNT_NOT_FOUND',
    'unprocessable_reference',
    'An account of the transfer does not exist in this environment; see details.',
    [{ field, code: 'ACCOUNT_NOT_FOUND', message: 'No account with this id exists in this environment.' }],
  );

/**
 * The caller's token may not move this much: over its maximum per posting, or over its daily total in the
 * currency (UTC day). Forbidden, not a conflict: the same request from a token allowed more would succeed,
 * and retrying with this token does not help before the next UTC day.
 */
export const tokenLimitExceeded = () =>
  new DomainError(
    'TOKEN_LIMIT_EXCEEDED',
    'forbidden',
    "The amount is over this token's limit (per posting, or its daily total in the currency); nothing was posted.",
  );

export const insufficientFunds = () =>
  new DomainError(
    'INSUFFICIENT_FUNDS',
    'conflict',
    'The debit would take the available balance below the overdraft limit; nothing was posted.',
  );

export const currencyMismatch = () =>
  new DomainError(
    'CURRENCY_MISMATCH',
    'unprocessable',
    'Both accounts of a transfer must hold the same currency; nothing was posted.',
  );

export const accountFrozen = () =>
  new DomainError(
    'ACCOUNT_FROZEN',
    'conflict',
    'The account is frozen: nothing posts on it until the FROZEN flag is cleared.',
  );

export const debitsBlocked = () =>
  new DomainError(
    'DEBITS_BLOCKED',
    'conflict',
    'Debits are blocked on the account (flag DEBITS_BLOCKED); nothing was posted.',
  );

export const creditsBlocked = () =>
  new DomainError(
    'CREDITS_BLOCKED',
    'conflict',
    'Credits are blocked on the account (flag CREDITS_BLOCKED); nothing was posted.',
  );

export const transactionNotPending = () =>
  new DomainError(
    'TRANSACTION_NOT_PENDING',
    'conflict',
    'Only a pending hold can be posted or voided; this transaction is already posted or voided.',
  );

export const transactionNotPosted = () =>
  new DomainError(
    'TRANSACTION_NOT_POSTED',
    'conflict',
    'Only a posted transaction can be reversed; post or void the hold instead.',
  );

export const transactionAlreadyReversed = () =>
  new DomainError(
    'TRANSACTION_ALREADY_REVERSED',
    'conflict',
    'The transaction has already been reversed; a transaction is reversed at most once.',
  );

export const reversalNotReversible = () =>
  new DomainError(
    'REVERSAL_NOT_REVERSIBLE',
    'conflict',
    'A reversal cannot itself be reversed; post a new transaction instead.',
  );

export const holdExpired = () =>
  new DomainError(
    'HOLD_EXPIRED',
    'conflict',
    'The hold has expired and can no longer be posted; it is voided automatically.',
  );

export const amountExceedsHold = () =>
  new DomainError('AMOUNT_EXCEEDS_HOLD', 'conflict', 'A hold can be posted for its amount or less, not more.');

export const accountBalanceNotZero = () =>
  new DomainError(
    'ACCOUNT_BALANCE_NOT_ZERO',
    'conflict',
    'Only an account with a zero balance and no pending hold can be deleted; move the money out first.',
  );

/** A closing account with money left and no disbursement account to send it to (or a debt: a negative balance). */
export const accountBalanceNotZeroToClose = (negative: boolean) =>
  new DomainError(
    'ACCOUNT_BALANCE_NOT_ZERO',
    'conflict',
    negative
      ? 'The account owes money (a negative balance): credit it to zero before closing it; nothing was changed.'
      : 'The account still holds money: give a disbursementAccountId to receive it, or move it out first; nothing was changed.',
  );

/** A posting (or a hold's posting) on a closed account; closing it again. Nothing was written. */
export const accountClosed = () =>
  new DomainError(
    'ACCOUNT_CLOSED',
    'conflict',
    'The account is closed: nothing posts on it and it cannot be closed again; reopen it first (within the reopen window).',
  );

/** A client's debit (withdrawal, transfer out, hold, reversal's debit side) of a DORMANT account. Nothing was written. */
export const accountDormant = () =>
  new DomainError(
    'ACCOUNT_DORMANT',
    'conflict',
    'The account is dormant: it refuses debits until it is reactivated (POST …/reactivate) or credited by its customer; nothing was written.',
  );

/** Reactivating an account that is neither INACTIVE nor DORMANT (or is closed). */
export const accountNotDormant = () =>
  new DomainError(
    'ACCOUNT_NOT_DORMANT',
    'conflict',
    'The account is neither inactive nor dormant: there is nothing to reactivate; nothing was changed.',
  );

export const accountHasPendingHolds = () =>
  new DomainError(
    'ACCOUNT_HAS_PENDING_HOLDS',
    'conflict',
    'The account has a pending hold: post or void it before closing the account; nothing was changed.',
  );

export const accountNotClosed = () =>
  new DomainError('ACCOUNT_NOT_CLOSED', 'conflict', 'The account is open: only a closed account can be reopened.');

export const accountReopenWindowPassed = (days: number) =>
  new DomainError(
    'ACCOUNT_REOPEN_WINDOW_PASSED',
    'conflict',
    `A closed account can be reopened within ${days} days of its closing (ACCOUNT_REOPEN_WINDOW_DAYS); open a new account instead.`,
  );

/** An archived customer opens no account, is linked to none and is not archived twice. */
export const customerArchived = (message = 'The customer is archived: it opens no account and is linked to none.') =>
  new DomainError('CUSTOMER_ARCHIVED', 'conflict', message);

export const customerHasOpenAccounts = (openAccounts: number) =>
  new DomainError(
    'CUSTOMER_HAS_OPEN_ACCOUNTS',
    'conflict',
    `The customer still has ${openAccounts} open account(s); close them before archiving the customer.`,
  );

export const accountHasTransactions = () =>
  new DomainError(
    'ACCOUNT_HAS_TRANSACTIONS',
    'conflict',
    "The account's currency cannot change once it has transactions.",
  );

export const accountNeedsACustomer = () =>
  new DomainError(
    'ACCOUNT_NEEDS_A_CUSTOMER',
    'conflict',
    'The last customer of an account cannot be removed; an account always has at least one.',
  );

export const accountCustomerLimit = (limit: number) =>
  new DomainError('ACCOUNT_CUSTOMER_LIMIT', 'conflict', `An account has at most ${limit} customers.`);

/** Names the limit only: which of the request's customers is at it would echo submitted ids back for nothing. */
export const customerAccountLimit = (limit: number) =>
  new DomainError(
    'CUSTOMER_ACCOUNT_LIMIT',
    'conflict',
    `A customer holds at most ${limit} accounts, and a customer of this request already holds that many; nothing was changed.`,
  );

export const lastOwner = () =>
  new DomainError(
    'LAST_OWNER',
    'conflict',
    'The customer is the last OWNER of the account: it can be neither removed nor given another role until another customer is an OWNER; nothing was changed.',
  );

/** At creation, one detail per customer (its id: ids are not personal data); on a link or a role change, none. */
export const roleRequiresIndividual = (customerIds: readonly string[] = []) =>
  new DomainError(
    'ROLE_REQUIRES_INDIVIDUAL',
    'conflict',
    'AUTHORIZED_SIGNER and AUTHORIZED_USER must be INDIVIDUAL customers (people); a BUSINESS customer may be an OWNER, BENEFICIARY or CUSTODIAN. Nothing was changed.',
    customerIds.length === 0
      ? undefined
      : customerIds.map((id) => ({
          field: 'relationships',
          code: 'ROLE_REQUIRES_INDIVIDUAL',
          message: `Customer ${id} is a BUSINESS customer.`,
        })),
  );

export const customerAlreadyLinked = () =>
  new DomainError(
    'CUSTOMER_ALREADY_LINKED',
    'conflict',
    'The customer is already linked to this account with another role; change its role with PUT /{environment}/account/{accountId}/customer/{customerId}. Nothing was changed.',
  );

export const customerNotLinked = () =>
  new DomainError('CUSTOMER_NOT_FOUND', 'not_found', 'No customer with this id is a customer of this account.');

export const eventNotFound = () =>
  new DomainError(
    'EVENT_NOT_FOUND',
    'not_found',
    'No event with this id exists in this environment (or it has been pruned).',
  );

/** A statement is a bounded document; the ledger export (GET /{environment}/ledger-entries) streams any period. */
export const statementTooLarge = (maxEntries: number) =>
  new DomainError(
    'STATEMENT_TOO_LARGE',
    'invalid_input',
    `The period holds more than ${maxEntries} posted entries, the most one statement shows; ask for a shorter period, or export the entries (GET /{environment}/ledger-entries).`,
  );

/** Beneficial owners (docs/adr/0094): the path's customer is a person, and only a business has owners. */
export const notABusiness = () =>
  new DomainError(
    'NOT_A_BUSINESS',
    'conflict',
    'The customer is an INDIVIDUAL: only a BUSINESS customer has beneficial owners. Nothing was changed.',
  );

export const ownerNotAnIndividual = () =>
  new DomainError(
    'OWNER_NOT_AN_INDIVIDUAL',
    'conflict',
    'A beneficial owner is an INDIVIDUAL customer (a person); this customer is a BUSINESS. Nothing was changed.',
  );

export const ownerIsTheBusiness = () =>
  new DomainError(
    'OWNER_IS_THE_BUSINESS',
    'invalid_input',
    'A business is not its own beneficial owner: customerId names the business itself. Nothing was changed.',
  );

/** The sum is the business's, not a submitted value: telling it helps the caller and echoes nothing. */
export const ownershipOver100 = (recorded: string) =>
  new DomainError(
    'OWNERSHIP_OVER_100',
    'conflict',
    `The beneficial owners of this business already own ${recorded} %; with this owner they would own more than 100 %. Nothing was changed.`,
  );

export const beneficialOwnerExists = () =>
  new DomainError(
    'BENEFICIAL_OWNER_EXISTS',
    'conflict',
    'The customer is already a beneficial owner of this business; remove it first to change it. Nothing was changed.',
  );

export const beneficialOwnerNotFound = () =>
  new DomainError(
    'BENEFICIAL_OWNER_NOT_FOUND',
    'not_found',
    'No beneficial owner with this customer id is recorded for this business.',
  );

export const beneficialOwnerLimit = (limit: number) =>
  new DomainError(
    'BENEFICIAL_OWNER_LIMIT',
    'conflict',
    `A business has at most ${limit} beneficial owners; remove one first. Nothing was changed.`,
  );

export const customerIsABeneficialOwner = (businessCount: number) =>
  new DomainError(
    'CUSTOMER_IS_A_BENEFICIAL_OWNER',
    'conflict',
    `The customer is a beneficial owner of ${businessCount} business(es); remove it from them (DELETE /{environment}/customer/{customerId}/beneficial-owner/{ownerCustomerId}) before deleting the customer.`,
  );

/**
 * The verification's status may not move this way (src/features/verification/verification-status.ts: the table of
 * transitions); nothing was changed. The message names both statuses and what was asked, never a customer's data.
 */
export const verificationTransitionNotAllowed = (from: string, to: string, cause: string) =>
  new DomainError(
    'VERIFICATION_TRANSITION_NOT_ALLOWED',
    'conflict',
    `A verification that is ${from} cannot become ${to} by ${cause}. Nothing was changed.`,
  );

/** No verification provider is configured (VERIFICATION_PROVIDER=none, production's default). */
export const verificationProviderNotConfigured = () =>
  new DomainError(
    'VERIFICATION_PROVIDER_NOT_CONFIGURED',
    'unavailable',
    'No verification provider is configured on this service (VERIFICATION_PROVIDER). Nothing was changed.',
  );

/**
 * A gated environment (VERIFICATION_REQUIRED) refuses an account for, and a posting on an account of, a customer
 * that is not VERIFIED; the details name each such customer by id (never anything else of it). Nothing was changed.
 */
export const verificationRequired = (customerIds: readonly string[]) =>
  new DomainError(
    'VERIFICATION_REQUIRED',
    'conflict',
    `This environment requires verified customers: ${customerIds.length} customer(s) involved are not VERIFIED. Nothing was changed.`,
    customerIds.map((customerId) => ({
      field: 'customerId',
      code: 'CUSTOMER_NOT_VERIFIED',
      message: `Customer ${customerId} is not VERIFIED.`,
    })),
  );

/** A verification callback whose Standard Webhooks signature, timestamp or headers do not verify; nothing applied. */
export const verificationCallbackSignatureInvalid = () =>
  new DomainError(
    'VERIFICATION_CALLBACK_SIGNATURE_INVALID',
    'forbidden',
    'The callback is not signed with the verification callback secret, or its timestamp is not within 5 minutes. Nothing was applied.',
  );

/** A verification callback naming no check of the `http` provider in this environment. */
export const verificationCheckNotFound = () =>
  new DomainError(
    'VERIFICATION_CHECK_NOT_FOUND',
    'not_found',
    'No check of this provider in this environment has this reference. Nothing was applied.',
  );

/** A verification callback for a check that already has its result. */
export const verificationCheckCompleted = () =>
  new DomainError(
    'VERIFICATION_CHECK_COMPLETED',
    'conflict',
    'This check already has its result (another callback, or the provider was unavailable). Nothing was applied.',
  );

/** No verification document with this id belongs to this customer in this environment. */
export const documentNotFound = () =>
  new DomainError(
    'DOCUMENT_NOT_FOUND',
    'not_found',
    'No document with this id belongs to this customer in this environment (an id that is not a UUID cannot name one).',
  );

/** A document whose first bytes are not those of the media type it was sent as; nothing was stored. */
export const documentTypeMismatch = (mediaType: string) =>
  new DomainError(
    'DOCUMENT_TYPE_MISMATCH',
    'unsupported_media_type',
    `The content does not start as ${mediaType} content does (its magic number): send the Content-Type of the file as it is. Nothing was stored.`,
  );

/** A document over the limit (10 MiB): refused before it is read whole, when its Content-Length says so; nothing stored. */
export const documentTooLarge = (limitBytes: number) =>
  new DomainError(
    'DOCUMENT_CONTENT_TOO_LARGE',
    'too_large',
    `A document is at most ${limitBytes} bytes. Nothing was stored.`,
  );

/** A document is reviewed once: APPROVED or REJECTED stays; upload a new one instead. */
export const documentAlreadyReviewed = (status: string) =>
  new DomainError(
    'DOCUMENT_ALREADY_REVIEWED',
    'conflict',
    `The document is ${status} already: a document is reviewed once (upload a new one). Nothing was changed.`,
  );

/** Separation of duties: the principal that uploaded a document does not review it. */
export const documentReviewByUploader = () =>
  new DomainError(
    'DOCUMENT_REVIEW_BY_UPLOADER',
    'forbidden',
    'The principal that uploaded this document cannot review it: another person reviews. Nothing was changed.',
  );

/** The instance reads a few uploads at once, each held until it is stored: one more is refused unread. */
export const documentUploadsBusy = (limit: number) =>
  new DomainError(
    'DOCUMENT_UPLOADS_BUSY',
    'unavailable',
    `This instance reads its maximum of ${limit} document uploads at once; retry shortly (another instance may have room). Nothing was stored.`,
  );

export const clockNotAdjustable = () =>
  new DomainError(
    'CLOCK_NOT_ADJUSTABLE',
    'conflict',
    "This environment's clock is the real time and cannot be moved (ADJUSTABLE_CLOCK_ENVIRONMENTS).",
  );
export const clockCannotGoBack = () =>
  new DomainError(
    'CLOCK_CANNOT_GO_BACK',
    'unprocessable',
    "An environment's time never moves back: to must be after its current time.",
    [{ field: 'to', code: 'NOT_AFTER_NOW', message: "Must be after the environment's current time." }],
  );
export const clockAdvanceTooFar = () =>
  new DomainError(
    'CLOCK_ADVANCE_TOO_FAR',
    'unprocessable',
    'One advance moves the clock at most three years; advance again for more.',
    [
      {
        field: 'to',
        code: 'OUT_OF_RANGE',
        message: "Must be at most three years after the environment's current time.",
      },
    ],
  );

/**
 * No account number of this account has this id; or, for a look-up, this environment's routing number and this
 * account number name no account number (the answer says nothing more: not whether either exists elsewhere).
 */
export const accountNumberNotFound = () =>
  new DomainError(
    'ACCOUNT_NUMBER_NOT_FOUND',
    'not_found',
    'No account number matches (an id that is not a UUID cannot name one).',
  );

/** CANCELED is final (docs/adr/0107): nothing about a canceled account number changes any more. */
export const accountNumberCanceled = () =>
  new DomainError(
    'ACCOUNT_NUMBER_CANCELED',
    'unprocessable',
    'The account number is CANCELED, which is final: its status and inbound ACH debits no longer change (add a new number instead). Nothing was changed.',
    [{ field: 'status', code: 'FINAL_STATUS', message: 'A CANCELED account number never changes.' }],
  );

/** No product has this code in this environment (a code not of a code's shape names none). */
export const productNotFound = () =>
  new DomainError('PRODUCT_NOT_FOUND', 'not_found', 'No product with this code exists in this environment.');

/** A product's code names it for ever (docs/adr/0112): a new version of a product is a new code. */
export const productCodeTaken = () =>
  new DomainError(
    'PRODUCT_CODE_TAKEN',
    'conflict',
    'A product with this code already exists in this environment; a product never changes: define one under a new code. Nothing was written.',
    [{ field: 'code', code: 'PRODUCT_CODE_TAKEN', message: 'Must be unique among the products of this environment.' }],
  );

/** A rate changes only forward, from a date with no rate yet, on a product with interest (docs/adr/0112). */
export const productRateNotAllowed = (detail: ErrorDetail) =>
  new DomainError(
    'PRODUCT_RATE_NOT_ALLOWED',
    'unprocessable',
    'This rate change is not allowed; see details. Nothing was written.',
    [detail],
  );

/** An account names a product (`productCode`) the environment does not have: nothing is created. */
export const referencedProductNotFound = () =>
  new DomainError(
    'PRODUCT_NOT_FOUND',
    'unprocessable_reference',
    'No product with this code exists in this environment; nothing was created.',
    [
      {
        field: 'productCode',
        code: 'PRODUCT_NOT_FOUND',
        message: 'Must be the code of a product of this environment.',
      },
    ],
  );

/** An account's type or currency is not its product's: each differing field is a detail. */
export const productMismatch = (details: ErrorDetail[]) =>
  new DomainError(
    'PRODUCT_MISMATCH',
    'unprocessable',
    "The account does not match its product's terms; see details. Nothing was created.",
    details,
  );

/**
 * A client's debit would leave the available balance of an account on a product below the product's minimum
 * balance (docs/adr/0114): a conflict, as INSUFFICIENT_FUNDS is; the details give the minimum and what is available.
 */
export const minimumBalance = (minimum: string, available: string) =>
  new DomainError(
    'MINIMUM_BALANCE',
    'conflict',
    "The debit would take the available balance below the product's minimum balance; see details. Nothing was posted.",
    [
      { code: 'MINIMUM_BALANCE', value: minimum, message: "The product's minimum balance." },
      { code: 'AVAILABLE', value: available, message: 'The available balance before this debit.' },
    ],
  );

/**
 * A client's debit of an account on a product would pass one of the product's withdrawal limits (docs/adr/0114): the
 * total of the business date, or the count of the business month. A conflict with the account's state: the same
 * debit passes on a later date (or month). The first detail's code names the limit (DAILY_WITHDRAWAL_TOTAL or
 * WITHDRAWALS_PER_MONTH) and its value; USED, what the account has used of it.
 */
export const withdrawalLimitExceeded = (
  kind: 'DAILY_WITHDRAWAL_TOTAL' | 'WITHDRAWALS_PER_MONTH',
  limit: string,
  used: string,
) =>
  new DomainError(
    'WITHDRAWAL_LIMIT_EXCEEDED',
    'conflict',
    "The debit would pass the product's withdrawal limit (the business date's total or the business month's count); see details. Nothing was posted.",
    [
      {
        code: kind,
        value: limit,
        message:
          kind === 'DAILY_WITHDRAWAL_TOTAL'
            ? "The product's most in client debits per business date."
            : "The product's most client debits per business month.",
      },
      {
        code: 'USED',
        value: used,
        message:
          kind === 'DAILY_WITHDRAWAL_TOTAL'
            ? 'Debited on this business date so far.'
            : 'Debits in this business month so far.',
      },
    ],
  );

/**
 * An account on a product is opened by a client's credit of at least the product's minimum opening deposit: its first
 * posting (docs/adr/0114) is a smaller credit, or a debit. Unprocessable: this amount never opens it.
 */
export const minimumOpeningDeposit = (minimum: string) =>
  new DomainError(
    'MINIMUM_OPENING_DEPOSIT',
    'unprocessable',
    "The account's first posting must be a credit of at least its product's minimum opening deposit; see details. Nothing was posted.",
    [
      {
        field: 'amount',
        code: 'MINIMUM_OPENING_DEPOSIT',
        value: minimum,
        message: "The product's minimum opening deposit.",
      },
    ],
  );

/** An account's interest read for an account on no product, or on a product that pays no interest (docs/adr/0113). */
export const interestNotApplicable = () =>
  new DomainError(
    'INTEREST_NOT_APPLICABLE',
    'unprocessable',
    'The account earns no interest: it is on no product, or on a product without interest.',
  );

/**
 * A 1099-INT asked for a recipient that gets none (docs/adr/0116): a corporation or a tax-exempt organisation (exempt
 * recipients, 26 CFR 1.6049-4(c)), or a business formed outside the US (no EIN: its interest is reported on Form 1042-S).
 */
export const taxFormNotApplicable = (reason: string) =>
  new DomainError('TAX_FORM_NOT_APPLICABLE', 'unprocessable', `No 1099-INT is issued to this customer: ${reason}.`);

/** A production service without its payer (TAX_FORM_PAYER_*): no form is printed with a made-up payer. */
export const taxFormPayerNotConfigured = () =>
  new DomainError(
    'TAX_FORM_PAYER_NOT_CONFIGURED',
    'unavailable',
    'Tax forms are not available: the payer (TAX_FORM_PAYER_NAME, _ADDRESS, _TIN, _PHONE) is not configured on this service.',
  );
