import { describe, expect, it } from 'vitest';
import { bootstrapRatioInterval } from '../../bench/lib/interval.js';

describe('the bench`s bootstrap interval of a ratio of medians over paired cycles', () => {
  it('has none with fewer than three cycles', () => {
    expect(bootstrapRatioInterval([1, 2], [1, 2])).toBeNull();
  });

  it('brackets the ratio of medians, and is the same on every call', () => {
    const service = [980, 1010, 1200, 950, 1105, 1020, 990, 1060, 1000, 970];
    const comparator = [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000];
    const interval = bootstrapRatioInterval(service, comparator)!;
    expect(interval[0]).toBeLessThanOrEqual(1.005);
    expect(interval[1]).toBeGreaterThanOrEqual(1.005);
    expect(interval[0]).toBeGreaterThan(0.9);
    expect(bootstrapRatioInterval(service, comparator)).toEqual(interval);
  });

  it('is wide when the cycles disagree, narrow when they agree', () => {
    const noisy = bootstrapRatioInterval([0.97, 1.84, 1.2, 1.5, 1.1], [1, 1, 1, 1, 1])!;
    const steady = bootstrapRatioInterval([1.3, 1.31, 1.29, 1.3, 1.3], [1, 1, 1, 1, 1])!;
    expect(noisy[1] - noisy[0]).toBeGreaterThan(0.3);
    expect(steady[1] - steady[0]).toBeLessThan(0.03);
    expect(steady[0]).toBeGreaterThan(1.25);
  });
});
