// Preloaded into the service by the soak script (node --import <this file> dist/main.js): appends one JSON
// line per interval with the process's memory, CPU time and event-loop delay to RELIABILITY_SAMPLER_FILE.
// Measures the real process without any code in the service itself; does nothing when the variable is not
// set. With RELIABILITY_CPU_PROFILES="<start s>+<length s>,…" it also writes a V8 CPU profile of each of
// those stretches (seconds from the process's start) beside the sampler file, to set an early and a late
// stretch of a soak side by side (`npx tsx bench/profile.ts --summarise FILE`).
import { appendFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.RELIABILITY_SAMPLER_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const intervalMs = Number(process.env.RELIABILITY_SAMPLER_INTERVAL_MS ?? 1000);
  let cpu = process.cpuUsage();
  setInterval(() => {
    const memory = process.memoryUsage();
    const cpuDelta = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const sample = {
      t: Date.now(),
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      cpuUserUs: cpuDelta.user,
      cpuSystemUs: cpuDelta.system,
      eventLoopDelayMeanMs: delay.mean / 1e6,
      eventLoopDelayP99Ms: delay.percentile(99) / 1e6,
      eventLoopDelayMaxMs: delay.max / 1e6,
    };
    delay.reset();
    appendFileSync(file, `${JSON.stringify(sample)}\n`);
  }, intervalMs).unref();

  const stretches = (process.env.RELIABILITY_CPU_PROFILES ?? '')
    .split(',')
    .filter(Boolean)
    .map((spec) => spec.split('+').map(Number));
  for (const [startS, lengthS] of stretches) {
    setTimeout(async () => {
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
      setTimeout(async () => {
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(`${file}.${startS}s.cpuprofile`, JSON.stringify(profile));
        session.disconnect();
      }, lengthS * 1000).unref();
    }, startS * 1000).unref();
  }
}
