// Preloaded into the service by the soak script (node --import <this file> dist/main.js): appends one JSON
// line per interval with the process's memory and event-loop delay to RELIABILITY_SAMPLER_FILE. Measures
// the real process without any code in the service itself; does nothing when the variable is not set.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.RELIABILITY_SAMPLER_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const intervalMs = Number(process.env.RELIABILITY_SAMPLER_INTERVAL_MS ?? 1000);
  setInterval(() => {
    const memory = process.memoryUsage();
    const sample = {
      t: Date.now(),
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      eventLoopDelayMeanMs: delay.mean / 1e6,
      eventLoopDelayP99Ms: delay.percentile(99) / 1e6,
      eventLoopDelayMaxMs: delay.max / 1e6,
    };
    delay.reset();
    appendFileSync(file, `${JSON.stringify(sample)}\n`);
  }, intervalMs).unref();
}
