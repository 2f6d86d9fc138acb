import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { ensureReferenceNode } from '../lib/reference-node.js';
import { buildAccountInput, buildCustomerInput } from '../../test/support/factories.js';
import { pick, seededRandom } from './lib/concurrency.js';
import { startDedicatedPostgres } from './lib/postgres.js';
import { backgroundWorkLogSettings, eventsDuring, readBackgroundEvents } from './lib/postgres-log.js';
import { formatCount, recordResult, ROOT } from './lib/results.js';
import {
  type Api,
  type ApiAnswer,
  createApi,
  duration,
  log,
  maximum,
  options,
  percentile,
  RECORD_OPTION,
  round,
  runScript,
} from './lib/script.js';
import { buildOnce, LOG_DIR, runSecrets, startServiceProcess } from './lib/service-process.js';
import { processTreeCpuMicros, residentBytes } from '../lib/proc.js';

/**
 * `npm run soak`: measures the service's capacity for a mixed REST + GraphQL load (the highest open-loop
 * rate it sustains, found by stepping up from half its closed-loop peak), then holds a fixed arrival rate at
 * 70 % of it for the whole duration (open loop: latency counts from the scheduled send time, so a stall
 * cannot hide itself). Reports per window: requests, errors,
 * p50/p99 latency, RSS and event-loop delay (sampled inside the service by a preloaded module,
 * lib/runtime-sampler.mjs). Pass: 0 errors, and the trend lines of RSS and event-loop delay p99 grow less
 * than 10 % from window 2 to the last window.
 */

const opts = options(
  {
    duration: { default: '10m', help: 'length of the fixed-rate phase (e.g. 10m, 2m, 90s)' },
    window: { default: '60s', help: 'reporting window' },
    'capacity-seconds': {
      default: '10',
      help: 'length of each of the three closed-loop peak measurements (the median is used) and of each open-loop step',
    },
    fraction: { default: '0.7', help: 'fraction of the measured capacity to hold' },
    'capacity-p99-ms': { default: '100', help: 'latency bound of a sustained rate while stepping towards capacity' },
    rate: { default: '', help: 'fixed rate in requests/s instead of measuring capacity' },
    node: {
      default: 'reference',
      help: "the service's Node: reference (Node 26 in .tools/node26, installed if missing, as the benchmarks use), current (this script's), or a path",
    },
    'postgres-settings': {
      default: '',
      help: 'extra PostgreSQL settings, e.g. synchronous_commit=off (default: PostgreSQL defaults, fsync on)',
    },
    customers: { default: '2000', help: 'customers created before the capacity measurement (each with one account)' },
    ...RECORD_OPTION,
    'cpu-profiles': {
      default: '',
      help: 'V8 CPU profiles of the service to write beside the sampler file, as <start s>+<length s> from its start, e.g. 200+30,700+30 (summarise each with npx tsx bench/profile.ts --summarise FILE)',
    },
  },
  'npm run soak -- [options]',
);

interface Request {
  method: string;
  path: string;
  body?: unknown;
  expect: number;
  graphql?: boolean;
  created?: 'account' | 'customer';
}

/** A request not answered within this, counted from when it was sent, is an error. */
const REQUEST_TIMEOUT_MS = 10_000;

/** Ids kept for picking; beyond this the older half is forgotten (the records stay). */
const POOL_LIMIT = 100_000;

interface Outcome {
  at: number;
  latencyMs: number;
  ok: boolean;
  detail?: string;
}

interface Sample {
  t: number;
  rss: number;
  heapUsed: number;
  cpuUserUs?: number;
  cpuSystemUs?: number;
  eventLoopDelayMeanMs: number;
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
}

const GRAPHQL_CUSTOMER =
  'query ($id: ID!) { customer(customerId: $id) { customerId preferredName accounts { accountId name customerIds } } }';

