import type { LoadKind } from '../load/requests.js';
import type { ContenderName } from './contenders.js';
import type { BenchContext } from './context.js';
import { bootstrapRatioInterval } from './interval.js';
import { measureRun, median, medianOfRuns, type RunMeasurement } from './measure.js';
import type { ScenarioName } from './options.js';
import { type TpcbCeiling, TPCB_CONTENDER, tpcbCeiling } from './pgbench.js';
import { SERVICE_SQL_CONTENDER, serviceSqlPgbench } from './pgbench-service-sql.js';
import { checkOutboxContender } from './outbox.js';
import { nodeVersion, type RunningServer } from './processes.js';
import { BENCH_ENVIRONMENT } from './seed.js';
import { LAST_NAME_PREFIXES } from '../load/requests.js';
import { ssnForSequence } from './ssn-sequence.js';
import {
  checkBusyAccount,
  checkLedgerAfterRuns,
  checkNestedTree,
  checkSameRestAnswers,
  checkSameRestJson,
  checkTransfer,
  checkWrites,
  nestedRequest,
  probeStatements,
  type StatementProbe,
} from './verify.js';

export type HttpScenarioName = Exclude<ScenarioName, 'pgbench' | 'startup' | 'webhook-delivery' | 'open-loop'>;

/**
 * A row of a scenario's results: an HTTP contender, or a pgbench workload set beside it (PostgreSQL's own bank
 * workload, or the service's posting statement on its own tables).
 */
export type ResultName = ContenderName | typeof TPCB_CONTENDER | typeof SERVICE_SQL_CONTENDER;

/** The rows that are pgbench runs, not HTTP contenders. */
export const isPgbenchResult = (name: ResultName): name is typeof TPCB_CONTENDER | typeof SERVICE_SQL_CONTENDER =>
  name === TPCB_CONTENDER || name === SERVICE_SQL_CONTENDER;

interface ScenarioDefinition {
  title: string;
  /** The service first, then its comparators (if any): runs alternate in this order. */
  contenders: { name: ContenderName; kind: LoadKind }[];
  /** PostgreSQL's own bank workload, run last in each round of the alternation (service, pgbench, service, …). */
  ceiling?: typeof TPCB_CONTENDER;
  /** The service's posting statement under pgbench on the service's tables (bench/lib/pgbench-service-sql.ts), after the ceiling. */
  serviceSql?: 'uniform' | 'hot';
  /** At least this many alternating runs whatever --runs says (not with --quick): a ratio that decides a rule. */
  minRuns?: number;
  /** Concurrent connections of this scenario's load, whatever --connections says (where batching cannot help). */
  connections?: number;
}

const each = (kind: LoadKind, ...names: ContenderName[]) => names.map((name) => ({ name, kind }));

