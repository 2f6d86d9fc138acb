import type { MachineInfo, RunConditions } from './machine.js';
import {
  MIXED_CPU_MINIMUM,
  MIXED_LOAD_FRACTION,
  MIXED_P99_MAXIMUM,
  mixedWorkloadFigures,
  type MixedWorkloadResult,
} from './mixed-workload.js';
import { type OpenLoopResult, renderOpenLoop } from './open-loop.js';
import {
  capacitySpread,
  ceilingVerdict,
  type DifferenceSummary,
  driftOf,
  logRatioInterval,
  pairedDifferenceInterval,
  pairedLogRatios,
  SPREAD_LIMIT,
} from './interval.js';
import { medianOrNull, type RunMeasurement } from './measure.js';
import type { BenchOptions } from './options.js';
import type { StatementCounting } from './postgres.js';
import { CONTENDER_LABELS, type ContenderName } from './contenders.js';
import {
  type ContenderResult,
  HTTP_SCENARIOS,
  type ResultName,
  type ScenarioResult,
  totalCpuUsPerRequest,
} from './scenarios.js';
import type { StartupResult } from './startup.js';
import { type DataGrowthReport, renderGrowthSummary } from './growth-report.js';

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  elapsedSeconds: number;
  command: string;
  options: BenchOptions;
  machine: MachineInfo;
  /** Where the load generator ran, steal time and load average (absent in reports written before docs/adr/0100). */
  conditions?: RunConditions;
  /** The Node flags the service ran with: npm start's. */
  serviceNodeFlags?: string[];
  database: { server: string; embedded: boolean; statementCounting: StatementCounting };
  dataset: {
    customers: number;
    accounts: number;
    sharedAccounts: number;
    links: number;
    nestedPopulation: number;
    /** The ledger scenarios' own accounts (seedLedger), when one ran. */
    ledger?: { fundedAccounts: number; accountsWithTransactions: number; entries: number };
  };
  scenarios: ScenarioResult[];
  openLoop?: OpenLoopResult | null;
  startup: StartupResult[];
  /** Steps that failed outright (a contender that would not start, …); the rest still ran. */
  failures: string[];
  /** The build of --against, run beside the service as `baseline`. */
  baseline?: { ref: string; commit: string };
}

export const num = (value: number | null | undefined, digits = 0): string =>
  value === null || value === undefined || Number.isNaN(value)
    ? '–'
    : value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const ratioText = (ratio: number | null, interval: [number, number] | null): string =>
  ratio === null
    ? '–'
    : `${ratio.toFixed(2)}×${interval === null ? '' : ` (${interval[0].toFixed(2)}–${interval[1].toFixed(2)})`}`;

const percent = (share: number | null | undefined): string =>
  share === null || share === undefined ? '–' : `${(share * 100).toFixed(1)} %`;

function errorsCell(run: RunMeasurement): string {
  if (run.errors === 0) return '0';
  return run.responses > 0
    ? `${num(run.errors)} (${((run.errors / run.responses) * 100).toFixed(1)}%)`
    : num(run.errors);
}

const isCurrentContender = (name: ResultName): name is ContenderName => name in CONTENDER_LABELS;
const labelOf = (name: ResultName): string => (isCurrentContender(name) ? CONTENDER_LABELS[name] : name);

/** What a report stored before docs/adr/0100 may name that the benchmark no longer runs (its failures are not shown). */
const RETIRED = [
  'webhook-delivery',
  'outbox-cost',
  'pgbench',
  'express-prisma',
  'no-outbox',
  'pre-outbox',
  'raw-floor',
];

/** The scenarios and contenders this benchmark still runs: a report stored before some were retired shows only these. */
function currentScenarios(report: BenchReport): ScenarioResult[] {
  return report.scenarios
    .filter((s) => s.scenario in HTTP_SCENARIOS)
    .map((s) => ({ ...s, contenders: s.contenders.filter((c) => isCurrentContender(c.name)) }));
}

/** The per-cycle comparison of the service with one comparator in one scenario, by req/s and by CPU per request. */
export interface PairedComparison {
  scenario: ScenarioResult;
  comparator: ContenderResult;
  /** Service req/s ÷ comparator req/s, cycle by cycle. */
  rps: { logs: number[] } & ReturnType<typeof logRatioInterval> & { drift: ReturnType<typeof driftOf> };
  /** Comparator CPU per request ÷ the service's (server + PostgreSQL): > 1, the service spends less. */
  cpu: { logs: number[] } & ReturnType<typeof logRatioInterval> & { drift: ReturnType<typeof driftOf> };
}

