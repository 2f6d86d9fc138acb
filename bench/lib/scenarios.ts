import type { LoadKind } from '../load/requests.js';
import type { ContenderName } from './contenders.js';
import type { BenchContext } from './context.js';
import { logRatioInterval, pairedLogRatios } from './interval.js';
import { measureRun, medianOfRuns, type RunMeasurement } from './measure.js';
import type { ScenarioName } from './options.js';
import { nodeVersion, type RunningServer } from './processes.js';
import { BENCH_ENVIRONMENT } from './seed.js';
import { LAST_NAME_PREFIXES } from '../load/requests.js';
import { ssnForSequence } from './ssn-sequence.js';
import {
  checkBusyAccount,
  checkLedgerAfterRuns,
  checkNestedTree,
  checkSameAnswers,
  checkTransfer,
  checkWrites,
  nestedRequest,
  probeStatements,
  type StatementProbe,
} from './verify.js';

export type HttpScenarioName = Exclude<ScenarioName, 'startup' | 'open-loop'>;

/**
 * A row of a scenario's results: a contender of this benchmark, or, in a report written before the retired
 * comparators went (docs/adr/0100), one of those (shown apart, never judged).
 */
export type ResultName = ContenderName | (string & {});

interface ScenarioDefinition {
  title: string;
  /** The service first, then its comparators (if any): runs alternate in this order. */
  contenders: { name: ContenderName; kind: LoadKind }[];
  /** A transfer scenario: the ledger's invariants are checked after its runs. */
  movesMoney?: boolean;
  /** Concurrent connections of this scenario's load, whatever --connections says (where batching cannot help). */
  connections?: number;
}

const each = (kind: LoadKind, ...names: ContenderName[]) => names.map((name) => ({ name, kind }));

export const HTTP_SCENARIOS: Record<HttpScenarioName, ScenarioDefinition> = {
  'rest-get-customer': {
    title: 'REST GET /{env}/customer/{id}',
    contenders: each('rest-get-customer', 'service', 'batching-floor'),
  },
  'rest-get-account': {
    title: 'REST GET /{env}/account/{id}',
    contenders: each('rest-get-account', 'service', 'batching-floor'),
  },
  // The overhead budget's operating point: at 4 connections a floor batches little, so the server CPU the service
  // spends beyond the floor's is its own work per request (report.ts, OVERHEAD_BUDGET_US).
  'rest-get-customer-4': {
    title: 'REST GET /{env}/customer/{id}, 4 connections',
    contenders: each('rest-get-customer', 'service', 'batching-floor'),
    connections: 4,
  },
  'rest-get-account-4': {
    title: 'REST GET /{env}/account/{id}, 4 connections',
    contenders: each('rest-get-account', 'service', 'batching-floor'),
    connections: 4,
  },
  // The auth caches' effect on production's auth paths (report.ts, AUTH_CACHE_PAIRS): the same read, each path with
  // its caches on and off, at 4 connections where nothing else is merged away.
  'rest-get-account-auth-4': {
    title: 'REST GET /{env}/account/{id}, 4 connections: managed token and JWT, auth caches on and off',
    contenders: each('rest-get-account', 'managed-cached', 'managed-uncached', 'jwt-cached', 'jwt-uncached'),
    connections: 4,
  },
  'rest-post-customer': {
    title: 'REST POST /{env}/customer (full write path)',
    contenders: each('rest-post-customer', 'service', 'batching-floor'),
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
    movesMoney: true,
  },
  'rest-transfer-hot': {
    title: 'REST POST /{env}/transfer, random account → one hot account, Idempotency-Key',
    contenders: each('rest-transfer-hot', 'service', 'transfer-floor'),
    movesMoney: true,
  },
  'rest-get-account-with-transactions': {
    title: 'REST GET /{env}/account/{id}, 10 recent transactions',
    contenders: each('rest-get-account-with-transactions', 'service'),
  },
  // At 1,000,000 customers each costs at most 1.5x the server CPU per request it costs at 10,000 (bench/data-growth.ts),
  // and stays at least 0.75x the floor running the same SQL.
  'rest-list-customers-by-name': {
    title: 'REST GET /{env}/customer?lastName=<3 letters>, first page of 20 (about 1 in 12 customers match)',
    contenders: each('rest-list-customers-by-name', 'service', 'batching-floor'),
  },
  'rest-search-customer-by-ssn': {
    title: 'REST POST /{env}/customer/search {socialSecurityNumber}, audited, one match',
    contenders: each('rest-search-customer-by-ssn', 'service', 'batching-floor'),
  },
  // Named only (bench/data-growth.ts runs them): they read the data-growth seed's busy account.
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
   * Per comparator: service req/s ÷ comparator req/s, null unless both answered; and by CPU, the comparator's CPU
   * per request ÷ the service's (server process + PostgreSQL; > 1: the service spends less). Geometric means of
   * the paired cycles' ratios with their 95 % t intervals (reports before docs/adr/0100: ratios of medians with
   * bootstrap intervals; the report recomputes them from the runs either way).
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
  /** The transfer scenarios: the ledger's invariants after every contender's runs (verify.ts, checkLedgerAfterRuns). */
  ledgerCheck?: string;
}

