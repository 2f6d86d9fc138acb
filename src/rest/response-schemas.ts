import { z } from 'zod';
import { AUDIT_OPERATIONS, AUDIT_RESOURCE_TYPES } from '../domain/audit/audit-event.js';
import { EVENT_TYPES } from '../domain/events/event.js';
import { ACCOUNT_FLAGS, ENTRY_TYPES, RECENT_TRANSACTIONS, TRANSACTION_STATUSES } from '../domain/ledger/transaction.js';

/**
 * The shapes of what REST sends, as zod schemas: the presenters' types are inferred from them and the
 * OpenAPI document is generated from them, so the published response schemas cannot drift from the
 * code. Strict objects: a documented response never carries a field the schema does not name.
 */

const recordId = z.uuid().describe('A UUID assigned by the service, lower case.');

export const phoneDataSchema = z
  .strictObject({
    type: z.string().describe('What kind of number, upper case with underscores, e.g. MOBILE.'),
    number: z.string().describe('The phone number.'),
  })
  .describe('A phone number of a customer.');

export const addressDataSchema = z
  .strictObject({
    type: z.string().describe('What kind of address, upper case with underscores, e.g. HOME.'),
    street: z.string(),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
  })
  .describe('A postal address of a customer.');

export const customerDataSchema = z
  .strictObject({
    customerId: recordId,
    accountIds: z.array(recordId).describe('Ids of the accounts associated with the customer.'),
    addresses: z.array(addressDataSchema),
    dateOfBirth: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('Legal date of birth, YYYY-MM-DD.'),
    emails: z.array(z.string()),
    firstName: z.string(),
    lastName: z.string(),
    middleName: z.string().describe('Empty when the customer has no middle name.'),
    phoneNumbers: z.array(phoneDataSchema),
    preferredName: z.string(),
  })
  .describe('A customer. The social security number and document locator number are never returned.');

export const createdCustomerDataSchema = z
  .strictObject({ customerId: recordId })
  .describe('The id of the new customer; clients must store it.');

const money = (description: string) => z.number().describe(`${description} A JSON number with at most the currency's minor-unit digits, exact in the ledger.`);

export const transactionDataSchema = z
  .strictObject({
    transactionId: recordId,
    accountId: recordId,
    type: z.enum(ENTRY_TYPES).describe('CREDIT adds to the balance, DEBIT takes from it.'),
    amount: money('What moved: once POSTED the posted amount, otherwise the amount authorised. Always positive.'),
    authorizedAmount: money('For a hold, the amount authorised (it may post for less); otherwise equal to amount.'),
    currency: z.string().regex(/^[A-Z]{3}$/).describe("The account's ISO 4217 currency."),
    description: z.string().describe('As sent; empty when none was sent.'),
    status: z.enum(TRANSACTION_STATUSES).describe('PENDING (a hold), POSTED (final) or VOIDED (a released hold).'),
    balanceAfter: z.number().nullable().describe("The account's posted balance just after this transaction posted; null while PENDING or VOIDED."),
    createdAt: z.iso.datetime().describe('ISO 8601 UTC.'),
    postedAt: z.iso.datetime().nullable().describe('When it posted; null while PENDING or VOIDED.'),
    voidedAt: z.iso.datetime().nullable().describe('When the hold was voided (by a client or by its expiry).'),
    expiresAt: z.iso.datetime().nullable().describe("A hold's expiry, after which it voids itself; null otherwise."),
    transferId: recordId.nullable().describe('Both transactions of a transfer carry its id; null otherwise.'),
    reversesTransactionId: recordId.nullable().describe('The transaction this one reverses; null otherwise.'),
  })
  .describe('One side of a balanced posting, on one account. Posted transactions never change; a mistake is reversed.');

export const customerPageDataSchema = z
  .strictObject({
    customers: z.array(customerDataSchema).describe('In id order (the order they were created in).'),
    nextAfter: recordId.nullable().describe('Pass as `after` for the next page; null on the last page.'),
  })
  .describe('A page of customers matching every given filter.');

export const transactionPageDataSchema = z
  .strictObject({
    transactions: z.array(transactionDataSchema).describe('Newest first.'),
    nextAfter: recordId.nullable().describe('Pass as `after` for the next (older) page; null on the last page.'),
  })
  .describe("A page of an account's transactions.");

export const transferDataSchema = z
  .strictObject({
    transferId: recordId,
    amount: money('The amount moved.'),
    currency: z.string().regex(/^[A-Z]{3}$/),
    description: z.string(),
    debit: transactionDataSchema.describe('The DEBIT on fromAccountId.'),
    credit: transactionDataSchema.describe('The CREDIT on toAccountId.'),
  })
  .describe('Money moved between two accounts of the environment: both transactions, posted together.');

