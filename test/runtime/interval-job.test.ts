import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startIntervalJob } from '../../src/jobs/interval-job.js';

/** The interval jobs on vitest's fake clock: a pass runs when the test says, never because time went by. */
describe('startIntervalJob', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A tick that records each pass and finishes only when the test ends it. */
  function gatedTick() {
    const passes: { end: () => void }[] = [];
    const tick = () => new Promise<void>((resolve) => passes.push({ end: resolve }));
    return { passes, tick };
  }

  it('runOnce runs one pass at once, with no time passing, and resolves when it is done', async () => {
    const { passes, tick } = gatedTick();
    const job = startIntervalJob(tick, 3_600_000);
    let done = false;
    const once = job.runOnce().then(() => (done = true));
    expect(passes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    passes[0]!.end();
    await once;
    expect(passes).toHaveLength(1);
    await job.stop();
  });

  it('runOnce waits for a pass already running, then runs a whole pass of its own; never two at once', async () => {
    const { passes, tick } = gatedTick();
    const job = startIntervalJob(tick, 1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(passes).toHaveLength(1);
    const once = job.runOnce();
    // The interval's next tick skips while a pass runs, and runOnce does not start one alongside.
    await vi.advanceTimersByTimeAsync(1000);
    expect(passes).toHaveLength(1);
    passes[0]!.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toHaveLength(2);
    passes[1]!.end();
    await once;
    await job.stop();
  });

  it('does nothing once stopped: no pass on demand, none by the clock', async () => {
    const { passes, tick } = gatedTick();
    const job = startIntervalJob(tick, 1000);
    await job.stop();
    await job.runOnce();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(passes).toEqual([]);
  });
});
