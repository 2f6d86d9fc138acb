import { describe, expect, it } from 'vitest';
import {
  type InterestMonthEndReport,
  interestLinearityRow,
  monthEndStart,
  renderInterestMonthEnd,
} from '../../bench/lib/interest-month-end.js';
import { parseOptions } from '../../bench/lib/options.js';

/** The interest-month-end scenario's arguments, the dates it closes, and how its stored run renders (no timing). */
const run = (accrualSeconds: number, postingSeconds: number) => ({
  seconds: accrualSeconds + postingSeconds + 1,
  days: 3,
  serverCpuUs: null,
  postgresCpuUs: null,
  stepSeconds: { 'interest-accrual': accrualSeconds, 'interest-posting': postingSeconds },
  monthEnds: 1,
  accruals: 0,
  postings: 0,
});
const report = (largest: [number, number][]): InterestMonthEndReport => ({
  startedAt: '2026-12-07T07:00:00.000Z',
  command: 'npm run bench -- --scenarios interest-month-end',
  commit: 'abc1234',
  conditions: { pinning: 'not pinned: test', stealShare: 0, loadAverage: { start: [1, 1, 1], end: [1, 1, 1] } },
  monthEnd: '2026-12-31',
  sizes: [
    // 10,000 accounts × 3 days: 3 s of accrual is 100 µs an account-day; 20 s of posting is 2,000 µs an account.
    { accounts: 10_000, runs: [run(3, 20), run(3, 20), run(3, 20)], check: 'ok' },
    { accounts: 100_000, runs: largest.map(([a, p]) => run(a, p)), check: 'ok' },
  ],
});

describe('the interest-month-end scenario', () => {
  it('is named only: never in the full run', () => {
    const options = parseOptions(['--scenarios', 'interest-month-end'], {});
    expect(options !== 'help' && options.scenarios).toEqual(['interest-month-end']);
    const full = parseOptions([], {});
    expect(full !== 'help' && full.scenarios).not.toContain('interest-month-end');
  });

  it("closes a month's last three dates, starting at midday in New York, the next month's when this one's are too near", () => {
    expect(monthEndStart(new Date('2026-12-07T06:00:00Z'))).toEqual({
      start: new Date('2026-12-29T17:00:00Z'),
      first: '2026-12-29',
      monthEnd: '2026-12-31',
    });
    // 04:00 UTC on the 29th is still the 28th in New York: the 29th is ahead, this month's end will do.
    expect(monthEndStart(new Date('2026-12-29T04:00:00Z')).monthEnd).toBe('2026-12-31');
    expect(monthEndStart(new Date('2026-12-29T06:00:00Z'))).toMatchObject({
      first: '2027-01-29',
      monthEnd: '2027-01-31',
    });
    // February of a leap year and of another.
    expect(monthEndStart(new Date('2028-02-10T12:00:00Z'))).toMatchObject({
      first: '2028-02-27',
      monthEnd: '2028-02-29',
    });
    expect(monthEndStart(new Date('2027-02-26T12:00:00Z'))).toMatchObject({
      first: '2027-03-29',
      monthEnd: '2027-03-31',
    });
  });

  it('reports each step per unit of its work and the largest size ÷ the smallest, paired by cycle', () => {
    const lines = renderInterestMonthEnd(
      report([
        [30, 200],
        [30, 200],
        [30, 200],
      ]),
    );
    expect(lines.find((line) => line.startsWith('| 10,000 | 3 |'))).toContain('| 100.00 (100.00–100.00) | 2000.0 (');
    expect(lines.find((line) => line.startsWith('| 100,000 | 3 |'))).toContain('| 100.00 (100.00–100.00) | 2000.0 (');
    expect(lines.at(-1)).toBe(
      "Interest steps: µs per account-day (accrual) and per account (posting) at 100,000 accounts ≤ 1.5× at 10,000: accrual 1.00× (1.00–1.00), 3 cycles; posting 1.00× (1.00–1.00), 3 cycles; met: yes (judged on the intervals' upper bounds).",
    );
  });

  it('a step whose cost per unit grows with the accounts fails the target, either step', () => {
    // Posting twice as dear per account at 100,000.
    expect(
      interestLinearityRow(
        report([
          [30, 400],
          [30, 400],
          [30, 400],
        ]),
      ),
    ).toMatchObject({ met: false });
    expect(
      interestLinearityRow(
        report([
          [60, 200],
          [60, 200],
          [60, 200],
        ]),
      ).met,
    ).toBe(false);
  });
});
