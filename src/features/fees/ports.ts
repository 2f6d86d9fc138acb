import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { MaintenanceFeeAssessment } from './fees.js';

/** What the fee service needs from storage (src/features/fees/fees.store.ts implements it). */

/** A month end's fee work, as the end of day's step hands it over (docs/adr/0115). */
export interface FeeMonth {
  environment: string;
  /** The month's last business date (YYYY-MM-DD): the day being closed. */
  businessDate: string;
  /** The month's first date (YYYY-MM-DD). */
  monthStart: string;
  /** The instant the month begins in the environment's time zone: no earlier entry can count on one of its days. */
  monthStartsAt: Date;
  /** The environment's IANA time zone: an entry counts on the local date it posted. */
  timeZone: string;
  limit: number;
  /** The last account the previous batch handled (null: from the first): the month's batches read each account once. */
  after: string | null;
}

/** An account due for the month's fee, with the month's minimum daily balance and its product's terms. */
export interface DueAssessment {
  accountId: string;
  minimumDailyBalance: string;
  fee: string;
  waivedAt: string | null;
}

/** One account's assessment to make: waived, or the fee to charge (what fits of it). */
export interface AssessmentRequest {
  environment: string;
  accountId: string;
  monthStart: string;
  minimumDailyBalance: string;
  fee: string;
  waivedAt: string | null;
  waived: boolean;
  /** Ids of the posting's two entries: the account's debit (its transaction), the fee-income account's credit. */
  debitEntryId: string;
  creditEntryId: string;
  postingId: string;
  description: string;
  /** A charge's audit event (account.maintenance_fee.charge, resource the debit), written by the ledger's posting. */
  chargeAudit: NewAuditEvent;
  /** A waiver's or an uncollected fee's (account.maintenance_fee.waive / .uncollected, resource the account). */
  recordAudit: (outcome: 'WAIVED' | 'UNCOLLECTED') => NewAuditEvent;
}

export type AssessmentResult =
  | { outcome: 'assessed'; assessment: Omit<MaintenanceFeeAssessment, 'accountId' | 'month'> }
  /** The month is assessed already (a rerun, another instance): nothing changed. */
  | { outcome: 'already-assessed' }
  /** Closed (or gone) since it was found due: nothing to assess. */
  | { outcome: 'not-open' };

export interface FeeStore {
  /**
   * Open accounts on a product with a monthly maintenance fee, opened by the month's end and not assessed for the
   * month, by id, at most `limit`: each with the minimum of its end-of-day posted balances over the month's days it
   * existed, one statement for the batch.
   */
  dueAssessments(month: FeeMonth): Promise<DueAssessment[]>;
  /**
   * Assesses one account for the month in one transaction: the account locked as a posting locks it, the record read
   * again, then the waiver, or the fee (what fits down to minus the overdraft limit) debited to the account and
   * credited to the environment's fee-income account by the ledger's own posting statement, and the record.
   */
  assess(request: AssessmentRequest): Promise<AssessmentResult>;
  /** The newest `limit` assessments of each account, in `accountIds` order (none for an id of no account): one statement. */
  newestOfMany(
    environment: string,
    accountIds: readonly string[],
    limit: number,
  ): Promise<MaintenanceFeeAssessment[][]>;
  /** The account's assessments, newest month first, those before month `after` (YYYY-MM-01); null: no such account. */
  list(environment: string, accountId: string, page: PageRequest<string>): Promise<MaintenanceFeeAssessment[] | null>;
}