export function comparePaired(scenario: ScenarioResult, comparator: ContenderResult): PairedComparison | null {
  const service = scenario.contenders.find((c) => c.name === 'service');
  if (!service || comparator.name === 'service') return null;
  const summary = (logs: number[]) => ({ logs, ...logRatioInterval(logs), drift: driftOf(logs) });
  return {
    scenario,
    comparator,
    rps: summary(
      pairedLogRatios(
        service.runs.map((r) => r.rps),
        comparator.runs.map((r) => r.rps),
      ),
    ),
    cpu: summary(pairedLogRatios(comparator.runs.map(totalCpuUsPerRequest), service.runs.map(totalCpuUsPerRequest))),
  };
}

/** Contenders whose capacity varied more than SPREAD_LIMIT within the run: their ratios are reported, never judged. */
function unstable(contender: ContenderResult | undefined): boolean {
  const spread = contender ? capacitySpread(contender.runs.map((r) => r.rps)) : null;
  return spread !== null && spread > SPREAD_LIMIT;
}

function spreadCell(contender: ContenderResult): string {
  const spread = capacitySpread(contender.runs.map((r) => r.rps));
  if (spread === null) return '–';
  const text = Number.isFinite(spread) ? `${spread.toFixed(1)}×` : '∞';
  return spread > SPREAD_LIMIT ? `**${text} unstable**` : text;
}

function contenderRow(scenario: ScenarioResult, contender: ContenderResult): string {
  const m = contender.median;
  const paired = comparePaired(scenario, contender);
  const ratio =
    contender.name === 'service' ? '1.00×' : ratioText(paired?.rps.ratio ?? null, paired?.rps.interval ?? null);
  const steal = contender.runs.map((r) => r.stealShare).filter((s): s is number => typeof s === 'number');
  return `| ${scenario.title} | ${scenario.nodeVersion} | ${labelOf(contender.name)} | ${num(m.rps)} | ${ratio} | ${spreadCell(contender)} | ${num(m.p50Ms, 1)} | ${num(m.p99Ms, 1)} | ${errorsCell(m)} | ${num(m.serverCpuUsPerRequest)} | ${num(m.postgresCpuUsPerRequest)} | ${num(m.walBytesPerOperation)} | ${num(m.statementsPerOperation, 1)} | ${num(m.peakRssMb)} | ${steal.length > 0 ? percent(Math.max(...steal)) : '–'} | ${contender.check ?? ''} |`;
}

// ---- against another build -------------------------------------------------------------------------------------

/** Below this on an interval's lower bound, this build is slower than the baseline: a regression. */
export const REGRESSION_LIMIT = 0.97;

export interface RegressionRow {
  scenario: string;
  rps: string;
  cpu: string;
  /**
   * true: the whole interval is more than REGRESSION_LIMIT slower (by req/s or by CPU per request); false: its lower
   * bound is within it; null: inside the noise (the interval straddles it) or under three cycles.
   */
  regression: boolean | null;
}

/** Each scenario the baseline ran in: this build ÷ the baseline by req/s and by CPU per request, with the verdict. */
export function regressionRows(report: BenchReport): RegressionRow[] {
  const rows: RegressionRow[] = [];
  for (const scenario of report.scenarios) {
    const baseline = scenario.contenders.find((c) => c.name === 'baseline');
    const paired = baseline ? comparePaired(scenario, baseline) : null;
    if (!paired) continue;
    const verdicts = [paired.rps.interval, paired.cpu.interval].map((interval) =>
      interval === null ? null : interval[1] < REGRESSION_LIMIT ? true : interval[0] >= REGRESSION_LIMIT ? false : null,
    );
    rows.push({
      scenario: scenario.title,
      rps: ratioText(paired.rps.ratio, paired.rps.interval),
      cpu: ratioText(paired.cpu.ratio, paired.cpu.interval),
      regression: verdicts.includes(true) ? true : verdicts.every((v) => v === false) ? false : null,
    });
  }
  return rows;
}

// ---- targets ---------------------------------------------------------------------------------------------------

/**
 * A ratio the service must keep against a floor that runs the same work with less of the stack: by req/s
 * (service ÷ floor) or by CPU per request (floor ÷ service, server + PostgreSQL). Judged on the lower bound of
 * the per-cycle log-ratios' 95 % t interval.
 */
export interface RatioTarget {
  label: string;
  scenario: string;
  comparator: ContenderName;
  minimum: number;
  by: 'rps' | 'cpu';
}

export const RATIO_TARGETS: readonly RatioTarget[] = [
  {
    label: 'Create customer (idempotency key)',
    scenario: 'rest-post-customer',
    comparator: 'batching-floor',
    minimum: 0.7,
    by: 'cpu',
  },
  {
    label: 'Transfers, uniform',
    scenario: 'rest-transfer-uniform',
    comparator: 'transfer-floor',
    minimum: 0.7,
    by: 'cpu',
  },
  {
    label: 'Transfers, one hot account',
    scenario: 'rest-transfer-hot',
    comparator: 'transfer-floor',
    minimum: 0.7,
    by: 'cpu',
  },
  {
    label: 'Customer list page by last-name prefix',
    scenario: 'rest-list-customers-by-name',
    comparator: 'batching-floor',
    minimum: 0.75,
    by: 'rps',
  },
  {
    label: 'Customer search by SSN (audited)',
    scenario: 'rest-search-customer-by-ssn',
    comparator: 'batching-floor',
    minimum: 0.75,
    by: 'rps',
  },
];

