import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { answerProblems, startMixedLoad, statusCounts, verifyAcknowledged } from './lib/load.js';
import { startDedicatedPostgres } from './lib/postgres.js';
import { phaseClock } from './lib/phases.js';
import { formatCount } from './lib/results.js';
import {
  conclude,
  CONNECT_TIMEOUT_OPTION,
  createApi,
  log,
  maximum,
  options,
  percentile,
  RECORD_OPTION,
  round,
  runScript,
  SEED_OPTION,
} from './lib/script.js';
import { buildOnce, runSecrets, startServiceProcess } from './lib/service-process.js';
import { startTcpProxy } from './lib/tcp-proxy.js';

/**
 * Network partition between the service and PostgreSQL: the service reaches its (dedicated) PostgreSQL only
 * through a TCP proxy this script controls (lib/tcp-proxy.ts). Under a steady mixed load (reads, creations
 * with an Idempotency-Key, updates) the phases are: healthy → black hole (nothing forwarded either way,
 * sockets left open: connections hang) → heal → reset (every connection RST, new ones too) → heal.
 *
 * Asserted: every answer is a success or 503 SERVICE_UNAVAILABLE with Retry-After, never a 500, never
 * later than the bound (below); requests wholly inside a fault answer 503; /readyz is 503 during the
 * faults; after each heal the first success comes within `recovery-limit` and, from `settle` seconds after
 * the heal, every request succeeds again (the pool is not left with dead or stuck connections); at the end
 * every acknowledged write reads back as acknowledged and no service session is left idle in a transaction.
 *
 * The bound on one answer: a request waits at most DATABASE_CONNECT_TIMEOUT_MS for a connection (pool slot
 * or a new connection) and each statement at most DATABASE_STATEMENT_TIMEOUT_MS + 1 s (pg's query_timeout,
 * the client-side backstop when PostgreSQL itself cannot be heard); a transaction that hangs also ends with
 * a ROLLBACK, which may wait once more. Bound = connect + 2 × (statement + 1000) + 500 ms of slack.
 */

const opts = options(
  {
    clients: { default: '12', help: 'concurrent clients' },
    healthy: { default: '3', help: 'seconds of load before the first fault' },
    'black-hole': { default: '6', help: 'seconds of black hole' },
    reset: { default: '4', help: 'seconds during which every connection is reset' },
    heal: { default: '6', help: 'seconds of load after each heal' },
    settle: { default: '3', help: 'seconds after a heal from which every request must succeed' },
    'recovery-limit': { default: '5', help: 'seconds after a heal within which the first success must come' },
    'statement-timeout': { default: '1000', help: 'DATABASE_STATEMENT_TIMEOUT_MS given to the service' },
    ...CONNECT_TIMEOUT_OPTION,
    'pool-size': { default: '8', help: 'DATABASE_POOL_SIZE given to the service' },
    ...SEED_OPTION,
    ...RECORD_OPTION,
  },
  'npm run reliability:partition -- [options]   (short form: --black-hole 4 --reset 2 --heal 4 --healthy 2)',
);

type Phase = 'healthy' | 'black-hole' | 'heal-1' | 'reset' | 'heal-2';

