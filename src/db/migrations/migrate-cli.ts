import { ConfigError, loadConfig } from '../../config/config.js';
import { startEmbeddedPostgres } from '../postgres/embedded-postgres.js';
import { migrate, readMigrations } from './migrations.js';
import { createPool } from '../connection/pool.js';

/**
 * `npm run db:migrate`: apply pending migrations to DATABASE_URL (or the embedded database) and exit. It needs
 * only the database settings (a migration job holds no tokens or PII keys), and it refuses a transaction-mode
 * pooler: the runner's session advisory lock and `SET statement_timeout` would stay on whichever server
 * connection the pooler picked, blocking the next migration run and leaving another client without a timeout.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env, { databaseOnly: true });
  if (!config.databasePreparedStatements) {
    throw new MigrationRefused(
      'Migrations cannot run through a transaction-mode connection pooler (DATABASE_PREPARED_STATEMENTS=false or pgbouncer=true in DATABASE_URL). ' +
        'Point DATABASE_URL at the PostgreSQL primary directly (as the schema owner) and unset those.',
    );
  }
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPostgresPort });
  const pool = createPool({
    connectionString: config.databaseUrl ?? embedded!.url,
    max: 1,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
  });
  try {
    const report = await migrate(pool, readMigrations(), {
      ...config.migrations,
      onRetry: (retry) =>
        process.stdout.write(
          `${retry.migration}: attempt ${retry.attempt} rolled back (${retry.reason}); running it again.\n`,
        ),
    });
    process.stdout.write(
      `Applied ${report.applied.length} migration(s)${report.applied.length ? `: ${report.applied.join(', ')}` : ''}; ` +
        `${report.alreadyApplied.length} already applied.\n`,
    );
    if (report.unknown.length)
      process.stdout.write(`The database also has migrations this build does not know: ${report.unknown.join(', ')}\n`);
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}

class MigrationRefused extends Error {}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError || error instanceof MigrationRefused ? '' : 'Migration failed: '}${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
