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
