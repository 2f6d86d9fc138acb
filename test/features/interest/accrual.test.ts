import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDateOf, EndOfDayService, endOfDate, endOfDayRequestId } from '../../../src/features/clock/index.js';
import { InterestService, interestAccrualStep, interestPostingStep } from '../../../src/features/interest/index.js';
import type { Stores } from '../../../src/features/ports.js';
import { createStores } from '../../../src/features/stores.js';
import { moveClock, passThrough } from '../../support/clock.js';
import { stopsAtCall } from '../../support/crash.js';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';

/**
 * Interest (docs/adr/0113) against an independent computation written here from the formulas, in BigInt fixed point
 * (never the service's code): a simulated period, day by day through the end of day, with deposits and withdrawals, a
 * tier crossing, a scheduled rate change, daily and monthly compounding, monthly and quarterly posting. Each day's
 * accrual must be the model's to the 12th decimal, each posting the model's half-even cents with its residue carried,
 * and the ledger's balances must still sum to zero.
 */

const DAY_MS = 86_400_000;
const ZONE = 'America/New_York';
const S12 = 10n ** 12n;

let h: DomainHarness;
let stores: Stores;
beforeAll(async () => {
  h = await createDomainHarness();
  stores = createStores(h.prisma);
});
afterAll(() => h?.close());

// ---- The model: decimal text ⇄ BigInt scaled by 10^12, days by calendar arithmetic of their own. ----

