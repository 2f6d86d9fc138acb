import { describe, expect, it } from 'vitest';
import {
  capacitySpread,
  ceilingVerdict,
  driftOf,
  logRatioInterval,
  pairedLogRatios,
  tQuantile975,
} from '../../bench/lib/interval.js';

describe('the bench`s per-cycle log-ratios', () => {
  it('pairs cycle i with cycle i and leaves out a cycle where either figure is missing or zero', () => {
    expect(pairedLogRatios([200, 300, null, 0, 100], [100, 300, 50, 50])).toEqual([Math.log(2), 0]);
  });

  it('gives the geometric mean ratio with a Student t interval, none under three cycles', () => {
    expect(logRatioInterval([])).toEqual({ cycles: 0, ratio: null, interval: null });
    expect(logRatioInterval([Math.log(2), Math.log(2)]).interval).toBeNull();
    const logs = [0.1, 0.2, 0.3, 0.2, 0.2].map(Number);
    const { ratio, interval } = logRatioInterval(logs);
    expect(ratio).toBeCloseTo(Math.exp(0.2), 10);
    // sd of the logs is sqrt(0.005); 4 degrees of freedom.
    const half = (2.776 * Math.sqrt(0.005)) / Math.sqrt(5);
    expect(interval![0]).toBeCloseTo(Math.exp(0.2 - half), 10);
    expect(interval![1]).toBeCloseTo(Math.exp(0.2 + half), 10);
  });

  it('uses the t quantile of the degrees of freedom, near the normal one for many cycles', () => {
    expect(tQuantile975(1)).toBeCloseTo(12.706, 3);
    expect(tQuantile975(9)).toBeCloseTo(2.262, 3);
    expect(tQuantile975(120)).toBeCloseTo(1.98, 2);
  });

  it('finds a drift when the ratio moves steadily across the cycles, none when it only scatters', () => {
    const falling = [0, -0.05, -0.1, -0.15, -0.2, -0.25].map((x, i) => x + (i % 2 === 0 ? 0.01 : -0.01));
    const drift = driftOf(falling)!;
    expect(drift.drifting).toBe(true);
    expect(drift.perCycle).toBeLessThan(1);
    expect(driftOf([0.1, -0.1, 0.05, -0.05, 0.1, -0.1])!.drifting).toBe(false);
    expect(driftOf([0.1, 0.2, 0.3])).toBeNull();
  });

  it('measures a contender`s capacity spread as its highest over its lowest req/s', () => {
    expect(capacitySpread([100, 250, 500])).toBe(5);
    expect(capacitySpread([100, 0])).toBe(Infinity);
    expect(capacitySpread([100])).toBeNull();
  });
});

describe('a ceiling`s verdict, for every ceiling of the benchmark and the data-growth rule alike', () => {
  it('is met on the interval`s upper bound, missed on its lower, otherwise inside the noise', () => {
    expect(ceilingVerdict(1.2, [1.1, 1.5], 1.5)).toEqual({ met: true, note: '' });
    expect(ceilingVerdict(2, [1.51, 3], 1.5)).toEqual({ met: false, note: '' });
    expect(ceilingVerdict(1.4, [1.2, 1.6], 1.5).met).toBeNull();
    expect(ceilingVerdict(1.4, [1.2, 1.6], 1.5).note).toContain('inside the noise');
  });

  it('is decided by the figure alone without an interval', () => {
    expect(ceilingVerdict(1.5, null, 1.5).met).toBe(true);
    expect(ceilingVerdict(1.6, null, 1.5).met).toBe(false);
  });
});
