import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { asServerUser, PG_BIN } from './debian.js';

const run = promisify(execFile);

/**
 * A PostgreSQL 15 primary and a streaming replica made the way an operator makes them: `initdb`, a
 * replication role and slot, `pg_basebackup -R` for the standby, `pg_ctl promote` for a failover. Their
 * settings are deploy/postgres/postgresql.conf (included from each server's postgresql.conf; the port,
 * address and socket directory are given on the command line), so what the fleet proves is what that file says.
 */

export const DEPLOY_POSTGRES = path.resolve(import.meta.dirname, '../../../deploy/postgres');
export const SERVICE_DATABASE = 'cas';
const REPLICATION_ROLE = 'replicator';

export interface PostgresServer {
  name: string;
  dataDir: string;
  port: number;
  /** A URL of the service's database on this server, as the superuser (the fleet is a lab, not production). */
  url: string;
  running(): Promise<boolean>;
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: connections are cut, the shutdown checkpoint is written. */
  stop(): Promise<void>;
  /** SIGKILL of the postmaster: a crashed machine, as far as this one can show it. */
  kill(): Promise<void>;
  /** `pg_ctl promote` of a standby: it leaves recovery and accepts writes. */
  promote(): Promise<void>;
  inRecovery(): Promise<boolean>;
  psql(sql: string, database?: string): Promise<string>;
}

interface Credentials {
  superuserPassword: string;
  replicationPassword: string;
}

function credentials(dir: string): Credentials {
  const file = path.join(dir, 'postgres-credentials.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Credentials;
  const created = {
    superuserPassword: randomBytes(18).toString('base64url'),
    replicationPassword: randomBytes(18).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(created), { mode: 0o600 });
  return created;
}

async function pgCommand(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const [file, argv] = asServerUser(path.join(PG_BIN, command), args);
  const { stdout } = await run(file, argv, { env: { ...process.env, ...env }, maxBuffer: 16 * 2 ** 20 });
  return stdout;
}

function serverOwned(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.getuid?.() === 0) chownSync(dir, ...postgresIds());
}

