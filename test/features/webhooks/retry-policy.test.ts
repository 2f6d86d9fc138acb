import { describe, expect, it } from 'vitest';
import { answeredGone, disabledBy, retryPolicy } from '../../../src/features/webhooks/retry-policy.js';

describe('webhook retry policy (src/features/webhooks/retry-policy.ts)', () => {
  const policy = retryPolicy([1_000, 60_000, 3_600_000]);

  it('retries after each delay of the schedule, then gives the delivery up', () => {
    expect([0, 1, 2, 3].map((attemptsBefore) => policy.retryDelay(attemptsBefore, null))).toEqual([
      1_000,
      60_000,
      3_600_000,
      null,
    ]);
  });

  it("honours a receiver's Retry-After, capped at the schedule's longest delay (or the scheduled one, if longer)", () => {
    expect(policy.retryDelay(0, 30_000)).toBe(30_000);
    expect(policy.retryDelay(0, 10 * 3_600_000)).toBe(3_600_000);
    expect(policy.retryDelay(0, -5)).toBe(0);
    expect(policy.retryDelay(3, 30_000)).toBeNull();
  });

  it('disables an endpoint that failed for the whole schedule, or at once on a 410 Gone', () => {
    expect(policy.disableAfterMs).toBe(3_661_000);
    expect(retryPolicy([]).disableAfterMs).toBe(0);
    expect(answeredGone(410)).toBe(true);
    expect(answeredGone(500)).toBe(false);
    expect(answeredGone(null)).toBe(false);
    expect(disabledBy(true, true)).toBe('gone');
    expect(disabledBy(true, false)).toBe('failing_window');
    expect(disabledBy(false, true)).toBeNull();
  });
});
