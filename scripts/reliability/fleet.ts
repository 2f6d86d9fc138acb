import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { takeOverShutdownSignals } from '../../src/db/postgres/embedded-postgres.js';
import { buildAccountInput, buildCustomerInput } from '../../test/support/factories.js';
import { ledgerViolations } from '../../test/support/ledger-invariants.js';
import {
  answerProblems,
  isRetryable,
  type LoadSample,
  startMixedLoad,
  statusCounts,
  verifyAcknowledged,
} from './lib/load.js';
import { recordResult } from './lib/results.js';
import { type Api, createApi, log, maximum, options, round, runScript } from './lib/script.js';
import { buildOnce } from './lib/service-process.js';
import { serverStates } from '../fleet/lib/daemons.js';
import { type Fleet, startFleet } from '../fleet/lib/fleet.js';

/**
 * `npm run reliability:fleet`: the fleet on a hand-failed-over pair, compose.yaml's topology (3 instances behind
 * HAProxy, PostgreSQL 15 primary + synchronous streaming replica, Redis; `npm run fleet` runs Patroni instead:
 * scripts/reliability/patroni.ts proves its automatic failover), proved under load, in order:
 *  1. one database, three instances: idempotency keys replay across instances, the rate limit is one
 *     budget shared through Redis, and the ledger's invariants hold with transfers spread over every instance;
 *  2. a rolling restart of every instance under steady load: not one failed request;
 *  3. `kill -9` of one instance under load: only requests in flight on it fail, and their retries with the
 *     same Idempotency-Key succeed; nothing acknowledged is lost;
 *  4. failover: the primary is killed, the replica promoted (`pg_ctl promote`, the runbook in
 *     docs/how-to/fail-over.md): the instances recover without a restart, answering 503 meanwhile, and no
 *     acknowledged write is lost (synchronous replication).
 */

const opts = options(
  {
    clients: { default: '12', help: 'concurrent clients of the steady load' },
    seconds: { default: '4', help: 'seconds of load before and after each fault' },
    record: { default: 'true', help: 'write the result to docs/reliability-results.json' },
  },
  'npm run reliability:fleet -- [options]',
);

const ANSWER_WITHIN_MS = 5000;
/** The auth-failure budget the fleet runs with (per client address, shared by the instances). */
const AUTH_FAILURE_BUDGET = 20;
const AUTH_FAILURE_WINDOW_S = 5;

type Check = { name: string; problems: string[]; figures: Record<string, unknown> };

