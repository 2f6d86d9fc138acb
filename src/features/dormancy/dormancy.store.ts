import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { ACCOUNT_COLUMNS, type AccountRow, isoInstant, toAccount } from '../../db/sql/columns.js';
import { jsonParameter, queryRows, statement, uuidAfter } from '../../db/sql/sql.js';
import { auditInsert, auditValues, eventInsert } from '../../db/sql/write-effects.js';
import type {
  DormancyDay,
  DormancyStore,
  DormancyThresholds,
  EscheatmentEntry,
  EscheatmentPeriods,
  EscheatmentQuery,
  Reactivation,
} from './ports.js';

/**
 * The USPS code of the account's primary owner's address (alias `a`): its first OWNER's first address. A business's
 * address is on its customer row too (migration 20261209010000). NULL when it has none.
 */
const PRIMARY_OWNER_STATE = `(SELECT upper(btrim(c.addresses -> 0 ->> 'state')) FROM account_customers ac
       JOIN customers c ON c.id = ac.customer_id AND c.environment = ac.environment
       WHERE ac.account_id = a.id AND ac.environment = a.environment AND ac.role = 'OWNER' ORDER BY ac.position LIMIT 1)`;

/** The account's owners, ids and names only (a person's first and last name, a business's legal name), in its order. */
const OWNERS = `(SELECT coalesce(json_agg(json_build_object('customerId', c.id,
         'name', coalesce(bp.legal_name, concat_ws(' ', c.first_name, c.last_name))) ORDER BY ac.position), '[]'::json)
       FROM account_customers ac JOIN customers c ON c.id = ac.customer_id AND c.environment = ac.environment
       LEFT JOIN business_profiles bp ON bp.customer_id = c.id AND bp.environment = c.environment
       WHERE ac.account_id = a.id AND ac.environment = a.environment AND ac.role = 'OWNER')`;

/** $2 the cutoff, $3 INACTIVE_AFTER_DAYS, $4 DORMANT_AFTER_DAYS: the rule, stated once for the look-up and the locked row. */
const DUE = `a.closed_at IS NULL AND a.last_activity_at <= $2::timestamptz - make_interval(days => $3::int)
       AND (a.activity_status IS NULL
            OR (a.activity_status = 'INACTIVE' AND a.last_activity_at <= $2::timestamptz - make_interval(days => $4::int)))`;

/** $3 the periods ({state: years}), $4 ESCHEATMENT_NOTICE_DAYS; `s.state` the primary owner's state. */
const ESCHEATMENT_DUE_AT = `a.last_activity_at + make_interval(years => ($3::jsonb ->> s.state)::int)`;

/**
 * Open accounts not noticed for their last activity, idle at least the shortest period less the notice window, two
 * days wider than the rule (a year is not a fixed number of days): a test on the account's own row, so only these
 * are looked up by their owner's state, not every open account of the environment every day. Deliberately no index
 * on last_activity_at: every client posting changes it, and an index on it would make each posting's account update
 * a non-HOT one (a new entry in every index of accounts), a cost on every payment to save a scan once a day.
 */
const ESCHEATMENT_CANDIDATE = `a.closed_at IS NULL AND a.escheatment_noticed_for IS DISTINCT FROM a.last_activity_at
         AND a.last_activity_at <= $2::timestamptz + make_interval(days => $4::int + 2)
           - make_interval(years => (SELECT min(p.years::int) FROM jsonb_each_text($3::jsonb) AS p(state, years)))`;

/** The day's audit event of each changed row (alias `x`), with the day's request id: once per account and day. */
const dayAudit = (
  operation: string,
) => `INSERT INTO audit_events (id, principal_id, environment, operation, resource_type, resource_id, request_id, changed_fields)
       SELECT gen_random_uuid(), $7::varchar, $1::varchar, ${operation}, 'account', x.id, $6::varchar, ARRAY['status']::text[] FROM changed x`;

