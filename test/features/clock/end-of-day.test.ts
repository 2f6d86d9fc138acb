import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.js';
import { flagExpiryStep } from '../../../src/features/accounts/index.js';
import { businessDateOf, type EndOfDayStep, EndOfDayService } from '../../../src/features/clock/index.js';
import { IdempotentCreation } from '../../../src/features/idempotency/index.js';
import { holdExpiryStep, LedgerService } from '../../../src/features/ledger/index.js';
import type { Stores } from '../../../src/features/ports.js';
import { createStores } from '../../../src/features/stores.js';
import { moveClock } from '../../support/clock.js';
import { stopsAtCall } from '../../support/crash.js';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';

const DAY_MS = 86_400_000;
const ZONE = 'America/New_York';

let h: DomainHarness;
let stores: Stores;
beforeAll(async () => {
  h = await createDomainHarness();
  stores = createStores(h.prisma);
});
afterAll(() => h?.close());

/**
 * An account of `environment` with `count` holds of 1 that expire an hour from the environment's now. The clock
 * is first moved to the next midday in New York, so the hour never crosses a midnight and every hold falls on the
 * first business date whatever the real time of day the suite runs at.
 */
async function accountWithHolds(environment: string, count: number): Promise<string[]> {
  const now = await h.services.clock.now(environment);
  // 17:00 UTC is midday (EST) or 13:00 (EDT) in New York; the business date after `now`'s is always ahead of it.
  const midday = Date.parse(`${businessDateOf(now, ZONE)}T17:00:00Z`) + DAY_MS;
  await moveClock(h, stores.clock, environment, midday - now.getTime(), now);
  const caller = h.caller(environment);
  const customerId = (await h.services.customers.create(caller, buildCustomerInput())).value.customerId;
  const accountId = (await h.services.accounts.create(caller, buildAccountInput([customerId]))).value.accountId;
  await h.services.ledger.postTransaction(caller, accountId, { type: 'CREDIT', amount: count });
  const expiresAt = new Date((await h.services.clock.now(environment)).getTime() + 3600_000).toISOString();
  const holds: string[] = [];
  for (let i = 0; i < count; i++)
    holds.push(
      (await h.services.ledger.postTransaction(caller, accountId, { type: 'DEBIT', amount: 1, hold: true, expiresAt }))
        .value.transactionId,
    );
  return holds;
}

/** Moves the environment's clock two days on without running its end of day (what a service that was down leaves). */
async function twoDaysPass(environment: string): Promise<string> {
  const now = await h.services.clock.now(environment);
  await moveClock(h, stores.clock, environment, 2 * DAY_MS, now);
  return businessDateOf(now, ZONE);
}

/** How often each hold was expired (its transaction.expire events), and its status. */
async function expiries(holds: string[]) {
  const { rows } = await h.pool.query<{ id: string; status: string; expired: number }>(
    `SELECT e.id, e.status, (SELECT count(*)::int FROM audit_events a WHERE a.resource_id = e.id AND a.operation = 'transaction.expire') AS expired
     FROM ledger_entries e WHERE e.id = ANY($1::uuid[]) ORDER BY e.id`,
    [holds],
  );
  return rows;
}

async function runsOf(environment: string) {
  const { rows } = await h.pool.query<{ date: string; status: string; attempts: number }>(
    "SELECT to_char(business_date, 'YYYY-MM-DD') AS date, status, attempts FROM end_of_day_runs WHERE environment = $1 ORDER BY business_date",
    [environment],
  );
  return rows;
}

async function stepsOf(environment: string) {
  const { rows } = await h.pool.query<{
    step: string;
    status: string;
    records: number;
    attempts: number;
    error: string | null;
  }>(
    'SELECT step, status, records, attempts, error FROM end_of_day_steps WHERE environment = $1 ORDER BY business_date, position',
    [environment],
  );
  return rows;
}