/**
 * New customers join the pool the requests pick from, so accounts spread over a growing population and a
 * customer's account list stays short, as in real data; with a fixed pool, every account created would land
 * on the same few customers and each read of them would cost more minute after minute.
 */
function remember(pool: string[], id: string): void {
  pool.push(id);
  if (pool.length > POOL_LIMIT) pool.splice(0, POOL_LIMIT / 2);
}

class Workload {
  private readonly random = seededRandom(42);
  readonly accounts: string[] = [];

  constructor(
    readonly customers: string[],
    private readonly graphql: boolean,
  ) {}

  next(): Request {
    const r = this.random();
    const customer = pick(this.random, this.customers);
    if (r < 0.4) return { method: 'GET', path: `/sandbox/customer/${customer}`, expect: 200 };
    if (r < 0.55)
      return this.graphql
        ? {
            method: 'POST',
            path: '/sandbox/graphql',
            body: { query: GRAPHQL_CUSTOMER, variables: { id: customer } },
            expect: 200,
            graphql: true,
          }
        : { method: 'GET', path: `/sandbox/customer/${customer}`, expect: 200 };
    if (r < 0.65 && this.accounts.length > 0)
      return { method: 'GET', path: `/sandbox/account/${pick(this.random, this.accounts)}`, expect: 200 };
    if (r < 0.75)
      return {
        method: 'POST',
        path: '/sandbox/customer',
        body: buildCustomerInput(),
        expect: 201,
        created: 'customer',
      };
    if (r < 0.85)
      return {
        method: 'POST',
        path: '/sandbox/account',
        body: buildAccountInput([customer]),
        expect: 201,
        created: 'account',
      };
    if (r < 0.95)
      return {
        method: 'PUT',
        path: `/sandbox/customer/${customer}`,
        body: { preferredName: `soak ${Math.floor(r * 1e6)}` },
        expect: 200,
      };
    if (this.accounts.length > 0)
      return {
        method: 'PUT',
        path: `/sandbox/account/${pick(this.random, this.accounts)}`,
        body: { name: 'soak', currency: 'EUR' },
        expect: 200,
      };
    return { method: 'GET', path: `/sandbox/customer/${customer}`, expect: 200 };
  }

  judge(request: Request, res: Pick<ApiAnswer, 'status' | 'json' | 'error'>): { ok: boolean; detail?: string } {
    if (res.status !== request.expect)
      return {
        ok: false,
        detail: `${request.method} ${request.path.split('/').slice(0, 3).join('/')} ${res.status} ${res.error ?? res.json?.error?.code ?? ''}`,
      };
    if (request.graphql && res.json?.errors)
      return { ok: false, detail: `GraphQL ${res.json.errors[0]?.extensions?.code}` };
    if (request.created === 'account') remember(this.accounts, res.json.data.accountId as string);
    if (request.created === 'customer') remember(this.customers, res.json.data.customerId as string);
    return { ok: true };
  }
}

async function send(api: Api, request: Request): Promise<ApiAnswer> {
  return api.send(request.method, request.path, request.body, {}, REQUEST_TIMEOUT_MS);
}

/** Closed loop at full concurrency: the most the service answers here, now, when requests queue up for it. */
async function measurePeakThroughput(
  api: Api,
  workload: Workload,
  seconds: number,
  connections: number,
): Promise<{ rps: number; errors: number }> {
  let ok = 0;
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const request = workload.next();
        const verdict = workload.judge(request, await send(api, request));
        if (verdict.ok) ok += 1;
        else errors += 1;
      }
    }),
  );
  return { rps: ok / seconds, errors };
}

/**
 * Open loop: requests leave on schedule whatever the answers do, and latency counts from the scheduled
 * time, so a stall cannot hide itself. At most a timeout's worth of requests is kept outstanding: a request
 * that could not even be sent within the time an answer may take is an error; below that, a stall shows as
 * latency. `onTick` runs between sends (the soak's per-window lines).
 */