/** Nested GraphQL beside PostGraphile: reported with its interval, never judged (PostGraphile's own capacity swings). */
export const REPORTED_BESIDE: { label: string; scenario: string; comparator: ContenderName } = {
  label: 'Nested GraphQL beside PostGraphile (reported, not judged)',
  scenario: 'graphql-nested',
  comparator: 'postgraphile',
};

/**
 * The overhead budget: at 4 connections, where a floor batches little, the server CPU per request the service
 * spends beyond the batching floor's (its HTTP stack, authentication, validation, presentation), cycle by cycle.
 * A ceiling: met when the upper bound of the differences' 95 % t interval is within it.
 */
export const OVERHEAD_BUDGET_US = 120;
export const OVERHEAD_SCENARIOS = [
  { label: 'GET customer', scenario: 'rest-get-customer-4' },
  { label: 'GET account', scenario: 'rest-get-account-4' },
] as const;

/**
 * PostgreSQL's work per operation: the primary is what does not scale out, so each operation's PostgreSQL CPU per
 * request and SQL statements per request stay within this factor of the floor's that runs the same operation. A
 * ceiling: met when the upper bound of the per-cycle ratios' 95 % t interval is within it.
 */
export const POSTGRES_WORK_MAXIMUM = 1.05;
export const POSTGRES_WORK_SCENARIOS: readonly { label: string; scenario: string; comparator: ContenderName }[] = [
  { label: 'GET customer', scenario: 'rest-get-customer', comparator: 'batching-floor' },
  { label: 'GET account', scenario: 'rest-get-account', comparator: 'batching-floor' },
  { label: 'Create customer', scenario: 'rest-post-customer', comparator: 'batching-floor' },
  { label: 'Transfer, uniform', scenario: 'rest-transfer-uniform', comparator: 'transfer-floor' },
  { label: 'Transfer, one hot account', scenario: 'rest-transfer-hot', comparator: 'transfer-floor' },
  { label: 'Customer list by last name', scenario: 'rest-list-customers-by-name', comparator: 'batching-floor' },
  { label: 'Customer search by SSN', scenario: 'rest-search-customer-by-ssn', comparator: 'batching-floor' },
];

export const overheadTargetName = (label: string): string =>
  `Overhead budget, ${label}: server CPU over the floor's at 4 connections ≤ ${OVERHEAD_BUDGET_US} µs/request`;
export const POSTGRES_WORK_PREFIX = "PostgreSQL's work per request";
export const postgresWorkTargetName = (label: string, comparator: ContenderName): string =>
  `${POSTGRES_WORK_PREFIX}, ${label}: CPU and SQL statements ≤ ${POSTGRES_WORK_MAXIMUM}× the ${labelOf(comparator)}'s`;

export const targetName = (t: RatioTarget): string =>
  `${t.label} ≥ ${t.minimum}× the ${labelOf(t.comparator)}${t.by === 'cpu' ? ' by CPU per request (server + PostgreSQL)' : ''}`;

export interface TargetRow {
  target: string;
  against: string;
  measured: string;
  /** null: not judged (not measured, errors, or a contender's capacity moved more than 2x within the run). */
  met: boolean | null;
  /** Why it was not judged, or where a missed target's gap lies. */
  note?: string;
}

/** Where the gap of a missed target lies, from this run's medians of CPU per request. */
function missCause(service: RunMeasurement, other: RunMeasurement): string {
  const [sServer, sPg, oServer, oPg] = [
    service.serverCpuUsPerRequest,
    service.postgresCpuUsPerRequest,
    other.serverCpuUsPerRequest,
    other.postgresCpuUsPerRequest,
  ];
  if (sServer === null || sPg === null || oServer === null || oPg === null) return '';
  const figures = `server ${num(sServer)} vs ${num(oServer)} µs/request, PostgreSQL ${num(sPg)} vs ${num(oPg)}`;
  return `${figures}: the gap is in ${sServer - oServer >= sPg - oPg ? "the service's process" : 'PostgreSQL'}`;
}

