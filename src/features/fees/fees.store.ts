import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { queryRows, type SqlClient, statement, uuidAfter } from '../../db/sql/sql.js';
import { auditInsert, auditValues } from '../../db/sql/write-effects.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { NewPosting, PrismaLedgerStore } from '../ledger/index.js';
import { isPositive, lesserOf, type MaintenanceFeeAssessment } from './fees.js';
import type { AssessmentRequest, AssessmentResult, DueAssessment, FeeMonth, FeeStore } from './ports.js';

/** When account `a` was opened by its environment's clock (before migration 20261219000000: estimated). */
const OPENED_AT = `coalesce(a.opened_at, a.created_at + env_offset(a.environment))`;

/** An assessment's answered fields, of `f`. */
const ASSESSMENT_FIELDS = `to_char(f.month, 'YYYY-MM') AS month,
            trim_scale(f.minimum_daily_balance)::text AS "minimumDailyBalance", trim_scale(f.fee)::text AS fee,
            trim_scale(f.waived_at)::text AS "waivedAtMinimumDailyBalance", f.outcome, trim_scale(f.charged)::text AS charged,
            trim_scale(f.uncollected)::text AS uncollected, f.transaction_id AS "transactionId"`;
const ASSESSMENT_COLUMNS = `f.account_id AS "accountId", ${ASSESSMENT_FIELDS}`;

