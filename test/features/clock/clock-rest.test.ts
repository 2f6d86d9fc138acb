import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDateOf } from '../../../src/features/clock/index.js';
import { createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { expectNoChange } from '../../support/database.js';
import { bearer } from '../../support/http-auth.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';

const DAY_MS = 86_400_000;

let service: TestService;
beforeAll(async () => {
  // The end of day and the intra-day sweeps never run by themselves here: what a test sees comes from its own advance.
  service = await startTestService({
    END_OF_DAY_INTERVAL_MS: '3600000',
    HOLD_EXPIRY_INTERVAL_MS: '3600000',
    FLAG_EXPIRY_INTERVAL_MS: '3600000',
    ENVIRONMENT_TIME_ZONES: 'production-like=America/Los_Angeles',
  });
});
afterAll(() => service?.stop());

const clock = async (environment = 'sandbox') => {
  const res = await service.call('GET', `/${environment}/clock`);
  expectSuccess(res, 'customer', 200);
  return res.json.data as { now: string; businessDate: string; timeZone: string; adjustable: boolean };
};
const advance = (body: unknown, headers?: Record<string, string>, environment = 'sandbox') =>
  service.call('POST', `/${environment}/clock/advance`, { body, ...(headers && { headers }) });
const offsetOf = async (environment = 'sandbox') =>
  (
    await service.database.pool.query<{ offset: string | null }>(
      'SELECT (SELECT offset_ms::text FROM environment_clocks WHERE environment = $1) AS offset',
      [environment],
    )
  ).rows[0]!.offset;

describe('GET /{environment}/clock', () => {
  it("answers the environment's time, its business date in its zone, and whether it may be moved", async () => {
    const sandbox = await clock();
    expect(sandbox.timeZone).toBe('America/New_York');
    expect(sandbox.adjustable).toBe(true);
    expect(sandbox.businessDate).toBe(businessDateOf(new Date(sandbox.now), 'America/New_York'));
    const other = await clock('production-like');
    expect(other).toMatchObject({ timeZone: 'America/Los_Angeles', adjustable: false });
    expect(other.businessDate).toBe(businessDateOf(new Date(other.now), 'America/Los_Angeles'));
  });
});

describe('POST /{environment}/clock/advance', () => {
  it('moves the clock by days, runs every ended business date in order, and time keeps flowing from there', async () => {
    const before = await clock();
    const res = await advance({ days: 3 });
    expectSuccess(res, 'customer', 200);
    const { from, to, businessDaysRun } = res.json.data;
    expect(new Date(to).getTime() - new Date(from).getTime()).toBe(3 * DAY_MS);
    expect(new Date(from).getTime()).toBeGreaterThanOrEqual(new Date(before.now).getTime());
    expect(businessDaysRun).toBe(3);
    const after = await clock();
    expect(new Date(after.now).getTime()).toBeGreaterThanOrEqual(new Date(to).getTime());
    // The days it ended were closed, each once, in order, every step completed.
    const days = await service.call('GET', `/sandbox/end-of-day?from=${before.businessDate}&to=${after.businessDate}`);
    expectSuccess(days, 'customer', 200);
    const closed = days.json.data.days as { businessDate: string; status: string; steps: { step: string }[] }[];
    expect(closed.map((day) => day.businessDate).slice(-3)).toEqual(
      [...closed.map((day) => day.businessDate)].sort().slice(-3),
    );
    expect(closed.filter((day) => day.businessDate >= before.businessDate)).toHaveLength(3);
    expect(closed.every((day) => day.status === 'COMPLETED')).toBe(true);
    expect(closed[0]!.steps.map((step) => step.step)).toEqual([
      'hold-expiry',
      'flag-expiry',
      'interest-accrual',
      'interest-posting',
      'maintenance-fee',
      'dormancy',
      'escheatment-notice',
    ]);
  });

  it('moves the clock to an instant', async () => {
    const now = new Date((await clock()).now);
    const target = new Date(now.getTime() + 36 * 3600_000).toISOString();
    const res = await advance({ to: target });
    expectSuccess(res, 'customer', 200);
    expect(res.json.data.to).toBe(target);
    expect([1, 2]).toContain(res.json.data.businessDaysRun);
  });

  it('refuses an environment that is not adjustable (409), time going back or standing (422), more than three years (422), a token without clock:write (403), and changes nothing', async () => {
    const offset = await offsetOf();
    const now = new Date((await clock()).now);
    const pool = service.database.pool;
    expectFailure(
      await expectNoChange(pool, () => advance({ days: 1 }, undefined, 'production-like')),
      'customer',
      409,
      'CLOCK_NOT_ADJUSTABLE',
    );
    expectFailure(
      await expectNoChange(pool, () => advance({ to: new Date(now.getTime() - DAY_MS).toISOString() })),
      'customer',
      422,
      'CLOCK_CANNOT_GO_BACK',
    );
    const tooFar = new Date(now);
    tooFar.setUTCFullYear(tooFar.getUTCFullYear() + 3);
    tooFar.setUTCDate(tooFar.getUTCDate() + 2);
    expectFailure(
      await expectNoChange(pool, () => advance({ to: tooFar.toISOString() })),
      'customer',
      422,
      'CLOCK_ADVANCE_TOO_FAR',
    );
    expectFailure(await expectNoChange(pool, () => advance({ days: 0 })), 'customer', 400, 'VALIDATION_FAILED');
    expectFailure(
      await expectNoChange(pool, () => advance({ days: 1, to: now.toISOString() })),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
    const reader = (await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:read'] })).token;
    expectFailure(await expectNoChange(pool, () => advance({ days: 1 }, bearer(reader))), 'customer', 403, 'FORBIDDEN');
    // Reading the clock needs accounts:read, nothing more.
    expectSuccess(await service.call('GET', '/sandbox/clock', { headers: bearer(reader) }), 'customer', 200);
    expect(await offsetOf()).toBe(offset);
    expect(await offsetOf('production-like')).toBeNull();
  });
});

describe('the rules that follow the clock', () => {
  it('a hold that expires on a later day stays pending until that day ends, then the end of day voids it, once', async () => {
    const { customerId } = await createCustomer(service);
    const { accountId } = await createAccount(service, [customerId]);
    const post = (body: unknown) => service.call('POST', `/sandbox/account/${accountId}/transaction`, { body });
    expectSuccess(await post({ type: 'CREDIT', amount: 10 }), 'account', 201);
    const now = new Date((await clock()).now);
    // Two days ahead of the environment's time: the real time would refuse nothing, the point is the environment's.
    const expiresAt = new Date(now.getTime() + 2 * DAY_MS).toISOString();
    const hold = await post({ type: 'DEBIT', amount: 10, hold: true, expiresAt });
    expectSuccess(hold, 'account', 201);
    const holdPath = `/sandbox/account/${accountId}/transaction/${hold.json.data.transactionId}`;

    expectSuccess(await advance({ days: 1 }), 'customer', 200);
    expect((await service.call('GET', holdPath)).json.data.status).toBe('PENDING');
    expectSuccess(await advance({ days: 2 }), 'customer', 200);
    const voided = await service.call('GET', holdPath);
    expect(voided.json.data.status).toBe('VOIDED');
    expectSuccess(await post({ type: 'DEBIT', amount: 10 }), 'account', 201);

    const audit = await service.database.pool.query<{ principal_id: string; request_id: string }>(
      "SELECT principal_id, request_id FROM audit_events WHERE operation = 'transaction.expire' AND resource_id = $1",
      [hold.json.data.transactionId],
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]!.principal_id).toBe('system:hold-expiry');
    const expiryDate = businessDateOf(new Date(expiresAt), 'America/New_York');
    expect(audit.rows[0]!.request_id).toBe(`end-of-day:${expiryDate}:hold-expiry`);
    // Voided in the environment's time: at or after its expiry, which the real time has not reached.
    const { rows } = await service.database.pool.query<{ voided_at: Date }>(
      'SELECT voided_at FROM ledger_entries WHERE id = $1',
      [hold.json.data.transactionId],
    );
    expect(rows[0]!.voided_at.getTime()).toBeGreaterThanOrEqual(new Date(expiresAt).getTime());
    const day = await service.call('GET', `/sandbox/end-of-day?from=${expiryDate}&to=${expiryDate}`);
    expect(day.json.data.days[0].steps[0]).toMatchObject({ step: 'hold-expiry', status: 'COMPLETED', records: 1 });
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it("flags whose until passes are lifted by that day's end of day, each once, two of one account alike", async () => {
    const { customerId } = await createCustomer(service);
    const { accountId } = await createAccount(service, [customerId]);
    const now = new Date((await clock()).now);
    const until = new Date(now.getTime() + DAY_MS).toISOString();
    for (const flag of ['FROZEN', 'DEBITS_BLOCKED'])
      expectSuccess(
        await service.call('PUT', `/sandbox/account/${accountId}/flags/${flag}`, { body: { reason: 'Review', until } }),
        'account',
        200,
      );
    expectSuccess(await advance({ days: 2 }), 'customer', 200);
    expect((await service.call('GET', `/sandbox/account/${accountId}`)).json.data.flags).toEqual([]);
    const audit = await service.database.pool.query<{ request_id: string }>(
      "SELECT request_id FROM audit_events WHERE operation = 'account.flag.expire' AND resource_id = $1 ORDER BY request_id",
      [accountId],
    );
    const day = businessDateOf(new Date(until), 'America/New_York');
    expect(audit.rows).toEqual([
      { request_id: `end-of-day:${day}:flag-expiry:DEBITS_BLOCKED` },
      { request_id: `end-of-day:${day}:flag-expiry:FROZEN` },
    ]);
    const closed = await service.call('GET', `/sandbox/end-of-day?from=${day}&to=${day}`);
    expect(closed.json.data.days[0].steps[1]).toMatchObject({ step: 'flag-expiry', status: 'COMPLETED', records: 2 });
  });

  it("postings, balances and the audit trail carry the environment's time; the audit trail the real time beside it", async () => {
    const { customerId } = await createCustomer(service);
    const { accountId } = await createAccount(service, [customerId]);
    const now = new Date((await clock()).now);
    const credit = await service.call('POST', `/sandbox/account/${accountId}/transaction`, {
      body: { type: 'CREDIT', amount: 7 },
    });
    expectSuccess(credit, 'account', 201);
    const { rows } = await service.database.pool.query<{ posted_at: Date; real: Date }>(
      'SELECT posted_at, now() AS real FROM ledger_entries WHERE id = $1',
      [credit.json.data.transactionId],
    );
    // The sandbox is days ahead by now: its posting time is the environment's, past the real time.
    expect(rows[0]!.posted_at.getTime()).toBeGreaterThanOrEqual(now.getTime());
    expect(rows[0]!.posted_at.getTime()).toBeGreaterThan(rows[0]!.real.getTime());
    // The balance "now" is the environment's now: the posting made in the environment's future counts.
    const balance = await service.call('GET', `/sandbox/account/${accountId}/balance`);
    expectSuccess(balance, 'account', 200);
    expect(balance.json.data.posted).toBe(7);
    const audit = await service.database.pool.query<{ occurred_at: Date; environment_occurred_at: Date }>(
      "SELECT occurred_at, environment_occurred_at FROM audit_events WHERE operation = 'transaction.create' AND resource_id = $1",
      [credit.json.data.transactionId],
    );
    expect(audit.rows[0]!.environment_occurred_at.getTime()).toBeGreaterThan(audit.rows[0]!.occurred_at.getTime());
    // The trail answers both.
    const trail = await service.call('GET', `/sandbox/audit-events?resourceId=${credit.json.data.transactionId}`);
    expectSuccess(trail, 'customer', 200);
    const [event] = trail.json.data.events;
    expect(new Date(event.environmentOccurredAt).getTime()).toBe(audit.rows[0]!.environment_occurred_at.getTime());
    expect(new Date(event.occurredAt).getTime()).toBe(audit.rows[0]!.occurred_at.getTime());
  });
});

describe('GET /{environment}/end-of-day', () => {
  it('refuses a range that is not dates, reversed, or longer than 366 dates', async () => {
    expectFailure(
      await service.call('GET', '/sandbox/end-of-day?from=yesterday'),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await service.call('GET', '/sandbox/end-of-day?from=2026-12-02&to=2026-12-01'),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await service.call('GET', '/sandbox/end-of-day?from=2026-01-01&to=2027-06-01'),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
  });
});
