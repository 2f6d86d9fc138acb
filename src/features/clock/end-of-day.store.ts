import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { execute, queryRows, statement } from '../../db/sql/sql.js';
import type { EndOfDayRun, EndOfDayStatus } from './end-of-day.js';
import type { EndOfDayClaim, EndOfDayStore } from './ports.js';

// A step's records are its audit events of the day: request id `end-of-day:<date>:<step>`, or that and `:<part>` when a
// record has parts (an account's flags). Leases and timings are real time (CURRENT_TIMESTAMP): they measure the
// machines, not the environment's calendar.
const SQL = {
  // Creates the day's run, or takes it over when it is not completed and no other owner's lease holds.
  claim: statement(
    'end_of_day_claim',
    `WITH claimed AS (
       INSERT INTO end_of_day_runs AS r (environment, business_date, status, attempts, lease_owner, lease_expires_at)
       VALUES ($1::varchar, $2::date, 'RUNNING', 1, $3::uuid, CURRENT_TIMESTAMP + $4::int * interval '1 millisecond')
       ON CONFLICT (environment, business_date) DO UPDATE SET
         status = 'RUNNING', attempts = r.attempts + 1, lease_owner = EXCLUDED.lease_owner,
         lease_expires_at = EXCLUDED.lease_expires_at, finished_at = NULL
       WHERE r.status <> 'COMPLETED' AND (r.lease_owner IS NULL OR r.lease_expires_at < CURRENT_TIMESTAMP OR r.lease_owner = $3::uuid)
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM claimed) AS claimed,
            (SELECT r.status FROM end_of_day_runs r WHERE r.environment = $1::varchar AND r.business_date = $2::date) AS status`,
  ),
  renew: statement(
    'end_of_day_renew',
    `UPDATE end_of_day_runs SET lease_expires_at = CURRENT_TIMESTAMP + $4::int * interval '1 millisecond'
     WHERE environment = $1::varchar AND business_date = $2::date AND lease_owner = $3::uuid AND status = 'RUNNING'`,
  ),
  startStep: statement(
    'end_of_day_start_step',
    `INSERT INTO end_of_day_steps AS s (environment, business_date, step, position, status, attempts)
     VALUES ($1::varchar, $2::date, $3::varchar, $4::int, 'RUNNING', 1)
     ON CONFLICT (environment, business_date, step) DO UPDATE SET status = 'RUNNING', attempts = s.attempts + 1, finished_at = NULL
       WHERE s.status <> 'COMPLETED'
     RETURNING 1`,
  ),
  completeStep: statement(
    'end_of_day_complete_step',
    `UPDATE end_of_day_steps SET status = 'COMPLETED', finished_at = CURRENT_TIMESTAMP, error = NULL,
       records = (SELECT count(*)::int FROM audit_events a WHERE a.environment = $1::varchar AND a.request_id >= $4::varchar AND (a.request_id = $4::varchar OR a.request_id LIKE $4::varchar || ':%') AND a.request_id LIKE 'end-of-day:%')
     WHERE environment = $1::varchar AND business_date = $2::date AND step = $3::varchar`,
  ),
  failStep: statement(
    'end_of_day_fail_step',
    `WITH step AS (
       UPDATE end_of_day_steps SET status = 'FAILED', finished_at = CURRENT_TIMESTAMP, error = left($4::text, 200),
         records = (SELECT count(*)::int FROM audit_events a WHERE a.environment = $1::varchar AND a.request_id >= $5::varchar AND (a.request_id = $5::varchar OR a.request_id LIKE $5::varchar || ':%') AND a.request_id LIKE 'end-of-day:%')
       WHERE environment = $1::varchar AND business_date = $2::date AND step = $3::varchar
     )
     UPDATE end_of_day_runs SET status = 'FAILED', finished_at = CURRENT_TIMESTAMP, lease_owner = NULL, lease_expires_at = NULL
     WHERE environment = $1::varchar AND business_date = $2::date AND lease_owner = $6::uuid`,
  ),
  complete: statement(
    'end_of_day_complete',
    `UPDATE end_of_day_runs SET status = 'COMPLETED', finished_at = CURRENT_TIMESTAMP, lease_owner = NULL, lease_expires_at = NULL
     WHERE environment = $1::varchar AND business_date = $2::date AND lease_owner = $3::uuid`,
  ),
  progress: statement(
    'end_of_day_progress',
    `SELECT to_char(max(business_date) FILTER (WHERE status = 'COMPLETED'), 'YYYY-MM-DD') AS "lastCompleted",
            to_char(min(business_date), 'YYYY-MM-DD') AS earliest
     FROM end_of_day_runs WHERE environment = $1::varchar`,
  ),
  list: statement(
    'end_of_day_list',
    `SELECT to_char(r.business_date, 'YYYY-MM-DD') AS "businessDate", r.status, r.attempts, r.started_at AS "startedAt",
            r.finished_at AS "finishedAt",
            coalesce((SELECT json_agg(json_build_object('step', s.step, 'position', s.position, 'status', s.status,
                        'records', s.records, 'attempts', s.attempts, 'startedAt', s.started_at, 'finishedAt', s.finished_at,
                        'error', s.error) ORDER BY s.position)
                      FROM end_of_day_steps s WHERE s.environment = r.environment AND s.business_date = r.business_date), '[]') AS steps
     FROM end_of_day_runs r
     WHERE r.environment = $1::varchar AND r.business_date BETWEEN $2::date AND $3::date
     ORDER BY r.business_date`,
  ),
};