const SQL = {
  // $1 environment, $2 the month's first date, $3 its last (the business date), $4 the instant the month begins, $5
  // the time zone, $6 batch, $7 the last account the previous batch handled (null: from the first; bounded in the
  // NOT EXISTS too, as the interest accrual's). Each due account's days from its opening's date (or the month's
  // first) to the month's last; a day's balance is the posted balance now less every entry that counts on a later day. An entry counts on
  // the local date it posted, except an interest credit (on its period's end) and a fee (on its month's last day),
  // which a late end of day (a missed day caught up, a sandbox's advance) posts after their day. No entry posted
  // before the month began counts on a day of it, so only the month's entries and later ones are read.
  due: statement(
    'fees_due_assessments',
    `WITH due AS (
       SELECT a.id, a.amount, p.monthly_maintenance_fee AS fee, p.maintenance_fee_waived_at AS waived_at,
              greatest($2::date, (${OPENED_AT} AT TIME ZONE $5::text)::date) AS first_day
       FROM accounts a JOIN products p ON p.environment = a.environment AND p.code = a.product_code
       WHERE a.environment = $1::varchar AND a.product_code IS NOT NULL AND a.closed_at IS NULL
         AND p.monthly_maintenance_fee IS NOT NULL AND (${OPENED_AT} AT TIME ZONE $5::text)::date <= $3::date
         AND NOT EXISTS (SELECT 1 FROM maintenance_fee_assessments f WHERE f.account_id = a.id AND f.month = $2::date
                           AND ${uuidAfter('f.account_id', '$7')})
         AND ${uuidAfter('a.id', '$7')}
       ORDER BY a.id LIMIT $6::int
     ), moves AS (
       SELECT e.account_id,
              coalesce(ip.period_end, (fa.month + interval '1 month' - interval '1 day')::date,
                       (e.posted_at AT TIME ZONE $5::text)::date) AS day,
              CASE e.type WHEN 'CREDIT' THEN e.posted_amount ELSE -e.posted_amount END AS delta
       FROM ledger_entries e
         LEFT JOIN interest_postings ip ON ip.transaction_id = e.id
         LEFT JOIN maintenance_fee_assessments fa ON fa.transaction_id = e.id
       WHERE e.account_id IN (SELECT d.id FROM due d) AND NOT e.is_settlement AND e.status = 'POSTED'
         AND e.posted_at >= $4::timestamptz
     ), days AS (
       SELECT d.id, d.amount, g::date AS day FROM due d, generate_series(d.first_day, $3::date, interval '1 day') g
     ), balances AS (
       SELECT x.id, x.amount - coalesce((SELECT sum(m.delta) FROM moves m WHERE m.account_id = x.id AND m.day > x.day), 0) AS balance
       FROM days x
     )
     SELECT d.id AS "accountId", trim_scale((SELECT min(b.balance) FROM balances b WHERE b.id = d.id))::text AS "minimumDailyBalance",
            trim_scale(d.fee)::text AS fee, trim_scale(d.waived_at)::text AS "waivedAt"
     FROM due d ORDER BY d.id`,
  ),
  // The account locked as a posting locks it (FOR NO KEY UPDATE): a second assessor of the month waits here. What
  // fits of a fee: the available balance down to minus the overdraft limit. $1 account, $2 environment.
  lock: statement(
    'fees_lock_for_assessment',
    `SELECT a.currency, a.closed_at IS NULL AS open,
            trim_scale(greatest(a.amount - a.pending_debits + a.overdraft_limit, 0))::text AS room
     FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2::varchar FOR NO KEY UPDATE`,
  ),
  // Read once the account is locked (a statement of its own: a new snapshot, so an assessor that waited sees the
  // first one's record). $1 account, $2 the month's first date.
  assessed: statement(
    'fees_assessed',
    `SELECT EXISTS (SELECT 1 FROM maintenance_fee_assessments f WHERE f.account_id = $1::uuid AND f.month = $2::date) AS assessed`,
  ),
  // $1 account, $2 environment, $3 month, $4 minimum daily balance, $5 fee, $6 waiver threshold, $7 outcome, $8
  // charged, $9 the debit's transaction id, $10 whether the record carries its own audit event (a waiver, an
  // uncollected fee: no posting audited it), $11… that event.
  record: statement(
    'fees_record_assessment',
    `WITH recorded AS (
       INSERT INTO maintenance_fee_assessments (account_id, month, environment, minimum_daily_balance, fee, waived_at, outcome,
                                                charged, uncollected, transaction_id)
       VALUES ($1::uuid, $3::date, $2::varchar, $4::numeric, $5::numeric, $6::numeric, $7::varchar, $8::numeric,
               CASE WHEN $7::varchar = 'WAIVED' THEN 0 ELSE $5::numeric - $8::numeric END, $9::uuid)
       RETURNING trim_scale(uncollected)::text AS uncollected
     ), audit AS (${auditInsert(11, 'recorded WHERE $10::boolean')})
     SELECT r.uncollected FROM recorded r`,
  ),
  // $1 environment, $2 account, $3 the month after the page (its first date; NULL: the newest), $4 page size. The
  // account's row even without assessments (one row of NULLs), so that no row at all means no such account.
  list: statement(
    'fees_list_assessments',
    `SELECT a.id AS "accountId", ${ASSESSMENT_FIELDS}
     FROM accounts a LEFT JOIN LATERAL (
       SELECT * FROM maintenance_fee_assessments f WHERE f.account_id = a.id AND ($3::date IS NULL OR f.month < $3::date)
       ORDER BY f.month DESC LIMIT $4::int) f ON true
     WHERE a.id = $2::uuid AND a.environment = $1::varchar`,
  ),
  // The first page of each account (GraphQL's `fees` under a list of accounts): $1 environment, $2 account ids, $3 page
  // size (one more than asked). The environment is the assessments' own column: an id of another environment has none.
  newestOfMany: statement(
    'fees_newest_of_many',
    `SELECT ${ASSESSMENT_COLUMNS}
     FROM unnest($2::uuid[]) AS r(id)
     CROSS JOIN LATERAL (
       SELECT * FROM maintenance_fee_assessments f WHERE f.account_id = r.id AND f.environment = $1::varchar
       ORDER BY f.month DESC LIMIT $3::int) f
     ORDER BY f.account_id, f.month DESC`,
  ),
};