export const HTTP_SCENARIOS: Record<HttpScenarioName, ScenarioDefinition> = {
  'rest-get-customer': {
    title: 'REST GET /{env}/customer/{id}',
    contenders: each('rest-get-customer', 'service', 'batching-floor', 'raw-floor', 'express-prisma'),
  },
  'rest-get-account': {
    title: 'REST GET /{env}/account/{id}',
    contenders: each('rest-get-account', 'service', 'batching-floor', 'raw-floor', 'express-prisma'),
  },
  // Issue 34: at 4 connections few reads meet in one event-loop round, so what decides is each request's own cost.
  'rest-get-customer-4-connections': {
    title: 'REST GET /{env}/customer/{id}, 4 connections',
    contenders: each('rest-get-customer', 'service', 'raw-floor', 'batching-floor'),
    connections: 4,
  },
  'rest-get-account-4-connections': {
    title: 'REST GET /{env}/account/{id}, 4 connections',
    contenders: each('rest-get-account', 'service', 'raw-floor', 'batching-floor'),
    connections: 4,
  },
  'rest-post-customer': {
    title: 'REST POST /{env}/customer (full write path)',
    contenders: each('rest-post-customer', 'service', 'batching-floor', 'raw-floor', 'express-prisma'),
  },
  'rest-put-customer': {
    title: 'REST PUT /{env}/customer/{id}',
    contenders: each('rest-put-customer', 'service', 'express-prisma', 'raw-floor'),
  },
  'graphql-nested': {
    title: 'GraphQL customer { accounts { customers } }, 1–5 accounts',
    contenders: [
      { name: 'service', kind: 'graphql-nested' },
      { name: 'postgraphile', kind: 'postgraphile-nested' },
    ],
  },
  mixed: { title: 'Mixed 80/20 read/write, REST + GraphQL', contenders: [{ name: 'service', kind: 'mixed' }] },
  'rest-transfer-uniform': {
    title: 'REST POST /{env}/transfer, random pairs of 10,000 funded accounts, Idempotency-Key',
    contenders: each('rest-transfer-uniform', 'service', 'transfer-floor'),
    ceiling: TPCB_CONTENDER,
    serviceSql: 'uniform',
  },
  'rest-transfer-hot': {
    title: 'REST POST /{env}/transfer, random account → one hot account, Idempotency-Key',
    contenders: each('rest-transfer-hot', 'service', 'transfer-floor'),
    ceiling: TPCB_CONTENDER,
    serviceSql: 'hot',
  },
  'rest-get-account-with-transactions': {
    title: 'REST GET /{env}/account/{id}, 10 recent transactions',
    contenders: each('rest-get-account-with-transactions', 'service', 'raw-floor'),
  },
  // Issue 30's rule: at 1,000,000 customers each costs at most 1.5x the server CPU per request it costs at 10,000,
  // and stays at least 0.75x the floor running the same SQL (docs/performance.md, "Finding customers at scale").
  'rest-list-customers-by-name': {
    title: 'REST GET /{env}/customer?lastName=<3 letters>, first page of 20 (about 1 in 12 customers match)',
    contenders: each('rest-list-customers-by-name', 'service', 'batching-floor', 'raw-floor'),
  },
  'rest-search-customer-by-ssn': {
    title: 'REST POST /{env}/customer/search {socialSecurityNumber}, audited, one match',
    contenders: each('rest-search-customer-by-ssn', 'service', 'batching-floor', 'raw-floor'),
  },
  // Issue 34, item 5 (bench/data-growth.ts): named only, they read the data-growth seed's busy account.
  'rest-balance-as-of': {
    title: 'REST GET /{env}/account/{id}/balance?asOf=<a moment of its history>, the busy account',
    contenders: each('rest-balance-as-of', 'service'),
  },
  // A month of the busy account is a twelfth of its entries, each statement a long answer: 4 connections.
  'rest-statement': {
    title:
      'REST GET /{env}/account/{id}/statement?from=&to= (JSON, one calendar month), the busy account, 4 connections',
    contenders: each('rest-statement', 'service'),
    connections: 4,
  },
  // Issue 16's rule: the outbox costs at most 10 % of create-customer throughput (bench/lib/outbox.ts).
  'outbox-cost': {
    title: 'REST POST /{env}/customer with the outbox vs without (each on its own database)',
    contenders: each('rest-post-customer', 'service', 'no-outbox', 'pre-outbox'),
    minRuns: 5,
  },
};

export interface ContenderResult {
  name: ResultName;
  runs: RunMeasurement[];
  median: RunMeasurement;
  /** Whether its answers are the expected data (see verify.ts). */
  check: string | undefined;
  statementProbe: StatementProbe[] | undefined;
}

export interface ScenarioResult {
  scenario: HttpScenarioName;
  title: string;
  nodeVersion: string;
  contenders: ContenderResult[];
  /**
   * Per comparator: service req/s ÷ comparator req/s (medians of this run), null unless both answered; and by CPU,
   * the comparator's CPU per request ÷ the service's (server process + PostgreSQL; > 1: the service spends less).
   */
  ratios: {
    comparator: ResultName;
    ratio: number | null;
    interval?: [number, number] | null;
    cpuRatio?: number | null;
    cpuInterval?: [number, number] | null;
  }[];
  /** Connections of the load, when the scenario sets its own (absent: --connections). */
  connections?: number;
  /** The transfer scenarios: what PostgreSQL ran for one transfer sent alone (pg_stat_statements). */
  oneRequestStatements?: { query: string; calls: number }[] | undefined;
  /** The transfer scenarios: the ledger's invariants after every contender's runs (verify.ts, checkLedgerAfterRuns). */
  ledgerCheck?: string;
}

