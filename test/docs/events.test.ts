import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/features/events/event.js';
import { ServiceMetrics } from '../../src/http/metrics.js';

/** docs/events.md and docs/reference/metrics.md keep up with the code: every event type, every metric. */
describe('the events and metrics documentation', () => {
  it('docs/events.md has a row for every event type the service writes', () => {
    const page = readFileSync('docs/events.md', 'utf8');
    const documented = [...page.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(documented).toEqual([...EVENT_TYPES]);
  });

  it('docs/reference/metrics.md describes every metric the service registers (besides the process metrics of prom-client)', async () => {
    const metrics = new ServiceMetrics({ processMetrics: false });
    metrics.watchPool({ totalCount: 0, idleCount: 0, waitingCount: 0, options: { max: 10 } } as Parameters<
      ServiceMetrics['watchPool']
    >[0]);
    metrics.watchOutbox(async () => ({
      unsequencedEvents: 0,
      oldestUnsequencedSeconds: 0,
      pendingFirstAttempts: 0,
      pendingRetries: 0,
      oldestPendingFirstAttemptSeconds: 0,
      enabledEndpoints: 0,
      disabledEndpoints: 0,
    }));
    const names = (await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name);
    expect(names.length).toBeGreaterThan(15);
    const reference = readFileSync('docs/reference/metrics.md', 'utf8');
    expect(names.filter((name) => !reference.includes(`| \`${name}\` |`))).toEqual([]);
  });
});
