import { randomBytes, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { takeOverShutdownSignals } from '../src/db/postgres/embedded-postgres.js';
import { serverStates } from '../scripts/fleet/lib/daemons.js';
import { type Fleet, startFleet } from '../scripts/fleet/lib/fleet.js';
import { SERVICE_DATABASE } from '../scripts/fleet/lib/postgres-pair.js';
import { type BenchContext, seedBenchContext } from './lib/context.js';
import { describeMachine, type MachineInfo } from './lib/machine.js';
import { median, type RunMeasurement, runLoadWorker } from './lib/measure.js';
import { type BenchOptions, parseOptions, UsageError } from './lib/options.js';
import { pgbenchCeiling } from './lib/pgbench.js';
import { type BenchPostgres, createStatementCounter, PGBENCH_DATABASE, withDatabase } from './lib/postgres.js';
import { processCpuMicros, processTreeCpuMicros } from '../scripts/lib/proc.js';
import { killAllChildren, nodeVersion, runToCompletion } from './lib/processes.js';
import { ensureReferenceNode } from '../scripts/lib/reference-node.js';
import { BENCH_ENVIRONMENT, generateBenchKeys, piiEnvironment } from './lib/seed.js';

/**
 * `npm run bench:fleet`: the fleet of `npm run fleet` (N instances of the service behind HAProxy, one
 * PostgreSQL 15 primary with a streaming replica, Redis for the shared rate limits) under the same mixed
 * workload for N = 1, 2, 3 instances, in alternating order over several rounds, beside pgbench's select-only
 * and tpcb-like workloads on the same primary (the database's own ceiling). Per step it reads the CPU time of
 * every process of the fleet (/proc) and of the load generator, so that what it reports is **CPU per
 * request** of each component: on a machine whose few cores every process shares, req/s cannot grow with N,
 * and CPU per request is what scales a deployment (docs/performance.md, "Scaling out").
 */

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => process.stderr.write(`[bench:fleet ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

const USAGE = `npm run bench:fleet -- [options]
  --instances 1,2,3        instance counts to compare (default 1,2,3)
  --rounds N               alternating rounds: odd ones ascending, even ones descending (default 3)
  --duration S             seconds per measured run (default 10; --quick 3)
  --warmup S               unmeasured load before every measured run (default 6: HAProxy's slowstart is 5 s)
  --connections N          load generator connections, and pgbench clients (default 50)
  --pool-size N            DATABASE_POOL_SIZE of every instance (default 10)
  --pgbench-scale N        pgbench -i scale of both pgbench workloads (default 50; --quick 5)
  --customers N, --accounts N, --ledger-accounts N   the seed (as npm run bench)
  --replica-reads          lag-tolerant reads go to the replica (DATABASE_REPLICA_URL), as npm run fleet does
  --no-pgbench             leave out the pgbench steps
  --node PATH              Node for the instances and the load generator (default .tools/node26)
  --no-build               skip npm run build (dist/ must be current)
  --out DIR                results directory (default bench/results/fleet-scaling)
  --quick                  smoke run: 1 round, small seed, short runs
Workload: 60 % REST GET customer, 20 % create customer with an Idempotency-Key, 20 % transfer with an
Idempotency-Key (bench/load/requests.ts, "scaling-mix"). Run it alone: flock /tmp/cas-heavy.lock npm run bench:fleet
`;

interface ScalingOptions {
  bench: BenchOptions;
  instances: number[];
  rounds: number;
  replicaReads: boolean;
  pgbench: boolean;
  pgbenchScale: number;
  outDir: string;
}

function parseScalingOptions(argv: string[]): ScalingOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      instances: { type: 'string', default: '1,2,3' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'pool-size': { type: 'string' },
      'pgbench-scale': { type: 'string' },
      customers: { type: 'string' },
      accounts: { type: 'string' },
      'ledger-accounts': { type: 'string' },
      'replica-reads': { type: 'boolean', default: false },
      'no-pgbench': { type: 'boolean', default: false },
      node: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      out: { type: 'string', default: 'bench/results/fleet-scaling' },
      quick: { type: 'boolean', default: false },
    },
  });
  if (values.help) return 'help';
  const quick = values.quick;
  const shared = [
    'duration',
    'warmup',
    'connections',
    'pool-size',
    'customers',
    'accounts',
    'ledger-accounts',
    'node',
  ] as const;
  const benchArgv = shared.flatMap((name) => (values[name] === undefined ? [] : [`--${name}`, values[name]]));
  benchArgv.push(
    '--runs',
    values.rounds ?? (quick ? '1' : '3'),
    '--pgbench-scale',
    values['pgbench-scale'] ?? (quick ? '5' : '50'),
  );
  if (values.warmup === undefined) benchArgv.push('--warmup', quick ? '2' : '6');
  if (values.duration === undefined && quick) benchArgv.push('--duration', '3');
  if (quick) benchArgv.push('--quick');
  if (values['no-build']) benchArgv.push('--no-build');
  const bench = parseOptions(benchArgv, {});
  if (bench === 'help') return 'help';
  // The transfers need the ledger's seed (seedBenchContext seeds it when a ledger scenario is selected).
  bench.scenarios = ['rest-transfer-uniform'];
  bench.pgbenchTpcbScale = bench.pgbenchScale;
  const instances = values.instances.split(',').map((n) => Number(n.trim()));
  if (instances.some((n) => !Number.isInteger(n) || n < 1 || n > 16))
    throw new UsageError(`--instances must list whole numbers from 1 to 16 (got ${values.instances})`);
  return {
    bench,
    instances: [...new Set(instances)].sort((a, b) => a - b),
    rounds: bench.runs,
    replicaReads: values['replica-reads'],
    pgbench: !values['no-pgbench'],
    pgbenchScale: bench.pgbenchScale,
    outDir: values.out,
  };
}

/** CPU time of each part of the fleet (µs), and the whole machine's busy and total time (/proc/stat). */
interface CpuSnapshot {
  service: number;
  haproxy: number;
  primary: number;
  replica: number;
  redis: number;
  machineBusy: number;
  machineTotal: number;
}

const TICK_US = 1_000_000 / (Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100);

function machineTimes(): { busy: number; total: number } {
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy * TICK_US, total: (busy + idle + iowait) * TICK_US };
}

function postmasterPid(dataDir: string): number {
  return Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function snapshot(fleet: Fleet, instancePids: number[]): CpuSnapshot {
  const machine = machineTimes();
  return {
    service: instancePids.reduce((sum, pid) => sum + (processCpuMicros(pid) ?? Number.NaN), 0),
    haproxy: processTreeCpuMicros(fleet.haproxy.pid) ?? Number.NaN,
    primary: processTreeCpuMicros(postmasterPid(fleet.primary.dataDir)) ?? Number.NaN,
    replica: processTreeCpuMicros(postmasterPid(fleet.replica.dataDir)) ?? Number.NaN,
    redis: processCpuMicros(fleet.redis.pid) ?? Number.NaN,
    machineBusy: machine.busy,
    machineTotal: machine.total,
  };
}

/** One measured run of one step: throughput and latency, and every component's CPU per request (µs). */
export interface StepRun {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  responses: number;
  errors: number;
  statusCodes: Record<string, number>;
  cpuUsPerRequest: {
    service: number | null;
    haproxy: number;
    primary: number;
    replica: number;
    redis: number;
    loadGenerator: number | null;
    machine: number;
  };
  /** Cores busy on average over the run: the service processes together, and the whole machine. */
  coresBusy: { service: number | null; machine: number };
  /** How the machine's cores were shared over the run, per component (CPU seconds per second). */
  cores: {
    service: number;
    haproxy: number;
    primary: number;
    replica: number;
    redis: number;
    loadGenerator: number | null;
  };
  statementsPerRequest: number | null;
  /** SQL statements per second in the service's database (pg_stat_statements), background jobs included. */
  statementsPerSecond: number | null;
  sampleError: string | undefined;
}

interface Step {
  name: string;
  /** Instances running behind HAProxy, for the HTTP steps. */
  instances?: number;
  prepare(): Promise<number[]>;
  run(seconds: number): Promise<{
    rps: number;
    p50Ms: number;
    p99Ms: number;
    responses: number;
    errors: number;
    statusCodes: Record<string, number>;
    statements: number | null;
    loadGeneratorCpu: number | null;
    sampleError: string | undefined;
  }>;
}

async function waitUntil(what: string, condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** Exactly the first `count` instances running and in HAProxy's rotation; the others stopped (drained first). */
async function useInstances(fleet: Fleet, count: number): Promise<number[]> {
  for (let i = fleet.instances.length - 1; i >= count; i--)
    if (fleet.instances[i]!.process?.isRunning()) await fleet.instances[i]!.process!.stop();
  for (let i = 0; i < count; i++) if (!fleet.instances[i]!.process?.isRunning()) await fleet.startInstance(i);
  await waitUntil(`HAProxy routing to ${count} instance(s)`, async () => {
    const states = await serverStates(fleet.haproxy.statsSocket);
    return fleet.instances.every((instance, i) => (states[instance.name]?.up ?? false) === i < count);
  });
  return fleet.instances.slice(0, count).map((instance) => instance.process!.pid);
}

function httpStep(ctx: BenchContext, fleet: Fleet, count: number): Step {
  return {
    name: `${count} instance${count === 1 ? '' : 's'}`,
    instances: count,
    prepare: async () => {
      const pids = await useInstances(fleet, count);
      await runLoadWorker(ctx, fleet.url, 'scaling-mix', ctx.options.warmupSeconds);
      return pids;
    },
    run: async (seconds) => {
      await ctx.db.statements.reset();
      const result = await runLoadWorker(ctx, fleet.url, 'scaling-mix', seconds);
      const statements = await ctx.db.statements.read(SERVICE_DATABASE);
      return {
        rps: result.ok / result.durationSeconds,
        p50Ms: result.latencyMs.p50,
        p99Ms: result.latencyMs.p99,
        responses: result.responses,
        errors: result.errors,
        statusCodes: result.statusCodes,
        statements,
        loadGeneratorCpu: result.cpuMicros ?? null,
        sampleError: result.sampleError,
      };
    },
  };
}

/** Every instance running, no load: what an instance costs by itself (timers, the outbox's and webhooks' polls). */
function idleStep(ctx: BenchContext, fleet: Fleet, count: number): Step {
  return {
    name: `idle, ${count} instances`,
    instances: count,
    prepare: async () => {
      const pids = await useInstances(fleet, count);
      await sleep(2000);
      return pids;
    },
    run: async (seconds) => {
      await ctx.db.statements.reset();
      await sleep(seconds * 1000);
      const statements = await ctx.db.statements.read(SERVICE_DATABASE);
      return {
        rps: 0,
        p50Ms: Number.NaN,
        p99Ms: Number.NaN,
        responses: 0,
        errors: 0,
        statusCodes: {},
        statements,
        loadGeneratorCpu: null,
        sampleError: undefined,
      };
    },
  };
}

async function pgbenchStep(
  ctx: BenchContext,
  fleet: Fleet,
  workload: 'select-only' | 'tpcb-like',
  scale: number,
): Promise<Step | string> {
  const ceiling = await pgbenchCeiling(ctx, workload, scale);
  if (typeof ceiling === 'string') return ceiling;
  const fromMeasurement = (m: RunMeasurement) => ({
    rps: m.rps,
    p50Ms: m.p50Ms,
    p99Ms: m.p99Ms,
    responses: m.responses,
    errors: m.errors,
    statusCodes: {},
    statements: m.statementsPerOperation === null ? null : m.statementsPerOperation * m.responses,
    loadGeneratorCpu: null,
    sampleError: m.sampleError,
  });
  return {
    name: `pgbench ${workload}`,
    // The instances stay as the previous step left them, idle.
    prepare: async () => {
      await ceiling.warmUp(ctx.options.warmupSeconds);
      return fleet.instances.flatMap((instance) => (instance.process?.isRunning() ? [instance.process.pid] : []));
    },
    run: async (seconds) => fromMeasurement(await ceiling.measure(seconds)),
  };
}

async function measureStep(fleet: Fleet, step: Step, seconds: number): Promise<StepRun> {
  const pids = await step.prepare();
  const before = snapshot(fleet, pids);
  const started = performance.now();
  const result = await step.run(seconds);
  const wallUs = (performance.now() - started) * 1000;
  const after = snapshot(fleet, pids);
  const per = (key: keyof CpuSnapshot) =>
    result.responses === 0 ? Number.NaN : (after[key] - before[key]) / result.responses;
  const machine = (after.machineBusy - before.machineBusy) / (after.machineTotal - before.machineTotal);
  const cores = (key: keyof CpuSnapshot) => (after[key] - before[key]) / wallUs;
  return {
    rps: result.rps,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    responses: result.responses,
    errors: result.errors,
    statusCodes: result.statusCodes,
    cpuUsPerRequest: {
      // The HTTP steps' service figure; during pgbench the instances are idle and their CPU is not its cost.
      service: step.instances === undefined ? null : per('service'),
      haproxy: per('haproxy'),
      primary: per('primary'),
      replica: per('replica'),
      redis: per('redis'),
      loadGenerator:
        result.loadGeneratorCpu === null || result.responses === 0 ? null : result.loadGeneratorCpu / result.responses,
      machine: per('machineBusy'),
    },
    coresBusy: {
      service: step.instances === undefined ? null : (after.service - before.service) / wallUs,
      machine: machine * os.availableParallelism(),
    },
    cores: {
      service: cores('service'),
      haproxy: cores('haproxy'),
      primary: cores('primary'),
      replica: cores('replica'),
      redis: cores('redis'),
      loadGenerator: result.loadGeneratorCpu === null ? null : result.loadGeneratorCpu / wallUs,
    },
    statementsPerRequest:
      result.statements === null || result.responses === 0 ? null : result.statements / result.responses,
    statementsPerSecond: result.statements === null ? null : result.statements / (wallUs / 1e6),
    sampleError: result.sampleError,
  };
}

/** A GET, a keyed creation and a keyed transfer through HAProxy must answer as the API says before anything is measured. */
async function checkWorkload(ctx: BenchContext, fleet: Fleet): Promise<string> {
  const headers = { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' };
  const send = async (method: string, route: string, body?: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${fleet.url}/${BENCH_ENVIRONMENT}${route}`, {
      method,
      headers: { ...headers, ...extra },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.status, text: await res.text() };
  };
  const get = await send('GET', `/customer/${ctx.data.customerIds[0]}`);
  const [from, to] = ctx.ledger!.transferAccountIds;
  const transfer = await send(
    'POST',
    '/transfer',
    { fromAccountId: from, toAccountId: to, amount: '1.00', description: 'check' },
    { 'idempotency-key': randomUUID() },
  );
  const problems = [
    get.status === 200 ? '' : `GET customer answered ${get.status} ${get.text.slice(0, 200)}`,
    transfer.status === 201 ? '' : `transfer answered ${transfer.status} ${transfer.text.slice(0, 200)}`,
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`the workload does not run on this fleet: ${problems.join('; ')}`);
  return 'GET customer 200, transfer 201 through HAProxy';
}

interface StepSummary {
  name: string;
  instances: number | null;
  runs: StepRun[];
  median: StepRun;
}

function medianRun(runs: StepRun[]): StepRun {
  const m = (pick: (run: StepRun) => number | null): number | null => {
    const values = runs.map(pick).filter((v): v is number => v !== null && Number.isFinite(v));
    return values.length === 0 ? null : median(values);
  };
  const statusCodes: Record<string, number> = {};
  for (const run of runs)
    for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  return {
    rps: m((r) => r.rps) ?? Number.NaN,
    p50Ms: m((r) => r.p50Ms) ?? Number.NaN,
    p99Ms: m((r) => r.p99Ms) ?? Number.NaN,
    responses: m((r) => r.responses) ?? 0,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    statusCodes,
    cpuUsPerRequest: {
      service: m((r) => r.cpuUsPerRequest.service),
      haproxy: m((r) => r.cpuUsPerRequest.haproxy) ?? Number.NaN,
      primary: m((r) => r.cpuUsPerRequest.primary) ?? Number.NaN,
      replica: m((r) => r.cpuUsPerRequest.replica) ?? Number.NaN,
      redis: m((r) => r.cpuUsPerRequest.redis) ?? Number.NaN,
      loadGenerator: m((r) => r.cpuUsPerRequest.loadGenerator),
      machine: m((r) => r.cpuUsPerRequest.machine) ?? Number.NaN,
    },
    coresBusy: { service: m((r) => r.coresBusy.service), machine: m((r) => r.coresBusy.machine) ?? Number.NaN },
    cores: {
      service: m((r) => r.cores.service) ?? Number.NaN,
      haproxy: m((r) => r.cores.haproxy) ?? Number.NaN,
      primary: m((r) => r.cores.primary) ?? Number.NaN,
      replica: m((r) => r.cores.replica) ?? Number.NaN,
      redis: m((r) => r.cores.redis) ?? Number.NaN,
      loadGenerator: m((r) => r.cores.loadGenerator),
    },
    statementsPerRequest: m((r) => r.statementsPerRequest),
    statementsPerSecond: m((r) => r.statementsPerSecond),
    sampleError: runs.find((r) => r.sampleError !== undefined)?.sampleError,
  };
}

interface ScalingReport {
  startedAt: string;
  finishedAt: string;
  command: string;
  machine: MachineInfo;
  loadAverage: { start: number[]; end: number[] };
  options: Omit<ScalingOptions, 'bench'> & {
    durationSeconds: number;
    warmupSeconds: number;
    connections: number;
    poolSize: number;
    customers: number;
    accounts: number;
    ledgerAccounts: number;
  };
  database: string;
  check: string;
  pgbench: string[];
  order: string[][];
  steps: StepSummary[];
}

const num = (value: number | null | undefined, digits = 0): string =>
  value === null || value === undefined || !Number.isFinite(value)
    ? '–'
    : value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function renderScalingMarkdown(report: ScalingReport): string {
  const o = report.options;
  const lines = [
    `## Scaling: 1–${Math.max(...o.instances)} instances behind HAProxy, ${report.startedAt.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `\`${report.command}\` on commit \`${report.machine.gitCommit ?? 'n/a'}\`, ${report.machine.cpuModel}, **${report.machine.cores} cores** shared by every process below, ` +
      `Node ${report.machine.nodeVersions.reference} (instances, load generator), PostgreSQL ${report.database} (primary + asynchronous streaming replica${o.replicaReads ? ', reads on the replica' : ', every query on the primary'}), ` +
      `load average ${report.loadAverage.start.map((v) => v.toFixed(2)).join(' / ')} at the start, ${report.loadAverage.end.map((v) => v.toFixed(2)).join(' / ')} at the end. ` +
      `${o.rounds} rounds in alternating order (${report.order.map((round) => round.join(' → ')).join('; ')}), ${o.warmupSeconds} s warm-up + ${o.durationSeconds} s measured per step, ` +
      `${o.connections} connections, pool ${o.poolSize} per instance; ${num(o.customers)} customers, ${num(o.ledgerAccounts)} funded accounts. Workload: 60 % GET customer, 20 % create customer (Idempotency-Key), 20 % transfer (Idempotency-Key). Check: ${report.check}.`,
    '',
    'CPU columns are µs of CPU time per request (per transaction for pgbench), medians of the runs; "machine" is the whole machine\'s busy time per request (/proc/stat, other tenants included).',
    '',
    '| Step | req/s (median) | per run | p50 ms | p99 ms | errors | service CPU µs/req (all instances) | HAProxy | PostgreSQL primary | replica | Redis | load generator | machine | service cores busy | machine cores busy | SQL/req |',
    '|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...report.steps
      .filter((step) => !step.name.startsWith('idle'))
      .map((step) => {
        const m = step.median;
        const c = m.cpuUsPerRequest;
        const unit = step.instances === null ? ' tps' : '';
        return `| ${step.name} | ${num(m.rps)}${unit} | ${step.runs.map((r) => num(r.rps)).join(' / ')} | ${num(m.p50Ms, 1)} | ${num(m.p99Ms, 1)} | ${num(m.errors)} | ${num(c.service)} | ${num(c.haproxy)} | ${num(c.primary)} | ${num(c.replica)} | ${num(c.redis)} | ${num(c.loadGenerator)} | ${num(c.machine)} | ${num(m.coresBusy.service, 2)} | ${num(m.coresBusy.machine, 2)} | ${num(m.statementsPerRequest, 2)} |`;
      }),
  ];
  lines.push(
    '',
    "How the cores were shared (CPU seconds per second, medians; the rest of the machine's busy time is other tenants and, in the pgbench rows, pgbench itself):",
    '',
    '| Step | service | HAProxy | PostgreSQL primary | replica | Redis | load generator | machine busy | SQL statements/s |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...report.steps.map((step) => {
      const c = step.median.cores;
      return `| ${step.name} | ${num(c.service, 2)} | ${num(c.haproxy, 2)} | ${num(c.primary, 2)} | ${num(c.replica, 2)} | ${num(c.redis, 3)} | ${num(c.loadGenerator, 2)} | ${num(step.median.coresBusy.machine, 2)} | ${num(step.median.statementsPerSecond)} |`;
    }),
  );
  if (report.pgbench.length > 0) lines.push('', `pgbench: ${report.pgbench.join('; ')}.`);
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const parsed = parseScalingOptions(argv);
  if (parsed === 'help') return void process.stdout.write(USAGE);
  const options = parsed;
  const bench = options.bench;
  const startedAt = new Date();
  const loadStart = os.loadavg();
  const referenceNode = bench.nodeBinary ? path.resolve(bench.nodeBinary) : await ensureReferenceNode(log);
  if (bench.build) {
    log('npm run build');
    await runToCompletion('npm', ['run', 'build', '--silent'], {
      cwd: repoRoot,
      env: { ...process.env } as Record<string, string>,
    });
  }
  takeOverShutdownSignals();
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'cas-fleet-scaling-'));
  // PostgreSQL runs as its own user (as root: `postgres`), which must reach the fleet's directory inside this one.
  chmodSync(workDir, 0o711);
  const logDir = path.join(workDir, 'logs');
  mkdirSync(logDir);
  const keys = generateBenchKeys();
  const token = `bench_${randomBytes(32).toString('base64url')}`;
  const maxInstances = Math.max(...options.instances);
  const started: { fleet?: Fleet } = {};
  const interrupted = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      log(`${signal}: stopping`);
      interrupted.abort();
      killAllChildren();
      void (started.fleet?.stop() ?? Promise.resolve()).finally(
        () => (rmSync(workDir, { recursive: true, force: true }), process.exit(130)),
      );
    });
  }
  const fleet = await startFleet({
    dir: path.join(workDir, 'fleet'),
    instances: maxInstances,
    port: 0,
    synchronous: false,
    nodeBinary: referenceNode,
    replicaReads: options.replicaReads,
    primarySettings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_utility': 'on' },
    instanceEnv: {
      LOG_LEVEL: 'warn',
      DATABASE_POOL_SIZE: String(bench.poolSize),
      // The rate limiter runs (through Redis: its cost is measured) but never refuses the generator's one token.
      RATE_LIMIT_POINTS: '1000000000',
      API_TOKENS: token,
      ...piiEnvironment(keys),
    },
    log,
    signal: interrupted.signal,
  });
  started.fleet = fleet;
  let statements: Awaited<ReturnType<typeof createStatementCounter>> | undefined;
  const benchPool = new pg.Pool({ connectionString: fleet.primary.url, max: 2 });
  try {
    const adminUrl = withDatabase(fleet.primary.url, 'postgres');
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    let serverVersion: string;
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${PGBENCH_DATABASE} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${PGBENCH_DATABASE}`);
      serverVersion = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
      statements = await createStatementCounter(adminUrl, admin);
    } finally {
      await admin.end();
    }
    const db: BenchPostgres = {
      adminUrl,
      benchUrl: fleet.primary.url,
      pgbenchUrl: withDatabase(fleet.primary.url, PGBENCH_DATABASE),
      embedded: false,
      serverVersion,
      postmasterPid: postmasterPid(fleet.primary.dataDir),
      statements,
      stop: async () => undefined,
    };
    const ctx = await seedBenchContext({
      options: bench,
      repoRoot,
      workDir,
      logDir,
      referenceNode,
      db,
      benchPool,
      log,
      keys,
      token,
    });
    await benchPool.query('VACUUM ANALYZE');
    const check = await checkWorkload(ctx, fleet);
    log(`${check}; statements counted with ${statements.counting}`);

    const steps: Step[] = [
      ...options.instances.map((count) => httpStep(ctx, fleet, count)),
      idleStep(ctx, fleet, maxInstances),
    ];
    const pgbenchNotes: string[] = [];
    if (options.pgbench) {
      for (const workload of ['select-only', 'tpcb-like'] as const) {
        const step = await pgbenchStep(ctx, fleet, workload, options.pgbenchScale);
        if (typeof step === 'string') pgbenchNotes.push(step);
        else {
          steps.push(step);
          pgbenchNotes.push(
            `${step.name}: \`pgbench -b ${workload} -M prepared -n -c ${bench.connections} -j ${Math.min(bench.connections, os.availableParallelism())}\` at scale ${options.pgbenchScale}, directly on the primary`,
          );
        }
      }
    }
    const runs = new Map<Step, StepRun[]>(steps.map((step) => [step, []]));
    const order: string[][] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const inOrder = round % 2 === 1 ? steps : [...steps].reverse();
      order.push(inOrder.map((step) => step.name));
      for (const step of inOrder) {
        const run = await measureStep(fleet, step, bench.durationSeconds);
        runs.get(step)!.push(run);
        log(
          `round ${round}/${options.rounds} ${step.name}: ${run.rps.toFixed(0)}/s, p99 ${run.p99Ms} ms, ${run.errors} errors; CPU µs/req service ${num(run.cpuUsPerRequest.service)}, ` +
            `HAProxy ${num(run.cpuUsPerRequest.haproxy)}, primary ${num(run.cpuUsPerRequest.primary)}, replica ${num(run.cpuUsPerRequest.replica)}, Redis ${num(run.cpuUsPerRequest.redis)}, ` +
            `load generator ${num(run.cpuUsPerRequest.loadGenerator)}; machine ${num(run.coresBusy.machine, 2)} cores busy`,
        );
        if (run.sampleError) log(`  first error: ${run.sampleError}`);
      }
    }
    const report: ScalingReport = {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      command: ['npm run bench:fleet', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
      machine: describeMachine({ repoRoot, referenceNode, compareNode: undefined, postgresVersion: serverVersion }),
      loadAverage: { start: loadStart, end: os.loadavg() },
      options: {
        instances: options.instances,
        rounds: options.rounds,
        replicaReads: options.replicaReads,
        pgbench: options.pgbench,
        pgbenchScale: options.pgbenchScale,
        outDir: options.outDir,
        durationSeconds: bench.durationSeconds,
        warmupSeconds: bench.warmupSeconds,
        connections: bench.connections,
        poolSize: bench.poolSize,
        customers: bench.customers,
        accounts: bench.accounts,
        ledgerAccounts: bench.ledgerAccounts,
      },
      database: serverVersion,
      check,
      pgbench: pgbenchNotes,
      order,
      steps: steps.map((step) => ({
        name: step.name,
        instances: step.instances ?? null,
        runs: runs.get(step)!,
        median: medianRun(runs.get(step)!),
      })),
    };
    writeReport(report, bench.quick);
    log(`node ${nodeVersion(referenceNode)}; done`);
  } finally {
    await benchPool.end();
    await statements?.close();
    await fleet.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function writeReport(report: ScalingReport, quick: boolean): void {
  const outDir = path.resolve(repoRoot, report.options.outDir);
  mkdirSync(outDir, { recursive: true });
  const prefix = quick ? 'quick-' : '';
  const stamp = report.startedAt.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  // Only the latest run of each kind is kept; earlier ones are in git history.
  for (const old of readdirSync(outDir))
    if (old.endsWith('.json') && old.startsWith('quick-') === quick) rmSync(path.join(outDir, old));
  writeFileSync(path.join(outDir, `${prefix}${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
  const markdown = renderScalingMarkdown(report);
  writeFileSync(path.join(outDir, `${prefix}latest.md`), markdown);
  process.stdout.write(`\n${markdown}\n`);
  log(
    `results: ${path.relative(repoRoot, path.join(outDir, `${prefix}${stamp}.json`))} and ${prefix}latest.md beside it`,
  );
}

main().catch((error: unknown) => {
  killAllChildren();
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}`);
    process.exit(64);
  }
  process.stderr.write(
    `bench:fleet failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
