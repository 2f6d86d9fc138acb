import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { processCpuMicros, processTreeCpuMicros } from '../../scripts/lib/proc.js';
import type { BenchContext } from './context.js';
import { startService } from './contenders.js';
import { logRatioInterval, pairedLogRatios } from './interval.js';
import { cpuTimes, loadAverage, stealShareSince } from './machine.js';
import { median } from './measure.js';
import { seed, seedLedger } from './seed.js';

/**
 * The `clock-advance` scenario (docs/performance.md): `POST /{env}/clock/advance {"days": 30}` through the service as
 * production starts it, on environments of 1,000, 3,000 and 10,000 accounts, each a customer's with ten deposits,
 * and a share of them due for each end-of-day step within the 30 days. Every run advances a fresh environment, so
 * every run of a size closes the same 30 days of the same accounts (advancing one further would age its accounts
 * into other rules and measure another month). The sizes alternate within each cycle, as contenders do, so the
 * cost per account-day at the largest ÷ at the smallest is paired by cycle. Every account is on a deposit product
 * with tiered interest compounding daily and posted monthly, so each day accrues every account's interest and a
 * month's end posts it: the interest steps' own time per account-day is reported from the end of day's step
 * records. There is no floor: the end of day is its SQL (a few bookkeeping statements a day and the steps'
 * batches), and the server's own CPU is reported beside PostgreSQL's instead.
 */

export const CLOCK_ADVANCE_DAYS = 30;
/** The cost per account-day at the largest size may be at most this many times that at the smallest: linear. */
export const CLOCK_LINEARITY_LIMIT = 1.5;
export const CLOCK_ADVANCE_DIR = 'bench/results/clock-advance';
export const clockAdvanceSizes = (quick: boolean): number[] => (quick ? [100, 300, 1000] : [1000, 3000, 10_000]);
const cyclesOf = (quick: boolean) => (quick ? 3 : 5);

export interface ClockAdvanceRun {
  seconds: number;
  /** Business dates the advance closed (its answer's businessDaysRun). */
  days: number;
  /** CPU of the service's process and of the whole PostgreSQL server during the call, µs; null when unread. */
  serverCpuUs: number | null;
  postgresCpuUs: number | null;
  /** Seconds each end-of-day step took over the run's business dates (absent in runs stored before it was kept). */
  stepSeconds?: Record<string, number>;
  /** Month ends among the closed dates: each posts every account's interest once. */
  monthEnds?: number;
}

export interface ClockAdvanceSize {
  accounts: number;
  runs: ClockAdvanceRun[];
  /** Whether every run left exactly the seed's due records changed (the accounts' and flags' state after it). */
  check: string;
}

export interface ClockAdvanceReport {
  startedAt: string;
  command: string;
  commit: string | null;
  conditions: { pinning: string; stealShare: number | null; loadAverage: { start: number[]; end: number[] } };
  days: number;
  sizes: ClockAdvanceSize[];
}

/**
 * What the seed makes due within the 30 days, per step, for `accounts` accounts numbered 1… by id (no holds: the
 * hold-expiry step runs its look-up every day and finds none).
 */
export function dueRecords(accounts: number): Record<string, number> {
  const count = (modulus: number, remainder: number) =>
    Math.floor((accounts - remainder) / modulus) + (remainder === 0 ? 0 : 1);
  return {
    'flag-expiry': count(20, 1),
    // The inactive ones, and the ones old enough for an escheatment notice (DORMANT on the first day).
    dormancy: count(10, 0) + count(20, 3),
    'escheatment-notice': count(20, 3),
  };
}

/**
 * Due within the 30 days (`k`, 1–29, spread by account): every tenth account becomes INACTIVE on day k; every
 * twentieth has a DEBITS_BLOCKED flag lifted on day k; every twentieth other's last activity is old enough for its
 * escheatment notice on day k (IL, TX, OR, NY: three years). Half a day short of each, so the time of day never
 * moves one out of the 30 days, and none is due before the advance.
 */