/** The mixed REST workload's two targets (bench/lib/mixed-workload.ts), from its cycles. */
export function mixedWorkloadRows(mixed: MixedWorkloadResult | undefined): TargetRow[] {
  const at = `${MIXED_LOAD_FRACTION * 100} % of the slower's capacity, open loop`;
  const names = [
    `Mixed REST workload at ${at}: total CPU per request ≥ ${MIXED_CPU_MINIMUM}× the floor's`,
    `Mixed REST workload at ${at}: p99 ≤ ${MIXED_P99_MAXIMUM}× the floor's`,
  ];
  if (mixed === undefined)
    return names.map((target) => ({ target, against: labelOf('batching-floor'), measured: 'not measured', met: null }));
  const figures = mixedWorkloadFigures(mixed);
  const median = (pick: (c: MixedWorkloadResult['cycles'][number]) => number | null) =>
    medianOrNull(mixed.cycles.map(pick));
  const refusal = figures.clean
    ? undefined
    : "not judged: errors, a contender behind the offered rate, or an update unlike the service's";
  const cpuMet = (figures.cpu.interval?.[0] ?? figures.cpu.ratio ?? 0) >= MIXED_CPU_MINIMUM;
  const p99Verdict =
    figures.p99.ratio === null ? null : ceilingVerdict(figures.p99.ratio, figures.p99.interval, MIXED_P99_MAXIMUM);
  const cycles = `${figures.cpu.cycles} cycles at ${num(mixed.offeredRate)} req/s`;
  return [
    {
      target: names[0]!,
      against: labelOf('batching-floor'),
      measured: `${ratioText(figures.cpu.ratio, figures.cpu.interval)}, ${cycles}`,
      met: refusal || figures.cpu.ratio === null ? null : cpuMet,
      note:
        refusal ??
        `CPU-seconds per million requests: ${num(median((c) => totalCpuUsPerRequest(c.service)))} vs ${num(median((c) => totalCpuUsPerRequest(c.floor)))} (medians; server ${num(median((c) => c.service.serverCpuUsPerRequest))} vs ${num(median((c) => c.floor.serverCpuUsPerRequest))}, PostgreSQL ${num(median((c) => c.service.postgresCpuUsPerRequest))} vs ${num(median((c) => c.floor.postgresCpuUsPerRequest))})`,
    },
    {
      target: names[1]!,
      against: labelOf('batching-floor'),
      measured: `${ratioText(figures.p99.ratio, figures.p99.interval)}, ${cycles}`,
      met: refusal || p99Verdict === null ? null : p99Verdict.met,
      note:
        refusal ??
        `${p99Verdict?.note ?? ''}p99 ${num(
          median((c) => c.service.latencyMs.p99),
          2,
        )} vs ${num(
          median((c) => c.floor.latencyMs.p99),
          2,
        )} ms (medians)`,
    },
  ];
}

/** The auth caches' before and after (reported): each auth path with its caches on and off, side by side. */
export const AUTH_CACHE_SCENARIO = 'rest-get-account-auth-4';
export const AUTH_CACHE_PAIRS = [
  { label: 'managed token', cached: 'managed-cached', uncached: 'managed-uncached' },
  { label: 'JWT', cached: 'jwt-cached', uncached: 'jwt-uncached' },
] as const;

