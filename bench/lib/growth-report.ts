import { bootstrapMedianInterval, bootstrapUnpairedRatioInterval, ceilingVerdict } from './interval.js';
import { median } from './measure.js';
import type { GrowthData } from './growth-seed.js';
import type { MemoryBound } from './memory-bound.js';

/** The rule for point reads and writes: at the largest size at most this times their cost at the smallest. */
export const GROWTH_LIMIT = 1.5;

/**
 * The operations the rule judges: the point reads and writes, the filtered list page and the search by SSN (the same
 * limit, at 1,000,000 customers against 10,000).
 */
export const JUDGED_SCENARIOS = [
  'rest-get-customer',
  'rest-get-account',
  'rest-post-customer',
  'rest-transfer-uniform',
  'rest-balance-as-of',
  'rest-list-customers-by-name',
  'rest-search-customer-by-ssn',
] as const;

/** What the growth rule judges: the service's total CPU per request (its process and PostgreSQL's), and its p99. */
export const GROWTH_MEASURES = ['total CPU', 'p99'] as const;
export type GrowthMeasure = (typeof GROWTH_MEASURES)[number];

export interface SizeJudgement {
  /** median(large) ÷ median(small) of the measure over the service's runs; null when either size has no runs. */
  ratio: number | null;
  /** Its 95 % bootstrap interval, each size's runs drawn apart; null with fewer than three runs at a size. */
  interval: [number, number] | null;
  /**
   * Met when the interval's upper bound is within the limit (the cost could not be above it), missed when its lower
   * bound is above it, otherwise inside the noise (the benchmark's ceiling rule, ADR 117).
   */
  verdict: 'met' | 'missed' | 'inside the noise' | 'not judged';
}

export function judgeSizeRatio(small: number[], large: number[], limit: number): SizeJudgement {
  if (small.length === 0 || large.length === 0) return { ratio: null, interval: null, verdict: 'not judged' };
  const ratio = median(large) / median(small);
  const interval = bootstrapUnpairedRatioInterval(large, small);
  if (interval === null) return { ratio, interval, verdict: 'not judged' };
  const { met } = ceilingVerdict(ratio, interval, limit);
  return { ratio, interval, verdict: met === true ? 'met' : met === false ? 'missed' : 'inside the noise' };
}

export interface GrowthContender {
  name: string;
  /** Per run: the server process's CPU µs per response, PostgreSQL's, p99 ms, req/s. */
  serverCpuUsPerRequest: (number | null)[];
  postgresCpuUsPerRequest: (number | null)[];
  p99Ms: number[];
  rps: number[];
  errors: number[];
  /** Per run: the server process's peak RSS in MB; absent in reports written before it was recorded. */
  peakRssMb?: (number | null)[];
  /** Per run: blocks PostgreSQL read from outside shared_buffers per response; absent before it was recorded. */
  blocksReadPerRequest?: (number | null)[];
}

export interface GrowthOperation {
  scenario: string;
  title: string;
  connections: number | undefined;
  check: string | undefined;
  contenders: GrowthContender[];
}

export interface DiskRow {
  table: string;
  rows: number;
  bytes: number;
  /** pg_total_relation_size ÷ rows × 1,000,000 (table, its indexes and TOAST). */
  bytesPerMillionRows: number | null;
}

export interface VacuumRow {
  table: string;
  churn: string;
  seconds: number;
  walBytes: number;
}

export interface GrowthSize {
  customers: number;
  accounts: number;
  seedSeconds: { base: number; growth: GrowthData['seconds'] | null };
  growth: Omit<GrowthData, 'seconds'> | null;
  operations: GrowthOperation[];
  disk: DiskRow[];
  vacuum: VacuumRow[];
  /** shared_buffers and PostgreSQL's memory bound while measured; absent before data growth bounded them. */
  memory?: MemoryBound;
}

