import { z } from 'zod';
import type { Transfer } from './ledger.service.js';
import type { Page } from '../../domain/pagination.js';
import { ENTRY_TYPES, TRANSACTION_STATUSES, type Transaction } from './transaction.js';
import { EXTERNAL_ID_LENGTH, externalIdSchema } from '../../domain/metadata.js';
import { recordId } from '../../presenters/record-id.js';

/**
 * What leaves the service for transactions and transfers: the response schemas (the OpenAPI document is generated
 * from them; strict objects) and the presenters mapping domain values onto them field by field, so a field added to
 * the domain never reaches a client by accident. Shared by REST (inside its envelope), webhook delivery and the CLI.
 */

/** Present only when set at creation: a record without them has exactly the contract's fields. */
const externalId = z
  .string()
  .max(EXTERNAL_ID_LENGTH)
  .optional()
  .describe(externalIdSchema.description ?? '');
const metadata = z
  .record(z.string(), z.string())
  .optional()
  .describe('Your own key-value pairs, as given at creation. Answered only when set.');

const money = (description: string) =>
  z
    .number()
    .describe(`${description} A JSON number with at most the currency's minor-unit digits, exact in the ledger.`);

export const transactionDataSchema = z
  .strictObject({
    transactionId: recordId,
    accountId: recordId,
    type: z.enum(ENTRY_TYPES).describe('CREDIT adds to the balance, DEBIT takes from it.'),
    amount: money('What moved: once POSTED the posted amount, otherwise the amount authorised. Always positive.'),
    authorizedAmount: money('For a hold, the amount authorised (it may post for less); otherwise equal to amount.'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .describe("The account's ISO 4217 currency."),
    description: z.string().describe('As sent; empty when none was sent.'),
    status: z.enum(TRANSACTION_STATUSES).describe('PENDING (a hold), POSTED (final) or VOIDED (a released hold).'),
    balanceAfter: z
      .number()
      .nullable()
      .describe("The account's posted balance just after this transaction posted; null while PENDING or VOIDED."),
    createdAt: z.iso.datetime().describe('ISO 8601 UTC.'),
    postedAt: z.iso.datetime().nullable().describe('When it posted; null while PENDING or VOIDED.'),
    voidedAt: z.iso.datetime().nullable().describe('When the hold was voided (by a client or by its expiry).'),
    expiresAt: z.iso.datetime().nullable().describe("A hold's expiry, after which it voids itself; null otherwise."),
    transferId: recordId.nullable().describe('Both transactions of a transfer carry its id; null otherwise.'),
    reversesTransactionId: recordId.nullable().describe('The transaction this one reverses; null otherwise.'),
    externalId: externalId.describe(
      "The externalId given at creation (a transfer's, on both of its sides); absent when none was.",
    ),
    metadata: metadata.describe(
      "The metadata given at creation (a transfer's, on both of its sides); absent when none was.",
    ),
  })
  .describe('One side of a balanced posting, on one account. Posted transactions never change; a mistake is reversed.');

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
    externalId: externalId.describe('The externalId given at creation; absent when none was.'),
    metadata: metadata.describe('The metadata given at creation; absent when none was.'),
  })
  .describe('Money moved between two accounts of the environment: both transactions, posted together.');

export type TransactionData = z.infer<typeof transactionDataSchema>;
export type TransactionPageData = z.infer<typeof transactionPageDataSchema>;
export type TransferData = z.infer<typeof transferDataSchema>;

/** Amounts as JSON numbers, as the spec shows `amount`: exact, because they have at most the currency's minor-unit digits. */
export const presentTransaction = (transaction: Transaction): TransactionData => ({
  transactionId: transaction.transactionId,
  accountId: transaction.accountId,
  type: transaction.type,
  amount: Number(transaction.amount),
  authorizedAmount: Number(transaction.authorizedAmount),
  currency: transaction.currency,
  description: transaction.description,
  status: transaction.status,
  balanceAfter: transaction.balanceAfter === null ? null : Number(transaction.balanceAfter),
  createdAt: transaction.createdAt,
  postedAt: transaction.postedAt,
  voidedAt: transaction.voidedAt,
  expiresAt: transaction.expiresAt,
  transferId: transaction.transferId,
  reversesTransactionId: transaction.reversesTransactionId,
  ...(transaction.externalId !== undefined && { externalId: transaction.externalId }),
  ...(transaction.metadata !== undefined && { metadata: { ...transaction.metadata } }),
});

export const presentTransactionPage = (page: Page<Transaction>): TransactionPageData => ({
  transactions: page.items.map(presentTransaction),
  nextAfter: page.nextAfter,
});

export const presentTransfer = (transfer: Transfer): TransferData => ({
  transferId: transfer.transferId,
  amount: Number(transfer.amount),
  currency: transfer.currency,
  description: transfer.description,
  debit: presentTransaction(transfer.debit),
  credit: presentTransaction(transfer.credit),
  ...(transfer.externalId !== undefined && { externalId: transfer.externalId }),
  ...(transfer.metadata !== undefined && { metadata: { ...transfer.metadata } }),
});
