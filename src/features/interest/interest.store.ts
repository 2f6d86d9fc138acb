import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { queryRows, type SqlClient, statement, uuidAfter } from '../../db/sql/sql.js';
import type { NewPosting, PrismaLedgerStore } from '../ledger/index.js';
import { ACCRUAL_DECIMALS, type InterestState, roundHalfEven } from './interest.js';
import type { InterestDay, InterestPostingOutcome, InterestPostingRequest, InterestStore } from './ports.js';

/**
 * The account's posted balance at the end of business date $2 (cutoff $3), alias `a` (docs/adr/0113): its balance now,
 * less what posted after the cutoff, less the interest of periods ending on or after the date. The end of day may run
 * a date late (a missed day caught up, a sandbox's advance): an entry's posted_at is the environment's time it posted,
 * and an interest credit counts from its period's end whenever the end of day posted it.
 */
const BALANCE_AT_DAY_END = `a.amount
       - coalesce((SELECT sum(CASE e.type WHEN 'CREDIT' THEN e.posted_amount ELSE -e.posted_amount END) FROM ledger_entries e
                   WHERE e.account_id = a.id AND NOT e.is_settlement AND e.status = 'POSTED' AND e.posted_at > $3::timestamptz
                     AND NOT EXISTS (SELECT 1 FROM interest_postings x WHERE x.transaction_id = e.id)), 0)
       - coalesce((SELECT sum(x.posted) FROM interest_postings x WHERE x.account_id = a.id AND x.period_end >= $2::date), 0)`;

/** The latest posting of the account (alias `a`) before date $2: its period end and the residue it carried. */
const LAST_POSTING_BEFORE = (date: string) => `LEFT JOIN LATERAL (
         SELECT x.period_end, x.residue FROM interest_postings x WHERE x.account_id = a.id AND x.period_end < ${date}
         ORDER BY x.period_end DESC LIMIT 1) lp ON true`;

/** The accruals of the account (alias `a`) after the last posting (`lp`) and before `until` (exclusive). */
const ACCRUED_SINCE_POSTING = (until: string) => `coalesce((SELECT sum(i.amount) FROM interest_accruals i
         WHERE i.account_id = a.id AND i.business_date > coalesce(lp.period_end, '-infinity'::date) AND i.business_date < ${until}), 0)`;

/** The rate of tiers `r.tiers` (or flat `r.annual_rate`) for balance `balance`: the whole balance at the tier it reached. */
const RATE_FOR = (balance: string) => `coalesce(r.annual_rate,
         (SELECT (t ->> 'annualRate')::numeric FROM jsonb_array_elements(r.tiers) t
          WHERE (t ->> 'minimumBalance')::numeric <= ${balance} ORDER BY (t ->> 'minimumBalance')::numeric DESC LIMIT 1), 0)`;

/** The product's rate row in force on date `date` (alias `r`; none before the product's first rate). */
const RATE_ON = (date: string) => `LEFT JOIN LATERAL (
         SELECT r.annual_rate, r.tiers FROM product_rates r WHERE r.product_id = p.id AND r.effective_from <= ${date}
         ORDER BY r.effective_from DESC LIMIT 1) r ON true`;

/** The day count's denominator for date $2: 360, 365, or the days of $2's year. */
const DAYS_IN_YEAR = `CASE p.day_count WHEN 'ACTUAL_360' THEN 360 WHEN 'ACTUAL_365' THEN 365
         ELSE (date_trunc('year', $2::date) + interval '1 year')::date - date_trunc('year', $2::date)::date END`;

/** Open accounts (alias `a`) of environment $1 on a product with interest (alias `p`). */
const ON_INTEREST_PRODUCT = `accounts a JOIN products p ON p.environment = a.environment AND p.code = a.product_code
       WHERE a.environment = $1::varchar AND a.product_code IS NOT NULL AND a.closed_at IS NULL AND p.day_count IS NOT NULL`;

