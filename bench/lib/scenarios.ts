import type { LoadKind } from '../load/requests.js';
import type { ContenderName } from './contenders.js';
import type { BenchContext } from './context.js';
import { measureRun, medianOfRuns, type RunMeasurement } from './measure.js';
import type { ScenarioName } from './options.js';
import { nodeVersion, type RunningServer } from './processes.js';
import { BENCH_ENVIRONMENT } from './seed.js';
import { checkNestedTree, checkSameRestJson, checkWrites, nestedRequest, probeStatements, type StatementProbe } from './verify.js';

export type HttpScenarioName = Exclude<ScenarioName, 'pgbench' | 'startup'>;

interface ScenarioDefinition {
  title: string;
  /** The service first, then its comparator (if any): runs alternate in this order. */
  contenders: { name: ContenderName; kind: LoadKind }[];
}

export const HTTP_SCENARIOS: Record<HttpScenarioName, ScenarioDefinition> = {
  'rest-get-customer': {
    title: 'REST GET /{env}/customer/{id}',
    contenders: [{ name: 'service', kind: 'rest-get-customer' }, { name: 'raw-floor', kind: 'rest-get-customer' }],
  },
  'rest-get-account': {
    title: 'REST GET /{env}/account/{id}',
    contenders: [{ name: 'service', kind: 'rest-get-account' }, { name: 'raw-floor', kind: 'rest-get-account' }],
  },
  'rest-post-customer': { title: 'REST POST /{env}/customer (full write path)', contenders: [{ name: 'service', kind: 'rest-post-customer' }] },
  'rest-put-customer': { title: 'REST PUT /{env}/customer/{id}', contenders: [{ name: 'service', kind: 'rest-put-customer' }] },
  'graphql-nested': {
    title: 'GraphQL customer { accounts { customers { accounts } } }, 1–5 accounts',
    contenders: [{ name: 'service', kind: 'graphql-nested' }, { name: 'postgraphile', kind: 'postgraphile-nested' }],
  },
  mixed: { title: 'Mixed 80/20 read/write, REST + GraphQL', contenders: [{ name: 'service', kind: 'mixed' }] },
};

export interface ContenderResult {
  name: ContenderName;
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
  /** Service req/s ÷ comparator req/s (medians), when both answered. */
  ratio: number | null;
}

export type Servers = Partial<Record<ContenderName, RunningServer>>;

const format = (run: RunMeasurement) =>
  `${run.rps.toFixed(0)} req/s, p99 ${run.p99Ms.toFixed(1)} ms, ${run.errors} errors of ${run.responses}`;

export async function runHttpScenario(ctx: BenchContext, scenario: HttpScenarioName, servers: Servers, node: string): Promise<ScenarioResult> {
  const definition = HTTP_SCENARIOS[scenario];
  // A contender that did not start is listed among the run's failures, with its reason.
  const contenders = definition.contenders.filter(({ name }) => servers[name] !== undefined);

  const checks = await verifyContenders(ctx, scenario, servers);
  for (const { name, kind } of contenders) {
    ctx.log(`[${scenario}] ${name}: warm-up ${ctx.options.warmupSeconds} s`);
    await measureRun(ctx, servers[name]!, kind, ctx.options.warmupSeconds);
  }
  const runs = new Map<ContenderName, RunMeasurement[]>(contenders.map(({ name }) => [name, []]));
  for (let run = 1; run <= ctx.options.runs; run++) {
    for (const { name, kind } of contenders) {
      const measurement = await measureRun(ctx, servers[name]!, kind, ctx.options.durationSeconds);
      runs.get(name)!.push(measurement);
      ctx.log(`[${scenario}] ${name} run ${run}/${ctx.options.runs}: ${format(measurement)}`);
      if (measurement.sampleError && run === 1) ctx.log(`[${scenario}] ${name} first error: ${measurement.sampleError}`);
    }
  }

  const results: ContenderResult[] = contenders.map(({ name }) => ({
    name,
    runs: runs.get(name)!,
    median: medianOfRuns(runs.get(name)!),
    check: checks.get(name)?.check,
    statementProbe: checks.get(name)?.probe,
  }));
  const [service, comparator] = results;
  const ratio = service && comparator && comparator.median.rps > 0 && service.median.rps > 0 ? service.median.rps / comparator.median.rps : null;
  return { scenario, title: definition.title, nodeVersion: nodeVersion(node), contenders: results, ratio };
}

async function verifyContenders(
  ctx: BenchContext,
  scenario: HttpScenarioName,
  servers: Servers,
): Promise<Map<ContenderName, { check?: string; probe?: StatementProbe[] }>> {
  const outcome = new Map<ContenderName, { check?: string; probe?: StatementProbe[] }>();
  const sample = <T>(items: T[], count: number) => items.filter((_, i) => i % Math.max(1, Math.floor(items.length / count)) === 0).slice(0, count);
  const customerIds = sample(ctx.data.customerIds, 3);
  const probeCustomerIds = ctx.data.probeCustomers.filter((p) => p.accounts <= 5).map((p) => p.customerId);

  if ((scenario === 'rest-get-customer' || scenario === 'rest-get-account') && servers.service && servers['raw-floor']) {
    const ids = scenario === 'rest-get-customer' ? [...customerIds, ...probeCustomerIds] : sample(ctx.data.accountIds, 5);
    const check = await checkSameRestJson(ctx, servers.service, servers['raw-floor'], scenario === 'rest-get-customer' ? 'customer' : 'account', ids);
    outcome.set('service', { check });
    if (scenario === 'rest-get-customer') {
      const getCustomer = (id: string) => ({ method: 'GET' as const, path: `/${BENCH_ENVIRONMENT}/customer/${id}` });
      outcome.set('service', { check, probe: await probeStatements(ctx, servers.service, getCustomer) });
      outcome.set('raw-floor', { probe: await probeStatements(ctx, servers['raw-floor'], getCustomer) });
    }
  }
  if ((scenario === 'rest-post-customer' || scenario === 'rest-put-customer') && servers.service) {
    outcome.set('service', { check: await checkWrites(ctx, servers.service, scenario) });
  }
  if (scenario === 'graphql-nested') {
    for (const name of ['service', 'postgraphile'] as const) {
      const server = servers[name];
      if (!server) continue;
      const check = await checkNestedTree(ctx, server, name, probeCustomerIds);
      const probe = await probeStatements(ctx, server, (id) => ({ method: 'POST', path: `/${BENCH_ENVIRONMENT}/graphql`, body: nestedRequest(name, id) }));
      outcome.set(name, { check, probe });
    }
  }
  return outcome;
}
