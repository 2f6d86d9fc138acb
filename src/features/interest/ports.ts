import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { InterestState } from './interest.js';

/** What the interest service needs from storage (src/features/interest/interest.store.ts implements it). */

/** One business date's interest work, as the end of day's steps hand it over (docs/adr/0113). */
export interface InterestDay {
  environment: string;
  /** YYYY-MM-DD. */
  businessDate: string;
  /** The end of the business date (the environment's time): an account's balance at it is the day's. */
  cutoff: Date;
  /** The day's and step's request id: every audit event of the step carries it, once per account. */
  requestId: string;
  /** Who the audit trail names (system:end-of-day). */
  principalId: string;
  limit: number;
  /** The last account the step's previous batch handled: this batch's accounts come after it in id order. */
  after: string | null;
}

/** A period's interest of one account, to be posted by `postPeriod`. */
export interface InterestPostingRequest {
  environment: string;
  accountId: string;
  /** The period's last date (YYYY-MM-DD), or the closing's business date. */
  periodEnd: string;
  /** Ids of the posting's two entries: the interest-expense account's debit, the account's credit (its transaction). */
  debitEntryId: string;
  creditEntryId: string;
  postingId: string;
  description: string;
  /** The credit's audit event (account.interest.post, resource the credit). */
  audit: NewAuditEvent;
}

export type InterestPostingOutcome =
  /** Posted: `posted` (0 when the period's interest rounds to nothing: nothing written to the ledger). */
  | { outcome: 'posted'; posted: string; transactionId: string | null }
  /** The ledger refused the credit (a frozen account, credits blocked): nothing posted, all of it carried. */
  | { outcome: 'deferred' }
  /** Already posted for this period end (a rerun, another instance). */
  | { outcome: 'already-posted' }
  /** The account is on no product with interest: nothing recorded. */
  | { outcome: 'no-interest' }
  | { outcome: 'not-found' };

export interface InterestStore {
  /**
   * One batch of the day's accruals: open accounts on a product with interest that have no accrual for the date get
   * one (the day's balance, rate, day count, amount), each with its audit event (the day's request id). Answers how
   * many accounts it found due (0: the step is done).
   */
  accrue(day: InterestDay): Promise<{ due: number; last: string | null }>;
  /** Open accounts on a product posting at `day.businessDate` (a period end) that have no posting for it, by id. */
  duePostings(day: InterestDay, monthlyOnly: boolean): Promise<string[]>;
  /**
   * Posts the account's accrued interest for the period ending `periodEnd` (the carried residue plus the accruals
   * through it), rounded half-even to the currency's minor unit, from the environment's interest-expense account
   * (the ledger's own posting statement, in this store's transaction), and records it once per (account, period end).
   */
  postPeriod(request: InterestPostingRequest): Promise<InterestPostingOutcome>;
  /**
   * The accounts' interest as of `businessDate`, by lower-case account id, in one statement; an account the
   * environment does not have is absent, one on no product with interest is 'no-interest'.
   */
  states(
    environment: string,
    accountIds: readonly string[],
    businessDate: string,
  ): Promise<Map<string, InterestState | 'no-interest'>>;
}