const SQL = {
  // $1 environment, $2 business date, $3 its cutoff, $4 batch, $5 request id, $6 principal. The day's balance is
  // the posted balance at the day's end; compounding DAILY adds the interest accrued and not paid (the residue carried
  // included), MONTHLY only what accrued in earlier months of a quarter not posted yet (the posted interest is in the
  // balance already). A negative balance earns nothing. Answers the accounts found due: the conflict clause leaves an
  // account another instance accrued meanwhile, and the next batch no longer finds it. $7: the last account the previous
  // batch handled (null: from the first), so the day's batches read each account once (uuidAfter: an index bound in
  // the generic plan too). The bound is repeated in the NOT EXISTS: PostgreSQL answers it with a merge anti-join over
  // the date's accruals in account order, which otherwise starts at the first account of every environment each batch.
  accrue: statement(
    'interest_accrue',
    `WITH due AS (
       SELECT a.id, a.amount, p.id AS product_id, p.day_count, p.compounding FROM ${ON_INTEREST_PRODUCT}
         AND NOT EXISTS (SELECT 1 FROM interest_accruals i WHERE i.account_id = a.id AND i.business_date = $2::date
                           AND ${uuidAfter('i.account_id', '$7')})
         AND ${uuidAfter('a.id', '$7')}
       ORDER BY a.id LIMIT $4::int
     ), based AS (
       SELECT a.id, a.product_id, a.day_count, (${BALANCE_AT_DAY_END}) + CASE a.compounding
           WHEN 'DAILY' THEN coalesce(lp.residue, 0) + ${ACCRUED_SINCE_POSTING('$2::date')}
           ELSE ${ACCRUED_SINCE_POSTING("date_trunc('month', $2::date)::date")} END AS balance
       FROM due a ${LAST_POSTING_BEFORE('$2::date')}
     ), rated AS (
       SELECT b.id, b.balance, ${RATE_FOR('b.balance')} AS rate, ${DAYS_IN_YEAR} AS days
       FROM based b JOIN products p ON p.id = b.product_id ${RATE_ON('$2::date')}
     ), accrued AS (
       INSERT INTO interest_accruals (account_id, business_date, environment, balance, annual_rate, days_in_year, amount)
       SELECT r.id, $2::date, $1::varchar, r.balance, r.rate, r.days,
              round(greatest(r.balance, 0) * r.rate / r.days, ${ACCRUAL_DECIMALS})
       FROM rated r
       ON CONFLICT (account_id, business_date) DO NOTHING
       RETURNING account_id
     ), audit AS (
       INSERT INTO audit_events (id, principal_id, environment, operation, resource_type, resource_id, request_id, changed_fields)
       SELECT gen_random_uuid(), $6::varchar, $1::varchar, 'account.interest.accrue', 'account', x.account_id, $5::varchar,
              ARRAY['interest']::text[] FROM accrued x
     )
     SELECT count(*)::int AS due, (SELECT d.id::text FROM due d ORDER BY d.id DESC LIMIT 1) AS last FROM due`,
  ),
  // $1 environment, $2 the period end, $3 batch, $4 true: only products posting monthly (the date ends no quarter),
  // $5 the last account the previous batch handled (null: from the first).
  duePostings: statement(
    'interest_due_postings',
    `SELECT a.id FROM ${ON_INTEREST_PRODUCT} AND (NOT $4::boolean OR p.posting = 'MONTHLY')
       AND NOT EXISTS (SELECT 1 FROM interest_postings x WHERE x.account_id = a.id AND x.period_end = $2::date
                         AND ${uuidAfter('x.account_id', '$5')})
       AND ${uuidAfter('a.id', '$5')}
     ORDER BY a.id LIMIT $3::int`,
  ),
  // The account locked as a posting locks it (FOR NO KEY UPDATE): a second poster of the period waits here. $1
  // account, $2 environment.
  lockForPosting: statement(
    'interest_lock_for_posting',
    `SELECT a.currency, currency_minor_digits(a.currency) AS digits,
            EXISTS (SELECT 1 FROM products p WHERE p.environment = a.environment AND p.code = a.product_code
                    AND p.day_count IS NOT NULL) AS earns
     FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2::varchar FOR NO KEY UPDATE`,
  ),
  // Read once the account is locked (a statement of its own: a new snapshot, so a poster that waited sees the first
  // one's record): whether period end $3 is posted, and the residue carried plus the accruals through it.
  accruedForPosting: statement(
    'interest_accrued_for_posting',
    `SELECT EXISTS (SELECT 1 FROM interest_postings x WHERE x.account_id = a.id AND x.period_end = $3::date) AS posted,
            trim_scale(coalesce(lp.residue, 0) + ${ACCRUED_SINCE_POSTING('$3::date + 1')})::text AS accrued
     FROM accounts a ${LAST_POSTING_BEFORE('$3::date')}
     WHERE a.id = $1::uuid AND a.environment = $2::varchar`,
  ),
  // $1 account, $2 environment, $3 period end, $4 accrued, $5 posted, $6 outcome, $7 the credit's transaction id.
  record: statement(
    'interest_record_posting',
    `INSERT INTO interest_postings (account_id, period_end, environment, accrued, posted, residue, outcome, transaction_id)
     VALUES ($1::uuid, $3::date, $2::varchar, $4::numeric, $5::numeric, $4::numeric - $5::numeric, $6::varchar, $7::uuid)`,
  ),
  // $1 environment, $2 the accounts, $3 the business date. The rate is the one in force on the date for the posted
  // balance. One row per account found (a response's accounts in one statement: GraphQL's Account.interest).
  states: statement(
    'interest_states',
    `SELECT a.id::text AS "accountId", a.product_code AS "productCode", p.day_count AS "dayCount", p.compounding, p.posting,
            trim_scale(${RATE_FOR('a.amount')})::text AS "annualRate",
            trim_scale(coalesce(lp.residue, 0) + ${ACCRUED_SINCE_POSTING("'infinity'::date")})::text AS "accruedUnpaid",
            (SELECT to_char(max(i.business_date), 'YYYY-MM-DD') FROM interest_accruals i WHERE i.account_id = a.id) AS "lastAccrualDate",
            (SELECT to_char(max(x.period_end), 'YYYY-MM-DD') FROM interest_postings x WHERE x.account_id = a.id) AS "lastPostingDate",
            trim_scale(coalesce((SELECT sum(x.posted) FROM interest_postings x WHERE x.account_id = a.id
              AND x.period_end >= date_trunc('year', $3::date)::date), 0))::text AS "paidYearToDate",
            p.day_count IS NOT NULL AS "hasInterest"
     FROM accounts a LEFT JOIN products p ON p.environment = a.environment AND p.code = a.product_code
     ${RATE_ON('$3::date')} ${LAST_POSTING_BEFORE("'infinity'::date")}
     WHERE a.id = ANY($2::uuid[]) AND a.environment = $1::varchar`,
  ),
};

