import { median } from './measure.js';

/**
 * A 95 % percentile-bootstrap interval of a ratio of medians from paired cycles: each resample draws cycles with
 * replacement (a cycle's service run and comparator run stay together, as they ran side by side in time) and
 * takes median(service) ÷ median(comparator). Seeded, so the same runs always give the same interval. Null with
 * fewer than three cycles: no interval worth the name.
 */
export function bootstrapRatioInterval(service: number[], comparator: number[], resamples = 4000): [number, number] | null {
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