export const accountDataSchema = z
  .strictObject({
    accountId: recordId,
    type: z.string().describe('Upper-case words joined by underscores, e.g. CHECKING. Never changes.'),
    name: z.string().describe('Colloquial name, for user interfaces.'),
    amount: z.number().describe('The posted balance: negative for a debt (within the overdraft limit). 0 on a new account.'),
    currency: z.string().regex(/^[A-Z]{3}$/).describe('ISO 4217 currency code.'),
    customers: z.array(recordId).min(1).describe('Ids of the associated customers, in the order they were linked.'),
    transactions: z
      .array(transactionDataSchema)
      .max(RECENT_TRANSACTIONS)
      .describe(`The ${RECENT_TRANSACTIONS} newest transactions, newest first; the whole history is GET /{environment}/account/{accountId}/transaction.`),
    flags: z.array(z.enum(ACCOUNT_FLAGS)).describe('Flags the ledger enforces: FROZEN (nothing posts), DEBITS_BLOCKED, CREDITS_BLOCKED. Empty on a new account.'),
  })
  .describe('A depository account, owned by one or more customers.');

const changedFieldNames = z.array(z.string()).describe('The names of the fields the write set (a creation) or changed (an update); never their values.');

export const eventDataSchema = z
  .strictObject({
    eventId: recordId,
    type: z.enum(EVENT_TYPES).describe('What happened.'),
    sequence: z.number().int().describe('Gapless and increasing per environment: the order to apply events in.'),
    occurredAt: z.iso.datetime().describe('When the write committed, ISO 8601 UTC.'),
    resourceType: z.enum(['customer', 'account', 'transaction']),
    resourceId: recordId,
    data: z
      .union([
        customerDataSchema,
        accountDataSchema,
        transactionDataSchema,
        z.strictObject({ customerId: recordId }).describe('customer.deleted'),
        z.strictObject({ accountId: recordId }).describe('account.deleted'),
        z.strictObject({ accountId: recordId, customerId: recordId }).describe('account.customer_added / account.customer_removed'),
        z
          .strictObject({ customerId: recordId, changedFields: changedFieldNames, requiredScope: z.literal('customers:read') })
          .describe('customer.created / customer.updated, for a reader without `customers:read`: the record is withheld.'),
        z
          .strictObject({ accountId: recordId, changedFields: changedFieldNames, requiredScope: z.literal('accounts:read') })
          .describe('account.created / account.updated, for a reader without `accounts:read`: the record is withheld.'),
        z
          .strictObject({ transactionId: recordId, accountId: recordId, requiredScope: z.literal('accounts:read') })
          .describe('transaction.*, for a reader without `accounts:read`: the record is withheld.'),
      ])
      .describe(
        'The resource right after the write, as its own endpoint presents it (never an SSN or document locator number); for a deletion, its id. A reader without the resource\'s read scope gets its ids, the names of the fields the write set or changed, and the scope it lacks.',
      ),
  })
  .describe('One committed change, from the outbox.');

export const eventPageDataSchema = z
  .strictObject({
    events: z.array(eventDataSchema).describe('In sequence order.'),
    nextAfter: z.number().int().describe('Pass as `after` for the next page; equal to `after` when nothing newer exists yet (poll again).'),
  })
  .describe('A page of events.');

const webhookSecret = z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/).describe('The signing secret, `whsec_` and base64: shown only in this answer, store it now. Verify deliveries with any Standard Webhooks library.');
const webhookEventTypes = z.array(z.enum(EVENT_TYPES)).describe('The event types delivered; empty: every type.');