async function waitUntil(what: string, condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<number> {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
  return performance.now() - started;
}

const allUp = (fleet: Fleet) => async () =>
  Object.values(await serverStates(fleet.haproxy.statsSocket)).every((server) => server.up);

/** 1. Idempotency across instances, the shared rate limit, the ledger under transfers through every instance. */
async function oneDatabaseManyInstances(fleet: Fleet, api: Api): Promise<Check> {
  const problems: string[] = [];
  const direct = fleet.instances.map((instance) => createApi(`http://${instance.address}`, fleet.token, 8));
  try {
    // The same key on each instance in turn: one customer, two replays.
    const key = randomUUID();
    const body = buildCustomerInput();
    const answers = [];
    for (const instance of direct)
      answers.push(await instance.send('POST', '/sandbox/customer', body, { 'idempotency-key': key }));
    const ids = new Set(answers.map((res) => res.json?.data?.customerId));
    if (answers.some((res) => res.status !== 201) || ids.size !== 1)
      problems.push(`one key on three instances: statuses ${answers.map((r) => r.status)}, ${ids.size} customer ids`);
    const replays = answers.map((res) => res.headers['idempotent-replayed'] === 'true');
    if (replays.join() !== 'false,true,true')
      problems.push(`Idempotent-Replayed on the three instances: ${replays.join()}`);

    // Transfers among six accounts through HAProxy (every instance), each with its own key.
    const holder = (await api.json('POST', '/sandbox/customer', buildCustomerInput())).json.data.customerId as string;
    const accounts: string[] = [];
    for (let i = 0; i < 6; i++) {
      const account = (await api.json('POST', '/sandbox/account', { ...buildAccountInput([holder]), currency: 'EUR' }))
        .json.data.accountId as string;
      accounts.push(account);
      const deposit = await api.send(
        'POST',
        `/sandbox/account/${account}/transaction`,
        { type: 'CREDIT', amount: '100.00' },
        { 'idempotency-key': randomUUID() },
      );
      if (deposit.status !== 201)
        problems.push(`deposit answered ${deposit.status} ${deposit.json?.error?.code ?? ''}`);
    }
    let transfers = 0;
    const refused: Record<string, number> = {};
    const until = performance.now() + Number(opts.seconds) * 1000;
    await Promise.all(
      Array.from({ length: Number(opts.clients) }, async (_, client) => {
        while (performance.now() < until) {
          const from = accounts[(client + transfers) % 6]!;
          const to = accounts[(client + transfers + 1 + (client % 5)) % 6]!;
          if (from === to) continue;
          const res = await api.send(
            'POST',
            '/sandbox/transfer',
            { fromAccountId: from, toAccountId: to, amount: '7.25' },
            { 'idempotency-key': randomUUID() },
          );
          if (res.status === 201) transfers += 1;
          else
            refused[`${res.status} ${res.json?.error?.code ?? ''}`] =
              (refused[`${res.status} ${res.json?.error?.code ?? ''}`] ?? 0) + 1;
        }
      }),
    );
    for (const [answer, count] of Object.entries(refused))
      if (!answer.includes('INSUFFICIENT_FUNDS')) problems.push(`transfer answered ${answer} (${count}×)`);
    // A wrong token, round-robin over the instances: one budget, so exactly the budget's worth of 401s, then
    // 429s. Last, and then waited out (a valid token is not refused by the budget, but the window is left clean).
    const badToken = fleet.instances.map((instance) =>
      createApi(`http://${instance.address}`, `wrong_${randomUUID()}`, 2),
    );
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_FAILURE_BUDGET + 10; i++)
      statuses.push((await badToken[i % badToken.length]!.send('GET', '/sandbox/customer/x')).status);
    for (const client of badToken) client.client.close();
    const unauthorized = statuses.filter((s) => s === 401).length;
    const limited = statuses.filter((s) => s === 429).length;
    if (unauthorized !== AUTH_FAILURE_BUDGET || limited !== 10)
      problems.push(
        `shared auth-failure limit: ${unauthorized} × 401 and ${limited} × 429 for ${statuses.length} bad tokens over 3 instances (budget ${AUTH_FAILURE_BUDGET})`,
      );

    await sleep(AUTH_FAILURE_WINDOW_S * 1000 + 500);
    const pool = new pg.Pool({ connectionString: fleet.primary.url, max: 2 });
    try {
      problems.push(...(await ledgerViolations(pool)));
    } finally {
      await pool.end();
    }
    return {
      name: 'one database, three instances',
      problems,
      figures: {
        keyAnswers: answers.map((r) => r.status),
        authFailures: { unauthorized, limited },
        transfers,
        refused,
      },
    };
  } finally {
    for (const client of direct) client.client.close();
  }
}

function loadProblems(samples: readonly LoadSample[], allowed: (sample: LoadSample) => boolean): string[] {
  return [
    ...new Set(
      samples.filter((sample) => !allowed(sample)).flatMap((sample) => answerProblems(sample, ANSWER_WITHIN_MS)),
    ),
  ];
}