const DUE_SQL = `WITH n AS (SELECT a.id, row_number() OVER (ORDER BY a.id) AS n FROM accounts a WHERE a.environment = $1),
  k AS (SELECT n.id, n.n, make_interval(days => (n.n / 20 % 29 + 1)::int, hours => -12) AS k FROM n),
  inactive AS (UPDATE accounts a SET last_activity_at = CURRENT_TIMESTAMP - interval '365 days' + k.k FROM k WHERE a.id = k.id AND k.n % 10 = 0),
  noticed AS (UPDATE accounts a SET last_activity_at = CURRENT_TIMESTAMP - interval '3 years' + interval '120 days' + k.k FROM k WHERE a.id = k.id AND k.n % 20 = 3),
  flagged AS (UPDATE accounts a SET flags = ARRAY['DEBITS_BLOCKED'] FROM k WHERE a.id = k.id AND k.n % 20 = 1)
  INSERT INTO account_flags (account_id, environment, flag, reason, set_at, set_by, until)
  SELECT k.id, $1, 'DEBITS_BLOCKED', 'Bench', CURRENT_TIMESTAMP, 'cli:bench', CURRENT_TIMESTAMP + k.k FROM k WHERE k.n % 20 = 1`;

/** What the environment's steps changed, by the state they leave: lifted flags, inactive or dormant accounts, notices. */
const CHANGED_SQL = `SELECT (SELECT count(*)::int FROM account_flag_lifts WHERE environment = $1) AS "flag-expiry",
  (SELECT count(*)::int FROM accounts WHERE environment = $1 AND activity_status IS NOT NULL) AS dormancy,
  (SELECT count(*)::int FROM accounts WHERE environment = $1 AND escheatment_noticed_for IS NOT NULL) AS "escheatment-notice"`;

/**
 * A product per account type and currency of the environment, with interest (1 % a year, 4.25 % from a balance of
 * 1,000: the seed's balances sit on both sides; ACTUAL_365, compounding daily, posted monthly), in force long before
 * the advance; then every account on its product.
 */
const PRODUCTS_SQL = `WITH kinds AS (SELECT DISTINCT type, currency FROM accounts WHERE environment = $1),
  made AS (INSERT INTO products (id, environment, code, name, account_type, currency, day_count, balance_basis, compounding, posting)
    SELECT gen_random_uuid(), $1, 'BENCH_' || row_number() OVER (ORDER BY k.type, k.currency), 'Bench interest', k.type, k.currency,
           'ACTUAL_365', 'END_OF_DAY', 'DAILY', 'MONTHLY' FROM kinds k RETURNING id)
  INSERT INTO product_rates (id, environment, product_id, effective_from, tiers)
  SELECT gen_random_uuid(), $1, m.id, DATE '2000-01-01',
         '[{"minimumBalance": "0", "annualRate": "0.01"}, {"minimumBalance": "1000", "annualRate": "0.0425"}]'::jsonb FROM made m`;
// A statement of its own: the trigger that keeps an account on its product's terms reads the products committed.
const ON_PRODUCTS_SQL = `UPDATE accounts a SET product_code = p.code FROM products p
  WHERE a.environment = $1 AND p.environment = $1 AND p.account_type = a.type AND p.currency = a.currency`;

/** Interest accruals and postings the advance left, and the month ends among the dates it closed. */
const INTEREST_SQL = `SELECT (SELECT count(*)::int FROM interest_accruals WHERE environment = $1) AS accruals,
  (SELECT count(*)::int FROM interest_postings WHERE environment = $1 AND outcome = 'POSTED') AS postings,
  (SELECT count(*)::int FROM end_of_day_runs r WHERE r.environment = $1
     AND r.business_date = (date_trunc('month', r.business_date) + interval '1 month - 1 day')::date) AS "monthEnds"`;

/** Seconds each step took over the environment's business dates (started to finished, resumed attempts included). */
const STEP_SECONDS_SQL = `SELECT step, sum(extract(epoch FROM finished_at - started_at))::float8 AS seconds
  FROM end_of_day_steps WHERE environment = $1 AND finished_at IS NOT NULL GROUP BY step`;

/**
 * A customer per account, ten deposits each (one account only one: the ledger seed's hot account), every account on
 * an interest product.
 */
export async function seedInterestAccounts(ctx: BenchContext, environment: string, accounts: number): Promise<void> {
  const { customerIds } = await seed(ctx.benchPool, { customers: accounts, accounts: 0 }, ctx.keys, environment);
  await seedLedger(ctx.benchPool, { transferAccounts: 0, readAccounts: accounts - 1 }, customerIds, environment);
  await ctx.benchPool.query(PRODUCTS_SQL, [environment]);
  await ctx.benchPool.query(ON_PRODUCTS_SQL, [environment]);
}

/** The interest accounts and their due work. */
async function seedEnvironment(ctx: BenchContext, environment: string, accounts: number): Promise<void> {
  await seedInterestAccounts(ctx, environment, accounts);
  await ctx.benchPool.query(DUE_SQL, [environment]);
}