/** Maintenance fee assessments on PostgreSQL; a charge is the ledger's own posting statement in this store's transaction. */
export class PrismaFeeStore implements FeeStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly ledger: PrismaLedgerStore,
  ) {}

  dueAssessments(month: FeeMonth): Promise<DueAssessment[]> {
    return queryRows<DueAssessment>(this.prisma, SQL.due, [
      month.environment,
      month.monthStart,
      month.businessDate,
      month.monthStartsAt,
      month.timeZone,
      month.limit,
      month.after,
    ]);
  }

  assess(request: AssessmentRequest): Promise<AssessmentResult> {
    return this.prisma.$transaction((tx) => this.assessWithin(tx, request));
  }

  private async assessWithin(tx: SqlClient, request: AssessmentRequest): Promise<AssessmentResult> {
    const { environment, accountId, monthStart } = request;
    const [locked] = await queryRows<{ currency: string; open: boolean; room: string }>(tx, SQL.lock, [
      accountId,
      environment,
    ]);
    if (!locked?.open) return { outcome: 'not-open' };
    const [state] = await queryRows<{ assessed: boolean }>(tx, SQL.assessed, [accountId, monthStart]);
    if (state!.assessed) return { outcome: 'already-assessed' };
    const record = async (outcome: 'WAIVED' | 'CHARGED' | 'UNCOLLECTED', charged: string) => {
      const transactionId = outcome === 'CHARGED' ? request.debitEntryId : null;
      const audited = outcome !== 'CHARGED';
      const audit = outcome === 'CHARGED' ? request.chargeAudit : request.recordAudit(outcome);
      const [row] = await queryRows<{ uncollected: string }>(tx, SQL.record, [
        accountId,
        environment,
        monthStart,
        request.minimumDailyBalance,
        request.fee,
        request.waivedAt,
        outcome,
        charged,
        transactionId,
        audited,
        ...auditValues(audit),
      ]);
      const assessment = {
        minimumDailyBalance: request.minimumDailyBalance,
        fee: request.fee,
        waivedAtMinimumDailyBalance: request.waivedAt,
        outcome,
        charged,
        uncollected: row!.uncollected,
        transactionId,
      };
      return { outcome: 'assessed' as const, assessment };
    };
    if (request.waived) return record('WAIVED', '0');
    // Never below minus the overdraft limit: what fits is charged, the rest recorded as uncollected.
    const charge = lesserOf(request.fee, locked.room);
    if (!isPositive(charge)) return record('UNCOLLECTED', '0');
    const posting: NewPosting = {
      environment,
      postingId: request.postingId,
      transferId: null,
      legs: [
        { entryId: request.debitEntryId, accountId, type: 'DEBIT' },
        { entryId: request.creditEntryId, accountId: null, type: 'CREDIT' },
      ],
      amount: charge,
      currency: locked.currency,
      description: request.description,
      hold: false,
      expiresAt: null,
      limits: null,
      externalId: null,
      metadata: null,
      internalAccount: 'FEE_INCOME',
    };
    const written = await this.ledger.postWithin(tx, posting, { audit: request.chargeAudit });
    // The ledger refused the bank's own debit (a frozen account, debits blocked): nothing posted.
    if (written.outcome !== 'written') return record('UNCOLLECTED', '0');
    return record('CHARGED', charge);
  }

  async list(
    environment: string,
    accountId: string,
    page: PageRequest<string>,
  ): Promise<MaintenanceFeeAssessment[] | null> {
    const rows = await queryRows<MaintenanceFeeAssessment & { month: string | null }>(this.prisma, SQL.list, [
      environment,
      accountId,
      page.after ?? null,
      page.first,
    ]);
    if (rows.length === 0) return null;
    return rows.filter((row) => row.month !== null);
  }

  async newestOfMany(
    environment: string,
    accountIds: readonly string[],
    limit: number,
  ): Promise<MaintenanceFeeAssessment[][]> {
    const rows = await queryRows<MaintenanceFeeAssessment>(this.prisma, SQL.newestOfMany, [
      environment,
      accountIds,
      limit,
    ]);
    const byAccount = new Map<string, MaintenanceFeeAssessment[]>();
    for (const row of rows) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);
    return accountIds.map((id) => byAccount.get(id) ?? []);
  }
}
