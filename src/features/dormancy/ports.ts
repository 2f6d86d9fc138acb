import type { Account } from '../accounts/index.js';
import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { PageRequest } from '../../domain/pagination.js';

/** What the dormancy service needs from storage (src/features/dormancy/dormancy.store.ts implements it). */

/** One business date's dormancy work, as the end of day's step hands it over (docs/adr/0109). */
export interface DormancyDay {
  environment: string;
  /** The end of the business date (the environment's time): what is due by it is the day's. */
  cutoff: Date;
  /** The day's and step's request id: every audit event of the step carries it, once per account. */
  requestId: string;
  /** Who the audit trail names (system:end-of-day). */
  principalId: string;
  limit: number;
}

export interface DormancyThresholds {
  inactiveAfterDays: number;
  dormantAfterDays: number;
}

/** USPS state code → years of dormancy of a demand deposit (escheatment-periods.ts). */
export type EscheatmentPeriods = Readonly<Record<string, number>>;

export interface EscheatmentQuery {
  /** The list's horizon: accounts whose escheatment is due by it (the end of `asOf` plus the notice window). */
  dueBy: Date;
  /** Only accounts of this state (its primary owner's address); null: every state of the table. */
  state: string | null;
}

/** An account whose state's dormancy period has passed, or will by the list's horizon. */
export interface EscheatmentEntry {
  accountId: string;
  currency: string;
  /** Exact decimal text, as an account's amount. */
  balance: string;
  status: 'ACTIVE' | 'INACTIVE' | 'DORMANT';
  /** USPS code of its primary owner's address. */
  state: string;
  /** ISO 8601, UTC, by the environment's clock. */
  lastActivityAt: string;
  /** lastActivityAt plus the state's period: ISO 8601, UTC. */
  dueAt: string;
  /** Its customers, in the account's order: ids and names only. */
  owners: { customerId: string; name: string }[];
}

export type Reactivation =
  | { outcome: 'reactivated'; account: Account }
  | { outcome: 'not-found' }
  /** Plainly open (nothing to reactivate) or closed. */
  | { outcome: 'not-dormant' };

export interface DormancyStore {
  /**
   * One batch of the day's transitions: open accounts whose last activity is `dormantAfterDays` before the cutoff
   * become DORMANT (unless they are), those `inactiveAfterDays` before it INACTIVE (unless they are inactive or
   * dormant), each with its audit event (the day's request id) and `account.inactive` / `account.dormant`. The change
   * re-checks the rule on the locked row. Answers how many accounts it changed.
   */
  markDue(day: DormancyDay, thresholds: DormancyThresholds): Promise<number>;
  /**
   * One batch of the day's escheatment notices: open accounts whose due-diligence window (their state's period minus
   * `noticeDays`) starts by the cutoff and that were not noticed for their current period of inactivity; each once,
   * with its audit event and `account.escheatment_due`. Answers how many it noticed.
   */
  noticeEscheatment(day: DormancyDay, periods: EscheatmentPeriods, noticeDays: number): Promise<number>;
  /** Makes an INACTIVE or DORMANT open account active again (its last activity: `at`), audited, `account.reactivated`. */
  reactivate(environment: string, accountId: string, at: Date, audit: NewAuditEvent): Promise<Reactivation>;
  /** Accounts due by `query.dueBy`, by account id, a page at a time. */
  escheatment(
    environment: string,
    periods: EscheatmentPeriods,
    query: EscheatmentQuery,
    page: PageRequest,
  ): Promise<EscheatmentEntry[]>;
}
