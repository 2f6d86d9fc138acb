import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.js';
import {
  businessDateOf,
  EndOfDayService,
  endOfDate,
  endOfDayRequestId,
  startOfDate,
} from '../../../src/features/clock/index.js';
import { FeeService, maintenanceFeeStep } from '../../../src/features/fees/index.js';
import type { Stores } from '../../../src/features/ports.js';
import { createStores } from '../../../src/features/stores.js';
import { moveClock, passThrough } from '../../support/clock.js';
import { stopsAtCall } from '../../support/crash.js';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';

/**
 * The end of day's `maintenance-fee` step (docs/adr/0115) exactly once: a step that crashes mid-batch resumes on the
 * next run and charges each account once; the month end's step run again, and twice at once, charges nothing twice;
 * a frozen account's fee is recorded uncollected, a dormant account's is charged and leaves it dormant; a month end
 * missed is caught up on that month's own balances. The ledger's balances sum to zero after each.
 */

const DAY_MS = 86_400_000;
const ZONE = 'America/New_York';

let h: DomainHarness;
let stores: Stores;
beforeAll(async () => {
  h = await createDomainHarness();
  stores = createStores(h.prisma);
});
afterAll(() => h?.close());

const nextDay = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
const monthEndFrom = (date: string): string => {
  let d = date;
  while (nextDay(d).slice(8) !== '01') d = nextDay(d);
  return d;
};
const today = async (environment: string) => businessDateOf(await h.services.clock.now(environment), ZONE);

async function feeProduct(environment: string, code: string, amount: string, waivedAtMinimumDailyBalance?: string) {
  await h.services.products.create(h.caller(environment), {
    code,
    name: code,
    accountType: 'CHECKING',
    currency: 'USD',
    fees: { monthlyMaintenance: { amount, ...(waivedAtMinimumDailyBalance && { waivedAtMinimumDailyBalance }) } },
  });
}

async function accountOn(environment: string, productCode: string, deposit: number): Promise<string> {
  const caller = h.caller(environment);
  const customerId = (await h.services.customers.create(caller, buildCustomerInput())).value.customerId;
  const { accountId } = (
    await h.services.accounts.create(caller, { ...buildAccountInput([customerId], { type: 'CHECKING' }), productCode })
  ).value;
  await h.services.ledger.postTransaction(caller, accountId, { type: 'CREDIT', amount: deposit });
  return accountId;
}

const assessmentsOf = async (environment: string) =>
  (
    await h.pool.query<{ accountId: string; month: string; outcome: string; charged: string; uncollected: string }>(
      `SELECT account_id AS "accountId", to_char(month, 'YYYY-MM') AS month, outcome, trim_scale(charged)::text AS charged,
              trim_scale(uncollected)::text AS uncollected
       FROM maintenance_fee_assessments WHERE environment = $1 ORDER BY account_id, month`,
      [environment],
    )
  ).rows;

const feeDebits = async (environment: string) =>
  (
    await h.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_entries WHERE environment = $1 AND description LIKE 'Monthly maintenance fee %' AND NOT is_settlement",
      [environment],
    )
  ).rows[0]!.n;

