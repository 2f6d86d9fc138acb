import { setTimeout as sleep } from 'node:timers/promises';
import { buildAccountInput, buildCustomerInput } from '../../test/support/factories.js';
import { pick } from './lib/concurrency.js';
import { answerProblems, sampleAnswers, startClients, statusCounts } from './lib/load.js';
import { startDedicatedPostgres } from './lib/postgres.js';
import { formatCount } from './lib/results.js';
import {
  conclude,
  createApi,
  log,
  maximum,
  options,
  percentile,
  RECORD_OPTION,
  round,
  runScript,
} from './lib/script.js';
import { buildOnce, runSecrets, startServiceProcess } from './lib/service-process.js';

/**
 * Database outage: PostgreSQL is stopped under a mixed load and started again. While it is down every
 * request must answer 503 SERVICE_UNAVAILABLE in the envelope within 2 s (no hang, no 500, no crash) and
 * /readyz must say unready; once it is back the service must recover by itself, without a restart, and
 * every write acknowledged before the outage must still be there.
 */

const opts = options(
  {
    clients: { default: '16', help: 'concurrent clients' },
    before: { default: '3', help: 'seconds of load before the outage' },
    outage: { default: '6', help: 'seconds PostgreSQL stays down' },
    after: { default: '6', help: 'seconds of load after PostgreSQL is back' },
    ...RECORD_OPTION,
  },
  'npm run reliability:db-outage -- [options]',
);

type Phase = 'before' | 'stopping' | 'down' | 'recovering' | 'after';

const ANSWER_WITHIN_MS = 2000;