export interface DataGrowthReport {
  startedAt: string;
  finishedAt: string;
  elapsedSeconds: number;
  command: string;
  commit: string | null;
  options: {
    sizes: number[];
    runs: number;
    durationSeconds: number;
    growthScale: string;
    churn: number;
    scenarios?: string[];
  };
  sizes: GrowthSize[];
  judgements: GrowthJudgement[];
  failures: string[];
}

export type GrowthJudgement = {
  scenario: string;
  /** Absent in reports written when only server CPU was judged. */
  measure?: GrowthMeasure;
  smallest: number;
  largest: number;
} & SizeJudgement;

const present = (values: (number | null)[]) => values.filter((v): v is number => v !== null);

/** Per run: the server process's CPU per response plus PostgreSQL's (runs missing either are left out). */
export const totalCpuRuns = (contender: GrowthContender): number[] =>
  contender.serverCpuUsPerRequest.flatMap((server, i) => {
    const postgres = contender.postgresCpuUsPerRequest[i];
    return server === null || postgres === null || postgres === undefined ? [] : [server + postgres];
  });

const measureRuns = (contender: GrowthContender | undefined, measure: GrowthMeasure): number[] =>
  contender === undefined ? [] : measure === 'total CPU' ? totalCpuRuns(contender) : contender.p99Ms;

/** The memory target: the service's peak RSS at most this many MB, under load and at 1,000,000 customers. */
export const PEAK_RSS_LIMIT_MB = 250;

/** The service's peak RSS over every operation's runs at one size, and the operation it was reached in; null when not recorded. */
export function servicePeakRss(size: GrowthSize): { mb: number; scenario: string } | null {
  let peak: { mb: number; scenario: string } | null = null;
  for (const operation of size.operations) {
    const runs = present(operation.contenders.find((c) => c.name === 'service')?.peakRssMb ?? []);
    for (const mb of runs) if (peak === null || mb > peak.mb) peak = { mb, scenario: operation.scenario };
  }
  return peak;
}

const peakRssCell = (size: GrowthSize) => {
  const peak = servicePeakRss(size);
  return peak === null
    ? 'not recorded'
    : `${peak.mb.toFixed(0)} MB (${peak.scenario}): ${peak.mb <= PEAK_RSS_LIMIT_MB ? 'met' : 'missed'}`;
};

/** The rule's verdicts between the smallest and the largest size: the service's total CPU per request and p99. */
export function judgeGrowth(sizes: GrowthSize[]): GrowthJudgement[] {
  if (sizes.length < 2) return [];
  const smallest = sizes[0]!;
  const largest = sizes.at(-1)!;
  const runs = (size: GrowthSize, scenario: string, measure: GrowthMeasure) =>
    measureRuns(runsOf(size, scenario, 'service'), measure);
  return JUDGED_SCENARIOS.flatMap((scenario) =>
    GROWTH_MEASURES.map((measure) => ({
      scenario,
      measure,
      smallest: smallest.customers,
      largest: largest.customers,
      ...judgeSizeRatio(runs(smallest, scenario, measure), runs(largest, scenario, measure), GROWTH_LIMIT),
    })),
  );
}

const n = (value: number) => value.toLocaleString('en-US');

/** Rows of one contender of one operation at every size, or undefined where it did not run. */
const runsOf = (size: GrowthSize, scenario: string, contender: string) =>
  size.operations.find((o) => o.scenario === scenario)?.contenders.find((c) => c.name === contender);

/**
 * The data-growth run in brief, for `npm run bench`'s report (which does not measure it: at 1,000,000 customers it
 * takes most of an hour): the service's total CPU per request and p99 at each size with the growth rule's verdicts,
 * and the searches' throughput against the floor running the same SQL. The whole run:
 * bench/results/data-growth/latest.md.
 */
