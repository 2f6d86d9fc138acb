import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, type PostmasterExit, type RunningPostgres, startEmbeddedPostgres } from '../../src/db/postgres/embedded-postgres.js';
import { PostgresSupervisor } from '../../src/db/postgres/postgres-supervisor.js';
import type { RunningService } from '../../src/runtime.js';
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
  return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
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
    const created = await call(service, 'POST', '/sandbox/customer', buildCustomerInput({ preferredName: 'Before the crash' }));
    expect(created.status).toBe(201);
    const customerId = (created.json!.data as { customerId: string }).customerId;

    for (let crash = 1; crash <= 2; crash++) {
      const killed = killPostmaster(clusterDir);
      const answers: { readyz: number; get: number; retryAfter: string | null; code: unknown; healthz: number; supervisor: unknown }[] = [];
      const deadline = Date.now() + 30_000;
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
      for (const answer of failed) expect(answer).toMatchObject({ get: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: '1' });
      // The process stayed live throughout: a restart of the service would not help.
      expect(answers.every((answer) => answer.healthz === 200)).toBe(true);
      expect(answers.some((answer) => answer.supervisor === 'restarting')).toBe(true);
      expect(postmastersFor(clusterDir)).toHaveLength(1);
      expect(postmastersFor(clusterDir)).not.toContain(killed);

      const logged = lines();
      expect(logged.filter((line) => line.msg === 'embedded PostgreSQL exited unexpectedly (signal SIGKILL); restarting it')).toHaveLength(crash);
      expect(logged.filter((line) => String(line.msg).startsWith('embedded PostgreSQL is back after'))).toHaveLength(crash);
      expect(logged.some((line) => line.msg === 'embedded PostgreSQL restart attempt 1')).toBe(true);
    }

    const read = await call(service, 'GET', `/sandbox/customer/${customerId}`);
    expect(read.json!.data).toMatchObject({ customerId, preferredName: 'Before the crash' });
    // And it takes writes again.
    expect((await call(service, 'POST', '/sandbox/customer', buildCustomerInput())).status).toBe(201);
    await service.stop();
    expect(clusterIsStopped(clusterDir)).toBe(true);
  }, 120_000);

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
    expect(healthz[0]).toBe(200); // restarting: still live
    expect(healthz).toContain(503); // given up: says so before exiting
    expect(running.stderr()).toMatch(/Fatal: The embedded PostgreSQL in .* died \(signal SIGKILL\) and could not be restarted within 2000 ms \(EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS; \d+ attempts?\)/);
    expect(running.stderr()).toMatch(/holds a PostgreSQL 16 cluster, but this build embeds PostgreSQL 18/);
    const attempts = running
      .stdout()
      .split('\n')
      .filter((line) => line.includes('restart attempt') && line.includes('failed'));
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(postmastersFor(clusterDir)).toEqual([]);
  }, 120_000);
});

