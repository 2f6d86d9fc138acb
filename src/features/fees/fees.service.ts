import type { EndOfDayBatch, EndOfDayContext, EndOfDayStep } from '../clock/index.js';
import { startOfDate } from '../clock/index.js';
import { END_OF_DAY_PRINCIPAL_ID } from '../dormancy/index.js';
import type { AuditOperation, NewAuditEvent } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import { accountNotFound, validationFailed } from '../../domain/errors.js';
import { isRecordId, newId } from '../../domain/ids.js';
import { type Page, pageOf, type PageQuery, pageSize, readPage } from '../../domain/pagination.js';
import { isMonthEnd, isWaived, type MaintenanceFeeAssessment, monthStartOf } from './fees.js';
import { FEE_MONTH } from './fees.schemas.js';
import type { AssessmentRequest, FeeMonth, FeeStore } from './ports.js';

/** Accounts one batch assesses at most (each its own transaction, as a transfer is); the step runs batches until none is due. */
const ASSESSMENT_BATCH = 100;

/**
 * The monthly maintenance fee of deposit products (docs/products.md#fees, docs/adr/0115): the end of day's
 * `maintenance-fee` step (on a month's last business date each open account on a product with the fee is assessed
 * once: waived when the month's minimum daily balance reached the product's threshold, else charged from the account to
 * the environment's fee-income account, never below minus its overdraft limit), and an account's assessments as
 * GET /{environment}/account/{accountId}/fees and GraphQL `Account.fees` answer them.
 */
export class FeeService {
  constructor(
    private readonly stores: { fees: FeeStore },
    private readonly timeZoneOf: (environment: string) => string = () => 'America/New_York',
  ) {}

  /** One batch of the end of day's `maintenance-fee` step: the accounts it found due, and the last of them in id order. */
  async assessMonth(day: EndOfDayContext): Promise<EndOfDayBatch | 0> {
    if (!isMonthEnd(day.businessDate)) return 0;
    const timeZone = this.timeZoneOf(day.environment);
    const monthStart = monthStartOf(day.businessDate);
    const month: FeeMonth = {
      environment: day.environment,
      businessDate: day.businessDate,
      monthStart,
      monthStartsAt: startOfDate(monthStart, timeZone),
      timeZone,
      limit: ASSESSMENT_BATCH,
      after: day.after ?? null,
    };
    const due = await this.stores.fees.dueAssessments(month);
    for (const account of due) {
      const debitEntryId = newId();
      const request: AssessmentRequest = {
        environment: day.environment,
        accountId: account.accountId,
        monthStart,
        minimumDailyBalance: account.minimumDailyBalance,
        fee: account.fee,
        waivedAt: account.waivedAt,
        waived: isWaived(account.minimumDailyBalance, account.waivedAt),
        debitEntryId,
        creditEntryId: newId(),
        postingId: newId(),
        description: `Monthly maintenance fee ${day.businessDate.slice(0, 7)}`,
        chargeAudit: this.audit(day, 'account.maintenance_fee.charge', 'transaction', debitEntryId),
        recordAudit: (outcome) =>
          this.audit(
            day,
            outcome === 'WAIVED' ? 'account.maintenance_fee.waive' : 'account.maintenance_fee.uncollected',
            'account',
            account.accountId,
          ),
      };
      await this.stores.fees.assess(request);
    }
    const last = due.at(-1);
    return last === undefined ? 0 : { changed: due.length, after: last.accountId };
  }

  /**
   * `GET /{environment}/account/{accountId}/fees` and GraphQL `Account.fees`: the account's assessments, newest month
   * first, a page at a time (`after`: the last month of the previous page, YYYY-MM). Needs `accounts:read`.
   * Refusals: FORBIDDEN, VALIDATION_FAILED (`first` outside 1–100, `after` not a month), ACCOUNT_NOT_FOUND. An account
   * on no product with a fee has none: an empty page.
   */
  async list(caller: Caller, accountId: string, page: PageQuery = {}): Promise<Page<MaintenanceFeeAssessment>> {
    authorize(caller, 'accounts:read');
    const request = pageOf(page);
    if (request.after !== undefined && !FEE_MONTH.safeParse(request.after).success)
      throw validationFailed([
        { field: 'after', code: 'INVALID_FORMAT', message: 'Must be a month (YYYY-MM) from a previous page.' },
      ]);
    if (!isRecordId(accountId)) throw accountNotFound();
    const id = accountId.toLowerCase();
    return readPage(
      { first: request.first, after: request.after === undefined ? undefined : `${request.after}-01` },
      async (paged) => {
        const rows = await this.stores.fees.list(caller.environment, id, paged);
        if (rows === null) throw accountNotFound();
        return rows;
      },
      (assessment) => assessment.month,
    );
  }

  /**
   * The first page of each account's assessments (GraphQL's `fees` under a list of accounts, batched): in `accountIds`
   * order, as `list` answers it without `after`; an empty page for an id that names no account. One statement.
   */
  async firstPagesOfMany(
    caller: Caller,
    accountIds: readonly string[],
    first?: number,
  ): Promise<Page<MaintenanceFeeAssessment>[]> {
    authorize(caller, 'accounts:read');
    const size = pageSize(first);
    const ids = accountIds.filter(isRecordId).map((id) => id.toLowerCase());
    const pages = ids.length > 0 ? await this.stores.fees.newestOfMany(caller.environment, ids, size + 1) : [];
    const byId = new Map(ids.map((id, i) => [id, pages[i]!]));
    return accountIds.map((id) => {
      const rows = (isRecordId(id) ? byId.get(id.toLowerCase()) : undefined) ?? [];
      const items = rows.slice(0, size);
      return { items, nextAfter: rows.length > size ? items.at(-1)!.month : null };
    });
  }

  private audit(
    day: EndOfDayContext,
    operation: AuditOperation,
    resourceType: 'transaction' | 'account',
    resourceId: string,
  ): NewAuditEvent {
    return {
      eventId: newId(),
      principalId: END_OF_DAY_PRINCIPAL_ID,
      environment: day.environment,
      operation,
      resourceType,
      resourceId,
      requestId: day.requestId,
      idempotencyKey: null,
      changedFields: operation === 'account.maintenance_fee.charge' ? ['amount'] : ['fees'],
    };
  }
}

/**
 * The end of day's monthly maintenance fee (docs/adr/0115): on a month's last business date, each open account on a
 * product with the fee assessed once for the month (the assessment's key is the account and month).
 */
export const maintenanceFeeStep = (fees: Pick<FeeService, 'assessMonth'>): EndOfDayStep => ({
  name: 'maintenance-fee',
  runBatch: (day) => fees.assessMonth(day),
});
