import { z } from 'zod';
import { externalIdSchema, metadataSchema } from '../../domain/metadata.js';
import { limitParameter } from '../../domain/pagination.js';
import { instantSchema as instant, maxLength, text } from '../../domain/validation.js';
import { ENTRY_TYPES, TRANSACTION_STATUSES } from './transaction.js';

export const LEDGER_LIMITS = {
  descriptionLength: 140,
  /** A hold may be authorised for at most this long (a card authorisation lasts days, not months). */
  maxHoldSeconds: 30 * 24 * 60 * 60,
  idLength: 64,
} as const;

/**
 * A JSON number (REST, as the spec shows `amount`) or decimal text (GraphQL's Decimal). The currency's
 * minor-unit rule is checked once the account, and so its currency, is known (src/features/ledger/money.ts).
 */
export const amountSchema = z.union([z.number(), z.string().max(32, { abort: true })], {
  error: 'Must be a positive decimal number such as 25.5.',
});

const description = text(LEDGER_LIMITS.descriptionLength).optional();

/** An id in a body: any string up to the length of a plausible id (a malformed one names nothing: 404/422). */
const idSchema = z
  .string({ error: 'Must be a string.' })
  .min(1, 'Must not be empty.')
  .max(LEDGER_LIMITS.idLength, maxLength(LEDGER_LIMITS.idLength));

export const postTransactionSchema = z
  .strictObject({
    type: z.enum(ENTRY_TYPES, { error: `Must be one of ${ENTRY_TYPES.join(', ')}.` }),
    amount: amountSchema,
    description,
    /** true: authorise only (a hold), post or void it later. */
    hold: z.boolean({ error: 'Must be true or false.' }).optional(),
    /** A hold's expiry, after which it voids itself. */
    expiresAt: instant.optional(),
    /** Unique per environment among transactions (EXTERNAL_ID_TAKEN). */
    externalId: externalIdSchema.optional(),
    metadata: metadataSchema.optional(),
  })
  .refine((input) => input.expiresAt === undefined || input.hold === true, {
    message: 'Only a hold (hold: true) can expire.',
    path: ['expiresAt'],
  });

export const postHoldSchema = z.strictObject({
  /** Less than the hold to post part of it (the rest is released); absent: the whole hold. */
  amount: amountSchema.optional(),
});

export const reverseTransactionSchema = z.strictObject({ description });

export const transferSchema = z
  .strictObject({
    fromAccountId: idSchema,
    toAccountId: idSchema,
    amount: amountSchema,
    description,
    /** Unique per environment among transfers (EXTERNAL_ID_TAKEN); both transactions carry it. */
    externalId: externalIdSchema.optional(),
    metadata: metadataSchema.optional(),
  })
  .refine((input) => input.fromAccountId.toLowerCase() !== input.toAccountId.toLowerCase(), {
    message: 'Must be another account than fromAccountId.',
    path: ['toAccountId'],
  });

/**
 * The transaction list's filters (docs/adr/0056-transaction-filters-and-external-ids.md); every given filter
 * must hold, each served by an index (migration 20261204010000_transaction_filters):
 * - `status`, `type`: exact;
 * - `from` / `to`: the creation instant, from (inclusive) and to (exclusive);
 * - `minAmount` / `maxAmount`: the transaction's `amount` (inclusive both), decimal text in the account's
 *   currency, checked like a posting's amount once the account's currency is known;
 * - `externalId`: exact.
 * Values arrive as text: a query string's, or GraphQL's (Decimal is text too).
 */
const decimalText = z
  .string({ error: 'Must be a decimal number such as 25.5.' })
  .max(32, maxLength(32, 'Must be a decimal number such as 25.5.'));

const transactionFilterFields = {
  status: z.enum(TRANSACTION_STATUSES, { error: `Must be one of ${TRANSACTION_STATUSES.join(', ')}.` }).optional(),
  type: z.enum(ENTRY_TYPES, { error: `Must be one of ${ENTRY_TYPES.join(', ')}.` }).optional(),
  from: instant.optional(),
  to: instant.optional(),
  minAmount: decimalText.optional(),
  maxAmount: decimalText.optional(),
  externalId: externalIdSchema.optional(),
};

/** GraphQL `Account.transactions(filter: TransactionFilter)`. */
export const transactionFilterSchema = z.strictObject(transactionFilterFields);

/** The filters a caller gives `LedgerService.findTransactions`, as a client writes them (validated by the service). */
export type TransactionFilterInput = z.input<typeof transactionFilterSchema>;

/**
 * Query of the paged transaction list (REST): `limit` (1–100, default 20), `after` (a transactionId) and
 * the filters; any other parameter is refused (UNKNOWN_FIELD).
 */
export const transactionPageSchema = z.strictObject({
  ...transactionFilterFields,
  limit: limitParameter.optional(),
  after: idSchema.optional(),
});