export const webhookEndpointDataSchema = z
  .strictObject({
    endpointId: recordId,
    url: z.string().describe('Where the events are POSTed.'),
    eventTypes: webhookEventTypes,
    enabled: z.boolean().describe('False: nothing is delivered (events of the disabled period are not sent later; read them with GET /{environment}/event).'),
    disabledReason: z.string().nullable().describe('Why it is disabled: by a client, a 410 Gone answer, or failures for a whole retry window; null while enabled.'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    failingSince: z.iso.datetime().nullable().describe('Since when every attempt failed; null after a success.'),
    previousSecretExpiresAt: z.iso.datetime().nullable().describe('Until when deliveries also carry a signature with the secret before the last rotation; null when none.'),
  })
  .describe('A webhook endpoint. Its signing secret is never answered after its creation or rotation.');

export const createdWebhookEndpointDataSchema = z
  .strictObject({ endpointId: recordId, url: z.string(), eventTypes: webhookEventTypes, secret: webhookSecret, enabled: z.boolean() })
  .describe('The new endpoint and its signing secret, shown this once.');

export const rotatedWebhookSecretDataSchema = z
  .strictObject({
    endpointId: recordId,
    secret: webhookSecret,
    previousSecretExpiresAt: z.iso.datetime().nullable().describe('Until then deliveries carry signatures with both secrets (null when WEBHOOKS_SECRET_OVERLAP_S is 0).'),
  })
  .describe('The new signing secret, shown this once.');

export const webhookAttemptPageDataSchema = z
  .strictObject({
    attempts: z
      .array(
        z.strictObject({
          attemptId: recordId,
          eventId: recordId,
          attemptedAt: z.iso.datetime(),
          statusCode: z.number().int().nullable().describe("The receiver's HTTP status; null when no answer came (time-out, refused address, connection error)."),
          latencyMs: z.number().int(),
          succeeded: z.boolean().describe('A 2xx answer.'),
          error: z.string().max(200).nullable().describe("What went wrong, at most 200 characters: never more of the receiver's answer than a short excerpt."),
        }),
      )
      .describe('Newest first.'),
  })
  .describe("The endpoint's latest delivery attempts.");

export const redeliveryDataSchema = z
  .strictObject({ endpointId: recordId, eventId: recordId })
  .describe('The event is due for the endpoint now; the attempt follows within a moment.');

export const emptyDataSchema = z.strictObject({}).describe('Deletions answer an empty object.');

export const auditEventDataSchema = z
  .strictObject({
    eventId: recordId,
    occurredAt: z.iso.datetime({ offset: true }).describe('When the write committed, ISO 8601 UTC.'),
    principalId: z.string().describe('Who wrote: static:<keyed label>, token:<id>, jwt:<subject>, or an operator command (cli:token, cli:webhook, cli:pii-rotate). Never a secret, nor anything a secret can be checked against.'),
    operation: z.enum(AUDIT_OPERATIONS),
    resourceType: z.enum(AUDIT_RESOURCE_TYPES),
    resourceId: recordId,
    requestId: z.string().describe('The requestId of the write.'),
    idempotencyKey: z.string().nullable().describe('The Idempotency-Key the create was sent with, if any.'),
    changedFields: z.array(z.string()).describe('Names (never values) of the fields the write set; for a search, the filters it used.'),
    matchedCount: z.number().int().optional().describe('Only on `customer.search` (a search by social security number): how many customers it found.'),
  })
  .describe('One successful write.');

export const auditPageDataSchema = z
  .strictObject({
    events: z.array(auditEventDataSchema).describe('Oldest first.'),
    nextCursor: recordId.nullable().describe('Pass as `after` for the next page; null on the last page.'),
  })
  .describe('A page of the audit trail.');

export const errorDetailSchema = z
  .strictObject({
    field: z.string().optional().describe('The request field the problem is about (dotted path), when there is one.'),
    code: z.string().describe('REQUIRED, INVALID_TYPE, INVALID_FORMAT, INVALID_VALUE, TOO_LONG, TOO_SHORT, TOO_LARGE, TOO_SMALL, OUT_OF_RANGE, TOO_PRECISE (more decimals than the currency has), UNKNOWN_FIELD, WEBHOOK_URL_NOT_ALLOWED, FIELD_NOT_UPDATABLE, CUSTOMER_NOT_FOUND or ACCOUNT_NOT_FOUND.'),
    message: z.string().describe('How to fix it; never repeats a submitted value.'),
  })
  .describe('One problem of a failed request.');

export const errorBodySchema = z
  .strictObject({
    code: z.string().describe('Stable error code; each operation lists the codes it can answer, per status.'),
    message: z.string().describe('For developers; never repeats a submitted value.'),
    details: z.array(errorDetailSchema).optional(),
  })
  .describe('Why the request failed.');

export const accountPageDataSchema = z
  .strictObject({
    accounts: z.array(accountDataSchema).describe('In id order (the order they were opened in).'),
    nextAfter: recordId.nullable().describe('Pass as `after` for the next page; null on the last page.'),
  })
  .describe('A page of accounts matching every given filter.');

export type CustomerData = z.infer<typeof customerDataSchema>;
export type CustomerPageData = z.infer<typeof customerPageDataSchema>;
export type AccountPageData = z.infer<typeof accountPageDataSchema>;
export type AccountData = z.infer<typeof accountDataSchema>;
export type AuditPageData = z.infer<typeof auditPageDataSchema>;
export type TransactionData = z.infer<typeof transactionDataSchema>;
export type TransactionPageData = z.infer<typeof transactionPageDataSchema>;
export type TransferData = z.infer<typeof transferDataSchema>;
export type EventData = z.infer<typeof eventDataSchema>;
export type EventPageData = z.infer<typeof eventPageDataSchema>;
export type WebhookEndpointData = z.infer<typeof webhookEndpointDataSchema>;
export type WebhookAttemptPageData = z.infer<typeof webhookAttemptPageDataSchema>;