/** 2. Every instance restarted in turn (SIGTERM: drain, finish, exit; start; back in rotation) under load. */
async function rollingRestart(fleet: Fleet, api: Api): Promise<Check> {
  let phase = 'before';
  const load = startMixedLoad(api, {
    clients: Number(opts.clients),
    seed: 2,
    phase: () => phase,
    requestTimeoutMs: ANSWER_WITHIN_MS,
  });
  const restarts: { instance: string; drainedAndStoppedMs: number; backInRotationMs: number }[] = [];
  await sleep(Number(opts.seconds) * 1000);
  for (let i = 0; i < fleet.instances.length; i++) {
    phase = `restarting ${fleet.instances[i]!.name}`;
    const stopping = performance.now();
    await fleet.instances[i]!.process!.stop();
    const stoppedAt = performance.now();
    await fleet.startInstance(i);
    await waitUntil(`${fleet.instances[i]!.name} back in rotation`, allUp(fleet));
    restarts.push({
      instance: fleet.instances[i]!.name,
      drainedAndStoppedMs: Math.round(stoppedAt - stopping),
      backInRotationMs: Math.round(performance.now() - stoppedAt),
    });
  }
  phase = 'after';
  await sleep(Number(opts.seconds) * 1000);
  await load.stop();
  const problems = loadProblems(load.samples, () => false);
  const failed = load.samples.filter((sample) => sample.res.status === 0 || sample.res.status >= 500).length;
  if (failed > 0) problems.unshift(`${failed} failed requests during the rolling restart`);
  problems.push(...(await verifyAcknowledged(api, load)));
  return {
    name: 'rolling restart under load',
    problems,
    figures: { requests: load.samples.length, failed, statusCounts: statusCounts(load.samples), restarts },
  };
}

/** 3. kill -9 of one instance under load. */
async function killOneInstance(fleet: Fleet, api: Api): Promise<Check> {
  let phase = 'before';
  const victim = fleet.instances[1]!;
  const load = startMixedLoad(api, {
    clients: Number(opts.clients),
    seed: 3,
    phase: () => phase,
    requestTimeoutMs: ANSWER_WITHIN_MS,
    // HAProxy answers 502 for a request whose instance died under it: the client retries it with its key.
    retryable: (res) => isRetryable(res) || res.status === 502,
  });
  await sleep(Number(opts.seconds) * 1000);
  phase = 'killed';
  const killedAt = performance.now();
  victim.process!.signal('SIGKILL');
  await victim.process!.exited;
  // Until HAProxy's health checks mark it down (2 failed checks), requests still reach the dead instance:
  // on a new connection HAProxy retries another instance; on a kept-alive one the request fails.
  await waitUntil(
    `HAProxy marks ${victim.name} down`,
    async () => !(await serverStates(fleet.haproxy.statsSocket))[victim.name]?.up,
    10_000,
  );
  const markedDownAt = performance.now();
  phase = 'marked down';
  await sleep(Number(opts.seconds) * 1000);
  phase = 'restarted';
  await fleet.startInstance(1);
  await waitUntil(`${victim.name} back in rotation`, allUp(fleet));
  phase = 'after';
  await sleep(Number(opts.seconds) * 1000);
  await load.stop();
  // Failing is allowed only to requests sent before HAProxy took the instance out: those in flight on it when
  // it died, and those sent to it before the checks noticed. Each was retried with the same key or body.
  const failed = (sample: LoadSample) => sample.res.status === 502 || sample.res.status === 0;
  const failedOnVictim = load.samples.filter((sample) => failed(sample) && sample.startedAt < markedDownAt);
  const problems = loadProblems(load.samples, (sample) => failedOnVictim.includes(sample));
  problems.push(...(await verifyAcknowledged(api, load)));
  return {
    name: 'kill -9 of one instance under load',
    problems,
    figures: {
      requests: load.samples.length,
      failedBeforeMarkedDown: failedOnVictim.length,
      killToMarkedDownMs: Math.round(markedDownAt - killedAt),
      statusCounts: statusCounts(load.samples),
      acknowledgedWrites: load.acknowledgedWrites(),
    },
  };
}

