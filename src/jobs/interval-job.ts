/** A background job's handle: `runOnce` makes one pass now (tests, instead of waiting for its interval). */
export interface IntervalJob {
  /**
   * One whole pass that starts after the call: a pass already running is waited for first (it may have begun
   * before what the caller just wrote), never run alongside. Resolves when the pass is done; does nothing once stopped.
   */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs `tick` every `intervalMs` (from the configuration), never two at once (a tick still running makes the
 * next one skip), off the event loop's reasons to stay alive. `runOnce` runs a pass on demand, so a test sets
 * the interval beyond its own length and decides when the job runs instead of waiting for the clock. `stop`
 * waits for a running tick, so the pool it uses can close next.
 */
export function startIntervalJob(tick: (stopped: () => boolean) => Promise<void>, intervalMs: number): IntervalJob {
  let running: Promise<void> | undefined;
  let stopped = false;
  const start = () =>
    (running = tick(() => stopped).finally(() => {
      running = undefined;
    }));
  const timer = setInterval(() => {
    if (!running) void start();
  }, intervalMs);
  timer.unref();
  return {
    async runOnce() {
      while (running) await running;
      if (stopped) return;
      await start();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * Runs `tick` when woken and every `pollIntervalMs` (the fallback for wake-ups that never come), never two at
 * once: a wake-up while a tick runs makes exactly one more tick after it, however many arrive (they coalesce),
 * so nothing signalled during a tick is missed. While `idle()` is true a wake-up does nothing. `stop` waits
 * for a running tick.
 */
export function startWakeableJob(
  tick: () => Promise<void>,
  pollIntervalMs: number,
  idle: () => boolean,
): { wake: () => void; stop: () => Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  function wake(): void {
    if (stopped || idle()) return;
    if (running) {
      again = true;
      return;
    }
    running = tick().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        wake();
      }
    });
  }

  const timer = setInterval(wake, pollIntervalMs);
  timer.unref();
  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