export function evaluateTargets(report: BenchReport): TargetRow[] {
  const reference = report.machine.nodeVersions.reference;
  const scenarios = currentScenarios(report).filter((s) => s.nodeVersion === reference);
  const find = (name: string) => scenarios.find((s) => s.scenario === name);
  const clean = (c: ContenderResult | undefined) => c !== undefined && c.median.errors === 0 && c.median.responses > 0;
  const rows: TargetRow[] = [];

  for (const target of RATIO_TARGETS) {
    const scenario = find(target.scenario);
    const service = scenario?.contenders.find((c) => c.name === 'service');
    const comparator = scenario?.contenders.find((c) => c.name === target.comparator);
    const paired = scenario && comparator ? comparePaired(scenario, comparator) : null;
    const figure = paired?.[target.by];
    const row: TargetRow = {
      target: targetName(target),
      against: labelOf(target.comparator),
      measured:
        figure === undefined || figure.ratio === null
          ? 'not measured'
          : `${ratioText(figure.ratio, figure.interval)}${figure.interval === null ? ' (point estimate)' : ''}, ${figure.cycles} cycles`,
      met: null,
    };
    if (figure !== undefined && figure.ratio !== null && service && comparator) {
      if (!clean(service) || !clean(comparator)) row.note = 'not judged: errors in the run';
      else if (unstable(service) || unstable(comparator))
        row.note = `not judged: a contender's capacity varied more than ${SPREAD_LIMIT}× within the run`;
      else {
        row.met = (figure.interval?.[0] ?? figure.ratio) >= target.minimum;
        if (figure.drift?.drifting) row.note = 'the ratio drifted across the cycles (see the per-cycle table)';
        if (!row.met) row.note = missCause(service.median, comparator.median);
      }
    }
    rows.push(row);
  }

  const judgeable = (service: ContenderResult | undefined, comparator: ContenderResult | undefined): string | null => {
    if (!service || !comparator) return 'not measured';
    if (!clean(service) || !clean(comparator)) return 'not judged: errors in the run';
    if (unstable(service) || unstable(comparator))
      return `not judged: a contender's capacity varied more than ${SPREAD_LIMIT}× within the run`;
    return null;
  };

  for (const { label, scenario: name } of OVERHEAD_SCENARIOS) {
    const scenario = find(name);
    const service = scenario?.contenders.find((c) => c.name === 'service');
    const floor = scenario?.contenders.find((c) => c.name === 'batching-floor');
    const overhead = pairedDifferenceInterval(
      service?.runs.map((r) => r.serverCpuUsPerRequest) ?? [],
      floor?.runs.map((r) => r.serverCpuUsPerRequest) ?? [],
    );
    const row: TargetRow = {
      target: overheadTargetName(label),
      against: labelOf('batching-floor'),
      measured:
        overhead.mean === null
          ? 'not measured'
          : `${num(overhead.mean)} µs${overhead.interval ? ` (${num(overhead.interval[0])}–${num(overhead.interval[1])})` : ' (point estimate)'}, ${overhead.cycles} cycles`,
      met: null,
    };
    const refusal = overhead.mean === null ? 'not measured' : judgeable(service, floor);
    if (refusal !== null) {
      if (overhead.mean !== null) row.note = refusal;
    } else {
      const verdict = ceilingVerdict(overhead.mean!, overhead.interval, OVERHEAD_BUDGET_US);
      row.met = verdict.met;
      if (row.met !== true)
        row.note = `${verdict.note}server ${num(service!.median.serverCpuUsPerRequest)} vs ${num(floor!.median.serverCpuUsPerRequest)} µs/request (medians)`;
    }
    rows.push(row);
  }

  for (const { label, scenario: name, comparator: comparatorName } of POSTGRES_WORK_SCENARIOS) {
    const scenario = find(name);
    const service = scenario?.contenders.find((c) => c.name === 'service');
    const comparator = scenario?.contenders.find((c) => c.name === comparatorName);
    const perCycle = (pick: (run: RunMeasurement) => number | null) =>
      logRatioInterval(pairedLogRatios(service?.runs.map(pick) ?? [], comparator?.runs.map(pick) ?? []));
    const cpu = perCycle((r) => r.postgresCpuUsPerRequest);
    const statements = perCycle((r) => r.statementsPerOperation);
    const row: TargetRow = {
      target: postgresWorkTargetName(label, comparatorName),
      against: labelOf(comparatorName),
      measured:
        cpu.ratio === null
          ? 'not measured'
          : `CPU ${ratioText(cpu.ratio, cpu.interval)}, statements ${ratioText(statements.ratio, statements.interval)}, ${cpu.cycles} cycles`,
      met: null,
    };
    const refusal = cpu.ratio === null ? 'not measured' : judgeable(service, comparator);
    if (refusal !== null) {
      if (cpu.ratio !== null) row.note = refusal;
    } else if (statements.ratio === null) {
      row.note = 'not judged: statements not counted (needs pg_stat_statements)';
    } else {
      const verdicts = [cpu, statements].map((f) => ceilingVerdict(f.ratio!, f.interval, POSTGRES_WORK_MAXIMUM));
      row.met = verdicts.some((v) => v.met === false) ? false : verdicts.every((v) => v.met === true) ? true : null;
      if (row.met !== true) {
        const [s, c] = [service!.median, comparator!.median];
        const noise = row.met === null ? 'inside the noise: an interval straddles the ceiling; ' : '';
        row.note = `${noise}PostgreSQL ${num(s.postgresCpuUsPerRequest)} vs ${num(c.postgresCpuUsPerRequest)} µs/request, ${num(s.statementsPerOperation, 2)} vs ${num(c.statementsPerOperation, 2)} statements (medians)`;
      }
    }
    rows.push(row);
  }

  const nested = find(REPORTED_BESIDE.scenario);
  const postgraphile = nested?.contenders.find((c) => c.name === REPORTED_BESIDE.comparator);
  const beside = nested && postgraphile ? comparePaired(nested, postgraphile) : null;
  rows.push({
    target: REPORTED_BESIDE.label,
    against: labelOf(REPORTED_BESIDE.comparator),
    measured:
      beside === null || beside.rps.ratio === null
        ? 'not measured'
        : `${ratioText(beside.rps.ratio, beside.rps.interval)} by req/s`,
    met: null,
    ...(unstable(postgraphile) && { note: `PostGraphile's capacity varied more than ${SPREAD_LIMIT}× within the run` }),
  });
  const probe = nested?.contenders.find((c) => c.name === 'service')?.statementProbe;
  const probed =
    probe !== undefined && probe.length > 0 && probe.every((p) => p.status === 200 && p.statements !== null);
  rows.push({
    target: 'Nested GraphQL: the same number of SQL statements whatever the accounts',
    against: '–',
    measured:
      probe && probe.length > 0
        ? probe.map((p) => `${p.accounts}→${p.statements ?? '?'}`).join(', ')
        : 'not measured (needs pg_stat_statements)',
    met: probed ? new Set(probe.map((p) => p.statements)).size === 1 : null,
  });

  rows.push(...mixedWorkloadRows(report.openLoop?.mixed));

  const auth = find(AUTH_CACHE_SCENARIO);
  for (const { label, cached: cachedName, uncached: uncachedName } of AUTH_CACHE_PAIRS) {
    const cached = auth?.contenders.find((c) => c.name === cachedName);
    const uncached = auth?.contenders.find((c) => c.name === uncachedName);
    const perCycle = (pick: (run: RunMeasurement) => number | null) =>
      pairedDifferenceInterval(uncached?.runs.map(pick) ?? [], cached?.runs.map(pick) ?? []);
    const rps = logRatioInterval(
      pairedLogRatios(cached?.runs.map((r) => r.rps) ?? [], uncached?.runs.map((r) => r.rps) ?? []),
    );
    const server = perCycle((r) => r.serverCpuUsPerRequest);
    const postgres = perCycle((r) => r.postgresCpuUsPerRequest);
    const saved = (d: DifferenceSummary) =>
      d.mean === null ? '–' : `${num(d.mean)} µs${d.interval ? ` (${num(d.interval[0])}–${num(d.interval[1])})` : ''}`;
    const refusal = rps.ratio === null ? 'not measured' : judgeable(cached, uncached);
    rows.push({
      target: `Auth cache on vs off, ${label}, GET account at 4 connections (reported)`,
      against: labelOf(uncachedName),
      measured:
        rps.ratio === null
          ? 'not measured'
          : `req/s ${ratioText(rps.ratio, rps.interval)}; saved per request: server CPU ${saved(server)}, PostgreSQL CPU ${saved(postgres)}; ${rps.cycles} cycles`,
      met: null,
      ...(refusal !== null && rps.ratio !== null && { note: refusal }),
      ...(refusal === null &&
        cached &&
        uncached && {
          note: `statements per request ${num(uncached.median.statementsPerOperation, 2)} off vs ${num(cached.median.statementsPerOperation, 2)} on (medians)`,
        }),
    });
  }

  const mixed = find('mixed')?.contenders.find((c) => c.name === 'service');
  const mixedRss = mixed?.median.peakRssMb ?? null;
  rows.push({
    target: 'Peak RSS ≤ 250 MB under the mixed load',
    against: '–',
    measured: mixedRss !== null ? `${num(mixedRss)} MB` : 'not measured',
    met: clean(mixed) && mixedRss !== null ? mixedRss <= 250 : null,
  });
  const startup = report.startup.find((s) => s.nodeVersion === reference);
  rows.push({
    target: 'Warm start ≤ 2 s',
    against: '–',
    measured: startup ? `${num(startup.warmMedianMs)} ms` : 'not measured',
    met: startup ? startup.warmMedianMs <= 2000 : null,
  });
  return rows;
}