interface StepRow {
  step: string;
  position: number;
  status: EndOfDayStatus;
  records: number;
  attempts: number;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
}

/** The end of day's record and lease on PostgreSQL. */
export class PrismaEndOfDayStore implements EndOfDayStore {
  constructor(private readonly prisma: PrismaClient) {}

  async claim(environment: string, businessDate: string, owner: string, leaseMs: number): Promise<EndOfDayClaim> {
    const [row] = await queryRows<{ claimed: boolean; status: EndOfDayStatus }>(this.prisma, SQL.claim, [
      environment,
      businessDate,
      owner,
      leaseMs,
    ]);
    if (row!.claimed) return 'claimed';
    return row!.status === 'COMPLETED' ? 'completed' : 'busy';
  }

  async renew(environment: string, businessDate: string, owner: string, leaseMs: number): Promise<boolean> {
    return (await execute(this.prisma, SQL.renew, [environment, businessDate, owner, leaseMs])) === 1;
  }

  async startStep(environment: string, businessDate: string, step: string, position: number): Promise<boolean> {
    return (await queryRows(this.prisma, SQL.startStep, [environment, businessDate, step, position])).length === 1;
  }

  async completeStep(environment: string, businessDate: string, step: string, requestId: string): Promise<void> {
    await execute(this.prisma, SQL.completeStep, [environment, businessDate, step, requestId]);
  }

  async failStep(
    environment: string,
    businessDate: string,
    step: string,
    failure: { error: string; requestId: string; owner: string },
  ): Promise<void> {
    await execute(this.prisma, SQL.failStep, [
      environment,
      businessDate,
      step,
      failure.error,
      failure.requestId,
      failure.owner,
    ]);
  }

  async complete(environment: string, businessDate: string, owner: string): Promise<void> {
    await execute(this.prisma, SQL.complete, [environment, businessDate, owner]);
  }

  async progress(environment: string): Promise<{ lastCompleted: string | null; earliest: string | null }> {
    const [row] = await queryRows<{ lastCompleted: string | null; earliest: string | null }>(
      this.prisma,
      SQL.progress,
      [environment],
    );
    return { lastCompleted: row?.lastCompleted ?? null, earliest: row?.earliest ?? null };
  }

  async list(environment: string, from: string, to: string): Promise<EndOfDayRun[]> {
    const rows = await queryRows<Omit<EndOfDayRun, 'steps'> & { steps: StepRow[] }>(this.prisma, SQL.list, [
      environment,
      from,
      to,
    ]);
    return rows.map((row) => ({
      ...row,
      steps: row.steps.map((step) => ({
        ...step,
        startedAt: new Date(step.startedAt),
        finishedAt: step.finishedAt === null ? null : new Date(step.finishedAt),
      })),
    }));
  }
}
