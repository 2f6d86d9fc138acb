import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, type RunningPostgres, startEmbeddedPostgres } from '../../../src/db/postgres/embedded-postgres.js';

/**
 * A PostgreSQL of the script's own (embedded PostgreSQL 18 in a temporary directory, on a fixed loopback
 * port), so that a script can stop and restart it under the service's feet without touching anything else.
 * PostgreSQL's default durability (fsync on): the crash scripts must not be flattered.
 */
export interface DedicatedPostgres {
  dataDir: string;
  port: number;
  /** URL of the database the service uses. */
  databaseUrl: string;
  running(): boolean;
  /** The postmaster's pid while it runs (its process tree is PostgreSQL's CPU). */
  pid(): number | undefined;
  stop(): Promise<void>;
  /** SIGKILL of the postmaster, as a crash would end it; resolves with its pid once it has exited. start() brings it back (crash recovery). */
  kill(): Promise<number>;
  start(): Promise<void>;
  /** Stops the server if running and deletes its directory. */
  dispose(): Promise<void>;
  /** Called whenever the postmaster ends without stop() or kill() ending it (a PANIC it could not recover from, say); start() brings it back. */
  onUnexpectedExit(listener: (exit: { pid: number; code: number | null; signal: NodeJS.Signals | null }) => void): void;
}

export const SERVICE_DATABASE = 'cas_reliability';

export async function startDedicatedPostgres(
  options: {
    settings?: Record<string, string>;
    serverLog?: (chunk: string) => void;
    /** Where its directory is made (default: the system's temporary directory). */ parentDir?: string;
  } = {},
): Promise<DedicatedPostgres> {
  const dataDir = mkdtempSync(path.join(options.parentDir ?? os.tmpdir(), 'cas-reliability-pg-'));
  const port = await freePort();
  const exitListeners: ((exit: { pid: number; code: number | null; signal: NodeJS.Signals | null }) => void)[] = [];
  let killing = false;
  const launch = async () => {
    const started = await startEmbeddedPostgres({
      dataDir,
      port,
      settings: { max_connections: '200', ...options.settings },
      ...(options.serverLog && { serverLog: options.serverLog }),
    });
    started.onUnexpectedExit((exit) => {
      if (killing || server !== started) return;
      server = undefined;
      for (const listener of exitListeners) listener(exit);
    });
    return started;
  };
  let server: RunningPostgres | undefined = await launch();
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${SERVICE_DATABASE}`);
  await admin.end();
  const url = new URL(server.url);
  url.pathname = `/${SERVICE_DATABASE}`;
  return {
    dataDir,
    port,
    databaseUrl: url.toString(),
    running: () => server !== undefined,
    pid: () => server?.pid,
    async stop() {
      await server?.stop();
      server = undefined;
    },
    async kill() {
      const current = server;
      if (current?.pid === undefined) throw new Error('PostgreSQL is not running');
      const pid = current.pid;
      const exited = new Promise((resolve) => current.onUnexpectedExit(resolve));
      killing = true;
      process.kill(pid, 'SIGKILL');
      await exited;
      killing = false;
      server = undefined;
      return pid;
    },
    async start() {
      server ??= await launch();
    },
    onUnexpectedExit(listener) {
      exitListeners.push(listener);
    },
    async dispose() {
      await server?.stop().catch(() => undefined);
      server = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The cluster state PostgreSQL recorded in global/pg_control (ControlFileData.state, an int32 after the
 * 8-byte system identifier and two uint32 versions): "shut down" only after a clean shutdown.
 */
export function clusterState(clusterDir: string): string {
  const file = path.join(clusterDir, 'global', 'pg_control');
  if (!existsSync(file)) return 'no pg_control';
  const states = [
    'starting up',
    'shut down',
    'shut down in recovery',
    'shutting down',
    'in crash recovery',
    'in archive recovery',
    'in production',
  ];
  return states[readFileSync(file).readInt32LE(16)] ?? 'unknown';
}
