import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  freePort,
  type PostmasterExit,
  type RunningPostgres,
  startEmbeddedPostgres,
} from '../../src/db/postgres/embedded-postgres.js';
import { PostgresSupervisor } from '../../src/db/postgres/postgres-supervisor.js';
import type { RunningService } from '../../src/runtime.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';
import { buildCustomerInput } from '../support/factories.js';
import { clusterIsStopped, memoryLogger, postmastersFor, runtimeTestKit, spawnService } from './process-helpers.js';

const TOKEN = 'supervisor-rVmWNDifsRmoMRxslDOdDW2Npp0HdHcUaySB17HqLLk_LtYtouqUpo4jKJkRhQVVlaxyrIBCBmPNJNu5iVhNl3Q';
const { cleanups, tempDataDir, baseEnv, start } = runtimeTestKit({ token: TOKEN, tempPrefix: 'cas-supervisor-' });

async function call(service: RunningService | { url: string }, method: string, pathname: string, body?: unknown) {
  const response = await fetch(`${service.url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server that is already initialised and stopped: what a DATA_DIR looks like between two runs. */
async function initialisedDataDir(): Promise<string> {
  const dataDir = tempDataDir();
  const server = await startEmbeddedPostgres({ dataDir });
  await server.stop();
  return dataDir;
}

function killPostmaster(clusterDir: string): number {
  const [pid] = postmastersFor(clusterDir);
  expect(pid).toBeDefined();
  process.kill(pid!, 'SIGKILL');
  return pid!;
}

describe('the supervised embedded PostgreSQL', () => {
  it('comes back by itself after kill -9 of its postmaster: /readyz 503 then 200, requests 503 with Retry-After meanwhile, data kept', async () => {
    const dataDir = tempDataDir();
    const clusterDir = path.join(dataDir, 'postgres');
    const { service, lines } = await start({ DATA_DIR: dataDir });
    const created = await call(
      service,
      'POST',
      '/sandbox/customer',
      buildCustomerInput({ preferredName: 'Before the crash' }),
    );
    expect(created.status).toBe(201);
    const customerId = (created.json!.data as { customerId: string }).customerId;

    for (let crash = 1; crash <= 2; crash++) {
      const killed = killPostmaster(clusterDir);
      const answers: {
        readyz: number;
        get: number;
        retryAfter: string | null;
        code: unknown;
        healthz: number;
        supervisor: unknown;
      }[] = [];
      // Only a hung recovery's stop: the test waits for the answers themselves.
      const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
      for (;;) {
        const [readyz, get, healthz] = await Promise.all([
          call(service, 'GET', '/readyz'),
          call(service, 'GET', `/sandbox/customer/${customerId}`),
          call(service, 'GET', '/healthz'),
        ]);
        answers.push({
          readyz: readyz.status,
          get: get.status,
          retryAfter: get.headers.get('retry-after'),
          code: (get.json?.error as { code?: string } | null)?.code,
          healthz: healthz.status,
          supervisor: (healthz.json?.checks as { embeddedPostgres?: string } | undefined)?.embeddedPostgres,
        });
        // The first answers may still be 200: the killed postmaster's backends serve their connections until
        // they notice its death, within milliseconds. Then down, then back without anyone touching it.
        if (answers.some((answer) => answer.readyz === 503) && readyz.status === 200 && get.status === 200) break;
        expect(Date.now(), JSON.stringify(answers.slice(-20))).toBeLessThan(deadline);
        await sleep(20);
      }
      expect(answers.at(-1)).toMatchObject({ readyz: 200, get: 200 });
      // Every failed request was a clean 503 SERVICE_UNAVAILABLE with Retry-After: never a 500, never a hang.
      const failed = answers.filter((answer) => answer.get !== 200);
      expect(failed.length).toBeGreaterThan(0);
      for (const answer of failed)
        expect(answer).toMatchObject({ get: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: '1' });
      // The process stayed live throughout: a restart of the service would not help.
      expect(answers.every((answer) => answer.healthz === 200)).toBe(true);
      expect(answers.some((answer) => answer.supervisor === 'restarting')).toBe(true);
      expect(postmastersFor(clusterDir)).toHaveLength(1);
      expect(postmastersFor(clusterDir)).not.toContain(killed);

      const logged = lines();
      expect(
        logged.filter((line) => line.msg === 'embedded PostgreSQL exited unexpectedly (signal SIGKILL); restarting it'),
      ).toHaveLength(crash);
      expect(logged.filter((line) => String(line.msg).startsWith('embedded PostgreSQL is back after'))).toHaveLength(
        crash,
      );
      expect(logged.some((line) => line.msg === 'embedded PostgreSQL restart attempt 1')).toBe(true);
    }

    const read = await call(service, 'GET', `/sandbox/customer/${customerId}`);
    expect(read.json!.data).toMatchObject({ customerId, preferredName: 'Before the crash' });
    // And it takes writes again.
    expect((await call(service, 'POST', '/sandbox/customer', buildCustomerInput())).status).toBe(201);
    await service.stop();
    expect(clusterIsStopped(clusterDir)).toBe(true);
  });

  it('gives up after EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS: /healthz 503, a clear message, exit code 69', async () => {
    const dataDir = tempDataDir();
    const clusterDir = path.join(dataDir, 'postgres');
    const running = await spawnService(['--import', 'tsx', 'src/main.ts'], {
      ...baseEnv({ DATA_DIR: dataDir, EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS: '2000' }),
      NODE_ENV: 'development',
    });
    cleanups.push(() => {
      running.child.kill('SIGKILL');
      for (const pid of postmastersFor(clusterDir)) process.kill(pid, 'SIGKILL');
    });
    expect((await call(running, 'GET', '/healthz')).status).toBe(200);
    // A server that can never come back: the cluster now claims another major version.
    writeFileSync(path.join(clusterDir, 'PG_VERSION'), '16\n');
    killPostmaster(clusterDir);

    const healthz: number[] = [];
    let exited = false;
    void running.exited.then(() => (exited = true));
    while (!exited) {
      const answer = await call(running, 'GET', '/healthz').catch(() => undefined);
      if (answer) healthz.push(answer.status);
      await sleep(50);
    }
    expect(await running.exited).toEqual({ code: 69, signal: null });
    // Given up: says so before exiting; and never live again after saying so. Whether an answer came while it
    // was still restarting depends on how fast this machine answered within the 2 s: the kill -9 test above
    // sees 'restarting' live, and the supervisor's own tests (fake clock) its back-off and give-up.
    expect(healthz).toContain(503);
    expect(healthz.slice(healthz.indexOf(503))).toEqual(healthz.slice(healthz.indexOf(503)).map(() => 503));
    expect(running.stderr()).toMatch(
      /Fatal: The embedded PostgreSQL in .* died \(signal SIGKILL\) and could not be restarted within 2000 ms \(EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS; \d+ attempts?\)/,
    );
    expect(running.stderr()).toMatch(/holds a PostgreSQL 16 cluster, but this build embeds PostgreSQL 18/);
    const attempts = running
      .stdout()
      .split('\n')
      .filter((line) => line.includes('restart attempt') && line.includes('failed'));
    // How many fit in the 2 s depends on the machine; that it retries with back-off is the fake-clock test's.
    expect(attempts.length).toBeGreaterThanOrEqual(1);
    expect(postmastersFor(clusterDir)).toEqual([]);
  });
});

describe('the embedded PostgreSQL says clearly why it cannot start', () => {
  it('when another server runs on the same DATA_DIR', async () => {
    const dataDir = tempDataDir();
    const { service } = await start({ DATA_DIR: dataDir });
    const [pid] = postmastersFor(path.join(dataDir, 'postgres'));
    // Found before launching (the lock file names a live postmaster): a start that waited out its time-out would
    // say 'did not become ready within', so the message itself shows it did not wait, however slow the machine.
    await expect(start({ DATA_DIR: dataDir })).rejects.toThrow(
      new RegExp(
        `Another PostgreSQL server \\(pid ${pid}\\) is already running on .*, probably for another instance of this service with the same DATA_DIR\\. Stop it, or give this instance its own DATA_DIR\\.`,
      ),
    );
    expect((await call(service, 'GET', '/readyz')).status).toBe(200); // the running one is untouched
  });

  it('when a postmaster.pid was left by a killed server: PostgreSQL recovers, even when its pid now belongs to another process', async () => {
    const dataDir = tempDataDir();
    const clusterDir = path.join(dataDir, 'postgres');
    // A real leftover: the server killed outright, its lock file still naming it.
    const crashed = await startEmbeddedPostgres({ dataDir });
    const exited = new Promise<PostmasterExit>((resolve) => crashed.onUnexpectedExit(resolve));
    killPostmaster(clusterDir);
    await exited;
    const leftover = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8');

    const first = await start({ DATA_DIR: dataDir });
    expect(
      first
        .lines()
        .some((line) =>
          /postmaster\.pid was left by a PostgreSQL server that is no longer running/.test(String(line.msg)),
        ),
    ).toBe(true);
    expect((await call(first.service, 'GET', '/readyz')).status).toBe(200);
    await first.service.stop();

    // The dead server's pid reused by an unrelated process: PostgreSQL alone would refuse ("Is another postmaster running?").
    const unrelated: ChildProcess = spawn('sleep', ['60'], { stdio: 'ignore' });
    cleanups.push(() => void unrelated.kill('SIGKILL'));
    writeFileSync(path.join(clusterDir, 'postmaster.pid'), leftover.replace(/^\d+/, String(unrelated.pid)));
    const second = await start({ DATA_DIR: dataDir });
    expect(
      second
        .lines()
        .some((line) =>
          /removed a stale .*postmaster\.pid: no process runs on that directory and its pid \d+ now belongs to an unrelated process/.test(
            String(line.msg),
          ),
        ),
    ).toBe(true);
    expect((await call(second.service, 'GET', '/readyz')).status).toBe(200);
  }, 90_000);

  it('when its port is taken by another process', async () => {
    const dataDir = tempDataDir();
    const port = await freePort();
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => squatter.close(resolve)));
    // The port's own message, not the start time-out's ('did not become ready within'): it did not wait.
    await expect(start({ DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(port) })).rejects.toThrow(
      `Port ${port} (EMBEDDED_POSTGRES_PORT) is in use by another process, so the embedded PostgreSQL cannot listen on it.`,
    );
    expect(postmastersFor(path.join(dataDir, 'postgres'))).toEqual([]);
  });

  it('when DATA_DIR holds a cluster of another PostgreSQL major version', async () => {
    const dataDir = await initialisedDataDir();
    writeFileSync(path.join(dataDir, 'postgres', 'PG_VERSION'), '16\n');
    await expect(start({ DATA_DIR: dataDir })).rejects.toThrow(
      /holds a PostgreSQL 16 cluster, but this build embeds PostgreSQL 18, which cannot open another major version's files\. Upgrade it with pg_upgrade/,
    );
    expect(readFileSync(path.join(dataDir, 'postgres', 'PG_VERSION'), 'utf8')).toBe('16\n');
  });
});

/**
 * The supervisor's waits and give-up deadline on vitest's fake clock (Date.now and setTimeout): time is an
 * input the test advances, never a wait, so the back-off and the give-up are exact and a stop is seen to
 * cancel a wait without any time passing.
 */
describe('PostgresSupervisor', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A server whose restarts fail `failures` times, recording when (on the fake clock) each was tried. */
  function fakeServer(failures: number) {
    let onExit: ((exit: PostmasterExit) => void) | undefined;
    const attempts: number[] = [];
    const server: RunningPostgres = {
      url: 'postgresql://fake',
      clusterDir: '/fake/postgres',
      pid: 1,
      onUnexpectedExit: (listener) => (onExit = listener),
      restart: async () => {
        attempts.push(Date.now());
        if (attempts.length <= failures) throw new Error(`attempt ${attempts.length} refused`);
      },
      stop: async () => undefined,
    };
    return { server, attempts, die: () => onExit!({ pid: 1, code: null, signal: 'SIGKILL' }) };
  }

  it('retries at once, then with doubling waits up to the bound', async () => {
    const { server, attempts, die } = fakeServer(5);
    const { logger, lines } = memoryLogger();
    const supervisor = new PostgresSupervisor(server, {
      giveUpAfterMs: 10_000,
      initialDelayMs: 20,
      maxDelayMs: 80,
      logger,
    });
    const diedAt = Date.now();
    die();
    expect(supervisor.status().state).toBe('restarting');
    // Runs every wait the supervisor schedules, advancing the fake clock by exactly each one.
    await vi.runAllTimersAsync();
    expect(attempts.map((at) => at - diedAt)).toEqual([0, 20, 60, 140, 220, 300]);
    expect(supervisor.status()).toMatchObject({ state: 'running', attempts: 6, restarts: 1, downSince: undefined });
    expect(lines().filter((line) => line.msg === 'embedded PostgreSQL restart attempt 3 failed')).toEqual([
      expect.objectContaining({ attempt: 3, reason: 'attempt 3 refused', nextAttemptInMs: 80 }),
    ]);
  });

  it('gives up once, with the last reason, when the time is spent', async () => {
    const { server, attempts, die } = fakeServer(Number.POSITIVE_INFINITY);
    const { logger } = memoryLogger();
    const lost: Error[] = [];
    const supervisor = new PostgresSupervisor(server, {
      giveUpAfterMs: 300,
      initialDelayMs: 20,
      maxDelayMs: 50,
      logger,
      onGiveUp: (error) => lost.push(error),
    });
    const diedAt = Date.now();
    die();
    await vi.advanceTimersByTimeAsync(299);
    expect(supervisor.status().state).toBe('restarting');
    expect(lost).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(supervisor.status().state).toBe('failed');
    // At once, then after 20, 40 and 50 ms waits; the last wait is cut to what remains of the 300 ms.
    expect(attempts.map((at) => at - diedAt)).toEqual([0, 20, 60, 110, 160, 210, 260]);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.message).toMatch(
      /could not be restarted within 300 ms \(EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS; 7 attempts\)\. Last error: attempt 7 refused$/,
    );
    expect(vi.getTimerCount()).toBe(0);
    await supervisor.stop();
    expect(supervisor.status().state).toBe('failed');
    expect(lost).toHaveLength(1);
  });

  it('stops a recovery under way: the wait is cancelled, not waited out', async () => {
    const { server, attempts, die } = fakeServer(Number.POSITIVE_INFINITY);
    const { logger, lines } = memoryLogger();
    const supervisor = new PostgresSupervisor(server, { giveUpAfterMs: 60_000, initialDelayMs: 10_000, logger });
    die();
    // The first attempt fails at once; the supervisor then waits 10 s (on the fake clock) for the second.
    await vi.advanceTimersByTimeAsync(0);
    expect(attempts).toHaveLength(1);
    expect(lines().filter((line) => line.msg === 'embedded PostgreSQL restart attempt 1 failed')).toEqual([
      expect.objectContaining({ nextAttemptInMs: 10_000 }),
    ]);
    expect(vi.getTimerCount()).toBe(1);
    const before = Date.now();
    // With the clock standing still, stop can only finish by cancelling that wait.
    let stopped = false;
    const stopping = supervisor.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(true);
    await stopping;
    expect(Date.now()).toBe(before);
    expect(vi.getTimerCount()).toBe(0);
    expect(supervisor.status().state).toBe('stopped');
    expect(attempts).toHaveLength(1);
  });
});
