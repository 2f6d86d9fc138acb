import { median } from './measure.js';

/**
 * A 95 % percentile-bootstrap interval of a ratio of medians from paired cycles: each resample draws cycles with
 * replacement (a cycle's service run and comparator run stay together, as they ran side by side in time) and
 * takes median(service) ÷ median(comparator). Seeded, so the same runs always give the same interval. Null with
 * fewer than three cycles: no interval worth the name.
 */
export function bootstrapRatioInterval(
  service: number[],
  comparator: number[],
  resamples = 4000,
): [number, number] | null {
  const cycles = Math.min(service.length, comparator.length);
  if (cycles < 3) return null;
  let state = 0x9e3779b9;
  const random = () => {
    // xorshift32: small, seeded, good enough to draw indexes.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const ratios: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const s: number[] = [];
    const c: number[] = [];
    for (let i = 0; i < cycles; i++) {
      const pick = Math.floor(random() * cycles);
      s.push(service[pick]!);
      c.push(comparator[pick]!);
    }
    const denominator = median(c);
    if (denominator > 0) ratios.push(median(s) / denominator);
  }
  ratios.sort((a, b) => a - b);
  return [ratios[Math.floor(0.025 * (ratios.length - 1))]!, ratios[Math.ceil(0.975 * (ratios.length - 1))]!];
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
