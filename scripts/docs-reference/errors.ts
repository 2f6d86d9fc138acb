/**
 * When each error code is answered, in words: the one place these texts live. scripts/docs-reference.ts
 * renders docs/reference/errors.md from them and from the code (the codes of src/domain/errors.ts,
 * src/auth/errors.ts, src/http/errors.ts and src/graphql/error-mapping.ts, each code's kind and so its HTTP
 * status, and the files that raise it), and fails when a code has no text here or a text names no code.
 */
export const ERROR_TEXTS: Record<string, string> = {
  // Domain rules (src/domain/errors.ts).
  VALIDATION_FAILED:
    'A field is missing, of the wrong type, malformed, too long, or unknown; a `POST`/`PUT` body that is absent or not a JSON object; an update with no field. One detail per problem, never the submitted value.',
  FIELD_NOT_UPDATABLE: 'An update names a field that cannot change (details name each one); nothing changes.',
  CUSTOMER_NOT_FOUND:
    "404: the path's customer does not exist in this environment (or is not a customer of this account). 422: an account names customers that do not exist in this environment (one detail per missing id); nothing is created.",
  ACCOUNT_NOT_FOUND:
    "404: the path's account does not exist in this environment. 422: a transfer names an account that does not exist (the detail names `fromAccountId` or `toAccountId`); nothing moves.",
  CUSTOMER_ALREADY_EXISTS:
    'The SSN already belongs to a customer in this environment (`123-45-6789` and `123456789` are the same SSN); the number is never echoed.',
  CUSTOMER_HAS_ACCOUNTS: 'Deleting a customer that still has accounts.',
  TAX_ID_ALREADY_EXISTS:
    'The tax id already belongs to a business customer in this environment (`12-3456789` and `123456789` are the same EIN); the tax id is never echoed. Audited and charged to the SSN search budget as CUSTOMER_ALREADY_EXISTS is.',
  FIELD_NOT_FOR_CUSTOMER_TYPE:
    "A creation or update names a field of the other kind of customer (a business's on a person, a person's on a business; details name each one); nothing changes.",
  NOT_A_BUSINESS:
    'A beneficial-owner operation names an INDIVIDUAL customer in its path: only a BUSINESS has beneficial owners; nothing changes.',
  OWNER_NOT_AN_INDIVIDUAL: 'The beneficial owner named is a BUSINESS customer: an owner is a person; nothing changes.',
  OWNER_IS_THE_BUSINESS: 'The beneficial owner named is the business itself; nothing changes.',
  OWNERSHIP_OVER_100:
    "The business's owners' percentages would sum to more than 100 (exact decimals; the message tells the share already recorded); nothing changes.",
  BENEFICIAL_OWNER_EXISTS:
    'The customer is already a beneficial owner of the business (also the answer to a repeated addition); nothing changes.',
  BENEFICIAL_OWNER_NOT_FOUND: 'The customer is not a beneficial owner of the business; nothing changes.',
  BENEFICIAL_OWNER_LIMIT:
    'The business has 50 beneficial owners, the most it may have; remove one first. Nothing changes.',
  CUSTOMER_IS_A_BENEFICIAL_OWNER:
    'A customer without accounts is still a beneficial owner of a business: remove it from the business first (deleting a business removes its own owners). Nothing changes.',
  VERIFICATION_TRANSITION_NOT_ALLOWED:
    "A verification check or decision would move the customer's verification status a way its table does not allow (a check while one runs, a decision while a check runs or before anything was asked, a decision to the status it has; docs/verification.md); nothing changes.",
  VERIFICATION_PROVIDER_NOT_CONFIGURED:
    'No verification provider answers checks on this service (`VERIFICATION_PROVIDER=none`, the default in production; set `http` for a vendor); nothing changes.',
  VERIFICATION_REQUIRED:
    'The environment is gated (`VERIFICATION_REQUIRED`) and a customer involved is not VERIFIED: an account for it, its addition to an account, or money posted on an account of it (a closing disbursement included); the details name each such customer. Nothing changes.',
  VERIFICATION_CALLBACK_SIGNATURE_INVALID:
    "A verification vendor's callback whose Standard Webhooks signature or timestamp does not verify (401); nothing is applied.",
  VERIFICATION_CHECK_NOT_FOUND:
    "A verification vendor's callback naming no `http` check of the environment (404); nothing is applied.",
  VERIFICATION_CHECK_COMPLETED:
    "A verification vendor's callback for a check that already has its result (409); nothing is applied.",
  ACCOUNT_NUMBER_NOT_FOUND:
    "No account number of the account has this id; for a look-up, the routing number is not the environment's or the account number is none of its numbers (one answer for both).",
  ACCOUNT_NUMBER_CANCELED:
    'The account number is CANCELED, which is final: its status and inbound ACH debits no longer change; nothing is changed.',
  PRODUCT_NOT_FOUND:
    "404: no product has the path's code. 422: an account's `productCode` names none; nothing is created.",
  PRODUCT_CODE_TAKEN: 'A product has this code in the environment (products never change: use a new code).',
  PRODUCT_RATE_NOT_ALLOWED:
    "A rate change not after today's business date, for a date with a rate, or of a product without interest.",
  PRODUCT_MISMATCH: "An account's `type` or `currency` is not its product's (a detail each); nothing is created.",
  MINIMUM_BALANCE:
    "A client's debit (or debit hold) would take the available balance of an account on a product below the product's `minimumBalance` (details `MINIMUM_BALANCE` and `AVAILABLE` with their `value`); nothing is posted.",
  WITHDRAWAL_LIMIT_EXCEEDED:
    "A client's debit (or debit hold) of an account on a product would pass its product's `limits`: the business date's total of its debits (detail `DAILY_WITHDRAWAL_TOTAL`) or their count in the business month (`WITHDRAWALS_PER_MONTH`), with the limit's `value` and `USED`; nothing is posted.",
  MINIMUM_OPENING_DEPOSIT:
    "The first posting of an account on a product, by a client, is a credit below the product's `minimumOpeningDeposit` or a debit (detail `MINIMUM_OPENING_DEPOSIT` with its `value`); nothing is posted.",
  INTEREST_NOT_APPLICABLE:
    "An account's interest asked of an account on no product, or on a product without interest (GraphQL's `Account.interest` is null instead).",
  TAX_FORM_NOT_APPLICABLE:
    'A 1099-INT asked for a business that gets none: a corporation or a tax-exempt organisation (exempt recipients), or one formed outside the US (no EIN) ([tax forms](../tax-forms.md)).',
  TAX_FORM_PAYER_NOT_CONFIGURED:
    'A 1099-INT asked of a production service without `TAX_FORM_PAYER_*`: no form is printed with a made-up payer.',
  DOCUMENT_NOT_FOUND:
    'No verification document with this id belongs to the customer in this environment (an id that is not a UUID names none).',
  DOCUMENT_TYPE_MISMATCH:
    "A verification document's first bytes are not its Content-Type's magic number (a PNG sent as `application/pdf`); nothing is stored.",
  DOCUMENT_CONTENT_TOO_LARGE:
    'A verification document over 10 MiB: refused before reading when its Content-Length says so, else as soon as reading passes the limit; nothing is stored.',
  DOCUMENT_ALREADY_REVIEWED:
    'A verification document is reviewed once: it is APPROVED or REJECTED already. Nothing changes.',
  DOCUMENT_REVIEW_BY_UPLOADER:
    'The principal that uploaded a verification document may not review it (separation of duties); nothing changes.',
  DOCUMENT_UPLOADS_BUSY:
    'The instance already reads its maximum of document uploads at once (each is held until stored); `Retry-After: 1`. Nothing is read or stored.',
  CLOCK_NOT_ADJUSTABLE:
    'The environment is not in `ADJUSTABLE_CLOCK_ENVIRONMENTS`: its time is the real time and cannot be moved. Nothing changes.',
  CLOCK_CANNOT_GO_BACK:
    "An advance's `to` is not after the environment's current time (or another advance moved it further meanwhile): time never moves back. Nothing changes.",
  CLOCK_ADVANCE_TOO_FAR: 'An advance moves the clock at most three years; advance again for more. Nothing changes.',
  ACCOUNT_CLOSED:
    'A posting, hold, transfer or reversal touching a closed account (either side), or closing an account already closed; nothing is written. A closed account keeps its history and can be reopened within `ACCOUNT_REOPEN_WINDOW_DAYS`.',
  ACCOUNT_HAS_PENDING_HOLDS: 'Closing an account with a pending hold: post or void it first; nothing changes.',
  ACCOUNT_NOT_CLOSED: 'Reopening an account that is open; nothing changes.',
  ACCOUNT_REOPEN_WINDOW_PASSED:
    "Reopening an account closed more than `ACCOUNT_REOPEN_WINDOW_DAYS` days ago (by the environment's clock); nothing changes.",
  CUSTOMER_ARCHIVED:
    'Opening an account for (or linking to one) an archived customer, archiving it again, or reopening an account one of whose customers is archived; nothing changes.',
  CUSTOMER_HAS_OPEN_ACCOUNTS: 'Archiving a customer linked to an account that is not closed; nothing changes.',
  ACCOUNT_DORMANT:
    "A client's debit of a DORMANT account ([dormancy](../dormancy-and-escheatment.md)); nothing is written. Reactivate it (`POST …/reactivate`) or have the customer deposit first.",
  ACCOUNT_NOT_DORMANT: 'Reactivating an account that is neither INACTIVE nor DORMANT, or is closed; nothing changes.',
  PRECONDITION_FAILED:
    'REST `If-Match` or GraphQL `expectedVersion` names a version the customer or account no longer has (it changed since it was read; an account changes with every posting too), or a tag of another record; nothing changes. Read it again and retry with its current `ETag` / `version`.',
  EXTERNAL_ID_TAKEN:
    'Another record of the same kind (customer, account, transaction or transfer) in this environment already has this `externalId`, on create or update; nothing changes or moves, and the id is never echoed.',
  SERVICE_UNAVAILABLE:
    "The database cannot be reached (answered within `DATABASE_CONNECT_TIMEOUT_MS`, `Retry-After: 1`), or the identity provider's keys cannot be fetched; the service recovers by itself.",
  FORBIDDEN:
    'The token may not act in this environment, or lacks the scope of the operation (`WWW-Authenticate: … error="insufficient_scope"`, GraphQL `extensions.challenge`); in GraphQL also a field of a customer or an account beyond its identity, answered to a token without the record\'s read scope (a mutation\'s answer included).',
  IDEMPOTENCY_KEY_REUSED: 'The `Idempotency-Key` was used for a different request; nothing is created.',
  IDEMPOTENCY_KEY_IN_PROGRESS:
    'A request with the same `Idempotency-Key` is still running; retry shortly to get its result.',
  TRANSACTION_NOT_FOUND: 'No transaction with this id exists on this account.',
  TRANSFER_NOT_FOUND: 'No transfer with this id exists in this environment.',
  INSUFFICIENT_FUNDS:
    "A debit, hold or transfer would take the available balance below minus the account's overdraft limit; nothing is posted.",
  CURRENCY_MISMATCH: 'A transfer between accounts of different currencies; nothing is posted.',
  ACCOUNT_FROZEN: 'The account carries the `FROZEN` flag: nothing posts on it (a hold can still be voided).',
  DEBITS_BLOCKED: 'The account carries `DEBITS_BLOCKED`: a debit, hold or outgoing transfer is refused.',
  CREDITS_BLOCKED: 'The account carries `CREDITS_BLOCKED`: a credit or incoming transfer is refused.',
  TRANSACTION_NOT_PENDING: 'Posting or voiding something that is not a pending hold.',
  TRANSACTION_NOT_POSTED: 'Reversing a transaction that is not posted (a hold: post or void it instead).',
  TRANSACTION_ALREADY_REVERSED: 'Reversing a transaction reversed before; a transaction is reversed at most once.',
  REVERSAL_NOT_REVERSIBLE: 'Reversing a reversal.',
  HOLD_EXPIRED: 'Posting a hold past its `expiresAt`; it is voided automatically.',
  AMOUNT_EXCEEDS_HOLD: 'Posting a hold for more than its amount.',
  TOKEN_LIMIT_EXCEEDED:
    "The amount is over the token's limit per posting, or over its daily total in the currency (UTC day); nothing is posted.",
  ACCOUNT_BALANCE_NOT_ZERO: 'Deleting an account that holds money or a pending hold.',
  ACCOUNT_HAS_TRANSACTIONS: 'Changing the currency of an account that has transactions.',
  ACCOUNT_NEEDS_A_CUSTOMER: "Removing an account's last customer.",
  ACCOUNT_CUSTOMER_LIMIT: 'Adding a customer to an account that already has the most it may have (20).',
  CUSTOMER_ACCOUNT_LIMIT:
    'Creating an account for, or adding to an account, a customer that already holds 100 accounts (the most a customer may hold); nothing changes.',
  LAST_OWNER:
    "Removing an account's last OWNER, or giving it another role, while other customers remain (docs/adr/0091); nothing changes.",
  ROLE_REQUIRES_INDIVIDUAL:
    'Making a BUSINESS customer an AUTHORIZED_SIGNER or AUTHORIZED_USER of an account (at creation, on a link or by a role change); nothing changes.',
  CUSTOMER_ALREADY_LINKED:
    'Linking a customer that is already on the account with another role; change its role with PUT …/customer/{customerId} instead.',
  EVENT_NOT_FOUND: 'No event with this id in this environment (or it has been pruned).',
  STATEMENT_TOO_LARGE:
    'The period of a statement holds more posted transactions than one statement shows (10,000 on REST, 1,000 on GraphQL); ask for a shorter period or use the ledger export.',
  WEBHOOK_ENDPOINT_NOT_FOUND: 'No webhook endpoint with this id in this environment.',
  WEBHOOK_URL_NOT_ALLOWED:
    'The webhook URL is refused: not https in production, a port not in `WEBHOOKS_ALLOWED_PORTS`, or a name that resolves to a private, loopback or link-local address (details say which).',
  WEBHOOK_ENDPOINT_DISABLED: 'Redelivering to, or testing, an endpoint that is disabled; enable it first.',
  WEBHOOK_ENDPOINT_LIMIT: 'The environment already has `WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT` endpoints.',
  SUBSCRIPTIONS_FULL:
    'GraphQL subscriptions only: the instance already follows `GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS` event streams; retry later or on another instance.',
  LEDGER_EXPORTS_FULL:
    'The instance already runs `LEDGER_EXPORT_MAX_CONCURRENT` ledger exports (each holds a snapshot and a database connection for its whole run); retry when one has finished, or on another instance.',
  STATEMENT_RENDERING_BUSY:
    'A statement as PDF while the instance already renders or queues `STATEMENT_PDF_MAX_PENDING` of them; retry shortly or on another instance, or ask for JSON or CSV. A kept PDF of an ended period is answered whatever the queue.',
  // The request layer (src/auth/errors.ts, src/http/rate-limit.ts).
  UNAUTHENTICATED:
    'No, malformed, unknown, expired or revoked bearer token; `WWW-Authenticate: Bearer realm="customer-account-service"`, plus `error="invalid_request"` for a malformed header and `error="invalid_token"` for a refused token (RFC 6750 §3).',
  ENVIRONMENT_NOT_FOUND:
    'The first path segment is not a configured environment (the message never lists them); checked after the token.',
  RATE_LIMITED:
    "The token's request budget (shared by REST and GraphQL) is spent, or the address sent too many refused tokens; `Retry-After` in seconds.",
  SSN_SEARCH_RATE_LIMITED:
    "The token's searches by social security number (`POST .../customer/search`, GraphQL `searchCustomers`) this minute are spent (`SSN_SEARCH_RATE_LIMIT_PER_MINUTE`); nothing is searched or audited; `Retry-After` in seconds. Its other requests still pass.",
  ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED:
    "The token's account number look-ups (`POST .../account-numbers/lookup`, GraphQL `lookupAccountNumber`) this minute are spent (`ACCOUNT_NUMBER_LOOKUP_RATE_LIMIT_PER_MINUTE`); nothing is looked up or audited; `Retry-After` in seconds.",
  // HTTP itself (src/http/errors.ts, src/rest/router.ts).
  MALFORMED_REQUEST:
    'The body is not valid JSON (also: a body shorter than its `Content-Length`, an undecodable path).',
  ROUTE_NOT_FOUND: 'No such path.',
  METHOD_NOT_ALLOWED:
    'Known path, wrong method; `Allow: POST` on collections, `Allow: GET, HEAD, PUT, DELETE` on records.',
  PAYLOAD_TOO_LARGE: 'Body over `BODY_LIMIT` (default 64 KiB).',
  UNSUPPORTED_MEDIA_TYPE:
    'A body that is not `application/json` (or not UTF-8, or in an unknown `Content-Encoding`); read only after the token is accepted.',
  TOO_MANY_CONNECTIONS:
    'The client address has more connections open than `HTTP_MAX_CONNECTIONS_PER_ADDRESS`; `Retry-After: 1`, and the connection is closed after the answer. Reuse a kept-alive connection. Beyond twice the cap a connection is closed unanswered.',
  NOT_ACCEPTABLE:
    '`Accept` names none of the representations the operation has (a statement: JSON, CSV, PDF; the ledger export: NDJSON, CSV); the message lists them.',
  INTERNAL_ERROR: 'Anything unexpected: a fixed message, no stack, no SQL; the error is logged under the `requestId`.',
  // GraphQL only (src/graphql/error-mapping.ts).
  DOCUMENT_TOO_LARGE: 'The document has more than `GRAPHQL_MAX_TOKENS` lexical tokens; nothing was executed.',
  QUERY_TOO_DEEP: 'Selections nested deeper than `GRAPHQL_MAX_DEPTH`; nothing was executed.',
  TOO_MANY_ALIASES: 'More than `GRAPHQL_MAX_ALIASES` aliases; nothing was executed.',
  TOO_MANY_ROOT_FIELDS:
    'More than `GRAPHQL_MAX_ROOT_FIELDS` root fields (a mutation: more than one); nothing was executed.',
  QUERY_TOO_COMPLEX: 'The estimated cost (an upper bound) is over `GRAPHQL_MAX_COST`; nothing was executed.',
  TOO_MANY_NODES: 'The operation resolved more than `GRAPHQL_MAX_NODES` fields and list items; `data: null`.',
  OPERATION_TIMEOUT:
    'The operation ran longer than `GRAPHQL_MAX_EXECUTION_MS`; no further field resolved, `data: null`.',
  RESPONSE_TOO_LARGE: 'The serialised answer is over `GRAPHQL_MAX_RESPONSE_BYTES`; `data: null`.',
  SUBSCRIPTION_TOO_SLOW:
    'Subscriptions only: the client left too many values unread; the subscription is ended. Subscribe again and read what was missed with the `events` query (`after`).',
  SENSITIVE_FIELD_IN_URL:
    'A GraphQL URL (GET) whose document or variables name a secret-bearing input field (`socialSecurityNumber`, `documentLocatorNumber`); refused before the token is checked, nothing was executed. POST the operation with the values as variables.',
};

/**
 * The HTTP status of the GraphQL-only codes, which have no kind: limits checked before execution are 400,
 * limits crossed while executing answer 200 with `data: null`, subscriptions travel over WebSocket.
 */
export const GRAPHQL_STATUS: Record<string, string> = {
  DOCUMENT_TOO_LARGE: '400',
  QUERY_TOO_DEEP: '400',
  TOO_MANY_ALIASES: '400',
  TOO_MANY_ROOT_FIELDS: '400',
  QUERY_TOO_COMPLEX: '400',
  TOO_MANY_NODES: '200',
  OPERATION_TIMEOUT: '200',
  RESPONSE_TOO_LARGE: '200',
  SUBSCRIPTION_TOO_SLOW: '– (WebSocket)',
  SENSITIVE_FIELD_IN_URL: '400',
};