export function renderGrowthSummary(report: DataGrowthReport): string[] {
  const sizes = report.sizes;
  // Judged again from the runs (deterministic: the intervals' draws are seeded), so a report stored before an
  // operation or a measure was judged shows its verdict too.
  const judgements = judgeGrowth(sizes);
  const memory = sizes.map((size) => `${n(size.customers)}: ${memoryCell(size)}`).join('; ');
  const perSize = (what: string) => sizes.map((size) => `${what} at ${n(size.customers)}`).join(' | ');
  const lines = [
    `From \`${report.command}\` (started ${report.startedAt}, commit ${report.commit ?? 'unknown'}), not measured by this run; the whole run: \`bench/results/data-growth/latest.md\`. PostgreSQL's memory: ${memory}.`,
    '',
    `| operation | ${perSize('total CPU µs/request')} | largest ÷ smallest (95 % interval) | ≤ ${GROWTH_LIMIT}x | ${perSize('p99 ms')} | largest ÷ smallest (95 % interval) | ≤ ${GROWTH_LIMIT}x | total CPU growth relative to the floor running its SQL |`,
    `|---|${sizes.map(() => '--:').join('|')}|---|---|${sizes.map(() => '--:').join('|')}|---|---|--:|`,
  ];
  // The floor's own growth between the same runs (sizes measured hours or days apart, on machines whose speed moves):
  // the service's growth over the floor's is what the service adds as the data grows.
  const floorName = (size: GrowthSize, scenario: string) =>
    runsOf(size, scenario, 'batching-floor') ? 'batching-floor' : 'transfer-floor';
  const relativeGrowth = (scenario: string): string => {
    const smallest = sizes[0];
    const largest = sizes.at(-1);
    if (!smallest || !largest || smallest === largest) return '–';
    const parts = [
      measureRuns(runsOf(smallest, scenario, 'service'), 'total CPU'),
      measureRuns(runsOf(smallest, scenario, floorName(smallest, scenario)), 'total CPU'),
      measureRuns(runsOf(largest, scenario, 'service'), 'total CPU'),
      measureRuns(runsOf(largest, scenario, floorName(largest, scenario)), 'total CPU'),
    ];
    if (parts.some((values) => values.length === 0)) return '–';
    const [s0, f0, s1, f1] = parts.map(median) as [number, number, number, number];
    return (s1 / f1 / (s0 / f0)).toFixed(2);
  };
  const scenarios = [...new Set(sizes.flatMap((size) => size.operations.map((o) => o.scenario)))];
  for (const scenario of scenarios) {
    const cells = (measure: GrowthMeasure, digits: number) =>
      sizes.map((size) => {
        const service = runsOf(size, scenario, 'service');
        if (!service) return '–';
        if (service.rps.length > 0 && service.rps.every((rps) => rps === 0)) return 'refused';
        const runs = measureRuns(service, measure);
        return runs.length > 0 ? median(runs).toFixed(digits) : '–';
      });
    const verdict = (measure: GrowthMeasure) => {
      const judged = judgements.find((j) => j.scenario === scenario && j.measure === measure);
      return judged
        ? `${judged.ratio?.toFixed(2) ?? '–'} (${range(judged.interval, 2)}) | ${judged.verdict}`
        : 'not judged | –';
    };
    lines.push(
      `| ${scenario} | ${cells('total CPU', 0).join(' | ')} | ${verdict('total CPU')} | ${cells('p99', 1).join(' | ')} | ${verdict('p99')} | ${relativeGrowth(scenario)} |`,
    );
  }
  const searches = ['rest-list-customers-by-name', 'rest-search-customer-by-ssn'];
  lines.push(
    '',
    `| search: service req/s ÷ the floor running its SQL (≥ 0.75) | ${sizes.map((size) => n(size.customers)).join(' | ')} |`,
    `|---|${sizes.map(() => '--:').join('|')}|`,
  );
  for (const scenario of searches) {
    const cells = sizes.map((size) => {
      const service = runsOf(size, scenario, 'service');
      const floor = runsOf(size, scenario, 'batching-floor');
      return service && floor && floor.rps.length > 0 && median(floor.rps) > 0
        ? (median(service.rps) / median(floor.rps)).toFixed(2)
        : '–';
    });
    lines.push(`| ${scenario} | ${cells.join(' | ')} |`);
  }
  lines.push(
    '',
    `| the service's peak RSS, over every operation | ${sizes.map((size) => n(size.customers)).join(' | ')} |`,
    `|---|${sizes.map(() => '---').join('|')}|`,
    `| ≤ ${PEAK_RSS_LIMIT_MB} MB | ${sizes.map(peakRssCell).join(' | ')} |`,
  );
  return lines;
}
/** shared_buffers and the memory bound at one size, as the report states them. */
const memoryCell = (size: GrowthSize) => {
  const memory = size.memory;
  if (!memory) return 'shared_buffers as production sizes it, OS cache not bounded (before the bound was set)';
  return (
    `shared_buffers ${n(memory.sharedBuffersMb)} MB of a ${n(memory.databaseMb)} MB database, ` +
    (memory.limitMb === null
      ? `OS cache not bounded (${memory.unbounded ?? 'unknown'})`
      : `bounded at ${n(memory.limitMb)} MB with the OS cache (peak ${memory.peakMb === null ? '?' : n(memory.peakMb)} MB)`)
  );
};
const range = (interval: [number, number] | null, digits: number) =>
  interval ? `${interval[0].toFixed(digits)}–${interval[1].toFixed(digits)}` : 'fewer than 3 runs';
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

