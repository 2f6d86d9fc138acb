import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/db/postgres/embedded-postgres.js';

/** Every child this run started, so that an interrupted run leaves nothing behind. */
const children = new Set<ChildProcess>();

export function killAllChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        // Servers run in their own process group (npm start spawns node under npm).
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }
  }
}

const versions = new Map<string, string>();

export function nodeVersion(node: string): string {
  let version = versions.get(node);
  if (version === undefined) {
    version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    versions.set(node, version);
  }
  return version;
}

export const nodeMajor = (node: string): number => Number(/^v(\d+)/.exec(nodeVersion(node))?.[1] ?? 0);

export interface RunningServer {
  name: string;
  baseUrl: string;
  pid: number;
  node: string;
  /** Milliseconds from spawn to the first successful readiness probe. */
  readyAfterMs: number;
  logFile: string;
  /** The database it serves from, when not the bench database (statements are counted there). */
  database?: string;
  /** The bearer the load sends it, when not the run's (ctx.token): the auth-path contenders have their own. */
  bearer?: string;
  stop(): Promise<void>;
}

export interface ServerSpec {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Path answering once the server can take load; `status` when a specific answer is required. */
  readyPath: string;
  readyStatus?: number;
  logDir: string;
  timeoutMs?: number;
  /** The port to listen on (passed as PORT); a free one when absent. */
  port?: number;
  /** Its database, when not the bench database. */
  database?: string;
}

export async function startServer(spec: ServerSpec): Promise<RunningServer> {
  const port = spec.port ?? (await freePort());
  const logFile = path.join(spec.logDir, `${spec.name}-${port}.log`);
  const log = createWriteStream(logFile);
  const started = performance.now();
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: { ...spec.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.add(child);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;

  const deadline = started + (spec.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${spec.name} exited during startup (code ${child.exitCode}); log ${logFile}:\n${tail(logFile)}`);
    }
    if (performance.now() > deadline) {
      await stopChild(child, exited);
      throw new Error(
        `${spec.name} was not ready within ${spec.timeoutMs ?? 60_000} ms; log ${logFile}:\n${tail(logFile)}`,
      );
    }
    try {
      const response = await fetch(baseUrl + spec.readyPath, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (spec.readyStatus === undefined ? response.status < 500 : response.status === spec.readyStatus) break;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  const readyAfterMs = performance.now() - started;
  return {
    name: spec.name,
    baseUrl,
    pid: child.pid!,
    node: spec.command,
    readyAfterMs,
    logFile,
    ...(spec.database !== undefined && { database: spec.database }),
    stop: async () => {
      await stopChild(child, exited);
      children.delete(child);
      log.end();
    },
  };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup('SIGTERM');
  const timedOut = await Promise.race([exited.then(() => false), sleep(15_000).then(() => true)]);
  if (timedOut) {
    signalGroup('SIGKILL');
    await exited;
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Runs a short-lived command to completion; resolves with its stdout, rejects with its stderr. */
export function runToCompletion(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      children.delete(child);
      if (code === 0) resolve(stdout);
      else
        reject(new Error(`${path.basename(command)} ${args.join(' ')} exited with ${code}:\n${stderr.slice(-2000)}`));
    });
  });
}
