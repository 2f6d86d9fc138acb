import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createLogger, type Logger } from '../../src/logging/logger.js';
import { startService } from '../../src/runtime.js';
import { TEST_PII_ENV } from '../support/service.js';

/** A logger that keeps its lines in memory, for asserting what the service said. */
export function memoryLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  return {
    logger: createLogger({ level: 'info', pretty: false, destination }),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/**
 * What a runtime test file sets up: `cleanups` run in reverse after each test; temporary DATA_DIRs; the
 * service's environment with a static token; and `start`, the whole service in this process with its log
 * lines kept in memory, stopped after the test.
 */
export function runtimeTestKit(options: { token: string; tempPrefix: string }) {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const tempDataDir = (): string => {
    const dir = mkdtempSync(path.join(os.tmpdir(), options.tempPrefix));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return path.join(dir, 'data');
  };
  const baseEnv = (extra: Record<string, string>) => ({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    API_TOKENS: options.token,
    LOG_LEVEL: 'info',
    LOG_PRETTY: 'false',
    ...TEST_PII_ENV,
    ...extra,
  });
  const start = async (env: Record<string, string>) => {
    const { logger, lines } = memoryLogger();
    const service = await startService(loadConfig(baseEnv(env)), logger);
    cleanups.push(() => service.stop());
    return { service, lines };
  };
  return { cleanups, tempDataDir, baseEnv, start };
}

/** Pids of PostgreSQL postmasters serving `clusterDir` (their command line carries `-D <dir>`). */
export function postmastersFor(clusterDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(path.join('/proc', entry, 'cmdline'), 'utf8').split('\0');
      if (argv.includes(clusterDir) && argv.some((arg) => path.basename(arg) === 'postgres')) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  // A backend just forked still shows its postmaster's command line until it sets its own title: only
  // the processes whose parent is not one of them are postmasters.
  return pids.filter((pid) => !pids.includes(parentOf(pid)));
}

function parentOf(pid: number): number {
  try {
    return Number(/^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** URL of the embedded server running for `dataDir`: port from postmaster.pid, password from DATA_DIR. */
export function embeddedDatabaseUrl(dataDir: string): string {
  const port = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3];
  const password = readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

export const clusterIsStopped = (clusterDir: string) =>
  postmastersFor(clusterDir).length === 0 && !existsSync(path.join(clusterDir, 'postmaster.pid'));

export interface SpawnedService {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node <args>` and resolves once it prints the line announcing its URL. */
export function spawnService(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<SpawnedService> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not announce itself within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /Customer & Account Service on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, stdout: () => stdout, stderr: () => stderr, exited });
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the service exited (code ${code}, signal ${signal}) before announcing itself:\n${stdout}\n${stderr}`,
        ),
      );
    });
  });
}
