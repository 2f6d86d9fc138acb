import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../../src/db/postgres/embedded-postgres.js';
import { ROOT } from './results.js';
import { productionNodeFlags } from '../../lib/production-start.js';
import { childEnvironment } from '../../lib/child-environment.js';

/**
 * The service as operators run it: `node [npm start's flags] dist/main.js` (what `npm start` executes after building), a child
 * process of its own, so that a script can SIGKILL or SIGTERM it and watch it exit.
 */

export const LOG_DIR = path.join(ROOT, 'test-output/reliability');

let built = false;

/** `npm run build` once per script run (RELIABILITY_NO_BUILD=1 skips it when dist/ is known to be current). */
export function buildOnce(log: (line: string) => void): void {
  if (built || process.env.RELIABILITY_NO_BUILD === '1') return;
  log('building the service (npm run build)');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  built = true;
}

/** Secrets for one run: a static token and PII keys, as production requires them. */
export function runSecrets(): Record<string, string> {
  return {
    API_TOKENS: `rel_${randomBytes(32).toString('base64url')}`,
    PII_KEYS: `rel-1:${randomBytes(32).toString('base64')}`,
    PII_ACTIVE_KEY: 'rel-1',
    PII_BLIND_INDEX_KEY: randomBytes(32).toString('base64'),
  };
}

export interface ServiceProcess {
  pid: number;
  url: string;
  port: number;
  logFile: string;
  /** Milliseconds from spawn until /readyz answered 200. */
  readyAfterMs: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>;
  isRunning(): boolean;
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after 15 s; resolves once it has exited. */
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export interface ServiceSpec {
  name: string;
  env: Record<string, string>;
  port?: number;
  /** Extra node flags, e.g. ['--import', sampler]. */
  nodeArgs?: string[];
  /** The Node binary to run it on (default: this script's). */
  nodeBinary?: string;
  readyTimeoutMs?: number;
  /** Where its log goes (default LOG_DIR). */
  logDir?: string;
  /** Settings under `env` (default: the reliability scripts' own, RELIABILITY_DEFAULTS). */
  defaults?: Record<string, string>;
}

/**
 * Rate limits off: these scripts drive one token far past any sensible budget on purpose; the limits have
 * their own tests (test/auth/rate-limits*.test.ts).
 */
export const RELIABILITY_DEFAULTS: Record<string, string> = {
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  ENVIRONMENTS: 'sandbox',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_POINTS: '0',
  RATE_LIMIT_AUTH_FAILURES: '0',
};

export async function startServiceProcess(spec: ServiceSpec): Promise<ServiceProcess> {
  const logDir = spec.logDir ?? LOG_DIR;
  mkdirSync(logDir, { recursive: true });
  const port = spec.port ?? (await freePort());
  const logFile = path.join(logDir, `${spec.name}-${port}-${Date.now()}.log`);
  const log = createWriteStream(logFile);
  const base = childEnvironment();
  const started = performance.now();
  const child = spawn(
    spec.nodeBinary ?? process.execPath,
    [...productionNodeFlags(ROOT), ...(spec.nodeArgs ?? []), 'dist/main.js'],
    {
      cwd: ROOT,
      env: {
        ...base,
        ...(spec.defaults ?? RELIABILITY_DEFAULTS),
        ...spec.env,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, atMs: performance.now() });
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = started + (spec.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${spec.name} exited during startup (${child.exitCode}); log ${logFile}:\n${tail(logFile)}`);
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `${spec.name} was not ready within ${spec.readyTimeoutMs ?? 60_000} ms; log ${logFile}:\n${tail(logFile)}`,
      );
    }
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(25);
  }
  const readyAfterMs = performance.now() - started;
  return {
    pid: child.pid!,
    url,
    port,
    logFile,
    readyAfterMs,
    exited,
    isRunning: () => child.exitCode === null && child.signalCode === null,
    signal: (signal) => child.kill(signal),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timedOut = await Promise.race([exited.then(() => false), sleep(15_000).then(() => true)]);
      if (timedOut) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

export function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
