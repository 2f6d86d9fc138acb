import { median } from './measure.js';

/** Student's t, 97.5th percentile, for 1–30 degrees of freedom; beyond, a close approximation. */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
export const tQuantile975 = (degreesOfFreedom: number): number =>
  degreesOfFreedom <= T_975.length ? T_975[degreesOfFreedom - 1]! : 1.96 + 2.4 / degreesOfFreedom;

/**
 * ln(a_i ÷ b_i) for each cycle i where both figures are positive. Runs alternate one cycle at a time, so run i of
 * the service and run i of a comparator ran side by side in time: their ratio cancels most of what the machine
 * did to both (another tenant, a slower minute), and the logarithm makes a ratio and its inverse symmetric.
 */
export function pairedLogRatios(a: readonly (number | null)[], b: readonly (number | null)[]): number[] {
  const logs: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x !== null && x !== undefined && y !== null && y !== undefined && x > 0 && y > 0) logs.push(Math.log(x / y));
  }
  return logs;
}

export interface LogRatioSummary {
  cycles: number;
  /** exp(mean of the per-cycle log-ratios): the geometric mean ratio; null without a cycle. */
  ratio: number | null;
  /** The 95 % t interval of that mean, back on the ratio's scale; null with fewer than three cycles. */
  interval: [number, number] | null;
}

/** The per-cycle log-ratios' mean with its 95 % Student t interval, as ratios. */
export function logRatioInterval(logs: readonly number[]): LogRatioSummary {
  const n = logs.length;
  if (n === 0) return { cycles: 0, ratio: null, interval: null };
  const mean = logs.reduce((sum, x) => sum + x, 0) / n;
  if (n < 3) return { cycles: n, ratio: Math.exp(mean), interval: null };
  const sd = Math.sqrt(logs.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1));
  const half = (tQuantile975(n - 1) * sd) / Math.sqrt(n);
  return { cycles: n, ratio: Math.exp(mean), interval: [Math.exp(mean - half), Math.exp(mean + half)] };
}

export interface DifferenceSummary {
  cycles: number;
  /** The mean of the per-cycle differences a_i − b_i; null without a cycle. */
  mean: number | null;
  /** Its 95 % Student t interval; null with fewer than three cycles. */
  interval: [number, number] | null;
}

/** a_i − b_i over the cycles where both were measured (run i of each ran side by side), with its 95 % t interval. */
export function pairedDifferenceInterval(
  a: readonly (number | null)[],
  b: readonly (number | null)[],
): DifferenceSummary {
  const differences: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x !== null && x !== undefined && y !== null && y !== undefined) differences.push(x - y);
  }
  const n = differences.length;
  if (n === 0) return { cycles: 0, mean: null, interval: null };
  const mean = differences.reduce((sum, x) => sum + x, 0) / n;
  if (n < 3) return { cycles: n, mean, interval: null };
  const sd = Math.sqrt(differences.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1));
  const half = (tQuantile975(n - 1) * sd) / Math.sqrt(n);
  return { cycles: n, mean, interval: [mean - half, mean + half] };
}

export interface Drift {
  /** The least-squares slope of the log-ratios over the cycles, as a factor per cycle (1: no drift). */
  perCycle: number;
  /** Its 95 % t interval (n − 2 degrees of freedom), as factors per cycle. */
  interval: [number, number];
  /** The interval excludes 1: the ratio moved during the run, so its mean describes no one moment of it. */
  drifting: boolean;
}

/** Whether the per-cycle log-ratios trend across the run (a regression on the cycle's index); null under four cycles. */
export function driftOf(logs: readonly number[]): Drift | null {
  const n = logs.length;
  if (n < 4) return null;
  const meanX = (n - 1) / 2;
  const meanY = logs.reduce((sum, y) => sum + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  logs.forEach((y, x) => {
    sxx += (x - meanX) ** 2;
    sxy += (x - meanX) * (y - meanY);
  });
  const slope = sxy / sxx;
  const residuals = logs.reduce((sum, y, x) => sum + (y - meanY - slope * (x - meanX)) ** 2, 0);
  const half = tQuantile975(n - 2) * Math.sqrt(residuals / (n - 2) / sxx);
  const interval: [number, number] = [Math.exp(slope - half), Math.exp(slope + half)];
  return { perCycle: Math.exp(slope), interval, drifting: interval[0] > 1 || interval[1] < 1 };
}

/** Above this, a contender's capacity moved too much within the run for its ratios to mean much: flagged. */
export const SPREAD_LIMIT = 2;

/** A contender's capacity within one run: its highest ÷ lowest successful req/s over the measured runs. */
export function capacitySpread(rps: readonly number[]): number | null {
  if (rps.length < 2 || Math.max(...rps) <= 0) return null;
  return Math.min(...rps) > 0 ? Math.max(...rps) / Math.min(...rps) : Infinity;
}

/** xorshift32 from a fixed seed: the same runs always give the same interval. */
function seededDraw(): () => number {
  let state = 0x9e3779b9;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

const resampleOf = (values: number[], random: () => number) =>
  values.map(() => values[Math.floor(random() * values.length)]!);
const percentileBounds = (sorted: number[]): [number, number] => [
  sorted[Math.floor(0.025 * (sorted.length - 1))]!,
  sorted[Math.ceil(0.975 * (sorted.length - 1))]!,
];

/** A 95 % percentile-bootstrap interval of the median of `values` (seeded); null with fewer than three. */
export function bootstrapMedianInterval(values: number[], resamples = 4000): [number, number] | null {
  if (values.length < 3) return null;
  const random = seededDraw();
  const medians: number[] = [];
  for (let r = 0; r < resamples; r++) medians.push(median(resampleOf(values, random)));
  return percentileBounds(medians.sort((a, b) => a - b));
}

/**
 * A 95 % percentile-bootstrap interval of median(`numerator`) ÷ median(`denominator`) for runs that were not
 * paired (two sizes, each on a database of its own): each resample draws each side's runs apart. Seeded; null
 * with fewer than three runs on either side.
 */
export function bootstrapUnpairedRatioInterval(
  numerator: number[],
  denominator: number[],
  resamples = 4000,
): [number, number] | null {
  if (numerator.length < 3 || denominator.length < 3) return null;
  const random = seededDraw();
  const ratios: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const below = median(resampleOf(denominator, random));
    if (below > 0) ratios.push(median(resampleOf(numerator, random)) / below);
  }
  return percentileBounds(ratios.sort((a, b) => a - b));
}

/**
 * A ceiling's verdict from its figure's 95 % interval: met when the whole interval is within it, missed when the
 * whole interval is above it, and otherwise not decided by this run (inside the noise), which the note says.
 * Without an interval the figure alone decides.
 */
export function ceilingVerdict(
  figure: number,
  interval: [number, number] | null,
  ceiling: number,
): { met: boolean | null; note: string } {
  const [low, high] = interval ?? [figure, figure];
  if (high <= ceiling) return { met: true, note: '' };
  if (low > ceiling) return { met: false, note: '' };
  return { met: null, note: 'inside the noise: the interval straddles the ceiling; ' };
}
