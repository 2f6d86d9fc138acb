import type { EndOfDayBatch, EndOfDayContext, EndOfDayStep } from '../clock/index.js';
import { businessDateOf } from '../clock/index.js';
import { END_OF_DAY_PRINCIPAL_ID } from '../dormancy/index.js';
import type { NewAuditEvent } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import { type EnvironmentTime, realTime } from '../../domain/environment-clock.js';
import { accountNotFound, interestNotApplicable } from '../../domain/errors.js';
import { isRecordId, newId } from '../../domain/ids.js';
import { annualPercentageYield, type InterestState, type InterestSummary, isMonthEnd } from './interest.js';
import type { InterestDay, InterestStore } from './ports.js';

/** Accounts one statement of a step handles at most; the step runs batches until one finds none. */
const INTEREST_BATCH = 500;
/** Postings one batch makes (each its own transaction, as a transfer is). */
const POSTING_BATCH = 100;

/**
 * Interest on deposit products (docs/products.md, docs/adr/0113): the end of day's two steps, `interest-accrual` (each
 * open account on a product with interest accrues the day's interest, exactly, once per account and date) and
 * `interest-posting` (at a posting period's end, the accrued interest rounded half-even to the currency's minor unit
 * is credited from the environment's interest-expense account, once per account and period end, the residue carried),
 * and an account's interest as GET /{environment}/account/{accountId}/interest answers it.
 */
export class InterestService {
  constructor(
    private readonly stores: { interest: InterestStore },
    private readonly clock: EnvironmentTime = realTime,
    private readonly timeZoneOf: (environment: string) => string = () => 'America/New_York',
  ) {}

  /** One batch of the end of day's `interest-accrual` step: the accounts it found due, and the last of them in id order. */
  async accrue(day: EndOfDayContext): Promise<EndOfDayBatch | 0> {
    const { due, last } = await this.stores.interest.accrue(this.dayOf(day, INTEREST_BATCH));
    return last === null ? 0 : { changed: due, after: last };
  }

  /**
   * One batch of the end of day's `interest-posting` step: on a month's last date, the accounts whose product posts
   * then (monthly, or quarterly at a quarter's end) and that have no posting for it. Answers how many it handled.
   */
  async post(day: EndOfDayContext): Promise<EndOfDayBatch | 0> {
    if (!isMonthEnd(day.businessDate)) return 0;
    const interestDay = this.dayOf(day, POSTING_BATCH);
    const quarterEnd = [3, 6, 9, 12].includes(Number(day.businessDate.slice(5, 7)));
    const due = await this.stores.interest.duePostings(interestDay, !quarterEnd);
    for (const accountId of due) {
      const creditEntryId = newId();
      await this.stores.interest.postPeriod({
        environment: day.environment,
        accountId,
        periodEnd: day.businessDate,
        debitEntryId: newId(),
        creditEntryId,
        postingId: newId(),
        description: `Interest to ${day.businessDate}`,
        audit: this.postingAudit(day, creditEntryId),
      });
    }
    const last = due.at(-1);
    return last === undefined ? 0 : { changed: due.length, after: last };
  }

  /**
   * `GET /{environment}/account/{accountId}/interest` and GraphQL `Account.interest`: needs `accounts:read`.
   * ACCOUNT_NOT_FOUND (404) for an account the environment does not have, INTEREST_NOT_APPLICABLE (422) for one that
   * is on no product with interest.
   */
  async summary(caller: Caller, accountId: string): Promise<InterestSummary> {
    authorize(caller, 'accounts:read');
    return this.summaryOf(caller, accountId);
  }

  /**
   * `Account.interest` of a response's accounts in one statement (a per-request loader): null for an account on no
   * product with interest or not found. accounts:read is checked once for the batch.
   */
  async summariesOf(caller: Caller, accountIds: readonly string[]): Promise<(InterestSummary | null)[]> {
    authorize(caller, 'accounts:read');
    const ids = accountIds.map((id) => id.toLowerCase());
    const valid = [...new Set(ids.filter(isRecordId))];
    const states = valid.length > 0 ? await this.statesOf(caller.environment, valid) : new Map();
    return ids.map((id) => {
      const state = states.get(id);
      return state === undefined || state === 'no-interest' ? null : summaryFrom(state);
    });
  }

  private async summaryOf(caller: Caller, accountId: string): Promise<InterestSummary> {
    if (!isRecordId(accountId)) throw accountNotFound();
    const id = accountId.toLowerCase();
    const state = (await this.statesOf(caller.environment, [id])).get(id);
    if (state === undefined) throw accountNotFound();
    if (state === 'no-interest') throw interestNotApplicable();
    return summaryFrom(state);
  }

  private async statesOf(environment: string, accountIds: readonly string[]) {
    const businessDate = businessDateOf(await this.clock.now(environment), this.timeZoneOf(environment));
    return this.stores.interest.states(environment, accountIds, businessDate);
  }

  private dayOf(day: EndOfDayContext, limit: number): InterestDay {
    return {
      environment: day.environment,
      businessDate: day.businessDate,
      cutoff: day.cutoff,
      requestId: day.requestId,
      principalId: END_OF_DAY_PRINCIPAL_ID,
      limit,
      after: day.after ?? null,
    };
  }

  private postingAudit(day: EndOfDayContext, creditEntryId: string): NewAuditEvent {
    return {
      eventId: newId(),
      principalId: END_OF_DAY_PRINCIPAL_ID,
      environment: day.environment,
      operation: 'account.interest.post',
      resourceType: 'transaction',
      resourceId: creditEntryId,
      requestId: day.requestId,
      idempotencyKey: null,
      changedFields: ['amount'],
    };
  }
}

/** What an account's interest state answers: its figures and the APY its rate, compounding and day count give. */
function summaryFrom(state: InterestState): InterestSummary {
  const { dayCount, compounding, posting: _posting, ...summary } = state;
  return { ...summary, annualPercentageYield: annualPercentageYield(state.annualRate, compounding, dayCount) };
}

/**
 * The end of day's interest accrual (docs/adr/0113): each open account on a product with interest accrues the
 * business date's interest once (the accrual's key is the account and date; its audit event carries the day's request id).
 */
export const interestAccrualStep = (interest: Pick<InterestService, 'accrue'>): EndOfDayStep => ({
  name: 'interest-accrual',
  runBatch: (day) => interest.accrue(day),
});

/** The end of day's interest posting: at a posting period's end, each account's interest credited once per period. */
export const interestPostingStep = (interest: Pick<InterestService, 'post'>): EndOfDayStep => ({
  name: 'interest-posting',
  runBatch: (day) => interest.post(day),
});
