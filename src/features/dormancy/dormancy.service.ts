import type { Account } from '../accounts/index.js';
import { businessDateOf, endOfDate, type EndOfDayContext, type EndOfDayStep } from '../clock/index.js';
import { auditEventFor } from '../../domain/audit-event.js';
import { authorize, isAuthorized } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import { type EnvironmentTime, realTime } from '../../domain/environment-clock.js';
import { accountNotDormant, accountNotFound } from '../../domain/errors.js';
import { isRecordId } from '../../domain/ids.js';
import { type Page, type PageQuery, pageOf, readPage } from '../../domain/pagination.js';
import { parseInput } from '../../domain/validation.js';
import { ESCHEATMENT_PERIOD_YEARS } from './escheatment-periods.js';
import type { DormancyDay, DormancyStore, EscheatmentEntry } from './ports.js';
import { DEFAULT_DORMANCY_SETTINGS, reactivateAccountSchema } from './dormancy.schemas.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Accounts one statement of a step changes at most; the step runs batches until one changes none. */
const DORMANCY_BATCH = 500;
/** Who the end of day's dormancy and escheatment steps are audited as. */
export const END_OF_DAY_PRINCIPAL_ID = 'system:end-of-day';

export interface DormancySettings {
  /** INACTIVE_AFTER_DAYS */
  inactiveAfterDays: number;
  /** DORMANT_AFTER_DAYS (more than inactiveAfterDays) */
  dormantAfterDays: number;
  /** ESCHEATMENT_NOTICE_DAYS: the due-diligence window. */
  escheatmentNoticeDays: number;
}

/** An escheatment list entry as answered: with its due date, and its owners' names only for a reader of customers. */
export interface EscheatmentItem extends Omit<EscheatmentEntry, 'owners'> {
  /** dueAt's date in the environment's time zone (YYYY-MM-DD). */
  dueDate: string;
  owners: { customerId: string; name?: string }[];
}

export type EscheatmentItemPage = Page<EscheatmentItem>;

export interface EscheatmentListQuery extends PageQuery {
  asOf?: string | undefined;
  state?: string | undefined;
}

/**
 * Dormancy and escheatment (docs/dormancy-and-escheatment.md, docs/adr/0109). The posting statement keeps each
 * account's last customer-initiated activity and refuses a client's debit of a DORMANT account (src/features/ledger);
 * this service gives the end of day its two steps (accounts become INACTIVE / DORMANT; escheatment notices), lets
 * `accounts:controls` reactivate an account, and lists the accounts due for escheatment by their owner's state.
 */
export class DormancyService {
  constructor(
    private readonly stores: { dormancy: DormancyStore },
    private readonly clock: EnvironmentTime = realTime,
    private readonly settings: DormancySettings = DEFAULT_DORMANCY_SETTINGS,
    private readonly timeZoneOf: (environment: string) => string = () => 'America/New_York',
  ) {}

  /**
   * Makes an INACTIVE or DORMANT account active again (its last activity: now, by the environment's clock), needing
   * `accounts:controls`; audited `account.reactivate`, event `account.reactivated`. Refused, writing nothing:
   * ACCOUNT_NOT_FOUND, ACCOUNT_NOT_DORMANT (plainly open, or closed).
   */
  async reactivate(caller: Caller, accountId: string, input?: unknown): Promise<Account> {
    authorize(caller, 'accounts:controls');
    parseInput(reactivateAccountSchema, input ?? {});
    if (!isRecordId(accountId)) throw accountNotFound();
    const id = accountId.toLowerCase();
    const now = await this.clock.now(caller.environment);
    const audit = auditEventFor(caller, {
      operation: 'account.reactivate',
      resourceType: 'account',
      resourceId: id,
      changedFields: ['status', 'lastActivityAt'],
    });
    const result = await this.stores.dormancy.reactivate(caller.environment, id, now, audit);
    if (result.outcome === 'reactivated') return result.account;
    throw result.outcome === 'not-found' ? accountNotFound() : accountNotDormant();
  }

  /**
   * The open accounts whose state's dormancy period (from their last customer-initiated activity) has passed by the
   * end of `asOf` (default: the environment's business date) or will within ESCHEATMENT_NOTICE_DAYS after it, by
   * account id, a page at a time; only `state`'s when given. Needs `accounts:read`; owners' names need
   * `customers:read` too (ids otherwise). Accounts whose primary owner has no address in the table are not listed.
   */
  async escheatment(caller: Caller, query: EscheatmentListQuery): Promise<Page<EscheatmentItem>> {
    authorize(caller, 'accounts:read');
    const page = pageOf(query);
    const zone = this.timeZoneOf(caller.environment);
    const asOf = query.asOf ?? businessDateOf(await this.clock.now(caller.environment), zone);
    const dueBy = new Date(endOfDate(asOf, zone).getTime() + this.settings.escheatmentNoticeDays * DAY_MS);
    const withNames = isAuthorized(caller, 'customers:read');
    const entries = await readPage(
      page,
      (request) =>
        this.stores.dormancy.escheatment(
          caller.environment,
          ESCHEATMENT_PERIOD_YEARS,
          { dueBy, state: query.state ?? null },
          request,
        ),
      (entry) => entry.accountId,
    );
    return {
      nextAfter: entries.nextAfter,
      items: entries.items.map((entry) => ({
        ...entry,
        dueDate: businessDateOf(new Date(entry.dueAt), zone),
        owners: entry.owners.map((owner) =>
          withNames ? { customerId: owner.customerId, name: owner.name } : { customerId: owner.customerId },
        ),
      })),
    };
  }

  /** One batch of the end of day's `dormancy` step. */
  markDormancy(day: EndOfDayContext): Promise<number> {
    return this.stores.dormancy.markDue(this.dayOf(day), this.settings);
  }

  /** One batch of the end of day's `escheatment-notice` step. */
  noticeEscheatment(day: EndOfDayContext): Promise<number> {
    return this.stores.dormancy.noticeEscheatment(
      this.dayOf(day),
      ESCHEATMENT_PERIOD_YEARS,
      this.settings.escheatmentNoticeDays,
    );
  }

  private dayOf(day: EndOfDayContext): DormancyDay {
    return {
      environment: day.environment,
      cutoff: day.cutoff,
      requestId: day.requestId,
      principalId: END_OF_DAY_PRINCIPAL_ID,
      limit: DORMANCY_BATCH,
    };
  }
}

/**
 * The end of day's dormancy (docs/adr/0102, 0109): open accounts without customer-initiated activity for
 * INACTIVE_AFTER_DAYS / DORMANT_AFTER_DAYS by the end of the business date become INACTIVE / DORMANT, each once (the
 * change re-checks the rule on the locked row; its audit event carries the day's request id).
 */
export const dormancyStep = (dormancy: Pick<DormancyService, 'markDormancy'>): EndOfDayStep => ({
  name: 'dormancy',
  runBatch: (day) => dormancy.markDormancy(day),
});

/** The end of day's escheatment notices: `account.escheatment_due` once per account when its window starts. */
export const escheatmentNoticeStep = (dormancy: Pick<DormancyService, 'noticeEscheatment'>): EndOfDayStep => ({
  name: 'escheatment-notice',
  runBatch: (day) => dormancy.noticeEscheatment(day),
});
