import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { isLockTimeout, isRetryableConflict } from '../sql/errors.js';

/**
 * Applies prisma/migrations without Prisma's migrate engine (it cannot be downloaded here, nor on
 * air-gapped bank networks), keeping Prisma's bookkeeping so that the stock `prisma migrate status`
 * and `prisma migrate deploy` agree wherever the engine is available:
 * - the same `_prisma_migrations` table, with the SHA-256 of each migration.sql as its checksum;
 * - the same advisory lock key Prisma's engine takes, so our runner, Prisma's and several starting
 *   instances all apply each migration exactly once;
 * - one transaction per migration: a failure leaves no trace and no half-applied schema;
 * - safe beside a serving fleet: a migration waits at most `lockTimeoutMs` for each lock (so the writes
 *   queued behind its lock request are not stalled for long), and is run again, whole, when it lost a
 *   deadlock to the running service or timed out on a lock. A migration that builds an index and then
 *   drops one upgrades its lock on the table (SHARE, then ACCESS EXCLUSIVE); a transaction of the
 *   running release that read the table and then writes it deadlocks with it. PostgreSQL rolls one of
 *   the two back; when that is the migration, it is retried instead of failing the deploy.
 */

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../../prisma/migrations', import.meta.url));
// The key of Prisma's migrate advisory lock (schema-engine's sql_migration_connector).
const ADVISORY_LOCK_KEY = 72707369;

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationReport {
  applied: string[];
  /** Attempts that were rolled back and run again: a lost deadlock or a lock wait past lockTimeoutMs. */
  retried: MigrationRetry[];
  alreadyApplied: string[];
  /** Recorded in the database but absent from this build (a newer build migrated it). */
  unknown: string[];
}

export function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(dir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    });
}

const CREATE_BOOKKEEPING_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export interface MigrationOptions {
  /** How long one statement of a migration may wait for a lock before the attempt is rolled back (MIGRATION_LOCK_TIMEOUT_MS). */
  lockTimeoutMs: number;
  /** How many times a migration runs at most when it loses a deadlock or times out on a lock (MIGRATION_ATTEMPTS). */
  attempts: number;
  /** The pause before the second attempt; doubled before each further one (with jitter), at most 8 s. */
  firstBackoffMs?: number;
  /** Told of each rolled-back attempt as it happens (a deploy waiting on the fleet's locks says so). */
  onRetry?: (retry: MigrationRetry) => void;
}

export interface MigrationRetry {
  migration: string;
  attempt: number;
  reason: string;
}

export const DEFAULT_MIGRATION_OPTIONS: MigrationOptions = { lockTimeoutMs: 5_000, attempts: 8 };

export async function migrate(
  pool: pg.Pool,
  migrations: Migration[] = readMigrations(),
  options: MigrationOptions = DEFAULT_MIGRATION_OPTIONS,
): Promise<MigrationReport> {
  const client = await pool.connect();
  const session = migrationSession(client);
  const report: MigrationReport = { applied: [], retried: [], alreadyApplied: [], unknown: [] };
  try {
    // A migration, or the wait for another instance's, may legitimately outlast a request's timeout.
    await session.run('SET statement_timeout = 0');
    await session.run('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    try {
      await session.run(CREATE_BOOKKEEPING_TABLE);
      const { rows } = await session.run<AppliedRow>(
        'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL ORDER BY started_at',
      );
      const recorded = new Map(rows.map((row) => [row.migration_name, row]));
      const known = new Set(migrations.map((m) => m.name));
      report.unknown = rows.map((row) => row.migration_name).filter((name) => !known.has(name));

      for (const migration of migrations) {
        const row = recorded.get(migration.name);
        if (row && row.finished_at === null) {
          throw new MigrationError(
            `Migration ${migration.name} started but never finished (recorded in _prisma_migrations). ` +
              'Inspect the database, then mark it rolled back (prisma migrate resolve --rolled-back) or delete its row.',
          );
        }
        if (row) {
          if (row.checksum !== migration.checksum) {
            throw new MigrationError(
              `Migration ${migration.name} was modified after it was applied (checksum ${row.checksum.slice(0, 12)}… in the database, ` +
                `${migration.checksum.slice(0, 12)}… on disk). Applied migrations must never change: restore the file and add a new migration instead.`,
            );
          }
          report.alreadyApplied.push(migration.name);
          continue;
        }
        await applyWithRetries(session, migration, options, report);
        report.applied.push(migration.name);
      }
    } finally {
      await session.run('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
    }
  } finally {
    // Destroyed, not returned: this session has no statement timeout, and a request given it later could
    // wait on a lock for ever (found by scripts/reliability/slow-db.ts).
    client.release(true);
  }
  return report;
}

type Session = ReturnType<typeof migrationSession>;

/**
 * Queries for the migration runner. The pool's client-side query timeout (meant for requests)
 * would abort a long migration, or the wait for another instance's lock, halfway: lifted here.
 */
function migrationSession(client: pg.PoolClient) {
  const NO_CLIENT_TIMEOUT_MS = 2_147_483_647; // the largest timer Node accepts (about 24.8 days)
  return {
    run: <R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]) =>
      client.query<R>({ text, values, query_timeout: NO_CLIENT_TIMEOUT_MS } as pg.QueryConfig),
  };
}

/** PostgreSQL rolled the attempt back because of another session's locks: running it again may succeed. */
function lockConflict(error: unknown): string | undefined {
  if (isLockTimeout(error)) return 'lock wait past the lock timeout';
  if (isRetryableConflict(error)) return 'deadlock with a running transaction';
  return undefined;
}

async function applyWithRetries(
  session: Session,
  migration: Migration,
  options: MigrationOptions,
  report: MigrationReport,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await applyOne(session, migration, options.lockTimeoutMs);
    } catch (error) {
      const reason = lockConflict(error);
      if (!reason || attempt >= options.attempts) {
        const tries = attempt > 1 ? ` (attempt ${attempt} of ${options.attempts})` : '';
        throw new MigrationError(
          `Migration ${migration.name} failed and was rolled back${tries}: ${(error as Error).message}`,
          { cause: error },
        );
      }
      const retry = { migration: migration.name, attempt, reason };
      report.retried.push(retry);
      options.onRetry?.(retry);
      const backoff = Math.min(8_000, (options.firstBackoffMs ?? 250) * 2 ** (attempt - 1));
      await new Promise((resolve) => setTimeout(resolve, backoff / 2 + Math.random() * (backoff / 2)));
    }
  }
}

async function applyOne(session: Session, migration: Migration, lockTimeoutMs: number): Promise<void> {
  const id = randomUUID();
  try {
    await session.run('BEGIN');
    await session.run(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(lockTimeoutMs))}`);
    await session.run(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
      [id, migration.checksum, migration.name],
    );
    await session.run(migration.sql);
    await session.run('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [
      id,
    ]);
    await session.run('COMMIT');
  } catch (error) {
    await session.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
