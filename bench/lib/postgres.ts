import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { type RunningPostgres, startEmbeddedPostgres } from '../../src/db/postgres/embedded-postgres.js';
import { parentPid } from '../../scripts/lib/proc.js';

export const BENCH_DATABASE = 'cas_bench';

/** How "SQL statements per operation" is counted; pg_stat_statements when the server has it loaded. */
export type StatementCounting = 'pg_stat_statements' | 'transactions (pg_stat_database, approximate)';

export interface StatementCounter {
  readonly counting: StatementCounting;
  /** False when backends publish the counts late (up to 10 s): fine over a run, useless for one request. */
  readonly exact: boolean;
  reset(): Promise<void>;
  /** Statements (or transactions) executed in the bench database (or `database`) since the last reset. */
  read(database?: string): Promise<number>;
  /**
   * Blocks the statements read from outside shared_buffers (the OS cache or the disk) since the last reset, or null
   * when not counted (no pg_stat_statements).
   */
  readBlocks(database?: string): Promise<number | null>;
}

export interface BenchPostgres {
  /** A URL on the maintenance database, for monitoring; never the one the servers use. */
  adminUrl: string;
  benchUrl: string;
  embedded: boolean;
  serverVersion: string;
  /** The postmaster's pid when the server runs on this machine, for CPU accounting (a new one after a restart). */
  readonly postmasterPid: number | undefined;
  readonly statements: StatementCounter;
  /**
   * The embedded server only: stops it and starts it again on the same directory and port with `settings` over
   * the ones it started with (shared_buffers takes a restart). Connections to it are closed.
   */
  restartWith(settings: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * The PostgreSQL every contender shares: DATABASE_URL when given, else a throw-away embedded server in
 * a temporary directory with pg_stat_statements loaded. Durability settings are PostgreSQL's defaults
 * (fsync on), as in production: the write scenarios would otherwise flatter the service.
 */
export async function startBenchPostgres(options: {
  databaseUrl: string | undefined;
  keepData: boolean;
  log: (line: string) => void;
}): Promise<BenchPostgres> {
  let adminUrl = options.databaseUrl;
  let stopServer = async () => undefined as void;
  let server: RunningPostgres | undefined;
  let restartServer = async (_settings: Record<string, string>): Promise<void> => {
    throw new Error('only the embedded PostgreSQL is restarted with other settings (not DATABASE_URL)');
  };
  if (!adminUrl) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-bench-pg-'));
    const settings = {
      shared_preload_libraries: 'pg_stat_statements',
      max_connections: '300',
      'pg_stat_statements.track_utility': 'on',
      // As production sizes it (a quarter of memory, at most 8 GB), the same for every contender: PostgreSQL's
      // default 128 MB would make the million-row scenarios read from the OS cache.
      shared_buffers: `${productionSharedBuffersMb()}MB`,
      effective_cache_size: `${Math.floor(os.totalmem() / 1024 / 1024 / 2)}MB`,
    };
    server = await startEmbeddedPostgres({ dataDir, settings, log: options.log });
    const port = Number(new URL(server.url).port);
    adminUrl = server.url;
    stopServer = async () => {
      await server!.stop();
      if (options.keepData) options.log(`kept the benchmark cluster in ${dataDir}`);
      else rmSync(dataDir, { recursive: true, force: true });
    };
    restartServer = async (more) => {
      await server!.stop();
      server = await startEmbeddedPostgres({ dataDir, port, settings: { ...settings, ...more }, log: options.log });
    };
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${BENCH_DATABASE}`);
    const serverVersion = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]!
      .server_version;
    const backendPid = (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    let statements = await createStatementCounter(adminUrl, admin);
    const url = adminUrl;
    // DATABASE_URL's server, when it runs on this machine.
    const externalPostmaster = server === undefined ? localPostmaster(backendPid) : undefined;
    return {
      adminUrl,
      benchUrl: withDatabase(adminUrl, BENCH_DATABASE),
      embedded: options.databaseUrl === undefined,
      serverVersion,
      get postmasterPid() {
        return server?.pid ?? externalPostmaster;
      },
      get statements() {
        return statements;
      },
      restartWith: async (settings) => {
        await statements.close();
        await restartServer(settings);
        const again = new pg.Client({ connectionString: url });
        await again.connect();
        try {
          statements = await createStatementCounter(url, again);
        } finally {
          await again.end();
        }
      },
      stop: async () => {
        await statements.close();
        await stopServer();
      },
    };
  } finally {
    await admin.end();
  }
}

/** The backend's parent, if this machine's /proc shows it is a PostgreSQL server (not a remote pid). */
function localPostmaster(backendPid: number): number | undefined {
  const candidate = parentPid(backendPid);
  if (candidate === undefined) return undefined;
  try {
    const command = readFileSync(`/proc/${candidate}/cmdline`, 'utf8');
    return command.includes('postgres') ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The extension lives in the maintenance database, and the counter reads it from there: the bench
 * database stays exactly as the migrations made it (PostGraphile would otherwise see the view), and
 * the monitoring queries are never counted against the scenario. `admin` is connected to `adminUrl`.
 */
export async function createStatementCounter(
  adminUrl: string,
  admin: pg.Client,
): Promise<StatementCounter & { close(): Promise<void> }> {
  const monitor = new pg.Client({ connectionString: adminUrl });
  await monitor.connect();
  const close = () => monitor.end();
  const existed = (await admin.query("SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'")).rowCount === 1;
  try {
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await admin.query('SELECT 1 FROM pg_stat_statements LIMIT 1');
    return {
      counting: 'pg_stat_statements',
      exact: true,
      reset: async () => {
        await monitor.query('SELECT pg_stat_statements_reset()');
      },
      read: async (database = BENCH_DATABASE) => {
        const { rows } = await monitor.query<{ calls: string }>(
          'SELECT coalesce(sum(calls), 0)::text AS calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)',
          [database],
        );
        return Number(rows[0]!.calls);
      },
      readBlocks: async (database = BENCH_DATABASE) => {
        const { rows } = await monitor.query<{ blocks: string }>(
          'SELECT coalesce(sum(shared_blks_read), 0)::text AS blocks FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)',
          [database],
        );
        return Number(rows[0]!.blocks);
      },
      close,
    };
  } catch {
    // Not loaded on this server (shared_preload_libraries is not ours to change on DATABASE_URL):
    // leave the server as we found it.
    if (!existed) await admin.query('DROP EXTENSION IF EXISTS pg_stat_statements').catch(() => undefined);
    const readTransactions = async (database: string) => {
      // Busy backends publish their counters about once a second (idle ones up to 10 s later).
      await sleep(1100);
      const { rows } = await monitor.query<{ xacts: string }>(
        'SELECT (xact_commit + xact_rollback)::text AS xacts FROM pg_stat_database WHERE datname = $1',
        [database],
      );
      return Number(rows[0]?.xacts ?? 0);
    };
    const baselines = new Map<string, number>();
    return {
      counting: 'transactions (pg_stat_database, approximate)',
      exact: false,
      reset: async () => {
        baselines.set(BENCH_DATABASE, await readTransactions(BENCH_DATABASE));
      },
      read: async (database = BENCH_DATABASE) => (await readTransactions(database)) - (baselines.get(database) ?? 0),
      readBlocks: async () => null,
      close,
    };
  }
}

/** A quarter of the machine's memory, at most 8 GB: the usual production starting point for shared_buffers. */
export const productionSharedBuffersMb = (): number => Math.min(8192, Math.floor(os.totalmem() / 1024 / 1024 / 4));
