import { z } from 'zod';
import { text } from '../validation.js';
import { ENTRY_TYPES } from './transaction.js';

export const LEDGER_LIMITS = {
  descriptionLength: 140,
  /** A hold may be authorised for at most this long (a card authorisation lasts days, not months). */
  maxHoldSeconds: 30 * 24 * 60 * 60,
  idLength: 64,
} as const;

/**
 * A JSON number (REST, as the spec shows `amount`) or decimal text (GraphQL's Decimal). The currency's
 * minor-unit rule is checked once the account, and so its currency, is known (src/domain/ledger/money.ts).
 */
export const amountSchema = z.union([z.number(), z.string().max(32)], { error: 'Must be a positive decimal number such as 25.5.' });

const description = text(LEDGER_LIMITS.descriptionLength).optional();

/** An id in a body: any string up to the length of a plausible id (a malformed one names nothing: 404/422). */
const idSchema = z.string({ error: 'Must be a string.' }).min(1, 'Must not be empty.').max(LEDGER_LIMITS.idLength, `Must be at most ${LEDGER_LIMITS.idLength} characters.`);

export const postTransactionSchema = z
  .strictObject({
    type: z.enum(ENTRY_TYPES, { error: `Must be one of ${ENTRY_TYPES.join(', ')}.` }),
    amount: amountSchema,
    description,
    /** true: authorise only (a hold), post or void it later. */
    hold: z.boolean({ error: 'Must be true or false.' }).optional(),
    /** A hold's expiry, after which it voids itself. */
    expiresAt: z.iso.datetime({ offset: true, message: 'Must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T12:00:00Z.' }).optional(),
  })
  .refine((input) => input.expiresAt === undefined || input.hold === true, { message: 'Only a hold (hold: true) can expire.', path: ['expiresAt'] });

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
  })
  .refine((input) => input.fromAccountId.toLowerCase() !== input.toAccountId.toLowerCase(), {
    message: 'Must be another account than fromAccountId.',
    path: ['toAccountId'],
  });

/** Query of the paged transaction list: `limit` (1–100, default 20) and `after` (a transactionId). */
export const transactionPageSchema = z.strictObject({
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'Must be a whole number between 1 and 100.')
    .transform(Number)
    .refine((limit) => limit >= 1 && limit <= 100, 'Must be a whole number between 1 and 100.')
    .optional(),
  after: idSchema.optional(),
});