/** Server process + whole PostgreSQL server CPU per response of a run, or null when either was not measured. */
export const totalCpuUsPerRequest = (
  run: Pick<RunMeasurement, 'serverCpuUsPerRequest' | 'postgresCpuUsPerRequest'>,
): number | null =>
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
  // A contender that did not start is listed among the run's failures, with its reason. The build of --against
  // runs beside the service, with the service's load.
  const service = definition.contenders.find(({ name }) => name === 'service');
  const contenders = [
    ...definition.contenders,
    ...(service && servers.baseline ? [{ name: 'baseline' as const, kind: service.kind }] : []),
  ].filter(({ name }) => servers[name] !== undefined);

  const checks = await verifyContenders(ctx, scenario, servers);
  const measure = (name: ContenderName, kind: LoadKind, seconds: number) =>
    measureRun(ctx, servers[name]!, kind, seconds);
  for (const { name, kind } of contenders) {
    ctx.log(`[${scenario}] ${name}: warm-up ${ctx.options.warmupSeconds} s`);
    await measure(name, kind, ctx.options.warmupSeconds);
  }
  const runs = new Map<ContenderName, RunMeasurement[]>(contenders.map(({ name }) => [name, []]));
  const runCount = ctx.options.runs;
  for (let run = 1; run <= runCount; run++) {
    // Each cycle starts one contender later: the background work a run leaves behind (autovacuum of what it
    // wrote, a checkpoint, the service's jobs catching up) lands in a different contender's next run each
    // cycle, not always in the same one's.
    for (const { name, kind } of contenders.map((_, i) => contenders[(i + run - 1) % contenders.length]!)) {
      const measurement = await measure(name, kind, ctx.options.durationSeconds);
      runs.get(name)!.push(measurement);
      ctx.log(`[${scenario}] ${name} run ${run}/${runCount}: ${format(measurement)}`);
      if (measurement.sampleError && run === 1)
        ctx.log(`[${scenario}] ${name} first error: ${measurement.sampleError}`);
    }
  }

  const results: ContenderResult[] = contenders.map(({ name }) => ({
    name,
    runs: runs.get(name)!,
    median: medianOfRuns(runs.get(name)!),
    check: checks.get(name)?.check,
    statementProbe: checks.get(name)?.probe,
  }));
  const ratios = scenarioRatios(results);
  // Every transfer contender moved money in the bench database: the ledger must still balance.
  const ledgerCheck = definition.movesMoney ? await checkLedgerAfterRuns(ctx.benchPool) : undefined;
  if (ledgerCheck !== undefined) ctx.log(`[${scenario}] ${ledgerCheck}`);
  return {
    scenario,
    title: definition.title,
    nodeVersion: nodeVersion(node),
    ...(definition.connections !== undefined && { connections: definition.connections }),
    contenders: results,
    ratios,
    ...(ledgerCheck !== undefined && { ledgerCheck }),
  };
}

/**
 * Each comparator's ratios to the service over the paired cycles: req/s (service ÷ comparator) and CPU per request
 * (comparator ÷ service, server process + PostgreSQL), each the geometric mean of the per-cycle ratios with its
 * 95 % t interval (bench/lib/interval.ts).
 */