describe('the maintenance fee, exactly once', () => {
  it('a step that crashes mid-batch resumes on the next run and charges each account once', async () => {
    const environment = 'fees-crash';
    const start = await today(environment);
    await feeProduct(environment, 'CRASH_CHECKING', '4.5');
    const accountIds: string[] = [];
    for (let i = 0; i < 4; i++) accountIds.push(await accountOn(environment, 'CRASH_CHECKING', 100 * (i + 1)));
    // A store whose third assessment never happens: the process stops there, as if killed mid-step.
    const crashing: Stores = { ...stores, fees: stopsAtCall(stores.fees, 'assess', 3) };
    const doomed = new EndOfDayService(stores, h.services.clock, { timeZones: {}, leaseMs: 60_000 }, [
      maintenanceFeeStep(new FeeService(crashing)),
    ]);
    const monthEnd = monthEndFrom(start);
    const failed = await passThrough(h, stores.clock, environment, monthEnd, start, doomed);
    expect(failed.failed).toBe(monthEnd);
    expect(await assessmentsOf(environment)).toHaveLength(2);
    expect(await ledgerViolations(h.pool)).toEqual([]);
    // The next run (the service's own steps) finishes the day: the two left are charged, the two done are not again.
    const resumed = await h.services.endOfDay.runDue(environment, { since: start, waitForOthers: true });
    expect(resumed.failed).toBeNull();
    const month = monthEnd.slice(0, 7);
    expect(await assessmentsOf(environment)).toEqual(
      [...accountIds]
        .sort()
        .map((accountId) => ({ accountId, month, outcome: 'CHARGED', charged: '4.5', uncollected: '0' })),
    );
    expect(await feeDebits(environment)).toBe(4);
    for (const [i, accountId] of accountIds.entries())
      expect((await h.services.accounts.get(h.caller(environment), accountId)).amount).toBe(
        String(100 * (i + 1) - 4.5),
      );
    // The step's records count each charge once, read back from the audit trail.
    const { rows } = await h.pool.query<{ records: number }>(
      "SELECT records FROM end_of_day_steps WHERE environment = $1 AND business_date = $2 AND step = 'maintenance-fee'",
      [environment, monthEnd],
    );
    expect(rows).toEqual([{ records: 4 }]);
    expect(await ledgerViolations(h.pool)).toEqual([]);
  });

  it("a month end's step run again, and twice at once, charges nothing twice", async () => {
    const environment = 'fees-rerun';
    const start = await today(environment);
    await feeProduct(environment, 'RERUN_CHECKING', '7', '1000');
    const charged = await accountOn(environment, 'RERUN_CHECKING', 250);
    const waived = await accountOn(environment, 'RERUN_CHECKING', 5000);
    const monthEnd = monthEndFrom(start);
    expect((await passThrough(h, stores.clock, environment, monthEnd, start)).failed).toBeNull();
    const once = await assessmentsOf(environment);
    expect(once.map(({ accountId, outcome }) => ({ accountId, outcome }))).toEqual(
      [
        { accountId: charged, outcome: 'CHARGED' },
        { accountId: waived, outcome: 'WAIVED' },
      ].sort((a, b) => a.accountId.localeCompare(b.accountId)),
    );
    // The month end's step called again, as a resumed or raced day calls it: nothing is due any more.
    const context = {
      environment,
      businessDate: monthEnd,
      cutoff: endOfDate(monthEnd, ZONE),
      requestId: endOfDayRequestId(monthEnd, 'maintenance-fee'),
    };
    expect(await h.services.fees.assessMonth(context)).toBe(0);
    // Two assessors of one account at once (both found it due): the second waits for the first's lock and finds its record.
    const request = (debitEntryId: string) => ({
      environment,
      accountId: charged,
      monthStart: `${monthEnd.slice(0, 7)}-01`,
      minimumDailyBalance: '250',
      fee: '7',
      waivedAt: '1000',
      waived: false,
      debitEntryId,
      creditEntryId: newId(),
      postingId: newId(),
      description: 'again',
      chargeAudit: {
        eventId: newId(),
        principalId: 'system:end-of-day',
        environment,
        operation: 'account.maintenance_fee.charge' as const,
        resourceType: 'transaction' as const,
        resourceId: debitEntryId,
        requestId: context.requestId,
        idempotencyKey: null,
        changedFields: ['amount'],
      },
      recordAudit: () => {
        throw new Error('not expected');
      },
    });
    const raced = await Promise.all([stores.fees.assess(request(newId())), stores.fees.assess(request(newId()))]);
    expect(raced.map((result) => result.outcome)).toEqual(['already-assessed', 'already-assessed']);
    // A day not at a month's end assesses nothing.
    expect(
      await h.services.fees.assessMonth({ ...context, businessDate: start === monthEnd ? nextDay(start) : start }),
    ).toBe(0);
    expect(await assessmentsOf(environment)).toEqual(once);
    expect(await feeDebits(environment)).toBe(1);
    expect((await h.services.accounts.get(h.caller(environment), charged)).amount).toBe('243');
    expect(await ledgerViolations(h.pool)).toEqual([]);
  });
});