/** Interest's accruals and postings on PostgreSQL; a posting is the ledger's own statement in this store's transaction. */
export class PrismaInterestStore implements InterestStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly ledger: PrismaLedgerStore,
  ) {}

  async accrue(day: InterestDay): Promise<{ due: number; last: string | null }> {
    const [row] = await queryRows<{ due: number; last: string | null }>(this.prisma, SQL.accrue, [
      day.environment,
      day.businessDate,
      day.cutoff,
      day.limit,
      day.requestId,
      day.principalId,
      day.after,
    ]);
    return { due: row!.due, last: row!.last };
  }

  async duePostings(day: InterestDay, monthlyOnly: boolean): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(this.prisma, SQL.duePostings, [
      day.environment,
      day.businessDate,
      day.limit,
      monthlyOnly,
      day.after,
    ]);
    return rows.map((row) => row.id);
  }

  postPeriod(request: InterestPostingRequest): Promise<InterestPostingOutcome> {
    return this.prisma.$transaction((tx) => this.postWithin(tx, request, 'POSTED'));
  }

  /**
   * The posting on `tx`, an interactive transaction's: the period step's own, or an account's closing (recorded
   * CLOSING), so that the closing's disbursement moves the interest too (src/features/lifecycle). Not part of the
   * InterestStore port: only stores hold a transaction.
   */
  async postWithin(
    tx: SqlClient,
    request: InterestPostingRequest,
    kind: 'POSTED' | 'CLOSING',
  ): Promise<InterestPostingOutcome> {
    const { environment, accountId, periodEnd } = request;
    const [locked] = await queryRows<{ currency: string; digits: number; earns: boolean }>(tx, SQL.lockForPosting, [
      accountId,
      environment,
    ]);
    if (!locked) return { outcome: 'not-found' };
    if (!locked.earns) return { outcome: 'no-interest' };
    const [period] = await queryRows<{ posted: boolean; accrued: string }>(tx, SQL.accruedForPosting, [
      accountId,
      environment,
      periodEnd,
    ]);
    if (period!.posted) return { outcome: 'already-posted' };
    const { accrued } = period!;
    const amount = roundHalfEven(accrued, locked.digits);
    const record = (posted: string, outcome: 'POSTED' | 'CLOSING' | 'DEFERRED', transactionId: string | null) =>
      queryRows(tx, SQL.record, [accountId, environment, periodEnd, accrued, posted, outcome, transactionId]);
    if (Number(amount) <= 0) {
      await record('0', kind, null);
      return { outcome: 'posted', posted: '0', transactionId: null };
    }
    const posting: NewPosting = {
      environment,
      postingId: request.postingId,
      transferId: null,
      legs: [
        { entryId: request.debitEntryId, accountId: null, type: 'DEBIT' },
        { entryId: request.creditEntryId, accountId, type: 'CREDIT' },
      ],
      amount,
      currency: locked.currency,
      description: request.description,
      hold: false,
      expiresAt: null,
      limits: null,
      externalId: null,
      metadata: null,
      internalAccount: 'INTEREST_EXPENSE',
    };
    const written = await this.ledger.postWithin(tx, posting, { audit: request.audit });
    if (written.outcome !== 'written') {
      await record('0', 'DEFERRED', null);
      return { outcome: 'deferred' };
    }
    await record(amount, kind, request.creditEntryId);
    return { outcome: 'posted', posted: amount, transactionId: request.creditEntryId };
  }

  async states(
    environment: string,
    accountIds: readonly string[],
    businessDate: string,
  ): Promise<Map<string, InterestState | 'no-interest'>> {
    const rows = await queryRows<InterestState & { accountId: string; hasInterest: boolean }>(this.prisma, SQL.states, [
      environment,
      [...accountIds],
      businessDate,
    ]);
    return new Map(
      rows.map(({ accountId, hasInterest, ...state }) => [accountId, hasInterest ? state : 'no-interest'] as const),
    );
  }
}