/** 4. The primary is killed; the replica is promoted; the instances follow through HAProxy. */
async function failover(fleet: Fleet, api: Api): Promise<Check> {
  let phase = 'before';
  const load = startMixedLoad(api, {
    clients: Number(opts.clients),
    seed: 4,
    phase: () => phase,
    requestTimeoutMs: ANSWER_WITHIN_MS,
  });
  await sleep(Number(opts.seconds) * 1000);
  const acknowledgedBefore = load.acknowledgedWrites();
  phase = 'primary down';
  const t0 = performance.now();
  await fleet.primary.kill();
  // The runbook: make sure the old primary stays out, promote the standby.
  await waitUntil(
    'HAProxy sees the primary down',
    async () => !(await serverStates(fleet.haproxy.statsSocket, 'postgres')).primary?.up,
    10_000,
  );
  const detectedMs = performance.now() - t0;
  phase = 'promoting';
  await fleet.replica.promote();
  const promotedMs = performance.now() - t0;
  phase = 'promoted';
  const firstWriteMs =
    (await waitUntil(
      'a write after the promotion',
      async () =>
        (await api.send('POST', '/sandbox/customer', buildCustomerInput(), { 'idempotency-key': randomUUID() }))
          .status === 201,
      30_000,
    )) + promotedMs;
  phase = 'after';
  await sleep(Number(opts.seconds) * 1000);
  await load.stop();
  const during = new Set(['primary down', 'promoting', 'promoted']);
  const problems = loadProblems(
    load.samples,
    (sample) => (during.has(sample.phase) || during.has(sample.endPhase)) && sample.res.status === 503,
  );
  problems.push(...(await verifyAcknowledged(api, load)));
  if (await fleet.replica.inRecovery()) problems.push('the replica is still in recovery after pg_ctl promote');
  const unavailable = load.samples.filter((sample) => sample.res.status === 503);
  return {
    name: 'failover to the promoted replica (synchronous replication)',
    problems,
    figures: {
      requests: load.samples.length,
      statusCounts: statusCounts(load.samples),
      answered503: unavailable.length,
      max503LatencyMs: round(maximum(unavailable.map((s) => s.res.elapsedMs))),
      acknowledgedBeforeKill: acknowledgedBefore,
      acknowledgedWritesChecked: load.customers.size,
      timelineMs: {
        primaryDownSeenByHaproxy: Math.round(detectedMs),
        promoted: Math.round(promotedMs),
        firstWrite: Math.round(firstWriteMs),
      },
    },
  };
}

runScript('fleet', async () => {
  buildOnce(log);
  takeOverShutdownSignals();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-fleet-'));
  const fleet = await startFleet({
    dir,
    instances: 3,
    port: 0,
    synchronous: true,
    instanceEnv: {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_POINTS: '0',
      RATE_LIMIT_AUTH_FAILURES: String(AUTH_FAILURE_BUDGET),
      RATE_LIMIT_AUTH_FAILURES_DURATION_S: String(AUTH_FAILURE_WINDOW_S),
    },
    log,
  });
  const api = createApi(fleet.url, fleet.token, Number(opts.clients) * 2);
  const checks: Check[] = [];
  try {
    await waitUntil('every instance in rotation', allUp(fleet));
    for (const proof of [oneDatabaseManyInstances, rollingRestart, killOneInstance, failover]) {
      log(`proof: ${proof.name}`);
      const check = await proof(fleet, api);
      checks.push(check);
      log(
        `  ${check.problems.length === 0 ? 'passed' : `FAILED: ${check.problems.slice(0, 5).join('; ')}`} ${JSON.stringify(check.figures)}`,
      );
    }
  } finally {
    api.client.close();
    await fleet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const passed = checks.length === 4 && checks.every((check) => check.problems.length === 0);
  const summary = checks
    .map((check) => `${check.name}: ${check.problems.length === 0 ? 'passed' : `${check.problems.length} problems`}`)
    .join('; ');
  log(summary);
  if (opts.record === 'true') {
    recordResult({
      id: 'fleet',
      test: 'Fleet: 3 instances behind HAProxy, PostgreSQL 15 primary + synchronous streaming replica, Redis',
      operations: `${checks.reduce((n, check) => n + Number(check.figures.requests ?? 0), 0)} requests from ${opts.clients} clients over four proofs`,
      faults:
        'rolling restart of every instance; SIGKILL of one instance; SIGKILL of the PostgreSQL primary and promotion of the replica',
      result: passed
        ? summary
        : `${summary}. ${checks
            .flatMap((check) => check.problems)
            .slice(0, 3)
            .join('; ')}`,
      passed,
      command: 'npm run reliability:fleet',
      figures: Object.fromEntries(checks.map((check) => [check.name, check.figures])),
    });
  }
  return passed;
});