export function renderGrowthMarkdown(report: DataGrowthReport): string {
  const lines = [
    '# Cost as data grows',
    '',
    `Command: \`${report.command}\`; started ${report.startedAt}, ${(report.elapsedSeconds / 60).toFixed(1)} min in all; commit ${report.commit ?? 'unknown'}.`,
    `Per size: ${report.options.runs} runs of ${report.options.durationSeconds} s per contender; history rows per customer: ${report.options.growthScale}.`,
    '',
    'PostgreSQL while measured (restarted after the seed with shared_buffers at a tenth of the database, the OS cache dropped, its processes in a memory cgroup of shared_buffers + 1.5 GiB that holds their OS cache too):',
    '',
    ...report.sizes.map((size) => `- ${n(size.customers)} customers: ${memoryCell(size)}.`),
    '',
    '## Seeding',
    '',
    '| customers | accounts | ledger entries (busy account) | events | audit rows | idempotency keys | seconds: customers + accounts, ledger, events, audit, keys, indexes |',
    '|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const size of report.sizes) {
    const shape = size.growth?.shape;
    const s = size.seedSeconds.growth;
    lines.push(
      `| ${n(size.customers)} | ${n(size.accounts)} | ${shape ? `${n(shape.entries)} (${n(shape.busyEntries)})` : '–'} | ${shape ? n(shape.events) : '–'} | ${shape ? n(shape.auditEvents) : '–'} | ${shape ? n(shape.idempotencyKeys) : '–'} | ` +
        `${size.seedSeconds.base.toFixed(1)}${s ? `, ${s.ledger.toFixed(1)}, ${s.events.toFixed(1)}, ${s.audit.toFixed(1)}, ${s.idempotencyKeys.toFixed(1)}, ${s.indexes.toFixed(1)}` : ''} |`,
    );
  }
  lines.push(
    '',
    '## CPU per request, p99 and reads, per size',
    '',
    "Total CPU: the server process's CPU µs per response plus PostgreSQL's, median over runs with its 95 % bootstrap interval; each part beside it; p99 the median of the runs'; blocks read: from outside shared_buffers per response (pg_stat_statements).",
    '',
    '| operation | contender | customers | total CPU µs/request (95 % interval) | server CPU µs/request | PostgreSQL CPU µs/request | p99 ms | blocks read/request | req/s |',
    '|---|---|---:|---|---:|---:|---:|---:|---:|',
  );
  const scenarios = [...new Set(report.sizes.flatMap((size) => size.operations.map((o) => o.scenario)))];
  for (const scenario of scenarios) {
    for (const size of report.sizes) {
      const operation = size.operations.find((o) => o.scenario === scenario);
      for (const contender of operation?.contenders ?? []) {
        if (contender.rps.length > 0 && contender.rps.every((rps) => rps === 0)) {
          // Its CPU per response would be the cost of refusing, not of the operation: say it was refused.
          lines.push(
            `| ${scenario} | ${contender.name} | ${n(size.customers)} | not measured: no successful answer (see "Answers checked") | – | – | – | – | 0 |`,
          );
          continue;
        }
        const total = totalCpuRuns(contender);
        const medianCell = (values: (number | null)[], digits: number) => {
          const runs = present(values);
          return runs.length > 0 ? median(runs).toFixed(digits) : '–';
        };
        lines.push(
          `| ${scenario} | ${contender.name} | ${n(size.customers)} | ${total.length > 0 ? `${median(total).toFixed(0)} (${range(bootstrapMedianInterval(total), 0)})` : '–'} | ` +
            `${medianCell(contender.serverCpuUsPerRequest, 0)} | ${medianCell(contender.postgresCpuUsPerRequest, 0)} | ${medianCell(contender.p99Ms, 1)} | ` +
            `${medianCell(contender.blocksReadPerRequest ?? [], 2)} | ${medianCell(contender.rps, 0)} |`,
        );
      }
    }
  }
  lines.push(
    '',
    `## Point reads and writes, list and search: largest ÷ smallest size, the service's total CPU per request and p99 (at most ${GROWTH_LIMIT}x: met on the interval's upper bound, missed on its lower)`,
    '',
  );
  const judgements = judgeGrowth(report.sizes);
  if (judgements.length === 0) lines.push('Not judged: one size only.');
  else {
    lines.push('| operation | measure | sizes | ratio | 95 % interval | verdict |', '|---|---|---|---:|---|---|');
    for (const j of judgements) {
      lines.push(
        `| ${j.scenario} | ${j.measure ?? 'server CPU'} | ${n(j.largest)} ÷ ${n(j.smallest)} | ${j.ratio?.toFixed(2) ?? '–'} | ${range(j.interval, 2)} | ${j.verdict} |`,
      );
    }
  }
  lines.push(
    '',
    `## The service's peak RSS (at most ${PEAK_RSS_LIMIT_MB} MB)`,
    '',
    'Sampled every 200 ms during each run; the highest over every operation at the size, and the operation it was reached in.',
    '',
    '| customers | peak RSS |',
    '|---:|---|',
    ...report.sizes.map((size) => `| ${n(size.customers)} | ${peakRssCell(size)} |`),
  );
  lines.push(
    '',
    '## Disk: table + indexes + TOAST per million rows',
    '',
    `| table | ${report.sizes.map((s) => `${n(s.customers)} customers: rows, MiB, MiB per million rows`).join(' | ')} |`,
    `|---|${report.sizes.map(() => '---').join('|')}|`,
  );
  const tables = [...new Set(report.sizes.flatMap((size) => size.disk.map((d) => d.table)))];
  for (const table of tables) {
    const cells = report.sizes.map((size) => {
      const row = size.disk.find((d) => d.table === table);
      return row
        ? `${n(row.rows)}, ${mib(row.bytes)}, ${row.bytesPerMillionRows === null ? '–' : mib(row.bytesPerMillionRows)}`
        : '–';
    });
    lines.push(`| ${table} | ${cells.join(' | ')} |`);
  }
  const largest = report.sizes.at(-1);
  if (largest && largest.vacuum.length > 0) {
    lines.push(
      '',
      `## VACUUM (ANALYZE) at ${n(largest.customers)} customers, after churn`,
      '',
      '| table | churn | seconds | WAL MiB |',
      '|---|---|---:|---:|',
    );
    for (const v of largest.vacuum)
      lines.push(`| ${v.table} | ${v.churn} | ${v.seconds.toFixed(1)} | ${mib(v.walBytes)} |`);
  }
  const checks = report.sizes.flatMap((size) =>
    size.operations.map((o) => `- ${n(size.customers)}, ${o.scenario}: ${o.check ?? 'not checked'}`),
  );
  lines.push('', 'Answers checked before measuring:', ...checks);
  if (report.failures.length > 0) lines.push('', 'Failures:', ...report.failures.map((f) => `- ${f}`));
  return `${lines.join('\n')}\n`;
}
