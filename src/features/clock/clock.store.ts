import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { queryRows, statement } from '../../db/sql/sql.js';
import { auditInsert, auditValues } from '../../db/sql/write-effects.js';
import type { ClockMove, ClockStore } from './ports.js';

const SQL = {
  now: statement('clock_now', `SELECT env_now($1::varchar) AS now`),
  // The offset becomes what puts the environment's time at $2 at this statement's moment; the conditional update
  // keeps it growing only, so of two advances at once the later target wins and time never moves back.
  advance: statement(
    'clock_advance',
    `WITH current AS MATERIALIZED (SELECT env_now($1::varchar) AS now),
     moved AS (
       INSERT INTO environment_clocks AS c (environment, offset_ms, updated_at)
       SELECT $1::varchar, (extract(epoch FROM ($2::timestamptz - CURRENT_TIMESTAMP)) * 1000)::bigint, CURRENT_TIMESTAMP
       FROM current WHERE $2::timestamptz > current.now
       ON CONFLICT (environment) DO UPDATE SET offset_ms = EXCLUDED.offset_ms, updated_at = EXCLUDED.updated_at
         WHERE c.offset_ms < EXCLUDED.offset_ms
       RETURNING c.offset_ms
     ),
     audit AS (${auditInsert(3, 'moved')})
     SELECT current.now AS "from", EXISTS (SELECT 1 FROM moved) AS advanced FROM current`,
  ),
};

/** The environment clocks on PostgreSQL: the time is the database's (env_now), as every statement that decides on it sees it. */
export class PrismaClockStore implements ClockStore {
  constructor(private readonly prisma: PrismaClient) {}

  async now(environment: string): Promise<Date> {
    const [row] = await queryRows<{ now: Date }>(this.prisma, SQL.now, [environment]);
    return row!.now;
  }

  async advance(environment: string, to: Date, audit: NewAuditEvent): Promise<ClockMove> {
    const [row] = await queryRows<{ from: Date; advanced: boolean }>(this.prisma, SQL.advance, [
      environment,
      to,
      ...auditValues(audit),
    ]);
    return row!.advanced ? { outcome: 'advanced', from: row!.from } : { outcome: 'not-forward', now: row!.from };
  }
}
