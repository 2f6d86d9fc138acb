import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

/**
 * Applies prisma/migrations without Prisma's migrate engine (it cannot be downloaded here, nor on
 * air-gapped bank networks), keeping Prisma's bookkeeping so that the stock `prisma migrate status`
 * and `prisma migrate deploy` agree wherever the engine is available:
 * - the same `_prisma_migrations` table, with the SHA-256 of each migration.sql as its checksum;
 * - the same advisory lock key Prisma's engine takes, so our runner, Prisma's and several starting
 *   instances all apply each migration exactly once;
 * - one transaction per migration: a failure leaves no trace and no half-applied schema.
 */

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));
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

export async function migrate(pool: pg.Pool, migrations: Migration[] = readMigrations()): Promise<MigrationReport> {
  const client = await pool.connect();
  const session = migrationSession(client);
  const report: MigrationReport = { applied: [], alreadyApplied: [], unknown: [] };
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
        await applyOne(session, migration);
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

async function applyOne(session: Session, migration: Migration): Promise<void> {
  const id = randomUUID();
  try {
    await session.run('BEGIN');
    await session.run(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
      [id, migration.checksum, migration.name],
    );
    await session.run(migration.sql);
    await session.run('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
    await session.run('COMMIT');
  } catch (error) {
    await session.run('ROLLBACK').catch(() => undefined);
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`, { cause: error });
  }
}
