import { logRatioInterval, pairedLogRatios } from './interval.js';
import { median } from './measure.js';
import {
  type BenchReport,
  evaluateTargets,
  metCell,
  POSTGRES_WORK_MAXIMUM,
  POSTGRES_WORK_PREFIX,
  RATIO_TARGETS,
  type RatioTarget,
  REPORTED_BESIDE,
  targetName,
} from './report.js';

/** One line of bench/results/history.ndjson, as far as a headline reads it. */
export interface HistoryLine {
  startedAt: string;
  command: string;
  commit: string | null;
  quick?: boolean;
  scenarios: {
    scenario: string;
    contenders: {
      name: string;
      rps: number[];
      serverCpuUsPerRequest: (number | null)[];
      postgresCpuUsPerRequest?: (number | null)[];
    }[];
  }[];
}

/** A headline needs this many runs, each started at least HEADLINE_GAP_MS after the one before it. */
export const HEADLINE_MIN_RUNS = 3;
export const HEADLINE_GAP_MS = 60 * 60 * 1000;
/** The newest runs a headline draws on. */
const HEADLINE_MAX_RUNS = 5;

export const parseHistory = (text: string): HistoryLine[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as HistoryLine);

const isQuick = (line: HistoryLine) => line.quick === true || /--quick\b|BENCH_QUICK=(1|true)\b/.test(line.command);

type Comparison = Pick<RatioTarget, 'scenario' | 'comparator'> & { by: 'rps' | 'cpu' };

/** One run's ratio for `target`: the geometric mean of its per-cycle ratios, or null when it cannot be read. */
function runRatio(line: HistoryLine, target: Comparison): number | null {
  const scenario = line.scenarios.find((s) => s.scenario === target.scenario);
  const service = scenario?.contenders.find((c) => c.name === 'service');
  const comparator = scenario?.contenders.find((c) => c.name === target.comparator);
  if (!service || !comparator) return null;
  if (target.by === 'rps') return logRatioInterval(pairedLogRatios(service.rps, comparator.rps)).ratio;
  // Runs recorded before PostgreSQL's CPU was kept in the history cannot give a CPU ratio.
  const total = (c: typeof service) =>
    c.postgresCpuUsPerRequest === undefined
      ? []
      : c.serverCpuUsPerRequest.map((server, i) => {
          const postgres = c.postgresCpuUsPerRequest![i];
          return server === null || postgres === null || postgres === undefined ? null : server + postgres;
        });
  return logRatioInterval(pairedLogRatios(total(comparator), total(service))).ratio;
}

export interface Headline {
  /** The median of the runs' ratios, and their range; null with fewer than HEADLINE_MIN_RUNS runs. */
  figure: { ratio: number; range: [number, number] } | null;
  runs: { startedAt: string; commit: string | null; ratio: number }[];
}

/**
 * The figure quoted as the headline: from the newest full runs that measured it, each at least an hour after the
 * one before (a single run, or runs back to back, say how the machine was for an hour, not what the service
 * costs). No figure with fewer than HEADLINE_MIN_RUNS such runs.
 */
export function headlineOf(history: readonly HistoryLine[], target: Comparison): Headline {
  const runs: Headline['runs'] = [];
  let previous: number | undefined;
  for (const line of [...history].sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt))) {
    if (isQuick(line) || runs.length === HEADLINE_MAX_RUNS) continue;
    const ratio = runRatio(line, target);
    const started = Date.parse(line.startedAt);
    if (ratio === null || (previous !== undefined && previous - started < HEADLINE_GAP_MS)) continue;
    runs.push({ startedAt: line.startedAt, commit: line.commit, ratio });
    previous = started;
  }
  if (runs.length < HEADLINE_MIN_RUNS) return { figure: null, runs };
  const ratios = runs.map((r) => r.ratio);
  return { figure: { ratio: median(ratios), range: [Math.min(...ratios), Math.max(...ratios)] }, runs };
}

const day = (run: Headline['runs'][number]) => run.startedAt.slice(0, 10);

/** The figure, its range and the days its runs span (their commits are in the history). */
const headlineCell = ({ figure, runs }: Headline): string =>
  figure === null
    ? `none: ${runs.length} run${runs.length === 1 ? '' : 's'} at least an hour apart, ${HEADLINE_MIN_RUNS} needed`
    : `${figure.ratio.toFixed(2)}× (${figure.range[0].toFixed(2)}–${figure.range[1].toFixed(2)}), ${runs.length} runs, ${day(runs.at(-1)!)} to ${day(runs[0]!)}`;

/**
 * The figures docs/performance.md quotes, between its markers: each target as the latest full run measured it,
 * and its headline from the history. Rendered from bench/results alone (`npm run bench:tables`).
 */
export function renderPerformanceFigures(report: BenchReport, history: readonly HistoryLine[]): string[] {
  const latest = evaluateTargets(report);
  const lines = [
    `Latest full run: ${report.startedAt.slice(0, 16).replace('T', ' ')} UTC, commit ${report.machine.gitCommit ?? 'n/a'}, ` +
      `${report.machine.cores} cores; ${report.conditions ? `${report.conditions.pinning}; steal ${((report.conditions.stealShare ?? 0) * 100).toFixed(1)} %` : 'pinning and steal time not recorded'}. ` +
      'Every figure of it: [bench/results/latest.md](../bench/results/latest.md).',
    '',
    `| Target | Latest run | Met | Headline: median of the newest runs at least an hour apart (range) |`,
    '|---|---|---|---|',
  ];
  const comparisons: [string, Comparison | null][] = [
    ...RATIO_TARGETS.map((t): [string, Comparison] => [targetName(t), t]),
    [REPORTED_BESIDE.label, { ...REPORTED_BESIDE, by: 'rps' }],
  ];
  // One line for the operations' PostgreSQL work here; each operation's row is in latest.md.
  const postgresWork = latest.filter((row) => row.target.startsWith(POSTGRES_WORK_PREFIX));
  for (const row of latest.filter((r) => !postgresWork.includes(r))) {
    const comparison = comparisons.find(([name]) => name === row.target)?.[1] ?? null;
    lines.push(
      `| ${row.target} | ${row.measured} | ${metCell(row.met)} | ${comparison === null ? '– (not in the history)' : headlineCell(headlineOf(history, comparison))} |`,
    );
  }
  if (postgresWork.length > 0) {
    const count = (met: boolean | null) => postgresWork.filter((row) => row.met === met).length;
    const measured = postgresWork.filter((row) => row.measured !== 'not measured').length;
    lines.push(
      `| ${POSTGRES_WORK_PREFIX}: CPU and SQL statements ≤ ${POSTGRES_WORK_MAXIMUM}× the floor's, ${postgresWork.length} operations | ` +
        (measured === 0
          ? 'not measured'
          : `met ${count(true)}, missed ${count(false)}, inside the noise ${measured - count(true) - count(false)} (each in latest.md)`) +
        ` | ${measured === 0 ? '–' : metCell(count(true) === postgresWork.length ? true : count(false) > 0 ? false : null)} | – (not in the history) |`,
    );
  }
  return lines;
}