/** Service ÷ `comparator` in `scenario`, or null (not run, or no answers). */
export const ratioOf = (scenario: ScenarioResult | undefined, comparator: ResultName): number | null =>
  scenario?.ratios.find((r) => r.comparator === comparator)?.ratio ?? null;

/** The 95 % bootstrap interval of that ratio over the paired cycles, or null (fewer than three, or an older report). */
export const ratioIntervalOf = (
  scenario: ScenarioResult | undefined,
  comparator: ResultName,
): [number, number] | null => scenario?.ratios.find((r) => r.comparator === comparator)?.interval ?? null;

/** Comparator CPU per request ÷ the service's (server + PostgreSQL), with its 95 % bootstrap interval; nulls when not measured. */
export const cpuRatioOf = (
  scenario: ScenarioResult | undefined,
  comparator: ResultName,
): { ratio: number | null; interval: [number, number] | null } => {
  const found = scenario?.ratios.find((r) => r.comparator === comparator);
  return { ratio: found?.cpuRatio ?? null, interval: found?.cpuInterval ?? null };
};

/** Server process + whole PostgreSQL server CPU per response of a run, or null when either was not measured. */
export const totalCpuUsPerRequest = (run: RunMeasurement): number | null =>
  run.serverCpuUsPerRequest === null || run.postgresCpuUsPerRequest === null
    ? null
    : run.serverCpuUsPerRequest + run.postgresCpuUsPerRequest;

export type Servers = Partial<Record<ContenderName, RunningServer>>;

const format = (run: RunMeasurement) =>
  `${run.rps.toFixed(0)} req/s, p99 ${run.p99Ms.toFixed(1)} ms, ${run.errors} errors of ${run.responses}`;

export async function runHttpScenario(
  runCtx: BenchContext,
  scenario: HttpScenarioName,
  servers: Servers,
  node: string,
): Promise<ScenarioResult> {
  const definition = HTTP_SCENARIOS[scenario];
  // A scenario with its own connection count loads through a context that says so (reads only: no SSNs taken).
  const ctx =
    definition.connections === undefined
      ? runCtx
      : { ...runCtx, options: { ...runCtx.options, connections: definition.connections } };
  // A contender that did not start is listed among the run's failures, with its reason.
  const contenders = definition.contenders.filter(({ name }) => servers[name] !== undefined);

  const checks = await verifyContenders(ctx, scenario, servers);
  // Each measured step is an HTTP contender's run or the ceiling's pgbench run, alternating in that order.
  const steps: {
    name: ResultName;
    warmUp: (seconds: number) => Promise<unknown>;
    measure: (seconds: number) => Promise<RunMeasurement>;
  }[] = contenders.map(({ name, kind }) => ({
    name,
    warmUp: (seconds) => measureRun(ctx, servers[name]!, kind, seconds),
    measure: (seconds) => measureRun(ctx, servers[name]!, kind, seconds),
  }));
  // What each pgbench row's check column says: its command, or why it did not run.
  const pgbenchNotes = new Map<ResultName, string>();
  const pgbenchSteps: [ResultName, () => Promise<TpcbCeiling | string>][] = [];
  if (definition.ceiling) pgbenchSteps.push([definition.ceiling, () => tpcbCeiling(ctx)]);
  if (definition.serviceSql)
    pgbenchSteps.push([SERVICE_SQL_CONTENDER, () => serviceSqlPgbench(ctx, definition.serviceSql === 'hot')]);
  for (const [name, prepare] of pgbenchSteps) {
    const workload = await prepare();
    if (typeof workload === 'string') pgbenchNotes.set(name, workload);
    else {
      steps.push({ name, warmUp: workload.warmUp, measure: workload.measure });
      pgbenchNotes.set(name, workload.description);
    }
  }
  for (const step of steps) {
    ctx.log(`[${scenario}] ${step.name}: warm-up ${ctx.options.warmupSeconds} s`);
    await step.warmUp(ctx.options.warmupSeconds);
  }
  const runs = new Map<ResultName, RunMeasurement[]>(steps.map(({ name }) => [name, []]));
  const runCount = ctx.options.quick ? ctx.options.runs : Math.max(ctx.options.runs, definition.minRuns ?? 0);
  for (let run = 1; run <= runCount; run++) {
    // Each cycle starts one contender later: the background work a run leaves behind (autovacuum of what it
    // wrote, a checkpoint, the service's jobs catching up) lands in a different contender's next run each
    // cycle, not always in the same one's.
    for (const step of steps.map((_, i) => steps[(i + run - 1) % steps.length]!)) {
      const measurement = await step.measure(ctx.options.durationSeconds);
      runs.get(step.name)!.push(measurement);
      ctx.log(`[${scenario}] ${step.name} run ${run}/${runCount}: ${format(measurement)}`);
      if (measurement.sampleError && run === 1)
        ctx.log(`[${scenario}] ${step.name} first error: ${measurement.sampleError}`);
    }
  }

  const results: ContenderResult[] = steps.map(({ name }) => ({
    name,
    runs: runs.get(name)!,
    median: medianOfRuns(runs.get(name)!),
    check: isPgbenchResult(name) ? pgbenchNotes.get(name) : checks.get(name)?.check,
    statementProbe: isPgbenchResult(name) ? undefined : checks.get(name)?.probe,
  }));
  for (const [name] of pgbenchSteps) {
    if (!runs.has(name))
      results.push({
        name,
        runs: [],
        median: medianOfRuns([]),
        check: pgbenchNotes.get(name),
        statementProbe: undefined,
      });
  }
  const ratios = scenarioRatios(results);
  // Every transfer contender moved money in the bench database: the ledger must still balance.
  const ledgerCheck =
    definition.ceiling || definition.serviceSql ? await checkLedgerAfterRuns(ctx.benchPool) : undefined;
  if (ledgerCheck !== undefined) ctx.log(`[${scenario}] ${ledgerCheck}`);
  return {
    scenario,
    title: definition.title,
    nodeVersion: nodeVersion(node),
    ...(definition.connections !== undefined && { connections: definition.connections }),
    contenders: results,
    ratios,
    oneRequestStatements: checks.get('service')?.queries,
    ...(ledgerCheck !== undefined && { ledgerCheck }),
  };
}