export const metCell = (met: boolean | null): string => (met === null ? '–' : met ? 'yes' : 'no');

// ---- the report ------------------------------------------------------------------------------------------------

export interface RenderContext {
  /** The newest `npm run bench:data-growth` run, summarised beside this run's figures (it is not part of this run). */
  dataGrowth?: DataGrowthReport | null;
}

function conditionLines(report: BenchReport): string[] {
  const c = report.conditions;
  if (!c) return ['- Conditions: not recorded (a run before steal time, load average and pinning were).'];
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  return [
    `- Conditions: ${c.pinning}. Steal time ${percent(c.stealShare)} of the CPU time over the run ` +
      `(the most in one measured run: the steal column); load average (1 / 5 / 15 min) ${load(c.loadAverage.start)} at the start, ${load(c.loadAverage.end)} at the end.`,
    `- Authentication: the load sends a ${c.auth} token (${c.auth === 'managed' ? 'created as `npm run token -- create` creates one, looked up by the service' : c.auth === 'jwt' ? 'an ES256 access token the service verifies with OIDC_PUBLIC_KEY' : 'an API_TOKENS entry'}); the floors compare it with their one token.`,
  ];
}

export function renderMarkdown(report: BenchReport, context: RenderContext = {}): string {
  const { machine, dataset, options } = report;
  const scenarios = currentScenarios(report);
  const lines: string[] = [];
  lines.push(`## Benchmark ${report.startedAt}${options.quick ? ' (quick smoke run: tiny data, not comparable)' : ''}`);
  lines.push('');
  lines.push(`- Command: \`${report.command}\` (${Math.round(report.elapsedSeconds)} s in all)`);
  lines.push(
    `- Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os} (kernel ${machine.kernel}).`,
  );
  lines.push(...conditionLines(report));
  lines.push(
    `- Node: ${machine.nodeVersions.reference} ` +
      `(orchestrator ${machine.nodeVersions.orchestrator}); PostgreSQL ${report.database.server} (${report.database.embedded ? 'embedded' : 'DATABASE_URL'}); ` +
      `commit ${machine.gitCommit ?? 'n/a'}.`,
  );
  lines.push(
    `- Data: ${num(dataset.customers)} customers, ${num(dataset.accounts)} accounts (${num(dataset.sharedAccounts)} shared by 2–3 customers, ` +
      `${num(dataset.links)} links); nested GraphQL picks among the ${num(dataset.nestedPopulation)} customers with 1–5 accounts.` +
      (dataset.ledger
        ? ` Ledger: ${num(dataset.ledger.fundedAccounts)} funded accounts + 1 hot account for the transfers, ${num(dataset.ledger.accountsWithTransactions)} accounts with 10 posted deposits; ${num(dataset.ledger.entries)} entries.`
        : ''),
  );
  lines.push(
    '- The service as deployed' +
      (report.serviceNodeFlags && report.serviceNodeFlags.length > 0
        ? ` (\`node ${report.serviceNodeFlags.join(' ')} dist/main.js\`, as npm start runs it)`
        : '') +
      `, NODE_ENV=production, LOG_LEVEL=info, rate limits counted but never refusing; DB pool ${options.poolSize} for every server` +
      (Object.keys(options.serviceEnv ?? {}).length > 0
        ? `; changed for this run: ${Object.entries(options.serviceEnv ?? {})
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')}`
        : '') +
      '.',
  );
  lines.push(
    `- Load: ${options.connections} connections, ${options.runs} cycle(s) × ${options.durationSeconds} s per contender after ${options.warmupSeconds} s warm-up; ` +
      'in each cycle every contender runs once, each cycle starting one contender later.',
  );
  lines.push(
    "- Columns: req/s counts successful answers (median over the cycles); ratio = the service's req/s ÷ this contender's, the geometric mean of the " +
      `per-cycle ratios with its 95 % t interval; spread = this contender's highest ÷ lowest req/s over the cycles (above ${SPREAD_LIMIT}×: unstable, ` +
      'its ratios are not judged); CPU per response (server process; whole PostgreSQL server); WAL B/op; SQL/op counted with ' +
      `${report.database.statementCounting}; steal = the highest share of CPU time stolen by the hypervisor in one of its runs.`,
  );
  lines.push('');
  lines.push(
    '| Scenario | Node | Contender | req/s | ratio | spread | p50 ms | p99 ms | errors | server CPU µs/req | PG CPU µs/req | WAL B/op | SQL/op | peak RSS MB | steal | check |',
  );
  lines.push('|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|');
  for (const scenario of scenarios)
    for (const contender of scenario.contenders) lines.push(contenderRow(scenario, contender));
  const omitted = report.scenarios.length - scenarios.length;
  const omittedRows =
    report.scenarios.reduce((sum, s) => sum + s.contenders.length, 0) -
    scenarios.reduce((sum, s) => sum + s.contenders.length, 0);
  if (omittedRows > 0)
    lines.push(
      '',
      `- ${omittedRows} rows of this run's JSON (${omitted} retired scenarios, and retired comparators) and what it says of them are not shown: the benchmark no longer runs them.`,
    );

  const flagged = scenarios.flatMap((s) =>
    s.contenders
      .filter(unstable)
      .map(
        (c) =>
          `${labelOf(c.name)} in ${s.scenario}: ${capacitySpread(c.runs.map((r) => r.rps))!.toFixed(1)}× (${num(Math.min(...c.runs.map((r) => r.rps)))}–${num(Math.max(...c.runs.map((r) => r.rps)))} req/s)`,
      ),
  );
  if (flagged.length > 0) {
    lines.push(
      '',
      `- **Unstable capacity** (more than ${SPREAD_LIMIT}× within the run; not judged): ${flagged.join('; ')}.`,
    );
  }
  for (const s of scenarios.filter((s) => s.ledgerCheck !== undefined))
    lines.push('', `- ${s.scenario} (${s.nodeVersion}): ${s.ledgerCheck}`);
  for (const line of report.failures.filter((f) => !RETIRED.some((name) => f.startsWith(name))))
    lines.push('', `- ${line}`);

  const against = regressionRows(report);
  if (against.length > 0) {
    lines.push(
      '',
      `### Against ${report.baseline?.ref ?? 'the baseline'} (${report.baseline?.commit.slice(0, 8) ?? '?'})`,
      '',
    );
    lines.push(
      `This build beside the baseline in every closed-loop scenario, cycle by cycle, by req/s (this ÷ baseline) and CPU per request (baseline ÷ this). A **regression**: the whole 95 % interval more than ${Math.round((1 - REGRESSION_LIMIT) * 100)} % slower; no regression: its lower bound within ${Math.round((1 - REGRESSION_LIMIT) * 100)} %; otherwise inside the noise (more cycles decide).`,
      '',
      '| Scenario | req/s ratio | CPU per request ratio | Verdict |',
      '|---|--:|--:|---|',
    );
    for (const row of against)
      lines.push(
        `| ${row.scenario} | ${row.rps} | ${row.cpu} | ${row.regression === null ? '–' : row.regression ? '**regression**' : 'no regression'} |`,
      );
  }

  lines.push('', '### Per-cycle ratios and drift', '');
  lines.push(
    "Each cycle's ratio pairs runs that ran side by side in time. Mean of the log-ratios with its 95 % t interval, as a ratio; drift: the " +
      'slope of the log-ratios over the cycles, as a factor per cycle with its 95 % interval; **drifting** when that interval excludes 1.',
  );
  lines.push('');
  lines.push(
    '| Scenario | Comparator | cycles | req/s ratio | drift per cycle | CPU ratio (comparator ÷ service) | drift per cycle |',
  );
  lines.push('|---|---|--:|--:|--:|--:|--:|');
  const driftCell = (drift: ReturnType<typeof driftOf>) =>
    drift === null
      ? '–'
      : `${drift.perCycle.toFixed(3)} (${drift.interval[0].toFixed(3)}–${drift.interval[1].toFixed(3)})${drift.drifting ? ' **drifting**' : ''}`;
  for (const scenario of scenarios) {
    for (const contender of scenario.contenders) {
      const paired = comparePaired(scenario, contender);
      if (!paired) continue;
      lines.push(
        `| ${scenario.scenario} (${scenario.nodeVersion}) | ${labelOf(contender.name)} | ${paired.rps.cycles} | ${ratioText(paired.rps.ratio, paired.rps.interval)} | ${driftCell(paired.rps.drift)} | ${ratioText(paired.cpu.ratio, paired.cpu.interval)} | ${driftCell(paired.cpu.drift)} |`,
      );
    }
  }

  const probes = scenarios.flatMap((s) =>
    s.contenders.filter((c) => (c.statementProbe?.length ?? 0) > 0).map((c) => ({ scenario: s, contender: c })),
  );
  if (probes.length > 0) {
    const counts = [
      ...new Set(probes.flatMap(({ contender }) => contender.statementProbe!.map((p) => p.accounts))),
    ].sort((a, b) => a - b);
    lines.push('', "### SQL statements for one request, by the customer's number of accounts", '');
    lines.push(`| Scenario | Node | Contender | ${counts.map((c) => `${c} acct`).join(' | ')} |`);
    lines.push(`|---|---|---|${counts.map(() => '--:').join('|')}|`);
    for (const { scenario, contender } of probes) {
      const cells = counts.map((count) => {
        const probe = contender.statementProbe!.find((p) => p.accounts === count);
        if (!probe) return '–';
        return probe.status === 200 ? String(probe.statements ?? '?') : `HTTP ${probe.status}`;
      });
      lines.push(
        `| ${scenario.scenario} | ${scenario.nodeVersion} | ${labelOf(contender.name)} | ${cells.join(' | ')} |`,
      );
    }
  }

  if (report.openLoop) {
    lines.push(
      '',
      '### Open-loop latency: fixed offered rates, timed from the intended send (bench/lib/open-loop.ts)',
      '',
    );
    lines.push(...renderOpenLoop(report.openLoop));
  }

  if (report.startup.length > 0) {
    lines.push('', '### Start time to the first 200 from /readyz (embedded PostgreSQL, NODE_ENV=production)', '');
    lines.push(
      '| Node | cold: new DATA_DIR (initdb + migrations) | warm: node dist/main.js (median) | warm: npm start (build included) |',
      '|---|--:|--:|--:|',
    );
    for (const s of report.startup) {
      lines.push(
        `| ${s.nodeVersion} | ${num(s.coldMs)} ms | ${num(s.warmMedianMs)} ms | ${s.npmStartWarmMs === null ? '–' : `${num(s.npmStartWarmMs)} ms`} |`,
      );
    }
  }

  if (context.dataGrowth) {
    lines.push('', '### Cost as data grows (`npm run bench:data-growth`)', '');
    lines.push(...renderGrowthSummary(context.dataGrowth));
  }

  lines.push('', `### Targets (service on ${machine.nodeVersions.reference})`, '');
  lines.push(
    "A ratio target is met when the lower bound of the per-cycle log-ratios' 95 % t interval meets it (the point estimate under three cycles). " +
      `It is not judged when a run had errors or a contender's capacity varied more than ${SPREAD_LIMIT}× within the run.`,
  );
  lines.push('', '| Target | Against | Measured | Met | Note |', '|---|---|---|---|---|');
  for (const row of evaluateTargets(report))
    lines.push(`| ${row.target} | ${row.against} | ${row.measured} | ${metCell(row.met)} | ${row.note ?? ''} |`);
  lines.push('');
  return lines.join('\n');
}