describe('the embedded PostgreSQL says clearly why it cannot start', () => {
  it('when another server runs on the same DATA_DIR', async () => {
    const dataDir = tempDataDir();
    const { service } = await start({ DATA_DIR: dataDir });
    const [pid] = postmastersFor(path.join(dataDir, 'postgres'));
    const started = performance.now();
    await expect(start({ DATA_DIR: dataDir })).rejects.toThrow(
      new RegExp(`Another PostgreSQL server \\(pid ${pid}\\) is already running on .*, probably for another instance of this service with the same DATA_DIR\\. Stop it, or give this instance its own DATA_DIR\\.`),
    );
    expect(performance.now() - started).toBeLessThan(10_000);
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
    expect(first.lines().some((line) => /postmaster\.pid was left by a PostgreSQL server that is no longer running/.test(String(line.msg)))).toBe(true);
    expect((await call(first.service, 'GET', '/readyz')).status).toBe(200);
    await first.service.stop();

    // The dead server's pid reused by an unrelated process: PostgreSQL alone would refuse ("Is another postmaster running?").
    const unrelated: ChildProcess = spawn('sleep', ['60'], { stdio: 'ignore' });
    cleanups.push(() => void unrelated.kill('SIGKILL'));
    writeFileSync(path.join(clusterDir, 'postmaster.pid'), leftover.replace(/^\d+/, String(unrelated.pid)));
    const second = await start({ DATA_DIR: dataDir });
    expect(second.lines().some((line) => /removed a stale .*postmaster\.pid: no process runs on that directory and its pid \d+ now belongs to an unrelated process/.test(String(line.msg)))).toBe(true);
    expect((await call(second.service, 'GET', '/readyz')).status).toBe(200);
  }, 90_000);

  it('when its port is taken by another process', async () => {
    const dataDir = tempDataDir();
    const port = await freePort();
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => squatter.close(resolve)));
    const started = performance.now();
    await expect(start({ DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(port) })).rejects.toThrow(
      `Port ${port} (EMBEDDED_POSTGRES_PORT) is in use by another process, so the embedded PostgreSQL cannot listen on it.`,
    );
    expect(performance.now() - started).toBeLessThan(15_000);
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

describe('PostgresSupervisor', () => {
  /** A server whose restarts fail `failures` times, recording when each was tried. */
  function fakeServer(failures: number) {
    let onExit: ((exit: PostmasterExit) => void) | undefined;
    const attempts: number[] = [];
    const server: RunningPostgres = {
      url: 'postgresql://fake',
      clusterDir: '/fake/postgres',
      pid: 1,
      onUnexpectedExit: (listener) => (onExit = listener),
      restart: async () => {
        attempts.push(performance.now());
        if (attempts.length <= failures) throw new Error(`attempt ${attempts.length} refused`);
      },
      stop: async () => undefined,
    };
    return { server, attempts, die: () => onExit!({ pid: 1, code: null, signal: 'SIGKILL' }) };
  }

  it('retries at once, then with doubling waits up to the bound', async () => {
    const { server, attempts, die } = fakeServer(5);
    const { logger, lines } = memoryLogger();
    const supervisor = new PostgresSupervisor(server, { giveUpAfterMs: 10_000, initialDelayMs: 20, maxDelayMs: 80, logger });
    die();
    expect(supervisor.status().state).toBe('restarting');
    while (supervisor.status().state !== 'running') await sleep(5);
    const waits = attempts.slice(1).map((at, i) => at - attempts[i]!);
    expect(waits).toHaveLength(5);
    for (const [i, expected] of [20, 40, 80, 80, 80].entries()) {
      expect(waits[i]).toBeGreaterThanOrEqual(expected - 2);
      expect(waits[i]).toBeLessThan(expected + 200);
    }
    expect(supervisor.status()).toMatchObject({ state: 'running', attempts: 6, restarts: 1, downSince: undefined });
    expect(lines().filter((line) => line.msg === 'embedded PostgreSQL restart attempt 3 failed')).toEqual([
      expect.objectContaining({ attempt: 3, reason: 'attempt 3 refused', nextAttemptInMs: 80 }),
    ]);
  });

  it('gives up once, with the last reason, when the time is spent', async () => {
    const { server, die } = fakeServer(Number.POSITIVE_INFINITY);
    const { logger } = memoryLogger();
    const lost: Error[] = [];
    const supervisor = new PostgresSupervisor(server, { giveUpAfterMs: 300, initialDelayMs: 20, maxDelayMs: 50, logger, onGiveUp: (error) => lost.push(error) });
    die();
    while (supervisor.status().state === 'restarting') await sleep(5);
    expect(supervisor.status().state).toBe('failed');
    expect(lost).toHaveLength(1);
    expect(lost[0]!.message).toMatch(/could not be restarted within 300 ms .*Last error: attempt \d+ refused$/);
    await supervisor.stop();
    expect(supervisor.status().state).toBe('failed');
  });

  it('stops a recovery under way', async () => {
    const { server, attempts, die } = fakeServer(Number.POSITIVE_INFINITY);
    const { logger } = memoryLogger();
    const supervisor = new PostgresSupervisor(server, { giveUpAfterMs: 60_000, initialDelayMs: 10_000, logger });
    die();
    await sleep(50);
    const started = performance.now();
    await supervisor.stop();
    // Well under the 10 s wait it cancels, with room for a loaded CI machine.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(supervisor.status().state).toBe('stopped');
    expect(attempts).toHaveLength(1);
  });
});
