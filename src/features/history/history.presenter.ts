import { z } from 'zod';
import type { BalanceAsOf, BalancePoint, Statement, StatementEntry, StatementInterest } from './statement.js';
import { recordId } from '../../presenters/record-id.js';

/**
 * What leaves the service for an account's history and the ledger export: the response schemas (the OpenAPI
 * document is generated from them) and the presenters, field by field. JSON answers amounts as JSON numbers
 * (as the rest of the API does, exact at the currency's minor-unit digits); CSV and NDJSON answer them as
 * exact decimal text.
 */

const money = (description: string) => z.number().describe(`${description} A JSON number, exact in the ledger.`);
const currency = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .describe("The account's ISO 4217 currency.");
const sequence = z
  .string()
  .regex(/^\d+$/)
  .describe("The entry's place in the ledger's posting order (decimal text: it may exceed 2^53).");

export const balanceAsOfDataSchema = z
  .strictObject({
    accountId: recordId,
    currency,
    asOf: z.iso.datetime().describe('The moment the balances are of (ISO 8601 UTC); now when `asOf` was not sent.'),
    posted: money(
      'The posted balance then: that of the last transaction posted at or before `asOf`; 0 before the first.',
    ),
    pending: money('Posted, plus the credits and minus the debits of the holds open then.'),
    available: money('Posted minus the debits of the holds open then.'),
  })
  .describe("An account's three balances at a moment.");

export const balanceHistoryDataSchema = z
  .strictObject({
    points: z
      .array(
        z.strictObject({
          at: z.iso.datetime().describe('The end of the interval (ISO 8601 UTC).'),
          posted: money('The posted balance at the end of the interval (its transactions posted before `at`).'),
        }),
      )
      .describe('One point per interval, oldest first.'),
  })
  .describe('The closing posted balance of each interval, for a chart.');

const statementEntrySchema = z.strictObject({
  transactionId: recordId,
  type: z.enum(['CREDIT', 'DEBIT']),
  amount: money('The posted amount, always positive.'),
  description: z.string(),
  postedAt: z.iso.datetime(),
  balanceAfter: money('The posted balance just after it.'),
  sequence,
  transferId: recordId.nullable(),
  reversesTransactionId: recordId.nullable(),
});

export const statementDataSchema = z
  .strictObject({
    accountId: recordId,
    currency,
    from: z.iso.datetime().describe('The start of the period (included).'),
    to: z.iso.datetime().describe('The end of the period (excluded).'),
    asOfSequence: sequence.describe(
      'The posting sequence of the last transaction the statement reflects ("0": none): the same on every request for a period that has ended.',
    ),
    openingBalance: money('The posted balance at `from`.'),
    closingBalance: money('The posted balance at `to`: openingBalance + totalCredits − totalDebits.'),
    totalCredits: money('The sum of the credits of the period.'),
    totalDebits: money('The sum of the debits of the period.'),
    entries: z.array(statementEntrySchema).describe('The posted transactions of the period, in posting order.'),
    interestEarned: money(
      'Only for an account on a product: the interest credited in the period (its entries that are interest postings).',
    ).optional(),
    feesCharged: money(
      'Only for an account on a product: the monthly maintenance fees debited in the period, less the reversals of fees posted in it.',
    ).optional(),
    averageDailyBalance: money(
      'Only for an account on a product: the average of the posted balance at the end of each day of the period.',
    ).optional(),
    daysInPeriod: z
      .number()
      .int()
      .optional()
      .describe('Only for an account on a product: the days of the period (a part of a day counts as one).'),
    annualPercentageYieldEarned: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Only for an account on a product: Reg DD\'s annual percentage yield earned (12 CFR 1030.7(c), Appendix A Part II), 100 × [(1 + interestEarned / averageDailyBalance)^(365 / daysInPeriod) − 1] to two decimals, as a fraction of 1 to 4 decimals ("0.0658" is 6.58 %); null when the average balance is not positive.',
      ),
  })
  .describe(
    'The posted transactions of a period with the balances around them. Also as text/csv and application/pdf (Accept).',
  );

export const ledgerExportEntrySchema = z
  .strictObject({
    sequence,
    postedAt: z.iso.datetime(),
    currency: z.string().regex(/^[A-Z]{3}$/),
    direction: z.enum(['CREDIT', 'DEBIT']),
    amount: z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .describe('Exact decimal text.'),
    accountId: recordId.describe("A customer account, or the environment's settlement account of the currency."),
    accountKind: z
      .enum(['CUSTOMER', 'SETTLEMENT', 'INTEREST_EXPENSE', 'FEE_INCOME'])
      .describe(
        "A customer account's entry, or the bank's side: the settlement account, or the interest-expense or fee-income account of interest postings and fees.",
      ),
    transactionId: recordId.describe('The entry.'),
    postingId: recordId.describe('The posting: its entries balance (debits equal credits).'),
  })
  .describe('One posted entry of the ledger: one line of the NDJSON export.');

export type BalanceAsOfData = z.infer<typeof balanceAsOfDataSchema>;
export type StatementData = z.infer<typeof statementDataSchema>;

export const presentBalanceAsOf = (balance: BalanceAsOf): BalanceAsOfData => ({
  accountId: balance.accountId,
  currency: balance.currency,
  asOf: balance.asOf,
  posted: Number(balance.posted),
  pending: Number(balance.pending),
  available: Number(balance.available),
});

