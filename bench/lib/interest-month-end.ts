import path from 'node:path';
import {
  advanceOnce,
  type ClockAdvanceRun,
  n,
  range,
  seedInterestAccounts,
  startClockService,
  storeNewestRun,
} from './clock-advance.js';
import type { BenchContext } from './context.js';
import { logRatioInterval, pairedLogRatios, type LogRatioSummary } from './interval.js';
import { loadAverage, stealShareSince, cpuTimes } from './machine.js';
import { median } from './measure.js';

/**
 * The `interest-month-end` scenario (docs/performance.md): the end of day's interest steps at 10,000 and 100,000
 * accounts (quick: 1,000 and 3,000). Each run is a fresh environment: its clock is first moved, empty, to midday of
 * the third-to-last date of a month; then it is seeded (a customer per account, ten deposits each, every account on
 * a tiered interest product compounding daily and posted monthly, as clock-advance seeds) and
 * `POST /{env}/clock/advance {"days": 3}` closes the month's last three dates: three accruals of every account and,
 * on the last, every account's posting. `interest-accrual` is reported per account-day and `interest-posting` per
 * account, from the end of day's step records, with the largest size's cost ÷ the smallest's paired by cycle: linear
 * when the interval's upper bound is at most 1.5. A month's end is what clock-advance's 30 days cannot afford at
 * 100,000 accounts (some 13 minutes a run): the three dates around it are where the interest steps' work is.
 */

export const MONTH_END_DAYS = 3;
export const INTEREST_LINEARITY_LIMIT = 1.5;
export const INTEREST_MONTH_END_DIR = 'bench/results/interest-month-end';
export const interestMonthEndSizes = (quick: boolean): number[] => (quick ? [1000, 3000] : [10_000, 100_000]);
const cyclesOf = (quick: boolean) => (quick ? 2 : 3);

export interface InterestMonthEndRun extends ClockAdvanceRun {
  /** Accruals and postings the advance left: every account's, on every closed date and at the month's end. */
  accruals: number;
  postings: number;
}

export interface InterestMonthEndReport {
  startedAt: string;
  command: string;
  commit: string | null;
  conditions: { pinning: string; stealShare: number | null; loadAverage: { start: number[]; end: number[] } };
  /** The month end the runs closed (the last of the three business dates). */
  monthEnd: string;
  sizes: { accounts: number; runs: InterestMonthEndRun[]; check: string }[];
}

/** Seconds each step took over the measured dates (from $2): the empty dates before the seed are left out. */
const STEP_SECONDS_SQL = `SELECT step, sum(extract(epoch FROM finished_at - started_at))::float8 AS seconds
  FROM end_of_day_steps WHERE environment = $1 AND business_date >= $2::date AND finished_at IS NOT NULL GROUP BY step`;

const COUNTS_SQL = `SELECT (SELECT count(*)::int FROM interest_accruals WHERE environment = $1) AS accruals,
  (SELECT count(*)::int FROM interest_postings WHERE environment = $1 AND outcome = 'POSTED') AS postings`;

/** The month's last date for a business date (YYYY-MM-DD), as text. */
const lastOfMonth = (date: string): string => {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
};
const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Midday in New York (17:00 UTC: noon EST, 13:00 EDT) of the third-to-last date of the first month whose last three
 * dates are all after `now`'s date there: from it, three days of 24 hours close exactly those three dates.
 */
export function monthEndStart(now: Date): { start: Date; first: string; monthEnd: string } {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(now);
  let monthEnd = lastOfMonth(today);
  if (addDays(monthEnd, -(MONTH_END_DAYS - 1)) <= today) monthEnd = lastOfMonth(addDays(monthEnd, 1));
  const first = addDays(monthEnd, -(MONTH_END_DAYS - 1));
  return { start: new Date(`${first}T17:00:00Z`), first, monthEnd };
}

