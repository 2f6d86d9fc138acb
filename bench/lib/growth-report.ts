import { bootstrapMedianInterval, bootstrapUnpairedRatioInterval } from './interval.js';
import { median } from './measure.js';
import type { GrowthData } from './growth-seed.js';

/** Issue 34's rule for point reads and writes: at the largest size at most this times their cost at the smallest. */
export const GROWTH_LIMIT = 1.5;

/**
 * The operations the rule judges: issue 34's point reads and writes, and issue 30's filtered list page and search by
 * SSN (the same limit, at 1,000,000 customers against 10,000).
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

export interface SizeJudgement {
  /** median(large) ÷ median(small) of the service's server CPU per request; null when either size has no runs. */
  ratio: number | null;
  /** Its 95 % bootstrap interval, each size's runs drawn apart; null with fewer than three runs at a size. */
  interval: [number, number] | null;
  /** Met only when the interval's upper bound is within the limit (the cost could not be above it). */
  verdict: 'met' | 'missed' | 'not judged';
}

export function judgeSizeRatio(small: number[], large: number[], limit: number): SizeJudgement {
  if (small.length === 0 || large.length === 0) return { ratio: null, interval: null, verdict: 'not judged' };
  const ratio = median(large) / median(small);
  const interval = bootstrapUnpairedRatioInterval(large, small);
  if (interval === null) return { ratio, interval, verdict: 'not judged' };
  return { ratio, interval, verdict: interval[1] <= limit ? 'met' : 'missed' };
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
  judgements: ({ scenario: string; smallest: number; largest: number } & SizeJudgement)[];
  failures: string[];
}

const present = (values: (number | null)[]) => values.filter((v): v is number => v !== null);

/** Issue 34's memory target: the service's peak RSS at most this many MB, under load and at 1,000,000 customers. */
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

/** The rule's verdicts between the smallest and the largest size (the service's server CPU per request). */
export function judgeGrowth(sizes: GrowthSize[]): DataGrowthReport['judgements'] {
  if (sizes.length < 2) return [];
  const smallest = sizes[0]!;
  const largest = sizes.at(-1)!;
  const cpu = (size: GrowthSize, scenario: string) =>
    present(
      size.operations.find((o) => o.scenario === scenario)?.contenders.find((c) => c.name === 'service')
        ?.serverCpuUsPerRequest ?? [],
    );
  return JUDGED_SCENARIOS.map((scenario) => ({
    scenario,
    smallest: smallest.customers,
    largest: largest.customers,
    ...judgeSizeRatio(cpu(smallest, scenario), cpu(largest, scenario), GROWTH_LIMIT),
  }));
}

const n = (value: number) => value.toLocaleString('en-US');

/** Rows of one contender of one operation at every size, or undefined where it did not run. */
const runsOf = (size: GrowthSize, scenario: string, contender: string) =>
  size.operations.find((o) => o.scenario === scenario)?.contenders.find((c) => c.name === contender);

/**
 * The data-growth run in brief, for `npm run bench`'s report (which does not measure it: at 1,000,000 customers it
 * takes most of an hour): the growth rule's verdicts, the service's server CPU per request at each size, and the
 * searches' throughput against the floor running the same SQL (issue 30). The whole run: bench/results/data-growth/latest.md.
 */