const fixed = (text: string): bigint => {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace('-', '').split('.') as [string, string?];
  const value = BigInt(whole) * S12 + BigInt(fraction.padEnd(12, '0'));
  return negative ? -value : value;
};
const text = (value: bigint): string => {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const fraction = (abs % S12).toString().padStart(12, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / S12}${fraction ? `.${fraction}` : ''}`;
};
/** n / d rounded half away from zero (PostgreSQL's round of NUMERIC), n ≥ 0. */
const divHalfUp = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d);
/** A 12-decimal amount rounded half-even to `digits` decimals, still scaled by 10^12. */
const halfEven = (value: bigint, digits: number): bigint => {
  const unit = 10n ** BigInt(12 - digits);
  let kept = value / unit;
  const rest = (value % unit) * 2n;
  if (rest > unit || (rest === unit && kept % 2n === 1n)) kept += 1n;
  return kept * unit;
};
const nextDay = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
const isMonthEnd = (date: string): boolean => nextDay(date).slice(8) === '01';
const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

interface Terms {
  dayCount: 'ACTUAL_365' | 'ACTUAL_360' | 'ACTUAL_ACTUAL';
  compounding: 'DAILY' | 'MONTHLY';
  posting: 'MONTHLY' | 'QUARTERLY';
  /** Dated rates, oldest first: tiers [minimumBalance, annualRate] (a flat rate is one tier from 0). */
  rates: { from: string; tiers: [string, string][] }[];
}

interface ModelDay {
  date: string;
  accrual: string;
}
interface ModelPosting {
  periodEnd: string;
  posted: string;
  residue: string;
}

/**
 * Each date's accrual from `first` through `last`: the balance at the day's end (the day's own movements, the interest
 * posted at earlier period ends), plus for DAILY compounding what accrued and is unpaid (the residue carried
 * included), for MONTHLY what accrued in the period's earlier months; the rate in force that date, the tier the whole
 * balance reached; ÷ 365, 360, or the year's days. At a period's end, the residue plus the period's accruals, rounded
 * half-even to cents, is posted, and the rest carried.
 */
function model(terms: Terms, movements: Map<string, bigint>, first: string, last: string) {
  const days: ModelDay[] = [];
  const postings: ModelPosting[] = [];
  let balance = 0n;
  let residue = 0n;
  let sincePosting: { date: string; amount: bigint }[] = [];
  for (let date = first; date <= last; date = nextDay(date)) {
    balance += movements.get(date) ?? 0n;
    const unpaid = sincePosting.reduce((sum, day) => sum + day.amount, 0n);
    const base =
      terms.compounding === 'DAILY'
        ? balance + residue + unpaid
        : balance +
          sincePosting.filter((day) => day.date < `${date.slice(0, 7)}-01`).reduce((s, d) => s + d.amount, 0n);
    const rate = [...terms.rates].reverse().find((r) => r.from <= date);
    let annual = 0n;
    if (rate)
      for (const [minimum, tierRate] of rate.tiers) if (fixed(minimum) <= base) annual = fixed(tierRate) / 10n ** 6n;
    const yearDays =
      terms.dayCount === 'ACTUAL_360'
        ? 360n
        : terms.dayCount === 'ACTUAL_365'
          ? 365n
          : isLeap(Number(date.slice(0, 4)))
            ? 366n
            : 365n;
    // base (12 decimals) × rate (6 decimals) ÷ days, rounded to 12 decimals.
    const amount = base > 0n ? divHalfUp(base * annual, yearDays * 10n ** 6n) : 0n;
    days.push({ date, accrual: text(amount) });
    sincePosting.push({ date, amount });
    const month = Number(date.slice(5, 7));
    if (isMonthEnd(date) && (terms.posting === 'MONTHLY' || month % 3 === 0)) {
      const accrued = residue + sincePosting.reduce((sum, day) => sum + day.amount, 0n);
      const posted = halfEven(accrued, 2);
      residue = accrued - posted;
      balance += posted;
      sincePosting = [];
      postings.push({ periodEnd: date, posted: text(posted), residue: text(residue) });
    }
  }
  return { days, postings, balance };
}

// ---- The service, day by day. ----

/** Moves the environment's clock a day on and runs its due end of day (a sandbox's advance, for any environment). */
async function dayPasses(environment: string, since: string): Promise<void> {
  await moveClock(h, stores.clock, environment, DAY_MS);
  const pass = await h.services.endOfDay.runDue(environment, { since, waitForOthers: true });
  expect(pass.failed).toBeNull();
}

const today = async (environment: string) => businessDateOf(await h.services.clock.now(environment), ZONE);

async function productOn(environment: string, code: string, terms: Terms, balanceBasis = 'END_OF_DAY') {
  const caller = h.caller(environment);
  const [initial, ...later] = terms.rates;
  const rate =
    initial!.tiers.length === 1
      ? { annualRate: initial!.tiers[0]![1] }
      : { tiers: initial!.tiers.map(([minimumBalance, annualRate]) => ({ minimumBalance, annualRate })) };
  await h.services.products.create(caller, {
    code,
    name: code,
    accountType: 'SAVINGS',
    currency: 'USD',
    interest: {
      ...rate,
      dayCount: terms.dayCount,
      balanceBasis,
      compounding: terms.compounding,
      posting: terms.posting,
    },
  });
  for (const change of later)
    await h.services.products.changeRate(caller, code, {
      effectiveFrom: change.from,
      ...(change.tiers.length === 1
        ? { annualRate: change.tiers[0]![1] }
        : { tiers: change.tiers.map(([minimumBalance, annualRate]) => ({ minimumBalance, annualRate })) }),
    });
}

async function accountOn(environment: string, productCode: string): Promise<string> {
  const caller = h.caller(environment);
  const customerId = (await h.services.customers.create(caller, buildCustomerInput())).value.customerId;
  return (
    await h.services.accounts.create(caller, { ...buildAccountInput([customerId], { type: 'SAVINGS' }), productCode })
  ).value.accountId;
}

async function accrualsOf(accountId: string): Promise<ModelDay[]> {
  const { rows } = await h.pool.query<ModelDay>(
    `SELECT to_char(business_date, 'YYYY-MM-DD') AS date, trim_scale(amount)::text AS accrual
     FROM interest_accruals WHERE account_id = $1 ORDER BY business_date`,
    [accountId],
  );
  return rows;
}

async function postingsOf(accountId: string): Promise<ModelPosting[]> {
  const { rows } = await h.pool.query<ModelPosting>(
    `SELECT to_char(period_end, 'YYYY-MM-DD') AS "periodEnd", trim_scale(posted)::text AS posted,
            trim_scale(residue)::text AS residue
     FROM interest_postings WHERE account_id = $1 ORDER BY period_end`,
    [accountId],
  );
  return rows;
}

const dateAfter = (date: string, days: number): string => {
  let d = date;
  for (let i = 0; i < days; i++) d = nextDay(d);
  return d;
};

describe('interest accrual and posting, day by day, against the formulas', () => {
  it('tiers, a rate change, deposits and withdrawals, daily and monthly compounding, monthly and quarterly posting', async () => {
    const environment = 'interest-model';
    const start = await today(environment);
    // Long enough to cross at least two month ends and a quarter's end after them (a simulated quarter), no longer.
    const firstQuarterEnd = (() => {
      let d = dateAfter(start, 62);
      while (!(isMonthEnd(d) && Number(d.slice(5, 7)) % 3 === 0)) d = nextDay(d);
      return d;
    })();
    const daily: Terms = {
      dayCount: 'ACTUAL_365',
      compounding: 'DAILY',
      posting: 'MONTHLY',
      rates: [
        {
          from: start,
          tiers: [
            ['0', '0.01'],
            ['1000', '0.0425'],
          ],
        },
        {
          from: dateAfter(start, 20),
          tiers: [
            ['0', '0.015'],
            ['1000', '0.05'],
            ['5000', '0.055'],
          ],
        },
        { from: dateAfter(start, 45), tiers: [['0', '0.0375']] },
      ],
    };
    const monthly: Terms = {
      dayCount: 'ACTUAL_360',
      compounding: 'MONTHLY',
      posting: 'QUARTERLY',
      rates: [
        { from: start, tiers: [['0', '0.02']] },
        { from: dateAfter(start, 33), tiers: [['0', '0.0233']] },
      ],
    };
    const actual: Terms = {
      dayCount: 'ACTUAL_ACTUAL',
      compounding: 'DAILY',
      posting: 'QUARTERLY',
      rates: [{ from: start, tiers: [['0', '0.0499']] }],
    };
    await productOn(environment, 'TIERED_DAILY', daily);
    await productOn(environment, 'FLAT_MONTHLY', monthly, 'AVERAGE_DAILY');
    await productOn(environment, 'ACTUAL_ACTUAL_SAVINGS', actual);
    const accounts = {
      daily: await accountOn(environment, 'TIERED_DAILY'),
      monthly: await accountOn(environment, 'FLAT_MONTHLY'),
      actual: await accountOn(environment, 'ACTUAL_ACTUAL_SAVINGS'),
    };
    // An account on no product accrues nothing.
    const owner = (await h.services.customers.create(h.caller(environment), buildCustomerInput())).value.customerId;
    const plain = (await h.services.accounts.create(h.caller(environment), buildAccountInput([owner]))).value.accountId;
    // What each account's client does, by day of the simulation: amounts in dollars, credits positive.
    const plan: Record<keyof typeof accounts, Record<number, string[]>> = {
      // Below the second tier, over it (the whole balance at 4.25 %), the 5.5 % tier after the change, back down.
      daily: { 0: ['900'], 5: ['200'], 9: ['-150.37', '75.5'], 25: ['4500'], 31: ['-4000.01'], 60: ['1234.56'] },
      monthly: { 0: ['5000.03'], 14: ['-1000'], 40: ['250.25'], 70: ['-0.99'] },
      actual: { 0: ['777.77'], 50: ['1000'] },
    };
    const movements = {
      daily: new Map<string, bigint>(),
      monthly: new Map<string, bigint>(),
      actual: new Map<string, bigint>(),
    };
    const caller = h.caller(environment);
    let day = 0;
    for (let date = start; date <= firstQuarterEnd; day++) {
      for (const name of Object.keys(accounts) as (keyof typeof accounts)[]) {
        for (const amount of plan[name][day] ?? []) {
          const debit = amount.startsWith('-');
          await h.services.ledger.postTransaction(caller, accounts[name], {
            type: debit ? 'DEBIT' : 'CREDIT',
            amount: amount.replace('-', ''),
          });
          movements[name].set(date, (movements[name].get(date) ?? 0n) + fixed(amount));
        }
      }
      await dayPasses(environment, start);
      date = await today(environment);
    }
    const last = (
      await h.pool.query<{ last: string }>(
        "SELECT to_char(max(business_date), 'YYYY-MM-DD') AS last FROM end_of_day_runs WHERE environment = $1 AND status = 'COMPLETED'",
        [environment],
      )
    ).rows[0]!.last;
    expect(last >= firstQuarterEnd).toBe(true);

    for (const [name, terms] of [
      ['daily', daily],
      ['monthly', monthly],
      ['actual', actual],
    ] as const) {
      const expected = model(terms, movements[name], start, last);
      expect(await accrualsOf(accounts[name])).toEqual(expected.days);
      expect(await postingsOf(accounts[name])).toEqual(expected.postings);
      const account = await h.services.accounts.get(caller, accounts[name]);
      expect(fixed(account.amount)).toBe(expected.balance);
    }
    // The tier crossing and the rate change are in there: the daily account earned at more than one rate.
    const { rows: rates } = await h.pool.query<{ rate: string }>(
      'SELECT DISTINCT trim_scale(annual_rate)::text AS rate FROM interest_accruals WHERE account_id = $1 ORDER BY 1',
      [accounts.daily],
    );
    expect(rates.map((row) => row.rate)).toEqual(['0.01', '0.0375', '0.0425', '0.05', '0.055']);
    expect(await accrualsOf(plain)).toEqual([]);
    // Every posting is balanced and per currency the balances (the interest-expense account's included) sum to zero.
    expect(await ledgerViolations(h.pool)).toEqual([]);
    const { rows: expense } = await h.pool.query<{ amount: string }>(
      "SELECT trim_scale(amount)::text AS amount FROM ledger_internal_accounts WHERE environment = $1 AND purpose = 'INTEREST_EXPENSE'",
      [environment],
    );
    const paid = (
      await h.pool.query<{ paid: string }>(
        'SELECT trim_scale(sum(posted))::text AS paid FROM interest_postings WHERE environment = $1',
        [environment],
      )
    ).rows[0]!.paid;
    expect(expense).toEqual([{ amount: `-${paid}` }]);
    // The end of day counted one accrual per account and day, one posting per credit.
    const { rows: steps } = await h.pool.query<{ step: string; records: number }>(
      `SELECT step, sum(records)::int AS records FROM end_of_day_steps WHERE environment = $1 AND step LIKE 'interest-%' GROUP BY step ORDER BY step`,
      [environment],
    );
    const accrualDays = (
      await h.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM interest_accruals WHERE environment = $1', [
        environment,
      ])
    ).rows[0]!.n;
    const credits = (
      await h.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM interest_postings WHERE environment = $1 AND transaction_id IS NOT NULL',
        [environment],
      )
    ).rows[0]!.n;
    expect(steps).toEqual([
      { step: 'interest-accrual', records: accrualDays },
      { step: 'interest-posting', records: credits },
    ]);
  });
});

describe('interest, exactly once', () => {
  it('a period end run twice at once, and again, posts once; its accrual too', async () => {
    const environment = 'interest-once';
    const start = await today(environment);
    await productOn(environment, 'ONCE_SAVINGS', {
      dayCount: 'ACTUAL_365',
      compounding: 'DAILY',
      posting: 'MONTHLY',
      rates: [{ from: start, tiers: [['0', '0.05']] }],
    });
    const accountId = await accountOn(environment, 'ONCE_SAVINGS');
    await h.services.ledger.postTransaction(h.caller(environment), accountId, { type: 'CREDIT', amount: 100000 });
    // The steps of a month's last date, called directly (as a resumed or raced day calls them).
    let monthEnd = start;
    while (!isMonthEnd(monthEnd)) monthEnd = nextDay(monthEnd);
    const context = (step: string) => ({
      environment,
      businessDate: monthEnd,
      cutoff: endOfDate(monthEnd, ZONE),
      requestId: endOfDayRequestId(monthEnd, step),
    });
    const accrued = await Promise.all([
      h.services.interest.accrue(context('interest-accrual')),
      h.services.interest.accrue(context('interest-accrual')),
    ]);
    expect(accrued.some((found) => found !== 0 && found.changed === 1 && found.after === accountId)).toBe(true);
    expect(await h.services.interest.accrue(context('interest-accrual'))).toBe(0);
    await Promise.all([
      h.services.interest.post(context('interest-posting')),
      h.services.interest.post(context('interest-posting')),
    ]);
    expect(await h.services.interest.post(context('interest-posting'))).toBe(0);
    // 100000 × 0.05 / 365 = 13.698630136986…: one accrual, one credit of 13.70, 0.001369863014 carried.
    expect(await accrualsOf(accountId)).toEqual([{ date: monthEnd, accrual: '13.698630136986' }]);
    expect(await postingsOf(accountId)).toEqual([{ periodEnd: monthEnd, posted: '13.7', residue: '-0.001369863014' }]);
    const account = await h.services.accounts.get(h.caller(environment), accountId);
    expect(account.amount).toBe('100013.7');
    const { rows } = await h.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE environment = $1 AND operation = 'account.interest.post'",
      [environment],
    );
    expect(rows[0]!.n).toBe(1);
    expect(await ledgerViolations(h.pool)).toEqual([]);
    // A reversal of the credit books back against the interest-expense account, not the settlement account.
    const internal = async () =>
      (
        await h.pool.query<{ expense: string | null; settlement: string | null }>(
          `SELECT (SELECT trim_scale(amount)::text FROM ledger_internal_accounts WHERE environment = $1) AS expense,
                  (SELECT trim_scale(amount)::text FROM ledger_settlement_accounts WHERE environment = $1) AS settlement`,
          [environment],
        )
      ).rows[0]!;
    expect(await internal()).toEqual({ expense: '-13.7', settlement: '-100000' });
    const { rows: credit } = await h.pool.query<{ id: string }>(
      'SELECT transaction_id AS id FROM interest_postings WHERE account_id = $1',
      [accountId],
    );
    await h.services.ledger.reverse(h.caller(environment), accountId, credit[0]!.id, {});
    expect(await internal()).toEqual({ expense: '0', settlement: '-100000' });
    expect(await ledgerViolations(h.pool)).toEqual([]);
  });
});

describe('interest at closing', () => {
  it('a closing posts the interest accrued first, and the disbursement moves it with the balance', async () => {
    const environment = 'interest-close';
    const start = await today(environment);
    await productOn(environment, 'CLOSING_SAVINGS', {
      dayCount: 'ACTUAL_360',
      compounding: 'DAILY',
      posting: 'QUARTERLY',
      rates: [{ from: start, tiers: [['0', '0.045']] }],
    });
    const accountId = await accountOn(environment, 'CLOSING_SAVINGS');
    const caller = h.caller(environment);
    const owner = (await h.services.customers.create(caller, buildCustomerInput())).value.customerId;
    const other = (await h.services.accounts.create(caller, buildAccountInput([owner], { type: 'SAVINGS' }))).value
      .accountId;
    await h.services.ledger.postTransaction(caller, accountId, { type: 'CREDIT', amount: 2500 });
    for (let i = 0; i < 3; i++) await dayPasses(environment, start);
    const accrued = (await accrualsOf(accountId)).reduce((sum, day) => sum + fixed(day.accrual), 0n);
    // A quarter's end within the three days posted its interest already: counted.
    const before = await postingsOf(accountId);
    const carried = before.reduce((sum, p) => sum + fixed(p.posted), 0n);
    expect(accrued > 0n).toBe(true);
    await h.services.lifecycle.closeAccount(caller, accountId, {
      reason: 'CUSTOMER_REQUEST',
      disbursementAccountId: other,
    });
    const after = await postingsOf(accountId);
    // Its period ends the day before the closing's date (unless a quarter's end was that day, and posted it already).
    const yesterday = dateAfter(start, 2);
    const alreadyPosted = before.at(-1)?.periodEnd === yesterday;
    expect(after).toHaveLength(alreadyPosted ? before.length : before.length + 1);
    const closing = alreadyPosted
      ? { periodEnd: yesterday, posted: '0', residue: before.at(-1)!.residue }
      : after.at(-1)!;
    expect(closing.periodEnd).toBe(yesterday);
    const residue = before.at(-1) ? fixed(before.at(-1)!.residue) : 0n;
    const sinceLast = (await accrualsOf(accountId))
      .filter((day) => !before.at(-1) || day.date > before.at(-1)!.periodEnd)
      .reduce((sum, day) => sum + fixed(day.accrual), 0n);
    if (!alreadyPosted) expect(fixed(closing.posted)).toBe(halfEven(residue + sinceLast, 2));
    const closed = await h.services.accounts.get(caller, accountId);
    expect(closed.amount).toBe('0');
    const received = await h.services.accounts.get(caller, other);
    expect(fixed(received.amount)).toBe(fixed('2500') + carried + fixed(closing.posted));
    expect(await ledgerViolations(h.pool)).toEqual([]);
    // After the closing, nothing more accrues.
    const accruals = (await accrualsOf(accountId)).length;
    await dayPasses(environment, start);
    expect(await accrualsOf(accountId)).toHaveLength(accruals);
  });
});

const monthEndFrom = (date: string): string => {
  let d = date;
  while (!isMonthEnd(d)) d = nextDay(d);
  return d;
};

describe('interest posting, resumed and deferred', () => {
  it('a posting step that crashes mid-batch resumes on the next run and posts each account once', async () => {
    const environment = 'interest-crash';
    const start = await today(environment);
    await productOn(environment, 'CRASH_SAVINGS', {
      dayCount: 'ACTUAL_365',
      compounding: 'DAILY',
      posting: 'MONTHLY',
      rates: [{ from: start, tiers: [['0', '0.03']] }],
    });
    const accountIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const accountId = await accountOn(environment, 'CRASH_SAVINGS');
      await h.services.ledger.postTransaction(h.caller(environment), accountId, {
        type: 'CREDIT',
        amount: 1000 * (i + 1),
      });
      accountIds.push(accountId);
    }
    // A store whose third posting never happens: the process stops there, as if killed mid-step.
    const crashing: Stores = { ...stores, interest: stopsAtCall(stores.interest, 'postPeriod', 3) };
    const doomedInterest = new InterestService(crashing, h.services.clock);
    const doomed = new EndOfDayService(stores, h.services.clock, { timeZones: {}, leaseMs: 60_000 }, [
      interestAccrualStep(doomedInterest),
      interestPostingStep(doomedInterest),
    ]);
    const monthEnd = monthEndFrom(start);
    const failed = await passThrough(h, stores.clock, environment, monthEnd, start, doomed);
    expect(failed.failed).toBe(monthEnd);
    const { rows: before } = await h.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM interest_postings WHERE environment = $1',
      [environment],
    );
    expect(before[0]!.n).toBe(2);
    // The next run (the service's own steps) finishes the day: the two left are posted, the two done are not again.
    const resumed = await h.services.endOfDay.runDue(environment, { since: start, waitForOthers: true });
    expect(resumed.failed).toBeNull();
    for (const accountId of accountIds) {
      const posted = await postingsOf(accountId);
      expect(posted.map((p) => p.periodEnd)).toEqual([monthEnd]);
      const accrued = (await accrualsOf(accountId)).reduce((sum, day) => sum + fixed(day.accrual), 0n);
      expect(fixed(posted[0]!.posted)).toBe(halfEven(accrued, 2));
    }
    const { rows: credits } = await h.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_entries WHERE environment = $1 AND description LIKE 'Interest to %' AND NOT is_settlement",
      [environment],
    );
    expect(credits[0]!.n).toBe(4);
    expect(await ledgerViolations(h.pool)).toEqual([]);
  });

  it('a frozen account is not credited at its period end: all of it is carried, and posted at the next one', async () => {
    const environment = 'interest-frozen';
    const start = await today(environment);
    await productOn(environment, 'FROZEN_SAVINGS', {
      dayCount: 'ACTUAL_365',
      compounding: 'MONTHLY',
      posting: 'MONTHLY',
      rates: [{ from: start, tiers: [['0', '0.04']] }],
    });
    const accountId = await accountOn(environment, 'FROZEN_SAVINGS');
    const caller = h.caller(environment);
    await h.services.ledger.postTransaction(caller, accountId, { type: 'CREDIT', amount: 7300 });
    await h.services.accounts.setFlag(caller, accountId, 'FROZEN', { reason: 'Review' });
    const firstEnd = monthEndFrom(start);
    expect((await passThrough(h, stores.clock, environment, firstEnd, start)).failed).toBeNull();
    const [deferred] = await postingsOf(accountId);
    const firstAccrued = (await accrualsOf(accountId)).reduce((sum, day) => sum + fixed(day.accrual), 0n);
    expect(deferred).toEqual({ periodEnd: firstEnd, posted: '0', residue: text(firstAccrued) });
    expect((await h.services.accounts.get(caller, accountId)).amount).toBe('7300');
    await h.services.accounts.clearFlag(caller, accountId, 'FROZEN');
    const secondEnd = monthEndFrom(nextDay(firstEnd));
    expect((await passThrough(h, stores.clock, environment, secondEnd, start)).failed).toBeNull();
    const all = (await accrualsOf(accountId)).reduce((sum, day) => sum + fixed(day.accrual), 0n);
    const [, paid] = await postingsOf(accountId);
    expect(paid!.periodEnd).toBe(secondEnd);
    // Every day earned on 7300 (monthly compounding: nothing was credited), and the two months are posted at once.
    expect(fixed(paid!.posted)).toBe(halfEven(all, 2));
    expect(fixed((await h.services.accounts.get(caller, accountId)).amount)).toBe(fixed('7300') + fixed(paid!.posted));
    expect(await ledgerViolations(h.pool)).toEqual([]);
  });
});