/**
 * The service for a scenario's own environments, every one adjustable, with one more static token for them (the
 * load's is the bench environment's). Its own end-of-day pass (every END_OF_DAY_INTERVAL_MS) waits an hour: it would
 * close yesterday of a fresh environment in the middle of a measured advance.
 */
export async function startClockService(ctx: BenchContext, node: string, environments: readonly string[]) {
  const bearer = `bench_${randomBytes(32).toString('base64url')}`;
  const server = await startService(ctx, node, {
    ENVIRONMENTS: ['sandbox', ...environments].join(','),
    ADJUSTABLE_CLOCK_ENVIRONMENTS: environments.join(','),
    API_TOKENS: [ctx.credentials.serviceEnv.API_TOKENS, bearer].filter(Boolean).join(','),
    END_OF_DAY_INTERVAL_MS: '3600000',
  });
  ctx.pinning.pinServer(server.pid);
  return { server, bearer };
}

export async function runClockAdvance(
  ctx: BenchContext,
  node: string,
  run: Pick<ClockAdvanceReport, 'command' | 'commit'>,
): Promise<ClockAdvanceReport> {
  const startedAt = new Date().toISOString();
  const { quick } = ctx.options;
  const sizes = clockAdvanceSizes(quick);
  const cycles = cyclesOf(quick);
  const environmentOf = (accounts: number, cycle: number) => `clock-${accounts}-${cycle}`;
  const environments = sizes.flatMap((accounts) =>
    Array.from({ length: cycles }, (_, i) => ({ accounts, cycle: i + 1, name: environmentOf(accounts, i + 1) })),
  );
  const seeded = performance.now();
  for (const { name, accounts } of environments) await seedEnvironment(ctx, name, accounts);
  await ctx.benchPool.query('ANALYZE accounts, account_flags, customers, account_customers, ledger_entries');
  ctx.log(
    `[clock-advance] seeded ${environments.length} environments in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );

  const { server, bearer } = await startClockService(
    ctx,
    node,
    environments.map((e) => e.name),
  );
  const loadAtStart = loadAverage();
  const cpuAtStart = cpuTimes();
  const runs = new Map<number, ClockAdvanceRun[]>(sizes.map((accounts) => [accounts, []]));
  const problems = new Map<number, string[]>(sizes.map((accounts) => [accounts, []]));
  try {
    for (let cycle = 1; cycle <= cycles; cycle++) {
      for (const accounts of sizes.map((_, i) => sizes[(i + cycle - 1) % sizes.length]!)) {
        const environment = environmentOf(accounts, cycle);
        const advance = await advanceOnce(ctx, server, environment, bearer);
        const steps = (await ctx.benchPool.query<{ step: string; seconds: number }>(STEP_SECONDS_SQL, [environment]))
          .rows;
        advance.stepSeconds = Object.fromEntries(steps.map((row) => [row.step, row.seconds]));
        runs.get(accounts)!.push(advance);
        ctx.log(
          `[clock-advance] ${accounts} accounts, cycle ${cycle}/${cycles}: ${advance.days} days in ${advance.seconds.toFixed(2)} s`,
        );
        // The state, not end_of_day_steps.records: the intra-day flag sweep may lift a flag of the advanced clock
        // before its end of day does (the lift is then the sweep's, once either way).
        const [closed] = (await ctx.benchPool.query<Record<string, number>>(CHANGED_SQL, [environment])).rows;
        for (const [step, due] of Object.entries(dueRecords(accounts)))
          if (closed?.[step] !== due)
            problems.get(accounts)!.push(`cycle ${cycle}: ${step} ${closed?.[step]} of ${due}`);
        if (advance.days !== CLOCK_ADVANCE_DAYS)
          problems.get(accounts)!.push(`cycle ${cycle}: ${advance.days} days closed`);
        // Every open account accrued every closed date, and a month's end posted each one's interest.
        const [interest] = (
          await ctx.benchPool.query<{ accruals: number; postings: number; monthEnds: number }>(INTEREST_SQL, [
            environment,
          ])
        ).rows;
        advance.monthEnds = interest?.monthEnds ?? 0;
        if (interest?.accruals !== accounts * advance.days)
          problems.get(accounts)!.push(`cycle ${cycle}: ${interest?.accruals} accruals of ${accounts * advance.days}`);
        if (interest?.postings !== accounts * (interest?.monthEnds ?? 0))
          problems
            .get(accounts)!
            .push(
              `cycle ${cycle}: ${interest?.postings} interest postings of ${accounts * (interest?.monthEnds ?? 0)}`,
            );
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
      stealShare: stealShareSince(cpuAtStart),
      loadAverage: { start: loadAtStart, end: loadAverage() },
    },
    days: CLOCK_ADVANCE_DAYS,
    sizes: sizes.map((accounts) => {
      const found = problems.get(accounts)!;
      const due = Object.entries(dueRecords(accounts))
        .map(([step, n]) => `${step} ${n}`)
        .join(', ');
      return {
        accounts,
        runs: runs.get(accounts)!,
        check:
          found.length === 0
            ? `ok: every run closed 30 days, changed what was due (${due}), accrued every account's interest each day and posted it at the month's end`
            : `MISMATCH: ${found.join('; ')}`,
      };
    }),
  };
}

/** One `POST /{env}/clock/advance` (by default the scenario's 30 days), timed, with the CPU it cost. */
export async function advanceOnce(
  ctx: BenchContext,
  server: { baseUrl: string; pid: number },
  environment: string,
  bearer: string,
  move: { days: number } | { to: string } = { days: CLOCK_ADVANCE_DAYS },
): Promise<ClockAdvanceRun> {
  const postgres = () => (ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid));
  const [serverBefore, postgresBefore] = [processCpuMicros(server.pid), postgres()];
  const started = performance.now();
  const res = await postJson(`${server.baseUrl}/${environment}/clock/advance`, bearer, move, 1_200_000);
  const body = res.json as { data?: { businessDaysRun?: number } };
  const seconds = (performance.now() - started) / 1000;
  if (res.status !== 200)
    throw new Error(`advance of ${environment} answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  const [serverAfter, postgresAfter] = [processCpuMicros(server.pid), postgres()];
  const spent = (before: number | undefined, after: number | undefined) =>
    before === undefined || after === undefined ? null : after - before;
  return {
    seconds,
    days: body.data?.businessDaysRun ?? 0,
    serverCpuUs: spent(serverBefore, serverAfter),
    postgresCpuUs: spent(postgresBefore, postgresAfter),
  };
}

/**
 * A JSON POST through node:http, answered within `timeoutMs`: fetch (undici) gives up on an answer whose headers take
 * over 300 s, which a month end of 100,000 accounts does.
 */
function postJson(url: string, bearer: string, payload: unknown, timeoutMs: number) {
  return new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          } catch (error) {
            reject(error as Error);
          }
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(JSON.stringify(payload));
  });
}