export function scenarioRatios(results: ContenderResult[]): ScenarioResult['ratios'] {
  const service = results.find((r) => r.name === 'service');
  return results
    .filter((r) => r.name !== 'service')
    .map((comparator) => {
      const rps = logRatioInterval(
        pairedLogRatios(
          service?.runs.map((r) => r.rps) ?? [],
          comparator.runs.map((r) => r.rps),
        ),
      );
      const cpu = logRatioInterval(
        pairedLogRatios(comparator.runs.map(totalCpuUsPerRequest), service?.runs.map(totalCpuUsPerRequest) ?? []),
      );
      return {
        comparator: comparator.name,
        ratio: rps.ratio,
        interval: rps.interval,
        cpuRatio: cpu.ratio,
        cpuInterval: cpu.interval,
      };
    });
}

async function verifyContenders(
  ctx: BenchContext,
  scenario: HttpScenarioName,
  servers: Servers,
): Promise<Map<ContenderName, { check?: string; probe?: StatementProbe[] }>> {
  const outcome = new Map<ContenderName, { check?: string; probe?: StatementProbe[] }>();
  const sample = <T>(items: T[], count: number) =>
    items.filter((_, i) => i % Math.max(1, Math.floor(items.length / count)) === 0).slice(0, count);
  const customerIds = sample(ctx.data.customerIds, 3);
  const probeCustomerIds = ctx.data.probeCustomers.filter((p) => p.accounts <= 5).map((p) => p.customerId);

  const reads: Partial<Record<HttpScenarioName, { method: 'GET' | 'POST'; path: string; body?: unknown }[]>> = {
    'rest-get-customer': [...customerIds, ...probeCustomerIds].map((id) => ({
      method: 'GET',
      path: `/${BENCH_ENVIRONMENT}/customer/${id}`,
    })),
    'rest-get-account': sample(ctx.data.accountIds, 5).map((id) => ({
      method: 'GET',
      path: `/${BENCH_ENVIRONMENT}/account/${id}`,
    })),
    'rest-list-customers-by-name': LAST_NAME_PREFIXES.slice(0, 4).map((prefix) => ({
      method: 'GET',
      path: `/${BENCH_ENVIRONMENT}/customer?lastName=${prefix}&limit=20`,
    })),
    'rest-search-customer-by-ssn': [0, 1, Math.floor(ctx.data.customers / 2), ctx.data.customers - 1].map(
      (sequence) => ({
        method: 'POST',
        path: `/${BENCH_ENVIRONMENT}/customer/search`,
        body: { socialSecurityNumber: ssnForSequence(sequence) },
      }),
    ),
  };
  // The 4-connection variants answer what their 50-connection scenarios answer.
  const requests = reads[scenario.replace(/-4$/, '') as HttpScenarioName];
  if (requests && servers.service && servers['batching-floor']) {
    const service = { name: 'service', server: servers.service };
    const floor = { name: 'batching-floor', server: servers['batching-floor'] };
    outcome.set('batching-floor', { check: await checkSameAnswers(ctx, floor, service, requests) });
  }
  // Each auth path answers the reads with the service's JSON, under its own credentials.
  if (scenario === 'rest-get-account-auth-4' && servers['batching-floor']) {
    const floor = { name: 'batching-floor', server: servers['batching-floor'] };
    for (const { name } of HTTP_SCENARIOS[scenario].contenders) {
      const server = servers[name];
      if (server)
        outcome.set(name, { check: await checkSameAnswers(ctx, { name, server }, floor, reads['rest-get-account']!) });
    }
  }
  if (scenario === 'rest-get-customer') {
    const getCustomer = (id: string) => ({ method: 'GET' as const, path: `/${BENCH_ENVIRONMENT}/customer/${id}` });
    for (const name of ['service', 'batching-floor'] as const) {
      const server = servers[name];
      if (server) outcome.set(name, { ...outcome.get(name), probe: await probeStatements(ctx, server, getCustomer) });
    }
  }
  if (scenario === 'rest-post-customer') {
    for (const name of ['service', 'batching-floor'] as const) {
      const server = servers[name];
      if (server) outcome.set(name, { check: await checkWrites(ctx, { name, server }) });
    }
  }
  if (scenario === 'rest-transfer-uniform' || scenario === 'rest-transfer-hot') {
    for (const name of ['service', 'transfer-floor'] as const) {
      const server = servers[name];
      if (server) outcome.set(name, { check: await checkTransfer(ctx, server, scenario === 'rest-transfer-hot') });
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
