/**
 * An account's history as the domain answers it: balances at past moments, balance histories for charts,
 * statements of a period and the entries of the ledger export. Amounts are exact decimal text; instants
 * are ISO 8601 (UTC, milliseconds). A posted entry's `sequence` is its place in the ledger's posting order
 * (`posting_seq`): the order its balance was computed in, the same on every read.
 */

/** The three balances of an account at a moment. */
export interface BalanceAsOf {
  accountId: string;
  currency: string;
  asOf: string;
  posted: string;
  pending: string;
  available: string;
}

/** The closing posted balance of one interval, at its end. */
export interface BalancePoint {
  at: string;
  posted: string;
}

/** A posted entry on a statement. */
export interface StatementEntry {
  transactionId: string;
  type: 'CREDIT' | 'DEBIT';
  amount: string;
  description: string;
  postedAt: string;
  balanceAfter: string;
  sequence: string;
  transferId: string | null;
  reversesTransactionId: string | null;
}

/**
 * The posted entries of [from, to), with openingBalance + totalCredits − totalDebits = closingBalance.
 * `asOfSequence`: the posting sequence of the last entry the statement reflects (its closing balance's),
 * "0" when the account had none before `to`.
 */
export interface Statement {
  accountId: string;
  currency: string;
  from: string;
  to: string;
  asOfSequence: string;
  openingBalance: string;
  closingBalance: string;
  totalCredits: string;
  totalDebits: string;
  entries: StatementEntry[];
  /** Only for an account on a deposit product: what Reg DD §1030.7(c) has a periodic statement show. */
  interest?: StatementInterest;
}

/**
 * The period's interest of an account on a product (docs/statements.md): the interest credited in the period, the
 * average of its daily balances, and the annual percentage yield earned from them (Reg DD Appendix A, Part II).
 */
export interface StatementInterest {
  /** The period's interest credits (its entries that are interest postings), exact decimal text. */
  interestEarned: string;
  /**
   * The period's monthly maintenance fees (its entries that are a fee assessment's debit), less the reversals of fees
   * posted in the period, exact decimal text.
   */
  feesCharged: string;
  /** The average of the posted balance at the end of each day of the period, rounded to the currency's minor unit. */
  averageDailyBalance: string;
  /** The period's days (a part of a day counts as one). */
  daysInPeriod: number;
  /**
   * 100 × [(1 + interestEarned / averageDailyBalance)^(365 / daysInPeriod) − 1] to two decimals, as a fraction of 1 to
   * 4 decimals ("0.0658" is 6.58 %), as the account's interest answers its APY; null when the average balance is not
   * positive (the formula has no value).
   */
  annualPercentageYieldEarned: string | null;
}

/** A statement as a document for the account's holders: with their names (never another personal datum). */
export interface StatementDocument {
  statement: Statement;
  accountName: string;
  /** The holders' names, in the account's order; null when the caller may not read customers. */
  holderNames: string[] | null;
  /** The closing posted balance of each day of the period, for the chart (at most HISTORY_LIMITS.maxPoints). */
  balanceHistory: BalancePoint[];
}

/** Which side of the bank an exported entry is on. */
export type LedgerAccountKind = 'CUSTOMER' | 'SETTLEMENT' | 'INTEREST_EXPENSE' | 'FEE_INCOME';

/** One posted entry of the ledger export: the fields of a line, in the order each line writes them. */
export interface LedgerExportEntry {
  sequence: string;
  postedAt: string;
  currency: string;
  direction: 'CREDIT' | 'DEBIT';
  amount: string;
  accountId: string;
  accountKind: LedgerAccountKind;
  transactionId: string;
  postingId: string;
}

/** The ledger export's formats: one JSON object per line (NDJSON), or RFC 4180 CSV rows. */
export type LedgerExportFormat = 'csv' | 'ndjson';

/**
 * What a consumer of the export writes to (a response): a batch of entries as ready text, one line per entry
 * in the request's format (a CSV export's header row is the consumer's); answers false once the client has gone.
 */
export type ExportSink = (lines: string) => Promise<boolean>;
