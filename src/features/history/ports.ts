import type { BalanceAsOf, BalancePoint, ExportSink, LedgerExportFormat, Statement } from './statement.js';

/** What the history service needs from storage (src/features/history/history.store.ts implements it). */

export interface StatementRequest {
  environment: string;
  accountId: string;
  from: Date;
  to: Date;
  /** More posted entries than this in the period: the statement is too large. */
  maxEntries: number;
}

export interface LedgerExportRequest {
  environment: string;
  from: Date | null;
  to: Date;
  accountId: string | null;
  /** The text the store hands the sink: each entry a line of this format. */
  format: LedgerExportFormat;
  batchSize: number;
}

/**
 * The ledger's history. Every look-up of a balance at a moment is one probe of the index of the account's
 * posted entries in posting order (ledger_entries_account_posted_idx), never a sum.
 */
export interface HistoryStore {
  /** null: no account with this id in the environment. */
  balanceAsOf(environment: string, accountId: string, asOf: Date): Promise<BalanceAsOf | null>;
  /** The posted balance just before each instant of `at`, in one statement. */
  balancesBefore(environment: string, accountId: string, at: readonly Date[]): Promise<BalancePoint[]>;
  /**
   * null: no such account; 'too-large': the period holds more than maxEntries posted entries (and none of them
   * was read into memory: a refusal costs no more than a look at the count).
   */
  statement(request: StatementRequest): Promise<Statement | 'too-large' | null>;
  /**
   * Every posted entry of the request in posting order, handed to `sink` a batch at a time (as the batch's
   * lines in the request's format) from one snapshot of the database; stops when the sink answers false.
   * Answers the number of entries handed over.
   */
  exportEntries(request: LedgerExportRequest, sink: ExportSink): Promise<number>;
}
