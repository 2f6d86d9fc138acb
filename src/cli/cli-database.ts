import type { Config } from '../config/config.js';
import { runningEmbeddedPostgresUrl, startEmbeddedPostgres } from '../db/postgres/embedded-postgres.js';
import { migrate, readMigrations } from '../db/migrations/migrations.js';
import { createPool } from '../db/connection/pool.js';
import { createPrismaClient, type PrismaClient } from '../db/connection/prisma-client.js';

/** Thrown for a wrong invocation: the message is for the operator, exit code 64 (EX_USAGE). */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CliDatabaseOptions {
  /** Migrate as the service would on start (RUN_MIGRATIONS_ON_START), before any client exists. */
  migrateFirst?: boolean;
  /**
   * Without DATABASE_URL, connect to the embedded PostgreSQL a running service serves from DATA_DIR when
   * there is one, instead of refusing to start a second server on the same directory.
   */
  shareRunningEmbedded?: boolean;
}

/**
 * Runs an operator command, through Prisma Client, against DATABASE_URL or against the embedded database
 * in DATA_DIR (which only one process can run at a time: stop the service first, point DATABASE_URL at
 * it, or, for a command that asks for it, share the one the running service started).
 */
export async function withCliDatabase<T>(
  config: Config,
  work: (prisma: PrismaClient) => Promise<T>,
  options: CliDatabaseOptions = {},
): Promise<T> {
  const shared =
    !config.databaseUrl && options.shareRunningEmbedded ? runningEmbeddedPostgresUrl(config.dataDir) : undefined;
  const embedded =
    config.databaseUrl || shared
      ? undefined
      : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPostgresPort });
  const pool = createPool({
    connectionString: config.databaseUrl ?? shared ?? embedded!.url,
    max: 2,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    // Operator commands work in batches that may legitimately outlast a request's statement timeout.
    statementTimeoutMs: Math.max(config.databaseStatementTimeoutMs, 60_000),
  });
  try {
    if (options.migrateFirst && config.runMigrationsOnStart) await migrate(pool, readMigrations(), config.migrations);
    const prisma = createPrismaClient(pool, { namedStatements: config.databasePreparedStatements });
    try {
      return await work(prisma);
    } finally {
      await prisma.$disconnect();
    }
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}

/** Prisma's and PostgreSQL's "relation does not exist": the database was never migrated. */
export function isMissingTable(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    depth < 6 && typeof e === 'object' && e !== null;
    depth++, e = (e as { cause?: unknown }).cause
  ) {
    const { code } = e as { code?: unknown };
    if (code === 'P2021' || code === '42P01') return true;
  }
  return false;
}

/** Ends the process with a message for the operator and the right exit code. */
export function exitWithError(error: unknown, what: string): never {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(64);
  }
  if (isMissingTable(error)) {
    process.stderr.write(
      `${what} failed: the database is not migrated. Run npm run db:migrate (or start the service once) first.\n`,
    );
    process.exit(1);
  }
  process.stderr.write(`${what} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