async function driveOpenLoop(
  api: Api,
  workload: Workload,
  rate: number,
  durationMs: number,
  outcomes: Outcome[],
  onTick?: (now: number, startedAt: number) => void,
): Promise<{ startedAt: number; overloaded: number }> {
  const startedAt = performance.now();
  let issued = 0;
  let overloaded = 0;
  const inFlight = new Set<Promise<void>>();
  const maxOutstanding = Math.max(2000, Math.ceil((rate * REQUEST_TIMEOUT_MS) / 1000));
  while (performance.now() - startedAt < durationMs) {
    const due = Math.floor(((performance.now() - startedAt) / 1000) * rate);
    while (issued < due) {
      const scheduled = startedAt + (issued / rate) * 1000;
      issued += 1;
      if (inFlight.size >= maxOutstanding) {
        overloaded += 1;
        outcomes.push({
          at: scheduled,
          latencyMs: 0,
          ok: false,
          detail: `over ${maxOutstanding} requests outstanding`,
        });
        continue;
      }
      const request = workload.next();
      const task = send(api, request).then((res) => {
        const verdict = workload.judge(request, res);
        outcomes.push({
          at: scheduled,
          latencyMs: performance.now() - scheduled,
          ok: verdict.ok,
          ...(verdict.detail && { detail: verdict.detail }),
        });
      });
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
    }
    onTick?.(performance.now(), startedAt);
    await sleep(2);
  }
  await Promise.all(inFlight);
  return { startedAt, overloaded };
}

interface CapacityStep {
  rate: number;
  p99Ms: number;
  errors: number;
  sustained: boolean;
}

/**
 * The highest fixed arrival rate the service sustains: open-loop steps from half the closed-loop peak
 * upwards, each held for `seconds`; a step is sustained when every request succeeds with p99 within the
 * bound. The closed-loop peak alone overstates it: 32 connections that always have a request waiting let
 * each event-loop turn and each database round trip serve a batch, which evenly spaced arrivals do not
 * (at 70 % of the closed-loop peak the service's thread was 88 % busy, and queues built whenever
 * PostgreSQL checkpointed; docs/reliability.md, "Soak").
 */
async function measureSustainedRate(
  api: Api,
  workload: Workload,
  peak: number,
  seconds: number,
  p99BoundMs: number,
): Promise<{ rate: number; steps: CapacityStep[] }> {
  const steps: CapacityStep[] = [];
  for (const fraction of [0.5, 0.6, 0.7, 0.8, 0.9, 1]) {
    const rate = Math.max(10, Math.round(peak * fraction));
    const outcomes: Outcome[] = [];
    await driveOpenLoop(api, workload, rate, seconds * 1000, outcomes);
    const errors = outcomes.filter((o) => !o.ok).length;
    const p99Ms = round(
      percentile(
        outcomes.map((o) => o.latencyMs),
        99,
      ),
    );
    const sustained = errors === 0 && p99Ms <= p99BoundMs;
    steps.push({ rate, p99Ms, errors, sustained });
    log(
      `  open loop at ${rate} req/s (${fraction * 100} % of the peak): p99 ${p99Ms} ms, ${errors} errors${sustained ? '' : ': not sustained'}`,
    );
    if (!sustained) break;
    await sleep(1000);
  }
  const sustained = steps.filter((step) => step.sustained).at(-1);
  return { rate: sustained?.rate ?? 0, steps };
}

/** Checkpoints and autovacuum runs so far: what PostgreSQL did in the background while the load ran. */
async function backgroundActivity(
  databaseUrl: string,
): Promise<
  { checkpointsTimed: number; checkpointsRequested: number; autovacuums: number; autoanalyzes: number } | undefined
> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // pg_stat_checkpointer exists from PostgreSQL 17 (the embedded one is 18).
    const checkpoints = await client.query<{ num_timed: string; num_requested: string }>(
      'SELECT num_timed, num_requested FROM pg_stat_checkpointer',
    );
    const vacuums = await client.query<{ autovacuums: string; autoanalyzes: string }>(
      'SELECT coalesce(sum(autovacuum_count), 0) AS autovacuums, coalesce(sum(autoanalyze_count), 0) AS autoanalyzes FROM pg_stat_user_tables',
    );
    return {
      checkpointsTimed: Number(checkpoints.rows[0]!.num_timed),
      checkpointsRequested: Number(checkpoints.rows[0]!.num_requested),
      autovacuums: Number(vacuums.rows[0]!.autovacuums),
      autoanalyzes: Number(vacuums.rows[0]!.autoanalyzes),
    };
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}

async function analyze(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

type BackgroundActivity = Awaited<ReturnType<typeof backgroundActivity>>;

/** What PostgreSQL did in the background during the fixed-rate phase (undefined before PostgreSQL 17). */
function activityDelta(before: BackgroundActivity, after: BackgroundActivity): BackgroundActivity {
  if (!before || !after) return undefined;
  return {
    checkpointsTimed: after.checkpointsTimed - before.checkpointsTimed,
    checkpointsRequested: after.checkpointsRequested - before.checkpointsRequested,
    autovacuums: after.autovacuums - before.autovacuums,
    autoanalyzes: after.autoanalyzes - before.autoanalyzes,
  };
}

const growth = (from: number, to: number) => (from === 0 ? 0 : round(((to - from) / from) * 100));

/**
 * The growth, in %, of the least-squares line through one value per window, from its first window to its
 * last: a trend, which one noisy window at either end cannot make or hide (GC timing moves RSS and the
 * event-loop delay by several % from one window to the next).
 */
function trendGrowth(values: number[]): number {
  const n = values.length;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((a, b) => a + b, 0) / n;
  let covariance = 0;
  let variance = 0;
  values.forEach((y, x) => {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  });
  const slope = variance === 0 ? 0 : covariance / variance;
  const first = meanY - slope * meanX;
  return growth(first, first + slope * (n - 1));
}

runScript('soak', async () => {
  const durationMs = duration(opts.duration);
  const windowMs = duration(opts.window);
  buildOnce(log);
  // The load generator, the service and PostgreSQL share this machine: anything else running skews capacity.
  const loadAtStart = os.loadavg().map((n) => round(n, 2));
  if (loadAtStart[0]! > os.availableParallelism() * 0.5)
    log(
      `WARNING: load average ${loadAtStart[0]} on ${os.availableParallelism()} cores before the soak: other work on this machine will skew the figures`,
    );
  const settings = Object.fromEntries(
    opts['postgres-settings']
      .split(',')
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string]),
  );
  // PostgreSQL logs its checkpoints and autovacuum runs beside the service's log, to set the slowest
  // seconds beside what the database was doing then.
  mkdirSync(LOG_DIR, { recursive: true });
  const postgresLogFile = path.join(LOG_DIR, `soak-postgres-${Date.now()}.log`);
  const postgresLog = createWriteStream(postgresLogFile);
  const postgres = await startDedicatedPostgres({
    settings: { ...backgroundWorkLogSettings(), ...settings },
    serverLog: (chunk) => postgresLog.write(chunk),
  });
  const secrets = runSecrets();
  const samplerFile = path.join(LOG_DIR, `soak-sampler-${Date.now()}.ndjson`);
  writeFileSync(samplerFile, '');
  const serviceNode =
    opts.node === 'reference'
      ? await ensureReferenceNode(log)
      : opts.node === 'current'
        ? process.execPath
        : path.resolve(opts.node);
  const serviceNodeVersion = execFileSync(serviceNode, ['--version'], { encoding: 'utf8' }).trim();
  log(`service on Node ${serviceNodeVersion} (${serviceNode}), load generator on Node ${process.version}`);
  const service = await startServiceProcess({
    name: 'soak',
    nodeBinary: serviceNode,
    env: {
      DATABASE_URL: postgres.databaseUrl,
      RELIABILITY_SAMPLER_FILE: samplerFile,
      RELIABILITY_CPU_PROFILES: opts['cpu-profiles'],
      ...secrets,
    },
    nodeArgs: ['--import', path.join(ROOT, 'scripts/reliability/lib/runtime-sampler.mjs')],
  });
  const api = createApi(service.url, secrets.API_TOKENS!, 256);
  const outcomes: Outcome[] = [];
  const problems: string[] = [];
  let rate: number;
  let peak = { rps: 0, errors: 0 };
  let capacity = 0;
  let capacitySteps: CapacityStep[] = [];
  let activityBefore: BackgroundActivity;
  let activityAfter: BackgroundActivity;
  let graphql: boolean;
  let startedAt = 0;
  /** PostgreSQL's CPU (µs) at the start of the measurement and at the end of each window. */
  const postgresCpuAtWindowEnds: number[] = [];
  let overloaded: number;
  const generatorDelay = monitorEventLoopDelay({ resolution: 10 });
  try {
    // A base data set, analysed, before anything is measured: PostgreSQL plans each prepared statement
    // from the tables' statistics, and plans made on near-empty tables (a sequential scan is cheapest on
    // a few pages) stay cached until autovacuum's next ANALYZE, up to a minute later, while the tables
    // grow a hundredfold under load (docs/reliability.md, "Soak").
    const customers: string[] = [];
    const baseCustomers = Number(opts.customers);
    for (let i = 0; i < baseCustomers; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, baseCustomers - i) }, () =>
          api.json('POST', '/sandbox/customer', buildCustomerInput()),
        ),
      );
      customers.push(...batch.map((res) => res.json.data.customerId as string));
    }
    const probe = await api.send('POST', '/sandbox/graphql', { query: '{ __typename }' });
    graphql = probe.status === 200 && probe.json?.data?.__typename === 'Query';
    log(
      graphql
        ? 'GraphQL endpoint found: 15 % of the reads go through it'
        : 'GraphQL endpoint not mounted (404): REST only',
    );
    const workload = new Workload(customers, graphql);
    for (let i = 0; i < customers.length; i += 50) {
      const batch = await Promise.all(
        customers
          .slice(i, i + 50)
          .map((customer) => api.json('POST', '/sandbox/account', buildAccountInput([customer]))),
      );
      for (const res of batch) workload.judge({ method: 'POST', path: '', expect: 201, created: 'account' }, res);
    }
    await analyze(postgres.databaseUrl);
    log(`seeded ${customers.length} customers and ${customers.length} accounts, then ANALYZE`);

    if (opts.rate) rate = Number(opts.rate);
    else {
      await measurePeakThroughput(api, workload, 3, 32); // warm-up: JIT, pools, caches
      // The median of three: one closed-loop run on a shared 2-core machine can read 20 % high.
      const runs: { rps: number; errors: number }[] = [];
      for (let i = 0; i < 3; i++)
        runs.push(await measurePeakThroughput(api, workload, Number(opts['capacity-seconds']), 32));
      peak = [...runs].sort((a, b) => a.rps - b.rps)[1]!;
      log(
        `closed-loop peak ${runs.map((run) => round(run.rps)).join(', ')} req/s (median ${round(peak.rps)}; ${peak.errors} errors while measuring); stepping the open-loop rate up from half of it`,
      );
      await sleep(1000);
      const sustained = await measureSustainedRate(
        api,
        workload,
        peak.rps,
        Number(opts['capacity-seconds']),
        Number(opts['capacity-p99-ms']),
      );
      capacity = sustained.rate;
      capacitySteps = sustained.steps;
      if (capacity === 0) {
        problems.push(
          `no open-loop rate from half the closed-loop peak up was sustained with p99 ≤ ${opts['capacity-p99-ms']} ms`,
        );
        capacity = Math.round(peak.rps * 0.5);
      }
      rate = Math.max(10, Math.round(capacity * Number(opts.fraction)));
      log(`capacity (highest sustained open-loop rate) ${capacity} req/s; holding ${rate} req/s for ${opts.duration}`);
      // A pause for autovacuum to catch up with the measurement's writes before the clock starts.
      await sleep(5000);
    }

    // The service's own event loop is sampled by the preloaded module; the generator's is watched too: if
    // it stalls, requests leave late and the latency (counted from schedule) says so.
    activityBefore = await backgroundActivity(postgres.databaseUrl);
    generatorDelay.enable();
    let nextReport = windowMs;
    let readUpTo = 0;
    let windowAnswers = 0;
    const windowFailures: string[] = [];
    const windowLatencyUs = createHistogram();
    const postgresCpu = () => processTreeCpuMicros(postgres.pid() ?? 0) ?? Number.NaN;
    postgresCpuAtWindowEnds.push(postgresCpu());
    const run = await driveOpenLoop(api, workload, rate, durationMs, outcomes, (now, loopStartedAt) => {
      // A little at every tick rather than all at once per window: sorting a window's 150,000 latencies
      // stalled the generator for ~100 ms at each line, the requests due meanwhile left late, and the first
      // second of every minute showed a latency spike that was the generator's own.
      for (; readUpTo < outcomes.length; readUpTo++) {
        const outcome = outcomes[readUpTo]!;
        windowAnswers += 1;
        if (!outcome.ok) windowFailures.push(outcome.detail ?? 'error');
        windowLatencyUs.record(Math.max(1, Math.round(outcome.latencyMs * 1000)));
      }
      if (now - loopStartedAt < nextReport) return;
      postgresCpuAtWindowEnds.push(postgresCpu());
      const kinds = [...new Set(windowFailures)].slice(0, 3).join('; ');
      log(
        `window ${Math.round(nextReport / windowMs)}: ${windowAnswers} answers, ${windowFailures.length} errors${kinds ? ` (${kinds})` : ''}, p99 ${round(windowLatencyUs.percentile(99) / 1000)} ms, RSS ${Math.round((residentBytes(service.pid) ?? 0) / 2 ** 20)} MiB`,
      );
      windowAnswers = 0;
      windowFailures.length = 0;
      windowLatencyUs.reset();
      nextReport += windowMs;
    });
    // The last window ends with the loop, after its last tick.
    if (postgresCpuAtWindowEnds.length <= Math.floor(durationMs / windowMs))
      postgresCpuAtWindowEnds.push(postgresCpu());
    startedAt = run.startedAt;
    overloaded = run.overloaded;
    activityAfter = await backgroundActivity(postgres.databaseUrl);
    if (!service.isRunning()) problems.push('the service exited during the soak');
  } finally {
    api.client.close();
    await service.stop();
    await postgres.dispose();
    await new Promise<void>((resolve) => postgresLog.end(resolve));
  }

  const samples = readFileSync(samplerFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Sample);
  const wallStart = Date.now() - (performance.now() - startedAt);
  const windows = Math.floor(durationMs / windowMs);
  const perWindow = Array.from({ length: windows }, (_, i) => {
    const from = startedAt + i * windowMs;
    const to = from + windowMs;
    const inWindow = outcomes.filter((o) => o.at >= from && o.at < to);
    const latencies = inWindow.map((o) => o.latencyMs);
    const wallFrom = wallStart + i * windowMs;
    const inSamples = samples.filter((s) => s.t >= wallFrom && s.t < wallFrom + windowMs);
    const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
    return {
      window: i + 1,
      requests: inWindow.length,
      errors: inWindow.filter((o) => !o.ok).length,
      p50Ms: round(percentile(latencies, 50)),
      p99Ms: round(percentile(latencies, 99)),
      maxMs: round(maximum(latencies)),
      rssMiB: round((inSamples.at(-1)?.rss ?? 0) / 2 ** 20),
      heapUsedMiB: round((inSamples.at(-1)?.heapUsed ?? 0) / 2 ** 20),
      // The service's CPU time per answered request: per-request work that grows shows here first, free of
      // the machine's noise that moves the event-loop delay.
      cpuUsPerRequest:
        inWindow.length === 0
          ? 0
          : round(
              inSamples.reduce((sum, s) => sum + (s.cpuUserUs ?? 0) + (s.cpuSystemUs ?? 0), 0) / inWindow.length,
              1,
            ),
      // PostgreSQL's (every backend and background worker, autovacuum and checkpointer included) on the same
      // cores: what the database's own growth costs, window by window.
      postgresCpuUsPerRequest:
        inWindow.length === 0 || postgresCpuAtWindowEnds[i + 1] === undefined
          ? null
          : round((postgresCpuAtWindowEnds[i + 1]! - postgresCpuAtWindowEnds[i]!) / inWindow.length, 1),
      eventLoopDelayP99Ms: round(mean(inSamples.map((s) => s.eventLoopDelayP99Ms)), 2),
      eventLoopDelayMaxMs: round(maximum(inSamples.map((s) => s.eventLoopDelayMaxMs)), 2),
    };
  });
  for (const w of perWindow) log(JSON.stringify(w));
  log(
    `load generator event-loop delay: p99 ${round(generatorDelay.percentile(99) / 1e6, 2)} ms, max ${round(generatorDelay.max / 1e6, 2)} ms`,
  );
  // Per second, for a look at stalls: completions and p99 by scheduled second.
  const seconds = Math.floor(durationMs / 1000);
  const latenciesBySecond = Array.from({ length: seconds }, () => [] as number[]);
  for (const o of outcomes) latenciesBySecond[Math.floor((o.at - startedAt) / 1000)]?.push(o.latencyMs);
  const perSecond = latenciesBySecond.map((latencies) => round(percentile(latencies, 99), 0));
  writeFileSync(path.join(LOG_DIR, `soak-p99-per-second-${Date.now()}.json`), JSON.stringify(perSecond));
  const backgroundEvents = readBackgroundEvents(postgresLogFile);
  const slowestSeconds = perSecond
    .map((p99Ms, i) => ({
      second: i + 1,
      p99Ms,
      at: new Date(wallStart + i * 1000).toISOString().slice(11, 19),
      postgres: eventsDuring(backgroundEvents, wallStart + (i - 1) * 1000, wallStart + (i + 1) * 1000),
    }))
    .sort((a, b) => b.p99Ms - a.p99Ms)
    .slice(0, 8);
  log(`slowest seconds (p99) and PostgreSQL's background work around them (${backgroundEvents.length} events logged):`);
  for (const slow of slowestSeconds)
    log(
      `  second ${slow.second} (${slow.at}): p99 ${slow.p99Ms} ms; ${slow.postgres.join(', ') || 'no checkpoint or autovacuum'}`,
    );
  const errors = outcomes.filter((o) => !o.ok);
  if (errors.length > 0)
    problems.push(`${errors.length} errors, e.g. ${[...new Set(errors.map((e) => e.detail))].slice(0, 5).join('; ')}`);
  const second = perWindow[1];
  const last = perWindow.at(-1);
  // From window 2 on: window 1 holds the warm-up of JIT and caches.
  const steady = perWindow.slice(1);
  const trend =
    second && last && windows >= 3
      ? {
          rssGrowthPercent: trendGrowth(steady.map((w) => w.rssMiB)),
          eventLoopDelayP99GrowthPercent: trendGrowth(steady.map((w) => w.eventLoopDelayP99Ms)),
          // Reported, not judged: whether the service's work per request grows, or PostgreSQL's beside it.
          serviceCpuPerRequestGrowthPercent: trendGrowth(steady.map((w) => w.cpuUsPerRequest)),
          postgresCpuPerRequestGrowthPercent: steady.every(
            (w) => w.postgresCpuUsPerRequest !== null && Number.isFinite(w.postgresCpuUsPerRequest),
          )
            ? trendGrowth(steady.map((w) => w.postgresCpuUsPerRequest!))
            : null,
          rssWindowToWindowPercent: growth(second.rssMiB, last.rssMiB),
          eventLoopDelayP99WindowToWindowPercent: growth(second.eventLoopDelayP99Ms, last.eventLoopDelayP99Ms),
        }
      : undefined;
  if (!trend)
    problems.push(`a trend needs at least 3 windows (got ${windows}): use a longer --duration or a shorter --window`);
  else {
    if (trend.rssGrowthPercent >= 10)
      problems.push(`RSS trend grew ${trend.rssGrowthPercent} % from window 2 to window ${windows}`);
    if (trend.eventLoopDelayP99GrowthPercent >= 10)
      problems.push(
        `event-loop delay p99 trend grew ${trend.eventLoopDelayP99GrowthPercent} % from window 2 to window ${windows}`,
      );
  }
  for (const problem of problems) log(`PROBLEM: ${problem}`);
  const passed = problems.length === 0;
  const p99s = perWindow.map((w) => w.p99Ms);
  const summary = `${errors.length} errors (machine load average ${loadAtStart[0]} on ${os.availableParallelism()} cores at start); p99 per window ${Math.min(...p99s)}–${Math.max(...p99s)} ms; RSS ${second?.rssMiB}→${last?.rssMiB} MiB (trend ${trend?.rssGrowthPercent ?? '?'} %), event-loop delay p99 ${second?.eventLoopDelayP99Ms}→${last?.eventLoopDelayP99Ms} ms (trend ${trend?.eventLoopDelayP99GrowthPercent ?? '?'} %) from window 2 to ${windows}; CPU per request trend: service ${trend?.serviceCpuPerRequestGrowthPercent ?? '?'} %, PostgreSQL ${trend?.postgresCpuPerRequestGrowthPercent ?? '?'} %`;
  log(summary);
  if (opts.record === 'true') {
    recordResult({
      id: 'soak',
      test: `Soak: ${opts.duration} at ${opts.rate ? 'a fixed rate given on the command line' : `${Math.round(Number(opts.fraction) * 100)} % of measured capacity`} (${graphql ? 'REST + GraphQL' : 'REST only: GraphQL not mounted'})`,
      operations: `${formatCount(outcomes.length)} requests at ${rate} req/s (${opts.rate ? '--rate, capacity not measured' : `capacity: ${capacity} req/s sustained in open loop with p99 ≤ ${opts['capacity-p99-ms']} ms; closed-loop peak ${round(peak.rps)} req/s`}), windows of ${opts.window}`,
      faults: 'none: sustained load',
      result: passed ? summary : `${problems.join('; ')}. ${summary}`,
      passed,
      command: `npm run soak -- --duration ${opts.duration}${opts.rate ? ` --rate ${opts.rate}` : ''}`,
      node: serviceNodeVersion,
      figures: {
        rate,
        capacity,
        closedLoopPeak: peak,
        capacitySteps,
        capacityP99BoundMs: Number(opts['capacity-p99-ms']),
        overloaded,
        slowestSeconds,
        postgresBackgroundActivity: activityDelta(activityBefore, activityAfter),
        windows: perWindow,
        trend,
        generatorEventLoopDelayP99Ms: round(generatorDelay.percentile(99) / 1e6, 2),
        generatorEventLoopDelayMaxMs: round(generatorDelay.max / 1e6, 2),
        serviceNode: serviceNodeVersion,
        generatorNode: process.version,
        machine: {
          cores: os.availableParallelism(),
          loadAverageAtStart: loadAtStart,
          loadAverageAtEnd: os.loadavg().map((n) => round(n, 2)),
        },
      },
    });
  }
  return passed;
});
