/**
 * Runs `tick` every `intervalMs`, never two at once (a tick still running makes the next one skip), off the
 * event loop's reasons to stay alive. `stop` waits for a running tick, so the pool it uses can close next.
 */
export function startIntervalJob(tick: (stopped: () => boolean) => Promise<void>, intervalMs: number): { stop: () => Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const timer = setInterval(() => {
    running ??= tick(() => stopped).finally(() => {
      running = undefined;
    });
  }, intervalMs);
  timer.unref();
  return {
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
export function startWakeableJob(tick: () => Promise<void>, pollIntervalMs: number, idle: () => boolean): { wake: () => void; stop: () => Promise<void> } {
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