/**
 * Each comparator's ratios to the service: req/s (service ÷ comparator) and CPU per request (comparator ÷ service),
 * each with its 95 % bootstrap interval over the paired cycles.
 */
export function scenarioRatios(results: ContenderResult[]): ScenarioResult['ratios'] {
  const service = results.find((r) => r.name === 'service');
  return results
    .filter((r) => r.name !== 'service')
    .map((comparator) => {
      // Only cycles where both figures exist pair up (CPU is null without /proc, or with no answers).
      const cpuPairs = service
        ? service.runs.map(
            (run, i) =>
              [
                totalCpuUsPerRequest(run),
                comparator.runs[i] ? totalCpuUsPerRequest(comparator.runs[i]) : null,
              ] as const,
          )
        : [];
      const measured = cpuPairs.filter(
        (pair): pair is readonly [number, number] => pair[0] !== null && pair[0] > 0 && pair[1] !== null,
      );
      return {
        comparator: comparator.name,
        ratio:
          service && comparator.median.rps > 0 && service.median.rps > 0
            ? service.median.rps / comparator.median.rps
            : null,
        // Runs alternate, one cycle at a time: run i of the service and run i of the comparator are a pair.
        interval: service
          ? bootstrapRatioInterval(
              service.runs.map((r) => r.rps),
              comparator.runs.map((r) => r.rps),
            )
          : null,
        // Medians of the same paired cycles the interval resamples.
        cpuRatio:
          measured.length > 0
            ? median(measured.map(([, floor]) => floor)) / median(measured.map(([ours]) => ours))
            : null,
        cpuInterval: bootstrapRatioInterval(
          measured.map(([, floor]) => floor),
          measured.map(([ours]) => ours),
        ),
      };
    });
}

async function verifyContenders(
  ctx: BenchContext,
  scenario: HttpScenarioName,
  servers: Servers,
): Promise<
  Map<ContenderName, { check?: string; probe?: StatementProbe[]; queries?: { query: string; calls: number }[] }>