export async function runInterestMonthEnd(
  ctx: BenchContext,
  node: string,
  run: Pick<InterestMonthEndReport, 'command' | 'commit'>,
): Promise<InterestMonthEndReport> {
  const startedAt = new Date().toISOString();
  const { quick } = ctx.options;
  const sizes = interestMonthEndSizes(quick);
  const cycles = cyclesOf(quick);
  const environmentOf = (accounts: number, cycle: number) => `interest-${accounts}-${cycle}`;
  const environments = sizes.flatMap((accounts) =>
    Array.from({ length: cycles }, (_, i) => ({ accounts, name: environmentOf(accounts, i + 1) })),
  );
  const { start, first, monthEnd } = monthEndStart(new Date());
  const { server, bearer } = await startClockService(
    ctx,
    node,
    environments.map((e) => e.name),
  );
  const runs = new Map<number, InterestMonthEndRun[]>(sizes.map((accounts) => [accounts, []]));
  const problems = new Map<number, string[]>(sizes.map((accounts) => [accounts, []]));
  // Read once the seed is done: the conditions of the measured advances only.
  let loadAtStart: number[] | undefined;
  let cpuAtStart: ReturnType<typeof cpuTimes> | undefined;
  try {
    const seeded = performance.now();
    for (const { name, accounts } of environments) {
      // Empty, the dates before the month's end close at no cost; the accounts are then opened on its last three.
      await advanceOnce(ctx, server, name, bearer, { to: start.toISOString() });
      await seedInterestAccounts(ctx, name, accounts);
    }
    await ctx.benchPool.query(
      'ANALYZE accounts, customers, account_customers, ledger_entries, products, product_rates',
    );
    ctx.log(
      `[interest-month-end] seeded ${environments.length} environments to ${start.toISOString()} in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    );
    loadAtStart = loadAverage();
    cpuAtStart = cpuTimes();
    for (let cycle = 1; cycle <= cycles; cycle++) {
      for (const accounts of sizes.map((_, i) => sizes[(i + cycle - 1) % sizes.length]!)) {
        const environment = environmentOf(accounts, cycle);
        const advance = await advanceOnce(ctx, server, environment, bearer, { days: MONTH_END_DAYS });
        const steps = (
          await ctx.benchPool.query<{ step: string; seconds: number }>(STEP_SECONDS_SQL, [environment, first])
        ).rows;
        const [counts] = (await ctx.benchPool.query<{ accruals: number; postings: number }>(COUNTS_SQL, [environment]))
          .rows;
        const measured: InterestMonthEndRun = {
          ...advance,
          stepSeconds: Object.fromEntries(steps.map((row) => [row.step, row.seconds])),
          monthEnds: 1,
          accruals: counts?.accruals ?? 0,
          postings: counts?.postings ?? 0,
        };
        runs.get(accounts)!.push(measured);
        ctx.log(
          `[interest-month-end] ${accounts} accounts, cycle ${cycle}/${cycles}: ${advance.days} days in ${advance.seconds.toFixed(2)} s ` +
            `(accrual ${measured.stepSeconds!['interest-accrual']?.toFixed(2)} s, posting ${measured.stepSeconds!['interest-posting']?.toFixed(2)} s)`,
        );
        const found = problems.get(accounts)!;
        if (advance.days !== MONTH_END_DAYS) found.push(`cycle ${cycle}: ${advance.days} days closed`);
        if (measured.accruals !== accounts * MONTH_END_DAYS)
          found.push(`cycle ${cycle}: ${measured.accruals} accruals of ${accounts * MONTH_END_DAYS}`);
        if (measured.postings !== accounts) found.push(`cycle ${cycle}: ${measured.postings} postings of ${accounts}`);
      }
    }
  } finally {
    await server.stop();
  }
  return {
    startedAt,
    ...run,
    conditions: {
      pinning: ctx.pinning.description,
      stealShare: cpuAtStart === undefined ? null : stealShareSince(cpuAtStart),
      loadAverage: { start: loadAtStart ?? [], end: loadAverage() },
    },
    monthEnd,
    sizes: sizes.map((accounts) => {
      const found = problems.get(accounts)!;
      return {
        accounts,
        runs: runs.get(accounts)!,
        check:
          found.length === 0
            ? `ok: every run closed ${MONTH_END_DAYS} dates, accrued every account on each and posted every account's interest at the month's end`
            : `MISMATCH: ${found.join('; ')}`,
      };
    }),
  };
}

/** µs of a step per unit of work: accrual per account-day, posting per account. */
const accrualUs = (run: InterestMonthEndRun, accounts: number) =>
  ((run.stepSeconds?.['interest-accrual'] ?? 0) * 1e6) / (accounts * MONTH_END_DAYS);
const postingUs = (run: InterestMonthEndRun, accounts: number) =>
  ((run.stepSeconds?.['interest-posting'] ?? 0) * 1e6) / accounts;

type Size = InterestMonthEndReport['sizes'][number];
const perUnit = (size: Size, of: typeof accrualUs) =>
  logRatioInterval(size.runs.map((run) => Math.log(of(run, size.accounts))));
const linearity = (smallest: Size, largest: Size, of: typeof accrualUs): LogRatioSummary =>
  logRatioInterval(
    pairedLogRatios(
      largest.runs.map((run) => of(run, largest.accounts)),
      smallest.runs.map((run) => of(run, smallest.accounts)),
    ),
  );
const metBy = (ratio: LogRatioSummary): boolean | null =>
  ratio.interval
    ? ratio.interval[1] <= INTEREST_LINEARITY_LIMIT
    : ratio.ratio === null
      ? null
      : ratio.ratio <= INTEREST_LINEARITY_LIMIT;

const ratioText = (ratio: LogRatioSummary) =>
  ratio.ratio === null
    ? 'not measured'
    : `${ratio.ratio.toFixed(2)}× (${range(ratio.interval, 2)}), ${ratio.cycles} cycles`;

/** The linearity target's row of docs/performance.md's figures table: both steps, each judged on its upper bound. */
export function interestLinearityRow(report: InterestMonthEndReport): {
  target: string;
  measured: string;
  met: boolean | null;
} {
  const [smallest, largest] = [report.sizes[0], report.sizes.at(-1)];
  const target = `Interest steps: µs per account-day (accrual) and per account (posting) at ${n(largest?.accounts ?? 0)} accounts ≤ ${INTEREST_LINEARITY_LIMIT}× at ${n(smallest?.accounts ?? 0)}`;
  if (!smallest || !largest || smallest === largest) return { target, measured: 'one size only', met: null };
  const [accrual, posting] = [linearity(smallest, largest, accrualUs), linearity(smallest, largest, postingUs)];
  const [a, p] = [metBy(accrual), metBy(posting)];
  return {
    target,
    measured: `accrual ${ratioText(accrual)}; posting ${ratioText(posting)}`,
    met: a === null || p === null ? null : a && p,
  };
}

/** The section of bench/results/latest.md that summarises the newest stored interest-month-end run. */
export function renderInterestMonthEnd(report: InterestMonthEndReport): string[] {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  const lines = [
    `From \`${report.command}\` (started ${report.startedAt}, commit ${report.commit ?? 'unknown'}; ${report.conditions.pinning}; ` +
      `load average ${load(report.conditions.loadAverage.start)} at the start, ${load(report.conditions.loadAverage.end)} at the end; ` +
      `steal ${((report.conditions.stealShare ?? 0) * 100).toFixed(1)} %). \`POST /{env}/clock/advance {"days": ${MONTH_END_DAYS}}\` over the month end ${report.monthEnd}, ` +
      "a fresh environment per run; the steps' seconds from the end of day's step records; no floor (the steps are their own SQL).",
    '',
    '| accounts | runs | advance seconds (median) | interest-accrual µs per account-day (95 % interval) | interest-posting µs per account (95 % interval) | check |',
    '|--:|--:|--:|---|---|---|',
  ];
  for (const size of report.sizes) {
    const [accrual, posting] = [perUnit(size, accrualUs), perUnit(size, postingUs)];
    lines.push(
      `| ${n(size.accounts)} | ${size.runs.length} | ${median(size.runs.map((r) => r.seconds)).toFixed(2)} | ` +
        `${accrual.ratio?.toFixed(2) ?? '–'} (${range(accrual.interval, 2)}) | ${posting.ratio?.toFixed(1) ?? '–'} (${range(posting.interval, 1)}) | ${size.check} |`,
    );
  }
  const row = interestLinearityRow(report);
  lines.push(
    '',
    `${row.target}: ${row.measured}; met: ${row.met === null ? '–' : row.met ? 'yes' : 'no'} (judged on the intervals' upper bounds).`,
  );
  return lines;
}

/** Writes the run's JSON to bench/results/interest-month-end/ (the only one kept there; a smoke run's is `quick-`). */
export const storeInterestMonthEnd = (
  report: InterestMonthEndReport,
  repoRoot: string,
  outDir: string,
  quick: boolean,
) => storeNewestRun(report, path.join(repoRoot, outDir, 'interest-month-end'), quick);