runScript('partition', async () => {
  const clients = Number(opts.clients);
  const statementTimeout = Number(opts['statement-timeout']);
  const connectTimeout = Number(opts['connect-timeout']);
  const boundMs = connectTimeout + 2 * (statementTimeout + 1000) + 500;
  const settleMs = Number(opts.settle) * 1000;
  const recoveryLimitMs = Number(opts['recovery-limit']) * 1000;
  buildOnce(log);
  const postgres = await startDedicatedPostgres();
  const pgUrl = new URL(postgres.databaseUrl);
  const proxy = await startTcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port) });
  const proxied = new URL(postgres.databaseUrl);
  proxied.port = String(proxy.port);
  const secrets = runSecrets();
  const service = await startServiceProcess({
    name: 'partition',
    env: {
      DATABASE_URL: proxied.toString(),
      DATABASE_STATEMENT_TIMEOUT_MS: String(statementTimeout),
      DATABASE_CONNECT_TIMEOUT_MS: String(connectTimeout),
      DATABASE_POOL_SIZE: opts['pool-size'],
      ...secrets,
    },
  });
  const api = createApi(service.url, secrets.API_TOKENS!, clients * 2 + 4);
  const problems: string[] = [];
  const phases = phaseClock<Phase>('healthy', log, () => `proxy: ${JSON.stringify(proxy.stats())}`);
  const enter = phases.enter;
  enter('healthy');
  const load = startMixedLoad(api, {
    clients,
    seed: Number(opts.seed),
    phase: phases.current,
    requestTimeoutMs: boundMs + 5000,
  });
  const readiness: { phase: Phase; endPhase: Phase; status: number; elapsedMs: number }[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const p = phases.current();
      const res = await api.send('GET', '/readyz', undefined, {}, boundMs + 5000);
      readiness.push({ phase: p, endPhase: phases.current(), status: res.status, elapsedMs: res.elapsedMs });
      await sleep(250);
    }
  })();
  // PostgreSQL's own view, directly (not through the proxy): the service's sessions left inside a
  // transaction (a transaction whose ROLLBACK never arrived holds its locks until PostgreSQL ends it).
  const monitor = new pg.Client({ connectionString: postgres.databaseUrl });
  await monitor.connect();
  const sessions: { phase: Phase; atMs: number; idleInTransaction: number; waitingOnLock: number }[] = [];
  const sessionProbe = (async () => {
    while (probing) {
      const p = phases.current();
      const { rows } = await monitor.query<{ state: string | null; wait: string | null }>(
        "SELECT state, wait_event_type AS wait FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'customer-account-service'",
      );
      sessions.push({
        phase: p,
        atMs: Math.round(performance.now() - phases.startOf(p)),
        idleInTransaction: rows.filter((r) => r.state?.startsWith('idle in transaction')).length,
        waitingOnLock: rows.filter((r) => r.wait === 'Lock').length,
      });
      await sleep(250);
    }
  })();
  const leftInTransaction: number[] = [];
  try {
    await sleep(Number(opts.healthy) * 1000);
    enter('black-hole');
    proxy.blackHole();
    await sleep(Number(opts['black-hole']) * 1000);
    enter('heal-1');
    proxy.heal();
    await sleep(Number(opts.heal) * 1000);
    enter('reset');
    proxy.reset();
    await sleep(Number(opts.reset) * 1000);
    enter('heal-2');
    proxy.heal();
    await sleep(Number(opts.heal) * 1000);
    probing = false;
    await Promise.all([load.stop(), probe, sessionProbe]);
    if (!service.isRunning()) problems.push('the service exited');

    problems.push(...(await verifyAcknowledged(api, load)));
    // The pool is not poisoned: none of the service's sessions is left inside a transaction or waiting.
    const { rows } = await monitor.query<{ state: string }>(
      "SELECT state FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'customer-account-service'",
    );
    leftInTransaction.push(rows.filter((r) => r.state.startsWith('idle in transaction')).length);
    if (leftInTransaction[0]! > 0) problems.push(`${leftInTransaction[0]} service sessions left idle in a transaction`);
  } finally {
    probing = false;
    await load.stop();
    await sessionProbe.catch(() => undefined);
    await monitor.end().catch(() => undefined);
    await service.stop();
    await proxy.close();
    await postgres.dispose();
  }

  const samples = load.samples;
  const acknowledged = load.acknowledgedWrites();
  for (const sample of samples) problems.push(...answerProblems(sample, boundMs));
  const within = (p: Phase) => samples.filter((s) => s.phase === p && s.endPhase === p);
  // Inside a fault nothing can succeed: every request that left and was answered inside it is a 503.
  for (const p of ['black-hole', 'reset'] as const) {
    const bad = within(p).filter((s) => s.res.status !== 503);
    if (bad.length > 0)
      problems.push(`${bad.length} requests inside the ${p} answered ${JSON.stringify(statusCounts(bad))}`);
    // Probes that left and were answered inside the fault all say 503 (one that straddles the heal may
    // succeed), and at least one probe that left inside it said 503 (on a loaded machine a probe that waits
    // out its timeout can end after a short fault has healed).
    const ready = readiness.filter((r) => r.phase === p && r.endPhase === p);
    const saidUnavailable = readiness.some((r) => r.phase === p && r.status === 503);
    if (!saidUnavailable || ready.some((r) => r.status !== 503)) {
      problems.push(
        `/readyz during the ${p}: ${
          readiness
            .filter((r) => r.phase === p)
            .map((r) => `${r.status}${r.endPhase === p ? '' : ` (answered in ${r.endPhase})`}`)
            .join(',') || 'no probe left'
        }`,
      );
    }
  }
  const heals: Record<string, unknown> = {};
  for (const p of ['heal-1', 'heal-2'] as const) {
    const healedAt = phases.startOf(p);
    // Requests that left after the heal and were answered before the next fault (or the end).
    const after = samples.filter((s) => s.startedAt >= healedAt && s.phase === p && s.endPhase === p);
    const firstSuccess = after
      .filter((s) => s.res.status >= 200 && s.res.status < 300)
      .map((s) => s.startedAt + s.res.elapsedMs - healedAt);
    const failures = after.filter((s) => s.res.status >= 300);
    const lastFailure = failures.map((s) => s.startedAt + s.res.elapsedMs - healedAt);
    const firstSuccessMs = firstSuccess.length > 0 ? Math.round(Math.min(...firstSuccess)) : undefined;
    const settled = after.filter((s) => s.startedAt - healedAt >= settleMs);
    const settledFailures = settled.filter((s) => s.res.status >= 300);
    heals[p] = {
      firstSuccessMs,
      lastFailureMs: lastFailure.length > 0 ? Math.round(maximum(lastFailure)) : 0,
      failuresAfterHeal: statusCounts(failures),
      requestsAfterSettle: settled.length,
      failuresAfterSettle: settledFailures.length,
    };
    if (firstSuccessMs === undefined || firstSuccessMs > recoveryLimitMs)
      problems.push(`after ${p}: first success ${firstSuccessMs ?? 'never'} ms (limit ${recoveryLimitMs} ms)`);
    if (settledFailures.length > 0)
      problems.push(
        `${settledFailures.length} of ${settled.length} requests from ${settleMs} ms after ${p} failed: ${JSON.stringify(statusCounts(settledFailures))}`,
      );
    if (settled.length === 0) problems.push(`no request from ${settleMs} ms after ${p}`);
  }
  const faultSummary = (p: Phase) => {
    const inPhase = samples.filter((s) => s.phase === p || s.endPhase === p);
    const latencies = inPhase.map((s) => s.res.elapsedMs);
    return {
      requests: inPhase.length,
      statuses: statusCounts(inPhase),
      p50Ms: round(percentile(latencies, 50)),
      p99Ms: round(percentile(latencies, 99)),
      maxMs: round(maximum(latencies)),
    };
  };
  const healthy = within('healthy');
  const figures = {
    boundMs,
    settings: {
      statementTimeoutMs: statementTimeout,
      connectTimeoutMs: connectTimeout,
      poolSize: Number(opts['pool-size']),
      clients,
    },
    requests: samples.length,
    statuses: statusCounts(samples),
    healthy: {
      requests: healthy.length,
      p99Ms: round(
        percentile(
          healthy.map((s) => s.res.elapsedMs),
          99,
        ),
      ),
    },
    blackHole: faultSummary('black-hole'),
    reset: faultSummary('reset'),
    heals,
    readyzDuringFaults: Object.fromEntries(
      (['black-hole', 'reset'] as const).map((p) => [
        p,
        readiness
          .filter((r) => r.phase === p && r.endPhase === p)
          .map((r) => `${r.status}@${Math.round(r.elapsedMs)}ms`),
      ]),
    ),
    serviceSessionsIdleInTransaction: Object.fromEntries(
      (['black-hole', 'heal-1', 'reset', 'heal-2'] as const).map((p) => [
        p,
        maximum(sessions.filter((x) => x.phase === p).map((x) => x.idleInTransaction)),
      ]),
    ),
    serviceSessionsWaitingOnLock: Object.fromEntries(
      (['black-hole', 'heal-1', 'reset', 'heal-2'] as const).map((p) => [
        p,
        maximum(sessions.filter((x) => x.phase === p).map((x) => x.waitingOnLock)),
      ]),
    ),
    proxy: proxy.stats(),
    acknowledgedWrites: acknowledged,
    customersChecked: load.customers.size,
    serviceSessionsIdleInTransactionAtEnd: leftInTransaction[0],
    seed: Number(opts.seed),
  };
  log(JSON.stringify(figures));
  const h1 = heals['heal-1'] as { firstSuccessMs: number; lastFailureMs: number };
  const h2 = heals['heal-2'] as { firstSuccessMs: number; lastFailureMs: number };
  return conclude({
    problems,
    shown: 25,
    passSummary: () =>
      `black hole: ${figures.blackHole.statuses['503'] ?? 0} answers 503 SERVICE_UNAVAILABLE (max ${figures.blackHole.maxMs} ms, bound ${boundMs} ms); reset: ${figures.reset.statuses['503'] ?? 0} × 503 (max ${figures.reset.maxMs} ms); ` +
      `0 500s, 0 hangs, /readyz 503 during both; first success ${h1.firstSuccessMs} ms / ${h2.firstSuccessMs} ms after healing, last failure ${h1.lastFailureMs} / ${h2.lastFailureMs} ms after; ` +
      `${formatCount(acknowledged)} acknowledged writes all present, 0 sessions left in a transaction`,
    record: opts.record === 'true',
    row: {
      id: 'fault-partition',
      test: 'Network partition between the service and PostgreSQL (TCP proxy): black hole, then resets',
      operations: `${formatCount(samples.length)} requests from ${clients} clients (reads, keyed creations, updates)`,
      faults: `${opts['black-hole']} s black hole (nothing forwarded, sockets open), heal, ${opts.reset} s of TCP RST on every connection, heal; DATABASE_STATEMENT_TIMEOUT_MS=${statementTimeout}, DATABASE_CONNECT_TIMEOUT_MS=${connectTimeout}`,
      command: 'npm run reliability:partition',
      figures,
    },
  });
});