/** µs of wall time per account and closed business date of one run. */
const perAccountDay = (run: ClockAdvanceRun, accounts: number) =>
  (run.seconds * 1e6) / (accounts * Math.max(1, run.days));

/** The geometric mean of a size's µs per account-day and its 95 % t interval, and the largest size's ÷ the smallest's, paired by cycle. */
export function summariseClockAdvance(report: ClockAdvanceReport) {
  const sizes = report.sizes.map((size) => ({
    ...size,
    perAccountDay: logRatioInterval(size.runs.map((run) => Math.log(perAccountDay(run, size.accounts)))),
    cpu: (pick: (run: ClockAdvanceRun) => number | null) => {
      const values = size.runs.map(pick).filter((us): us is number => us !== null);
      return values.length === 0 ? null : median(values) / (size.accounts * report.days);
    },
  }));
  const [smallest, largest] = [sizes[0], sizes.at(-1)];
  const ratio =
    smallest && largest && smallest !== largest
      ? logRatioInterval(
          pairedLogRatios(
            largest.runs.map((run) => perAccountDay(run, largest.accounts)),
            smallest.runs.map((run) => perAccountDay(run, smallest.accounts)),
          ),
        )
      : null;
  const met = ratio?.interval
    ? ratio.interval[1] <= CLOCK_LINEARITY_LIMIT
    : ratio?.ratio
      ? ratio.ratio <= CLOCK_LINEARITY_LIMIT
      : null;
  return { sizes, smallest, largest, ratio, met };
}

/** A count with thousands separators, as the reports write counts. */
export const n = (x: number) => x.toLocaleString('en-US');
/** A 95 % interval as `low–high` to `digits` decimals, or why there is none. */
export const range = (interval: [number, number] | null, digits: number) =>
  interval ? `${interval[0].toFixed(digits)}–${interval[1].toFixed(digits)}` : 'no interval under 3 runs';

