import { ConfigError, loadConfig } from '../config/config.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { migrate } from './migrations.js';
import { createPool } from './pool.js';

/** `npm run db:migrate`: apply pending migrations to DATABASE_URL (or the embedded database) and exit. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPostgresPort });
  const pool = createPool({
    connectionString: config.databaseUrl ?? embedded!.url,
    max: 1,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
  });
  try {
    const report = await migrate(pool);
    process.stdout.write(
      `Applied ${report.applied.length} migration(s)${report.applied.length ? `: ${report.applied.join(', ')}` : ''}; ` +
        `${report.alreadyApplied.length} already applied.\n`,
    );
    if (report.unknown.length) process.stdout.write(`The database also has migrations this build does not know: ${report.unknown.join(', ')}\n`);
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? '' : 'Migration failed: '}${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