runScript('db-outage', async () => {
  const clients = Number(opts.clients);
  buildOnce(log);
  const postgres = await startDedicatedPostgres();
  const secrets = runSecrets();
  const service = await startServiceProcess({
    name: 'db-outage',
    env: { DATABASE_URL: postgres.databaseUrl, ...secrets },
  });
  const api = createApi(service.url, secrets.API_TOKENS!, clients * 2);
  const problems: string[] = [];
  let phase: Phase = 'before';
  const traffic = sampleAnswers(api, { phase: () => phase, requestTimeoutMs: 10_000 });
  const samples = traffic.samples;
  const readiness: { phase: Phase; status: number }[] = [];
  const timeline: Record<string, number> = {};
  const t0 = performance.now();
  const mark = (name: string) => (timeline[name] = Math.round(performance.now() - t0));
  const acknowledged: { kind: 'customer' | 'account'; id: string }[] = [];
  let recoveredAt: number | undefined;

  try {
    const customers: string[] = [];
    for (let i = 0; i < 8; i++)
      customers.push((await api.json('POST', '/sandbox/customer', buildCustomerInput())).json.data.customerId);
    for (const id of customers) acknowledged.push({ kind: 'customer', id });

    let running = true;
    const load = startClients(
      clients,
      (client) => client + 1,
      (client, random) => async () => {
        const roll = random();
        const [kind, method, path, body] =
          roll < 0.4
            ? ['read', 'GET', `/sandbox/customer/${pick(random, customers)}`, undefined]
            : roll < 0.6
              ? ['create', 'POST', '/sandbox/customer', buildCustomerInput()]
              : roll < 0.8
                ? ['create account', 'POST', '/sandbox/account', buildAccountInput([pick(random, customers)])]
                : ['update', 'PUT', `/sandbox/customer/${pick(random, customers)}`, { preferredName: `p${client}` }];
        const res = await traffic.send(kind, method, path, body);
        if (res.status === 201)
          acknowledged.push(
            method === 'POST' && path.endsWith('customer')
              ? { kind: 'customer', id: res.json.data.customerId }
              : { kind: 'account', id: res.json.data.accountId },
          );
        // New customers hold the next accounts too: a customer holds at most 100 (CUSTOMER_ACCOUNT_LIMIT).
        if (res.status === 201 && kind === 'create') customers.push(res.json.data.customerId);
        if (res.status !== 0 && recoveredAt === undefined && phase === 'recovering' && res.status < 300)
          recoveredAt = performance.now();
        // Clients that are told to retry later do, after a short pause (as Retry-After: 1 suggests, shortened).
        if (res.status === 503) await sleep(50);
      },
    );
    const probe = (async () => {
      while (running) {
        const res = await api.send('GET', '/readyz', undefined, {}, 5000);
        readiness.push({ phase, status: res.status });
        await sleep(200);
      }
    })();

    await sleep(Number(opts.before) * 1000);
    phase = 'stopping';
    mark('stopRequested');
    await postgres.stop();
    mark('stopped');
    phase = 'down';
    await sleep(Number(opts.outage) * 1000);
    phase = 'recovering';
    mark('startRequested');
    await postgres.start();
    mark('started');
    const recoveryDeadline = performance.now() + 15_000;
    while (recoveredAt === undefined && performance.now() < recoveryDeadline) await sleep(20);
    if (recoveredAt !== undefined) timeline.firstSuccessAfterStart = Math.round(recoveredAt - t0) - timeline.started!;
    phase = 'after';
    mark('after');
    await sleep(Number(opts.after) * 1000);
    running = false;
    await Promise.all([load.stop(), probe]);
    if (!service.isRunning()) problems.push('the service exited during the outage');

    // Every answer: no 5xx but 503 SERVICE_UNAVAILABLE, always an envelope, always within 2 s.
    for (const sample of samples) {
      problems.push(...answerProblems(sample, ANSWER_WITHIN_MS));
      if (sample.res.status === 0) continue;
      // Requests that overlap a transition may go either way; those wholly inside a phase may not.
      const within = (p: Phase) => sample.phase === p && sample.endPhase === p;
      if (within('before') && sample.res.status >= 300)
        problems.push(`${sample.method} before the outage answered ${sample.res.status}`);
      if (within('down') && sample.res.status !== 503)
        problems.push(`${sample.method} while PostgreSQL was down answered ${sample.res.status}`);
      if (within('after') && sample.res.status >= 300)
        problems.push(`${sample.method} after recovery answered ${sample.res.status}`);
    }
    const readyDown = readiness.filter((r) => r.phase === 'down');
    if (readyDown.length === 0 || readyDown.some((r) => r.status !== 503))
      problems.push(`/readyz while down: ${readyDown.map((r) => r.status).join(',')}`);
    if (readiness.filter((r) => r.phase === 'after').some((r) => r.status !== 200))
      problems.push('/readyz not ready after recovery');
    if (recoveredAt === undefined) problems.push('no successful request within 15 s of PostgreSQL restarting');

    // Nothing acknowledged was lost to the outage.
    for (const record of acknowledged) {
      const res = await api.json('GET', `/sandbox/${record.kind}/${record.id}`);
      if (res.status !== 200)
        problems.push(`acknowledged ${record.kind} ${record.id} answers ${res.status} after the outage`);
    }
  } finally {
    await service.stop();
    await postgres.dispose();
  }

  const byPhase = (p: Phase) => samples.filter((s) => s.phase === p && s.endPhase === p);
  const down = byPhase('down');
  const figures = {
    requests: samples.length,
    statusCounts: statusCounts(samples),
    duringOutage: {
      requests: down.length,
      answered503: down.filter((s) => s.res.status === 503).length,
      p99Ms: round(
        percentile(
          down.map((s) => s.res.elapsedMs),
          99,
        ),
      ),
      maxMs: round(maximum(down.map((s) => s.res.elapsedMs))),
    },
    maxLatencyMs: round(maximum(samples.map((s) => s.res.elapsedMs))),
    readyzDuringOutage: readiness.filter((r) => r.phase === 'down').map((r) => r.status),
    timelineMs: timeline,
    acknowledgedWritesChecked: acknowledged.length,
  };
  log(JSON.stringify(figures));
  return conclude({
    problems,
    passSummary: () =>
      `${figures.duringOutage.answered503} of ${figures.duringOutage.requests} requests during the outage answered 503 SERVICE_UNAVAILABLE (max ${figures.duringOutage.maxMs} ms); 0 500s, 0 hangs, /readyz 503; first success ${timeline.firstSuccessAfterStart} ms after PostgreSQL was back, no restart; ${acknowledged.length} acknowledged records intact`,
    record: opts.record === 'true',
    row: {
      id: 'fault-db-outage',
      test: 'Database outage: PostgreSQL stopped under load, then restarted',
      operations: `${formatCount(samples.length)} requests from ${clients} clients (${opts.outage} s outage)`,
      faults: 'PostgreSQL stopped (fast shutdown) and restarted under the running service',
      command: 'npm run reliability:db-outage',
      figures,
    },
  });
});
