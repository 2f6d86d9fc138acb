import { describe, expect, it } from 'vitest';
import {
  type ClockAdvanceReport,
  clockLinearityRow,
  dueRecords,
  renderClockAdvance,
} from '../../bench/lib/clock-advance.js';
import { renderPerformanceFigures } from '../../bench/lib/headline.js';
import { parseOptions } from '../../bench/lib/options.js';
import type { BenchReport } from '../../bench/lib/report.js';

/** The clock-advance scenario's arguments, the work its seed makes due, and how its stored run renders (no timing). */
const report = (largestSeconds: number[]): ClockAdvanceReport => ({
  startedAt: '2026-12-04T19:00:00.000Z',
  command: 'npm run bench -- --scenarios clock-advance',
  commit: 'abc1234',
  conditions: { pinning: 'not pinned: test', stealShare: 0.01, loadAverage: { start: [1, 1, 1], end: [2, 2, 2] } },
  days: 30,
  sizes: [
    { accounts: 1000, runs: [3, 3.3, 2.7].map((seconds) => run(seconds)), check: 'ok' },
    { accounts: 10_000, runs: largestSeconds.map((seconds) => run(seconds)), check: 'ok' },
  ],
});
const run = (seconds: number) => ({ seconds, days: 30, serverCpuUs: seconds * 1e5, postgresCpuUs: seconds * 5e5 });

describe('the clock-advance scenario', () => {
  it('is named only: never in the full run, and seeds no data-growth history', () => {
    const options = parseOptions(['--scenarios', 'clock-advance'], {});
    expect(options !== 'help' && options.scenarios).toEqual(['clock-advance']);
    expect(options !== 'help' && options.growth).toBeNull();
    const full = parseOptions([], {});
    expect(full !== 'help' && full.scenarios).not.toContain('clock-advance');
  });

  it('makes a fixed share of the accounts due for each step', () => {
    expect(dueRecords(100)).toEqual({ 'flag-expiry': 5, dormancy: 15, 'escheatment-notice': 5 });
    expect(dueRecords(10_000)).toEqual({ 'flag-expiry': 500, dormancy: 1500, 'escheatment-notice': 500 });
  });

  it('reports µs per account-day per size and the largest ÷ the smallest, paired by cycle', () => {
    const lines = renderClockAdvance(report([36, 39.6, 32.4]));
    // 3 s for 1,000 accounts × 30 days is 100 µs an account-day (the geometric mean of 100, 110, 90: 99.67); 36 s
    // for 10,000 is 120 (119.60).
    expect(lines.find((line) => line.startsWith('| 1,000 | 3 | 3.00 | 99.67 ('))).toBeDefined();
    expect(lines.find((line) => line.startsWith('| 10,000 | 3 | 36.00 | 119.60 ('))).toContain('| 12.0 | 60.0 | ok |');
    expect(lines.at(-1)).toBe(
      "30-day clock advance: µs per account-day at 10,000 accounts ≤ 1.5× at 1,000: 1.20× (1.20–1.20), 3 cycles; met: yes (judged on the interval's upper bound).",
    );
  });

  it('a cost per account-day that grows with the accounts fails the target', () => {
    expect(clockLinearityRow(report([60, 66, 54]))).toMatchObject({
      measured: '2.00× (2.00–2.00), 3 cycles',
      met: false,
    });
    expect(clockLinearityRow(report([30, 40, 50])).met).toBe(false);
  });

  it("shows the interest steps' own time per account-day and per account posted, from the step records", () => {
    const stepped = report([36, 39.6, 32.4]);
    for (const size of stepped.sizes)
      size.runs = size.runs.map((r) => ({
        ...r,
        monthEnds: 1,
        // 3 µs per account-day of accrual, 50 µs per account of the month end's posting.
        stepSeconds: {
          'interest-accrual': (size.accounts * 30 * 3) / 1e6,
          'interest-posting': (size.accounts * 50) / 1e6,
        },
      }));
    const lines = renderClockAdvance(stepped);
    expect(lines).toContain('| 1,000 | 3.00 | 50.0 |');
    expect(lines).toContain('| 10,000 | 3.00 | 50.0 |');
    // Runs stored before the step records were kept show no such table.
    expect(renderClockAdvance(report([36, 39.6, 32.4])).some((line) => line.includes('interest-accrual'))).toBe(false);
  });

  it("is a row of docs/performance.md's figures when a run is stored", () => {
    const bench = {
      startedAt: '2026-12-02T00:00:00.000Z',
      options: { quick: false },
      machine: { gitCommit: 'x', cores: 2, nodeVersions: { reference: 'v26.0.0' } },
      scenarios: [],
      startup: [],
      failures: [],
    } as unknown as BenchReport;
    const row = renderPerformanceFigures(bench, [], report([36, 39.6, 32.4])).at(-1);
    expect(row).toBe(
      '| 30-day clock advance: µs per account-day at 10,000 accounts ≤ 1.5× at 1,000 | 1.20× (1.20–1.20), 3 cycles (run of 2026-12-04 19:00 UTC) | yes | – (its own run) |',
    );
  });
});