describe('which accounts are assessed', () => {
  it('a frozen account is recorded uncollected; a dormant one is charged and stays dormant; a closed one is not assessed', async () => {
    const environment = 'fees-states';
    const start = await today(environment);
    await feeProduct(environment, 'STATES_CHECKING', '2');
    const caller = h.caller(environment);
    const frozen = await accountOn(environment, 'STATES_CHECKING', 50);
    await h.services.accounts.setFlag(caller, frozen, 'FROZEN', { reason: 'Review' });
    const dormant = await accountOn(environment, 'STATES_CHECKING', 50);
    await h.pool.query(
      "UPDATE accounts SET activity_status = 'DORMANT', activity_status_at = env_now(environment) WHERE id = $1",
      [dormant],
    );
    const closed = await accountOn(environment, 'STATES_CHECKING', 0.01);
    await h.services.ledger.postTransaction(caller, closed, { type: 'DEBIT', amount: 0.01 });
    await h.services.lifecycle.closeAccount(caller, closed, { reason: 'CUSTOMER_REQUEST' });
    const monthEnd = monthEndFrom(start);
    expect((await passThrough(h, stores.clock, environment, monthEnd, start)).failed).toBeNull();
    const month = monthEnd.slice(0, 7);
    expect(await assessmentsOf(environment)).toEqual(
      [
        { accountId: frozen, month, outcome: 'UNCOLLECTED', charged: '0', uncollected: '2' },
        { accountId: dormant, month, outcome: 'CHARGED', charged: '2', uncollected: '0' },
      ].sort((a, b) => a.accountId.localeCompare(b.accountId)),
    );
    expect((await h.services.accounts.get(caller, frozen)).amount).toBe('50');
    expect((await h.services.accounts.get(caller, dormant)).amount).toBe('48');
    // The bank's own debit is not the customer's activity.
    const { rows } = await h.pool.query<{ status: string | null }>(
      'SELECT activity_status AS status FROM accounts WHERE id = $1',
      [dormant],
    );
    expect(rows).toEqual([{ status: 'DORMANT' }]);
    expect(await ledgerViolations(h.pool)).toEqual([]);
  });

  it("interest credits and fees posted late count on their own month's last day", async () => {
    const environment = 'fees-interest';
    const start = await today(environment);
    const caller = h.caller(environment);
    await h.services.products.create(caller, {
      code: 'EARNING_CHECKING',
      name: 'Earning checking',
      accountType: 'CHECKING',
      currency: 'USD',
      interest: {
        annualRate: '0.05',
        dayCount: 'ACTUAL_365',
        balanceBasis: 'END_OF_DAY',
        compounding: 'DAILY',
        posting: 'MONTHLY',
      },
      fees: { monthlyMaintenance: { amount: '1', waivedAtMinimumDailyBalance: '1000.01' } },
    });
    const accountId = await accountOn(environment, 'EARNING_CHECKING', 1000);
    const firstEnd = monthEndFrom(start);
    const secondEnd = monthEndFrom(nextDay(firstEnd));
    // One advance over both month ends: every end of day runs after the clock moved, so the first month's interest
    // credit and fee are posted (posted_at) after the second month is over.
    expect((await passThrough(h, stores.clock, environment, secondEnd, start)).failed).toBeNull();
    const { rows: interest } = await h.pool.query<{ periodEnd: string; posted: string }>(
      `SELECT to_char(period_end, 'YYYY-MM-DD') AS "periodEnd", trim_scale(posted)::text AS posted
       FROM interest_postings WHERE account_id = $1 ORDER BY period_end`,
      [accountId],
    );
    expect(interest.map((row) => row.periodEnd)).toEqual([firstEnd, secondEnd]);
    const firstInterest = Math.round(Number(interest[0]!.posted) * 100);
    expect(firstInterest).toBeGreaterThan(0);
    const { rows } = await h.pool.query<{ month: string; minimum: string; outcome: string }>(
      `SELECT to_char(month, 'YYYY-MM') AS month, trim_scale(minimum_daily_balance)::text AS minimum, outcome
       FROM maintenance_fee_assessments WHERE account_id = $1 ORDER BY month`,
      [accountId],
    );
    // The first month: 1000 every day (its interest joins the balance on its last day only): charged. The second: the
    // first month's interest and fee count from the first month's end, so every day holds 1000 + interest - 1.
    const secondMinimum = (100_000 + firstInterest - 100) / 100;
    expect(rows).toEqual([
      { month: firstEnd.slice(0, 7), minimum: '1000', outcome: 'CHARGED' },
      { month: secondEnd.slice(0, 7), minimum: String(secondMinimum), outcome: 'WAIVED' },
    ]);
    expect(await ledgerViolations(h.pool)).toEqual([]);
  });

  it("a month end caught up late is assessed on that month's own balances", async () => {
    const environment = 'fees-late';
    const start = await today(environment);
    await feeProduct(environment, 'LATE_CHECKING', '10', '100');
    const accountId = await accountOn(environment, 'LATE_CHECKING', 150);
    const monthEnd = monthEndFrom(start);
    // The clock moves past the month's end, the account is drained after it, and only then the end of day runs.
    const days = Math.round((Date.parse(`${nextDay(monthEnd)}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS);
    await moveClock(h, stores.clock, environment, (days + 3) * DAY_MS);
    await h.services.ledger.postTransaction(h.caller(environment), accountId, { type: 'DEBIT', amount: 120 });
    expect((await h.services.endOfDay.runDue(environment, { since: start, waitForOthers: true })).failed).toBeNull();
    // 150 every day of the month: waived, although the account holds 30 when the step runs.
    const { rows } = await h.pool.query<{ minimum: string; outcome: string }>(
      'SELECT trim_scale(minimum_daily_balance)::text AS minimum, outcome FROM maintenance_fee_assessments WHERE account_id = $1',
      [accountId],
    );
    expect(rows).toEqual([{ minimum: '150', outcome: 'WAIVED' }]);
    expect(await ledgerViolations(h.pool)).toEqual([]);
  });

  it("a month end's batches continue after the last account the one before found due, each account once", async () => {
    const environment = 'fees-keyset';
    const start = await today(environment);
    await feeProduct(environment, 'KEYSET_CHECKING', '3');
    const accountIds = [
      await accountOn(environment, 'KEYSET_CHECKING', 50),
      await accountOn(environment, 'KEYSET_CHECKING', 60),
      await accountOn(environment, 'KEYSET_CHECKING', 70),
    ].sort();
    const monthEnd = monthEndFrom(start);
    const monthStart = `${monthEnd.slice(0, 7)}-01`;
    const batch = (after: string | null) =>
      stores.fees.dueAssessments({
        environment,
        businessDate: monthEnd,
        monthStart,
        monthStartsAt: startOfDate(monthStart, ZONE),
        timeZone: ZONE,
        limit: 2,
        after,
      });
    const first = await batch(null);
    expect(first.map((due) => due.accountId)).toEqual(accountIds.slice(0, 2));
    const second = await batch(first.at(-1)!.accountId);
    expect(second.map((due) => due.accountId)).toEqual(accountIds.slice(2));
    expect(await batch(second.at(-1)!.accountId)).toEqual([]);
  });
});