function server(
  name: string,
  dir: string,
  dataDir: string,
  port: number,
  creds: Credentials,
  settings: Record<string, string> = {},
): PostgresServer {
  const socketDir = path.join(dir, 'sockets');
  // Extra settings on the command line (values without spaces), e.g. the scaling bench's pg_stat_statements.
  const extra = Object.entries(settings)
    .map(([key, value]) => ` -c ${key}=${value}`)
    .join('');
  const logFile = path.join(dir, `${name}.log`);
  const url = `postgresql://postgres:${creds.superuserPassword}@127.0.0.1:${port}/${SERVICE_DATABASE}`;
  const self: PostgresServer = {
    name,
    dataDir,
    port,
    url,
    async running() {
      try {
        await pgCommand('pg_ctl', ['-D', dataDir, 'status']);
        return true;
      } catch {
        return false;
      }
    },
    async start() {
      await pgCommand('pg_ctl', [
        '-D',
        dataDir,
        '-l',
        logFile,
        '-w',
        '-t',
        '120',
        '-o',
        `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1${extra}`,
        'start',
      ]);
    },
    async stop() {
      if (await self.running()) await pgCommand('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    },
    async kill() {
      const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      while (await self.running()) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    async promote() {
      await pgCommand('pg_ctl', ['-D', dataDir, '-w', 'promote']);
    },
    async inRecovery() {
      return (await self.psql('SELECT pg_is_in_recovery()', 'postgres')).trim() === 't';
    },
    async psql(sql, database = SERVICE_DATABASE) {
      const { stdout } = await run(
        path.join(PG_BIN, 'psql'),
        [
          '-qAtX',
          '-v',
          'ON_ERROR_STOP=1',
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
          '-U',
          'postgres',
          '-d',
          database,
          '-c',
          sql,
        ],
        {
          env: { ...process.env, PGPASSWORD: creds.superuserPassword, PGCONNECT_TIMEOUT: '3' },
        },
      );
      return stdout;
    },
  };
  return self;
}

/**
 * The primary in `<dir>/primary`, created on first use (database `cas`, a replication role), started;
 * `settings` are added on its command line (deploy/postgres/postgresql.conf stays as it is).
 */
export async function startPrimary(
  dir: string,
  port: number,
  settings: Record<string, string> = {},
): Promise<PostgresServer> {
  serverOwned(dir);
  serverOwned(path.join(dir, 'sockets'));
  const creds = credentials(dir);
  const dataDir = path.join(dir, 'primary');
  const primary = server('primary', dir, dataDir, port, creds, settings);
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  if (fresh) {
    const passwordFile = path.join(dir, 'superuser-password');
    writeFileSync(passwordFile, `${creds.superuserPassword}\n`, { mode: 0o600 });
    if (process.getuid?.() === 0) chownSync(passwordFile, ...postgresIds());
    await pgCommand('initdb', [
      '-D',
      dataDir,
      '-U',
      'postgres',
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
    ]);
    appendFileSync(
      path.join(dataDir, 'postgresql.conf'),
      `\n# The deployment's settings (compose.yaml's too): deploy/postgres/postgresql.conf\ninclude '${path.join(DEPLOY_POSTGRES, 'postgresql.conf')}'\n`,
    );
    appendFileSync(
      path.join(dataDir, 'pg_hba.conf'),
      `\nhost replication ${REPLICATION_ROLE} 127.0.0.1/32 scram-sha-256\n`,
    );
  }
  await primary.start();
  if (fresh) {
    await primary.psql(
      `CREATE ROLE ${REPLICATION_ROLE} WITH REPLICATION LOGIN PASSWORD '${creds.replicationPassword}'`,
      'postgres',
    );
    await primary.psql(`CREATE DATABASE ${SERVICE_DATABASE}`, 'postgres');
  }
  return primary;
}

function postgresIds(): [number, number] {
  const fields = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((line) => line.startsWith('postgres:'))!
    .split(':');
  return [Number(fields[2]), Number(fields[3])];
}

/**
 * The standby in `<dir>/<name>`: on first use a `pg_basebackup -R` of the primary through a physical
 * replication slot (the primary keeps the WAL the standby has not received), then started.
 */
export async function startStandby(
  dir: string,
  primary: PostgresServer,
  port: number,
  name = 'replica',
): Promise<PostgresServer> {
  const creds = credentials(dir);
  const dataDir = path.join(dir, name);
  const standby = server(name, dir, dataDir, port, creds);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    const slot = `${name}_slot`;
    await pgCommand(
      'pg_basebackup',
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-U',
        REPLICATION_ROLE,
        '-D',
        dataDir,
        '-R',
        '-X',
        'stream',
        '-C',
        '-S',
        slot,
        '--checkpoint=fast',
      ],
      {
        PGPASSWORD: creds.replicationPassword,
      },
    );
    // The same settings file as the primary's (pg_basebackup copied its include line); the name the primary
    // knows it by (synchronous_standby_names, pg_stat_replication) is the walreceiver's application_name.
    appendFileSync(path.join(dataDir, 'postgresql.conf'), `\ncluster_name = '${name}'\n`);
    // -R wrote primary_conninfo with the password into postgresql.auto.conf, readable by the server user only.
  }
  await standby.start();
  return standby;
}

/** Replication as the primary sees it: each standby's state, sync state and replay lag in bytes. */
export async function replicationState(
  primary: PostgresServer,
): Promise<{ application: string; state: string; sync: string; replayLagBytes: number }[]> {
  const out = await primary.psql(
    'SELECT application_name, state, sync_state, coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn), -1)::bigint FROM pg_stat_replication',
    'postgres',
  );
  return out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [application, state, sync, lag] = line.split('|');
      return { application: application!, state: state!, sync: sync!, replayLagBytes: Number(lag) };
    });
}

/** Synchronous replication on (every commit waits for the standby's flush) or off, by ALTER SYSTEM and a reload. */
export async function setSynchronous(primary: PostgresServer, standbyName: string | null): Promise<void> {
  await primary.psql(`ALTER SYSTEM SET synchronous_standby_names = '${standbyName ?? ''}'`, 'postgres');
  await primary.psql('SELECT pg_reload_conf()', 'postgres');
}