export function renderGrowthSummary(report: DataGrowthReport): string[] {
  const sizes = report.sizes;
  // Judged again from the runs (deterministic: the intervals' draws are seeded), so a report stored before an
  // operation was judged shows its verdict too.
  const judgements = judgeGrowth(sizes);
  const lines = [
    `From \`${report.command}\` (started ${report.startedAt}, commit ${report.commit ?? 'unknown'}), not measured by this run; the whole run: \`bench/results/data-growth/latest.md\`.`,
    '',
    `| operation | ${sizes.map((size) => `server CPU µs/request at ${n(size.customers)}`).join(' | ')} | largest ÷ smallest (95 % interval) | ≤ ${GROWTH_LIMIT}x | the same, relative to the floor running its SQL |`,
    `|---|${sizes.map(() => '--:').join('|')}|---|---|--:|`,
  ];
  // The floor's own growth between the same runs (sizes measured hours or days apart, on machines whose speed moves):
  // the service's growth over the floor's is what the service adds as the data grows.
  const floorName = (size: GrowthSize, scenario: string) =>
    runsOf(size, scenario, 'batching-floor') ? 'batching-floor' : 'transfer-floor';
  const relativeGrowth = (scenario: string): string => {
    const smallest = sizes[0];
    const largest = sizes.at(-1);
    if (!smallest || !largest || smallest === largest) return '–';
    const cpu = (size: GrowthSize, name: string) => present(runsOf(size, scenario, name)?.serverCpuUsPerRequest ?? []);
    const parts = [
      cpu(smallest, 'service'),
      cpu(smallest, floorName(smallest, scenario)),
      cpu(largest, 'service'),
      cpu(largest, floorName(largest, scenario)),
    ];
    if (parts.some((values) => values.length === 0)) return '–';
    const [s0, f0, s1, f1] = parts.map(median) as [number, number, number, number];
    return (s1 / f1 / (s0 / f0)).toFixed(2);
  };
  const scenarios = [...new Set(sizes.flatMap((size) => size.operations.map((o) => o.scenario)))];
  for (const scenario of scenarios) {
    const cells = sizes.map((size) => {
      const service = runsOf(size, scenario, 'service');
      if (!service) return '–';
      if (service.rps.length > 0 && service.rps.every((rps) => rps === 0)) return 'refused';
      const cpu = present(service.serverCpuUsPerRequest);
      return cpu.length > 0 ? median(cpu).toFixed(0) : '–';
    });
    const judged = judgements.find((j) => j.scenario === scenario);
    const verdict = judged ? `${judged.ratio?.toFixed(2) ?? '–'} (${range(judged.interval, 2)})` : 'not judged';
    lines.push(
      `| ${scenario} | ${cells.join(' | ')} | ${verdict} | ${judged?.verdict ?? '–'} | ${relativeGrowth(scenario)} |`,
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
const range = (interval: [number, number] | null, digits: number) =>
  interval ? `${interval[0].toFixed(digits)}–${interval[1].toFixed(digits)}` : 'fewer than 3 runs';
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

export function renderGrowthMarkdown(report: DataGrowthReport): string {
  const lines = [
    '# Cost as data grows (issue 34, item 5)',
    '',
    `Command: \`${report.command}\`; started ${report.startedAt}, ${(report.elapsedSeconds / 60).toFixed(1)} min in all; commit ${report.commit ?? 'unknown'}.`,
    `Per size: ${report.options.runs} runs of ${report.options.durationSeconds} s per contender; history rows per customer: ${report.options.growthScale}.`,
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
    '## Server CPU per request and p99, per size',
    '',
    "Server CPU: the server process's CPU µs per response, median over runs with its 95 % bootstrap interval; PostgreSQL's beside it; p99 the median of the runs'.",
    '',
    '| operation | contender | customers | server CPU µs/request (95 % interval) | PostgreSQL CPU µs/request | p99 ms | req/s |',
    '|---|---|---:|---|---:|---:|---:|',
  );
  const scenarios = [...new Set(report.sizes.flatMap((size) => size.operations.map((o) => o.scenario)))];
  for (const scenario of scenarios) {
    for (const size of report.sizes) {
      const operation = size.operations.find((o) => o.scenario === scenario);
      for (const contender of operation?.contenders ?? []) {
        const cpu = present(contender.serverCpuUsPerRequest);
        const pgCpu = present(contender.postgresCpuUsPerRequest);
        if (contender.rps.length > 0 && contender.rps.every((rps) => rps === 0)) {
          // Its CPU per response would be the cost of refusing, not of the operation: say it was refused.
          lines.push(
            `| ${scenario} | ${contender.name} | ${n(size.customers)} | not measured: no successful answer (see "Answers checked") | – | – | 0 |`,
          );
          continue;
        }
        lines.push(
          `| ${scenario} | ${contender.name} | ${n(size.customers)} | ${cpu.length > 0 ? `${median(cpu).toFixed(0)} (${range(bootstrapMedianInterval(cpu), 0)})` : '–'} | ` +
            `${pgCpu.length > 0 ? median(pgCpu).toFixed(0) : '–'} | ${contender.p99Ms.length > 0 ? median(contender.p99Ms).toFixed(1) : '–'} | ${contender.rps.length > 0 ? median(contender.rps).toFixed(0) : '–'} |`,
        );
      }
    }
  }
  lines.push(
    '',
    `## Point reads and writes, list and search: largest ÷ smallest size, server CPU per request (at most ${GROWTH_LIMIT}x, judged on the interval's upper bound)`,
    '',
  );
  const judgements = judgeGrowth(report.sizes);
  if (judgements.length === 0) lines.push('Not judged: one size only.');
  else {
    lines.push('| operation | sizes | ratio | 95 % interval | verdict |', '|---|---|---:|---|---|');
    for (const j of judgements) {
      lines.push(
        `| ${j.scenario} | ${n(j.largest)} ÷ ${n(j.smallest)} | ${j.ratio?.toFixed(2) ?? '–'} | ${range(j.interval, 2)} | ${j.verdict} |`,
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