describe('the end of day, exactly once', () => {
  it('two runners at once close each day once and void each hold once', async () => {
    const holds = await accountWithHolds('sandbox', 12);
    const since = await twoDaysPass('sandbox');
    const [first, second] = await Promise.all([
      h.services.endOfDay.runDue('sandbox', { since, waitForOthers: true }),
      h.services.endOfDay.runDue('sandbox', { since, waitForOthers: true }),
    ]);
    // The two days ended, each run by one of them.
    const ran = [...first!.ran, ...second!.ran].sort();
    expect(ran).toHaveLength(2);
    expect(new Set(ran).size).toBe(2);
    expect(first!.failed).toBeNull();
    expect(second!.failed).toBeNull();
    expect((await runsOf('sandbox')).map((run) => run.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect((await expiries(holds)).every((hold) => hold.status === 'VOIDED' && hold.expired === 1)).toBe(true);
    const steps = await stepsOf('sandbox');
    expect(steps.filter((step) => step.step === 'hold-expiry').reduce((sum, step) => sum + step.records, 0)).toBe(12);
    // Once closed, a day is never run again.
    const again = await h.services.endOfDay.runDue('sandbox', { since });
    expect(again.ran).toEqual([]);
    expect(await ledgerViolations(h.pool)).toEqual([]);
  });

  it('a step that fails in the middle of a batch leaves the day FAILED; the next run resumes it and changes nothing twice', async () => {
    const environment = 'resume';
    const holds = await accountWithHolds(environment, 8);
    const since = await twoDaysPass(environment);
    // A ledger whose fourth void never happens: the process stops there, as if killed mid-step.
    const crashing: Stores = { ...stores, ledger: stopsAtCall(stores.ledger, 'settleHold', 4) };
    const creation = new IdempotentCreation(stores.idempotency, h.cipher, 3600_000);
    const crashingLedger = new LedgerService(crashing, creation, h.services.clock);
    const failures: string[] = [];
    const doomed = new EndOfDayService(
      stores,
      h.services.clock,
      { timeZones: {}, leaseMs: 60_000 },
      [holdExpiryStep(crashingLedger), flagExpiryStep(h.services.accounts)],
      (_environment, _date, step) => failures.push(step),
    );
    const failed = await doomed.runDue(environment, { since });
    expect(failed.failed).not.toBeNull();
    expect(failures).toEqual(['hold-expiry']);
    expect((await runsOf(environment)).at(-1)).toMatchObject({ status: 'FAILED', attempts: 1 });
    const [interrupted] = (await stepsOf(environment)).filter((step) => step.step === 'hold-expiry');
    // What was done before the failure is counted from the audit trail; the message names no record.
    expect(interrupted).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(interrupted!.error).toMatch(/^UNEXPECTED_ERROR/);
    const before = await expiries(holds);
    expect(before.filter((hold) => hold.status === 'VOIDED')).toHaveLength(interrupted!.records);

    const resumed = await h.services.endOfDay.runDue(environment, { since });
    expect(resumed.failed).toBeNull();
    expect((await runsOf(environment)).map((run) => run.status)).toEqual(['COMPLETED', 'COMPLETED']);
    const after = await expiries(holds);
    expect(after.every((hold) => hold.status === 'VOIDED' && hold.expired === 1)).toBe(true);
    const steps = (await stepsOf(environment)).filter((step) => step.step === 'hold-expiry');
    expect(steps.reduce((sum, step) => sum + step.records, 0)).toBe(8);
    expect(steps.every((step) => step.status === 'COMPLETED' && step.error === null)).toBe(true);
    expect(await ledgerViolations(h.pool)).toEqual([]);
  });

  it("a day another instance holds is left to it; once that instance's lease has run out, the day is taken over", async () => {
    const environment = 'lease';
    const holds = await accountWithHolds(environment, 3);
    const since = await twoDaysPass(environment);
    // Another instance claimed the first day and is working on it.
    expect(await stores.endOfDay.claim(environment, since, newId(), 600_000)).toBe('claimed');
    const left = await h.services.endOfDay.runDue(environment, { since });
    expect(left.ran).toEqual([]);
    expect((await expiries(holds)).every((hold) => hold.status === 'PENDING')).toBe(true);
    // It died: its lease ran out a minute ago.
    await h.pool.query(
      "UPDATE end_of_day_runs SET lease_expires_at = now() - interval '1 minute' WHERE environment = $1",
      [environment],
    );
    const taken = await h.services.endOfDay.runDue(environment, { since });
    expect(taken.ran).toHaveLength(2);
    expect((await runsOf(environment))[0]).toMatchObject({ status: 'COMPLETED', attempts: 2 });
    expect((await expiries(holds)).every((hold) => hold.status === 'VOIDED' && hold.expired === 1)).toBe(true);
  });

  it("a step's batches in key order: each batch after the first is given the last key the one before it handled", async () => {
    const environment = 'keyset';
    const since = await twoDaysPass(environment);
    const seen: (string | undefined)[] = [];
    // Three batches a day: two keyed, then none left.
    const keyed: EndOfDayStep = {
      name: 'keyed',
      runBatch: async (day) => {
        seen.push(day.after);
        if (day.after === undefined) return { changed: 2, after: 'b' };
        return day.after === 'b' ? { changed: 1, after: 'c' } : 0;
      },
    };
    const service = new EndOfDayService(
      stores,
      h.services.clock,
      { timeZones: {}, leaseMs: 60_000 },
      [keyed],
      () => {},
    );
    expect((await service.runDue(environment, { since })).ran).toHaveLength(2);
    // Each day starts from the first key again.
    expect(seen).toEqual([undefined, 'b', 'c', undefined, 'b', 'c']);
  });

  it('the scheduled pass closes yesterday first, then every day missed meanwhile, in order', async () => {
    const environment = 'catch-up';
    const today = businessDateOf(await h.services.clock.now(environment), ZONE);
    const first = await h.services.endOfDay.runDue(environment);
    expect(first.ran).toHaveLength(1);
    expect(first.ran[0]! < today).toBe(true);
    // The service was down for two days.
    await twoDaysPass(environment);
    const caughtUp = await h.services.endOfDay.runDue(environment);
    expect(caughtUp.ran).toHaveLength(2);
    expect(caughtUp.ran[0]).toBe(today);
    expect((await runsOf(environment)).map((run) => run.date)).toEqual([first.ran[0], ...caughtUp.ran]);
    expect((await h.services.endOfDay.runDue(environment)).ran).toEqual([]);
  });
});