const SQL = {
  // $1 environment, $2 cutoff, $3 inactive days, $4 dormant days, $5 batch, $6 request id, $7 principal.
  markDue: statement(
    'dormancy_mark_due',
    `WITH due AS (
       SELECT a.id FROM accounts a WHERE a.environment = $1::varchar AND ${DUE} ORDER BY a.id LIMIT $5::int
     ), changed AS (
       UPDATE accounts a SET
         activity_status = CASE WHEN a.last_activity_at <= $2::timestamptz - make_interval(days => $4::int) THEN 'DORMANT' ELSE 'INACTIVE' END,
         activity_status_at = $2::timestamptz
       FROM due d WHERE a.id = d.id AND a.environment = $1::varchar AND ${DUE}
       RETURNING ${ACCOUNT_COLUMNS}
     ), audit AS (${dayAudit(`CASE x."activityStatus" WHEN 'DORMANT' THEN 'account.mark_dormant' ELSE 'account.mark_inactive' END`)}),
     event AS (${eventInsert('$1::varchar', 'changed', {
       type: `CASE x."activityStatus" WHEN 'DORMANT' THEN 'account.dormant' ELSE 'account.inactive' END`,
       resourceType: 'account',
       resourceId: 'x.id',
       payload: 'to_jsonb(x)',
       changedFields: "ARRAY['status']::text[]",
     })})
     SELECT count(*)::int AS changed FROM changed`,
  ),
  // $1 environment, $2 cutoff, $3 periods, $4 notice days, $5 batch, $6 request id, $7 principal. Once per period of
  // inactivity: escheatment_noticed_for keeps the last_activity_at it was noticed for.
  noticeEscheatment: statement(
    'dormancy_notice_escheatment',
    `WITH due AS (
       SELECT a.id, a.last_activity_at FROM accounts a CROSS JOIN LATERAL (SELECT ${PRIMARY_OWNER_STATE} AS state) s
       WHERE a.environment = $1::varchar AND a.last_activity_at IS NOT NULL AND ${ESCHEATMENT_CANDIDATE}
         AND ($3::jsonb ->> s.state) IS NOT NULL AND ${ESCHEATMENT_DUE_AT} - make_interval(days => $4::int) <= $2::timestamptz
       ORDER BY a.id LIMIT $5::int
     ), changed AS (
       UPDATE accounts a SET escheatment_noticed_for = a.last_activity_at
       FROM due d WHERE a.id = d.id AND a.environment = $1::varchar AND a.last_activity_at = d.last_activity_at
         AND ${ESCHEATMENT_CANDIDATE}
       RETURNING ${ACCOUNT_COLUMNS}
     ), audit AS (${dayAudit("'account.escheatment_notice'").replace("ARRAY['status']", "ARRAY['escheatment']")}),
     event AS (${eventInsert('$1::varchar', 'changed', {
       type: "'account.escheatment_due'",
       resourceType: 'account',
       resourceId: 'x.id',
       payload: 'to_jsonb(x)',
     })})
     SELECT count(*)::int AS changed FROM changed`,
  ),
  // $3 the environment's time (the reactivation is the owner's contact: its new last activity); audit from $4.
  reactivate: statement(
    'dormancy_reactivate',
    `WITH changed AS (
       UPDATE accounts a SET activity_status = NULL, activity_status_at = NULL, last_activity_at = $3::timestamptz
       WHERE a.id = $1::uuid AND a.environment = $2::varchar AND a.closed_at IS NULL AND a.activity_status IS NOT NULL
       RETURNING ${ACCOUNT_COLUMNS}
     ), audit AS (${auditInsert(4, 'changed')}),
     event AS (${eventInsert('$2::varchar', 'changed', {
       type: "'account.reactivated'",
       resourceType: 'account',
       resourceId: 'x.id',
       payload: 'to_jsonb(x)',
       changedFields: '$12::text[]',
     })})
     SELECT * FROM changed`,
  ),
  exists: statement(
    'dormancy_account_exists',
    'SELECT a.id FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2::varchar',
  ),
  // $1 environment, $2 periods, $3 due by, $4 state (NULL: any), $5 after (an account id), $6 page size.
  escheatment: statement(
    'dormancy_escheatment',
    `SELECT a.id AS "accountId", a.currency, trim_scale(a.amount)::text AS balance,
            coalesce(a.activity_status, 'ACTIVE') AS status, s.state, ${isoInstant('a.last_activity_at')} AS "lastActivityAt",
            ${isoInstant(`(${ESCHEATMENT_DUE_AT.replace('$3', '$2')})`)} AS "dueAt", ${OWNERS} AS owners
     FROM accounts a CROSS JOIN LATERAL (SELECT ${PRIMARY_OWNER_STATE} AS state) s
     WHERE a.environment = $1::varchar AND a.closed_at IS NULL AND a.last_activity_at IS NOT NULL
       AND ($4::text IS NULL OR s.state = $4::text) AND ($2::jsonb ->> s.state) IS NOT NULL
       AND ${ESCHEATMENT_DUE_AT.replace('$3', '$2')} <= $3::timestamptz
       AND ${uuidAfter('a.id', '$5')}
     ORDER BY a.id LIMIT $6::int`,
  ),
};

/** Dormancy and escheatment on PostgreSQL, through Prisma Client: each change one statement with its audit and event. */
export class PrismaDormancyStore implements DormancyStore {
  constructor(private readonly prisma: PrismaClient) {}

  async markDue(day: DormancyDay, thresholds: DormancyThresholds): Promise<number> {
    const [row] = await queryRows<{ changed: number }>(this.prisma, SQL.markDue, [
      day.environment,
      day.cutoff,
      thresholds.inactiveAfterDays,
      thresholds.dormantAfterDays,
      day.limit,
      day.requestId,
      day.principalId,
    ]);
    return row!.changed;
  }

  async noticeEscheatment(day: DormancyDay, periods: EscheatmentPeriods, noticeDays: number): Promise<number> {
    const [row] = await queryRows<{ changed: number }>(this.prisma, SQL.noticeEscheatment, [
      day.environment,
      day.cutoff,
      jsonParameter(periods),
      noticeDays,
      day.limit,
      day.requestId,
      day.principalId,
    ]);
    return row!.changed;
  }

  async reactivate(environment: string, accountId: string, at: Date, audit: NewAuditEvent): Promise<Reactivation> {
    const [row] = await queryRows<AccountRow>(this.prisma, SQL.reactivate, [
      accountId,
      environment,
      at,
      ...auditValues(audit),
    ]);
    if (row) return { outcome: 'reactivated', account: toAccount(row) };
    const found = await queryRows(this.prisma, SQL.exists, [accountId, environment]);
    return found.length === 0 ? { outcome: 'not-found' } : { outcome: 'not-dormant' };
  }

  escheatment(
    environment: string,
    periods: EscheatmentPeriods,
    query: EscheatmentQuery,
    page: PageRequest,
  ): Promise<EscheatmentEntry[]> {
    return queryRows<EscheatmentEntry>(this.prisma, SQL.escheatment, [
      environment,
      jsonParameter(periods),
      query.dueBy,
      query.state,
      page.after ?? null,
      page.first,
    ]);
  }
}