/** The linearity target's name and its latest figure, as docs/performance.md's figures table quotes them. */
export function clockLinearityRow(report: ClockAdvanceReport): {
  target: string;
  measured: string;
  met: boolean | null;
} {
  const { smallest, largest, ratio, met } = summariseClockAdvance(report);
  return {
    target: `${report.days}-day clock advance: µs per account-day at ${n(largest?.accounts ?? 0)} accounts ≤ ${CLOCK_LINEARITY_LIMIT}× at ${n(smallest?.accounts ?? 0)}`,
    measured: ratio?.ratio
      ? `${ratio.ratio.toFixed(2)}× (${range(ratio.interval, 2)}), ${ratio.cycles} cycles`
      : 'not measured',
    met,
  };
}

/** The section of bench/results/latest.md that summarises the newest stored clock-advance run. */
export function renderClockAdvance(report: ClockAdvanceReport): string[] {
  const { sizes, ratio, met } = summariseClockAdvance(report);
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  const cpu = (us: number | null) => (us === null ? '–' : us.toFixed(1));
  const lines = [
    `From \`${report.command}\` (started ${report.startedAt}, commit ${report.commit ?? 'unknown'}; ${report.conditions.pinning}; ` +
      `load average ${load(report.conditions.loadAverage.start)} at the start, ${load(report.conditions.loadAverage.end)} at the end; ` +
      `steal ${((report.conditions.stealShare ?? 0) * 100).toFixed(1)} %). \`POST /{env}/clock/advance {"days": ${report.days}}\`, a fresh environment per run; ` +
      "no floor: the end of day is its own SQL, so the service process's CPU is shown beside PostgreSQL's.",
    '',
    '| accounts | runs | seconds per run (median) | µs per account-day (95 % interval) | server CPU µs per account-day | PostgreSQL CPU µs per account-day | check |',
    '|--:|--:|--:|---|--:|--:|---|',
  ];
  for (const size of sizes)
    lines.push(
      `| ${n(size.accounts)} | ${size.runs.length} | ${median(size.runs.map((r) => r.seconds)).toFixed(2)} | ` +
        `${size.perAccountDay.ratio?.toFixed(2) ?? '–'} (${range(size.perAccountDay.interval, 2)}) | ` +
        `${cpu(size.cpu((r) => r.serverCpuUs))} | ${cpu(size.cpu((r) => r.postgresCpuUs))} | ${size.check} |`,
    );
  const stepped = sizes.filter((size) => size.runs.every((run) => run.stepSeconds));
  if (stepped.length > 0) {
    lines.push(
      '',
      "The interest steps alone, from the end of day's step records (median of the runs): `interest-accrual` per account-day, `interest-posting` per account and month end closed.",
      '',
      '| accounts | interest-accrual µs per account-day | interest-posting µs per account and month end |',
      '|--:|--:|--:|',
    );
    for (const size of stepped) {
      const us = (run: ClockAdvanceRun, step: string) => (run.stepSeconds![step] ?? 0) * 1e6;
      const accrual = median(size.runs.map((run) => us(run, 'interest-accrual') / (size.accounts * run.days)));
      const posting = median(
        size.runs.map((run) => us(run, 'interest-posting') / (size.accounts * Math.max(1, run.monthEnds ?? 1))),
      );
      lines.push(`| ${n(size.accounts)} | ${accrual.toFixed(2)} | ${posting.toFixed(1)} |`);
    }
  }
  const row = clockLinearityRow(report);
  lines.push(
    '',
    `${row.target}: ${row.measured}; met: ${met === null ? '–' : met ? 'yes' : 'no'} (judged on the interval's upper bound).`,
  );
  if (ratio === null) lines.push('One size only: no linearity check.');
  return lines;
}

/** Writes the run's JSON to bench/results/clock-advance/ (the only one kept there; a smoke run's is `quick-`). */
export const storeClockAdvance = (report: ClockAdvanceReport, repoRoot: string, outDir: string, quick: boolean) =>
  storeNewestRun(report, path.join(repoRoot, outDir, 'clock-advance'), quick);

/**
 * Writes a run of a scenario stored apart to `<start time>.json` in `dir`, removing the one before it of its kind
 * (a smoke run's is `quick-`): only the newest of each is kept in the repository.
 */
export function storeNewestRun(report: { startedAt: string }, dir: string, quick: boolean): string {
  mkdirSync(dir, { recursive: true });
  const prefix = quick ? 'quick-' : '';
  for (const old of readdirSync(dir))
    if (old.endsWith('.json') && old.startsWith('quick-') === quick) rmSync(path.join(dir, old));
  const file = path.join(dir, `${prefix}${report.startedAt.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}.json`);
  writeFileSync(file, `${JSON.stringify(report)}\n`);
  return file;
}
