import type { PrismaClient } from './prisma-client.js';

export interface SessionSettings {
  timeZone: string;
  /** The session's zone is UTC all year (its offset is 0 in January and in July). */
  utc: boolean;
  /** As PostgreSQL shows it, e.g. `5s`; `0` means none. */
  statementTimeout: string;
}

/**
 * The settings of the sessions the service really gets. The pool asks for them at connection start
 * (src/db/connection/pool.ts), but a connection pooler refuses those startup parameters or, told to ignore them
 * (pgbouncer's `ignore_startup_parameters`), drops them: then they come from the role or the server.
 * UTC matters for correctness: Prisma's pg adapter sends a JavaScript Date as UTC text without an offset,
 * which PostgreSQL reads in the session's time zone.
 */
export async function readSessionSettings(prisma: PrismaClient): Promise<SessionSettings> {
  const rows = await prisma.$queryRaw<SessionSettings[]>`
    SELECT current_setting('TimeZone') AS "timeZone", current_setting('statement_timeout') AS "statementTimeout",
           extract(timezone FROM date_trunc('year', now())) = 0
             AND extract(timezone FROM date_trunc('year', now()) + interval '6 months') = 0 AS utc`;
  return rows[0]!;
}