> {
  const outcome = new Map<
    ContenderName,
    { check?: string; probe?: StatementProbe[]; queries?: { query: string; calls: number }[] }
  >();
  const sample = <T>(items: T[], count: number) =>
    items.filter((_, i) => i % Math.max(1, Math.floor(items.length / count)) === 0).slice(0, count);
  const customerIds = sample(ctx.data.customerIds, 3);
  const probeCustomerIds = ctx.data.probeCustomers.filter((p) => p.accounts <= 5).map((p) => p.customerId);

  const customerRead = scenario === 'rest-get-customer' || scenario === 'rest-get-customer-4-connections';
  const accountRead = scenario === 'rest-get-account' || scenario === 'rest-get-account-4-connections';
  if ((customerRead || accountRead || scenario === 'rest-get-account-with-transactions') && servers['raw-floor']) {
    const floor = servers['raw-floor'];
    const ids = customerRead
      ? [...customerIds, ...probeCustomerIds]
      : sample(accountRead ? ctx.data.accountIds : (ctx.ledger?.accountsWithTransactions ?? []), 5);
    const resource = customerRead ? 'customer' : 'account';
    const getCustomer = (id: string) => ({ method: 'GET' as const, path: `/${BENCH_ENVIRONMENT}/customer/${id}` });
    for (const name of ['service', 'batching-floor', 'express-prisma', 'raw-floor'] as const) {
      const server = servers[name];
      if (!server) continue;
      const check =
        name === 'raw-floor' ? undefined : await checkSameRestJson(ctx, { name, server }, floor, resource, ids);
      const probe = customerRead ? await probeStatements(ctx, server, getCustomer) : undefined;
      outcome.set(name, { ...(check !== undefined && { check }), ...(probe !== undefined && { probe }) });
    }
  }
  if (scenario === 'rest-post-customer' || scenario === 'rest-put-customer') {
    for (const name of ['service', 'batching-floor', 'raw-floor', 'express-prisma'] as const) {
      const server = servers[name];
      if (server) outcome.set(name, { check: await checkWrites(ctx, { name, server }, scenario) });
    }
  }
  if (scenario === 'outbox-cost') {
    for (const name of ['service', 'no-outbox', 'pre-outbox'] as const) {
      const server = servers[name];
      if (server) outcome.set(name, { check: await checkOutboxContender(ctx, name, server) });
    }
  }
  if (
    (scenario === 'rest-list-customers-by-name' || scenario === 'rest-search-customer-by-ssn') &&
    servers['raw-floor'] &&
    servers.service
  ) {
    const requests =
      scenario === 'rest-list-customers-by-name'
        ? LAST_NAME_PREFIXES.slice(0, 4).map((prefix) => ({
            method: 'GET' as const,
            path: `/${BENCH_ENVIRONMENT}/customer?lastName=${prefix}&limit=20`,
          }))
        : [0, 1, Math.floor(ctx.data.customers / 2), ctx.data.customers - 1].map((sequence) => ({
            method: 'POST' as const,
            path: `/${BENCH_ENVIRONMENT}/customer/search`,
            body: { socialSecurityNumber: ssnForSequence(sequence) },
          }));
    for (const name of ['service', 'batching-floor'] as const) {
      const server = servers[name];
      if (server)
        outcome.set(name, { check: await checkSameRestAnswers(ctx, { name, server }, servers['raw-floor'], requests) });
    }
  }
  if (scenario === 'rest-transfer-uniform' || scenario === 'rest-transfer-hot') {
    for (const name of ['service', 'transfer-floor'] as const) {
      const server = servers[name];
      if (server) outcome.set(name, await checkTransfer(ctx, server, scenario === 'rest-transfer-hot'));
    }
  }
  if ((scenario === 'rest-balance-as-of' || scenario === 'rest-statement') && servers.service) {
    outcome.set('service', { check: await checkBusyAccount(ctx, servers.service, scenario) });
  }
  if (scenario === 'graphql-nested') {
    for (const name of ['service', 'postgraphile'] as const) {
      const server = servers[name];
      if (!server) continue;
      const check = await checkNestedTree(ctx, server, name, probeCustomerIds);
      const probe = await probeStatements(ctx, server, (id) => ({
        method: 'POST',
        path: `/${BENCH_ENVIRONMENT}/graphql`,
        body: nestedRequest(name, id),
      }));
      outcome.set(name, { check, probe });
    }
  }
  return outcome;
}
