import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/db/postgres/embedded-postgres.js';
import { HUNG_TEST_DEADLINE_MS } from './eventually.js';

/** Debian's package installs it here (apt-get install pgbouncer; .ci/run does). */
export const PGBOUNCER_BINARY = '/usr/sbin/pgbouncer';
/** The operator's file; its [pgbouncer] section is what the test runs, but for the settings of this machine. */
export const SHIPPED_PGBOUNCER_INI = 'deploy/pgbouncer/pgbouncer.ini';

export interface RunningPgbouncer {
  port: number;
  version: string;
  /** The settings it runs with (the shipped file's, with this machine's addresses and files). */
  settings: Record<string, string>;
  /** `serverUrl` (a PostgreSQL URL) with pgbouncer's address instead, same database, role and password. */
  urlFor(serverUrl: string): string;
  /** A query on pgbouncer's admin console (`SHOW STATS`, `SHOW POOLS`, …): simple protocol, one statement. */
  admin<R extends pg.QueryResultRow>(serverUrl: string, command: string): Promise<R[]>;
  /** Its log so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

/** The [pgbouncer] section of an ini file as key → value (comments and blank lines dropped). */
export function pgbouncerSection(text: string): Record<string, string> {
  const settings: Record<string, string> = {};
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      continue;
    }
    const separator = line.indexOf('=');
    if (section === 'pgbouncer' && separator > 0)
      settings[line.slice(0, separator).trim()] = line.slice(separator + 1).trim();
  }
  return settings;
}

/** pgbouncer refuses to run as root: as root it runs as `nobody`, which must own its directory. */
function unprivilegedUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('nobody:'));
  if (!line) throw new Error('running as root, and there is no user "nobody" to run pgbouncer as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Starts a real pgbouncer in front of the PostgreSQL server of `serverUrl` (any database on it, by the
 * same name), with the shipped file's settings and `overrides`, and waits until it accepts connections.
 */
export async function startPgbouncer(
  serverUrl: string,
  overrides: Record<string, string> = {},
): Promise<RunningPgbouncer> {
  const server = new URL(serverUrl);
  const role = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-pgbouncer-'));
  const port = await freePort();
  const settings: Record<string, string> = {
    ...pgbouncerSection(readFileSync(SHIPPED_PGBOUNCER_INI, 'utf8')),
    listen_addr: '127.0.0.1',
    listen_port: String(port),
    unix_socket_dir: '',
    auth_file: path.join(dir, 'userlist.txt'),
    admin_users: role,
    logfile: path.join(dir, 'pgbouncer.log'),
    pidfile: path.join(dir, 'pgbouncer.pid'),
    log_connections: '1',
    log_disconnections: '1',
    ...overrides,
  };
  const ini = [
    '[databases]',
    // Every database name maps to the same name on the test server.
    `* = host=${server.hostname} port=${server.port}`,
    '[pgbouncer]',
    ...Object.entries(settings).map(([key, value]) => `${key} = ${value}`),
    '',
  ].join('\n');
  writeFileSync(path.join(dir, 'pgbouncer.ini'), ini);
  writeFileSync(path.join(dir, 'userlist.txt'), `"${role}" "${password.replaceAll('"', '""')}"\n`, { mode: 0o600 });
  const user = unprivilegedUser();
  if (user) for (const name of ['', ...readdirSync(dir)]) chownSync(path.join(dir, name), user.uid, user.gid);

  const version =
    /PgBouncer (\S+)/.exec(execFileSync(PGBOUNCER_BINARY, ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  const child: ChildProcess = spawn(PGBOUNCER_BINARY, [path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...user,
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => {
    const file = path.join(dir, 'pgbouncer.log');
    return `${stderr}${existsSync(file) ? readFileSync(file, 'utf8') : ''}`;
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // "safe shutdown": no new clients, ends when the current transactions have
      const killTimer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killTimer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
  for (;;) {
    if (child.exitCode !== null) {
      const output = log();
      await stop();
      throw new Error(`pgbouncer exited at start (code ${child.exitCode}):\n${output}`);
    }
    const accepting = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (accepting) break;
    if (Date.now() > deadline) {
      const output = log();
      await stop();
      throw new Error(`pgbouncer did not listen on 127.0.0.1:${port} within 10 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const urlFor = (url: string) => {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(port);
    return through.toString();
  };
  return {
    port,
    version,
    settings,
    urlFor,
    async admin<R extends pg.QueryResultRow>(url: string, command: string) {
      const console = new URL(urlFor(url));
      console.pathname = '/pgbouncer';
      const client = new pg.Client({ connectionString: console.toString() });
      await client.connect();
      try {
        return (await client.query<R>(command)).rows;
      } finally {
        await client.end();
      }
    },
    log,
    stop,
  };
}