export const presentBalanceHistory = (history: { points: BalancePoint[] }) => ({
  points: history.points.map((point) => ({ at: point.at, posted: Number(point.posted) })),
});

const presentStatementEntry = (entry: StatementEntry) => ({
  transactionId: entry.transactionId,
  type: entry.type,
  amount: Number(entry.amount),
  description: entry.description,
  postedAt: entry.postedAt,
  balanceAfter: Number(entry.balanceAfter),
  sequence: entry.sequence,
  transferId: entry.transferId,
  reversesTransactionId: entry.reversesTransactionId,
});

export const presentStatement = (statement: Statement): StatementData => ({
  accountId: statement.accountId,
  currency: statement.currency,
  from: statement.from,
  to: statement.to,
  asOfSequence: statement.asOfSequence,
  openingBalance: Number(statement.openingBalance),
  closingBalance: Number(statement.closingBalance),
  totalCredits: Number(statement.totalCredits),
  totalDebits: Number(statement.totalDebits),
  entries: statement.entries.map(presentStatementEntry),
  // Only for an account on a product: the contract's statement is unchanged for every other account.
  ...(statement.interest && {
    interestEarned: Number(statement.interest.interestEarned),
    feesCharged: Number(statement.interest.feesCharged),
    averageDailyBalance: Number(statement.interest.averageDailyBalance),
    daysInPeriod: statement.interest.daysInPeriod,
    annualPercentageYieldEarned: statement.interest.annualPercentageYieldEarned,
  }),
});

/** RFC 4180: a field is quoted when it holds a comma, a quote or a line break; quotes inside are doubled. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Text a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) is prefixed with ' (OWASP, CSV injection). */
const inert = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

const csvRow = (fields: readonly string[]): string => `${fields.map(csvField).join(',')}\r\n`;

export const STATEMENT_CSV_COLUMNS = [
  'kind',
  'postedAt',
  'transactionId',
  'description',
  'amount',
  'balance',
  'currency',
  'sequence',
] as const;

/** Rows of a statement's CSV per chunk written to the response (about 20 KB). */
const STATEMENT_CSV_ROWS_PER_CHUNK = 128;

/**
 * A statement as RFC 4180 CSV (CRLF, a header row): an OPENING_BALANCE row at `from`, one CREDIT or DEBIT row
 * per entry, a CLOSING_BALANCE row at `to` (its sequence: asOfSequence). Amounts are exact decimal text.
 * In chunks of rows, so a response writes it as it goes instead of building the whole text first; the
 * chunks joined are the document.
 */
export function* statementCsvChunks(statement: Statement): Generator<string> {
  let chunk =
    csvRow(STATEMENT_CSV_COLUMNS) +
    csvRow(['OPENING_BALANCE', statement.from, '', '', '', statement.openingBalance, statement.currency, '']);
  let rows = 2;
  for (const entry of statement.entries) {
    chunk += csvRow([
      entry.type,
      entry.postedAt,
      entry.transactionId,
      inert(entry.description),
      entry.amount,
      entry.balanceAfter,
      statement.currency,
      entry.sequence,
    ]);
    if (++rows === STATEMENT_CSV_ROWS_PER_CHUNK) {
      yield chunk;
      chunk = '';
      rows = 0;
    }
  }
  yield (
    chunk +
    csvRow([
      'CLOSING_BALANCE',
      statement.to,
      '',
      '',
      '',
      statement.closingBalance,
      statement.currency,
      statement.asOfSequence,
    ]) +
    (statement.interest ? interestCsvRows(statement, statement.interest) : '')
  );
}

/**
 * An account on a product: after CLOSING_BALANCE, INTEREST_EARNED (amount: the period's interest credits), FEES_CHARGED
 * (amount: its maintenance fees less their reversals),
 * AVERAGE_DAILY_BALANCE (balance) and ANNUAL_PERCENTAGE_YIELD_EARNED (amount: a fraction of 1, empty when it has no
 * value), each at `to`.
 */
const interestCsvRows = (statement: Statement, interest: StatementInterest): string =>
  csvRow(['INTEREST_EARNED', statement.to, '', '', interest.interestEarned, '', statement.currency, '']) +
  csvRow(['FEES_CHARGED', statement.to, '', '', interest.feesCharged, '', statement.currency, '']) +
  csvRow(['AVERAGE_DAILY_BALANCE', statement.to, '', '', '', interest.averageDailyBalance, statement.currency, '']) +
  csvRow([
    'ANNUAL_PERCENTAGE_YIELD_EARNED',
    statement.to,
    '',
    '',
    interest.annualPercentageYieldEarned ?? '',
    '',
    '',
    '',
  ]);

/** The statement's CSV as one text (statementCsvChunks joined). */
export const statementCsv = (statement: Statement): string => [...statementCsvChunks(statement)].join('');

export const LEDGER_EXPORT_COLUMNS = [
  'sequence',
  'postedAt',
  'currency',
  'direction',
  'amount',
  'accountId',
  'accountKind',
  'transactionId',
  'postingId',
] as const;

/**
 * The ledger export's CSV header row. Its lines, NDJSON or CSV, are written by PostgreSQL, a batch at a time,
 * in these columns' order (src/features/history/history.store.ts; docs/adr/0069-ledger-export-memory-and-concurrency.md).
 */
export const ledgerExportCsvHeader = (): string => csvRow(LEDGER_EXPORT_COLUMNS);
