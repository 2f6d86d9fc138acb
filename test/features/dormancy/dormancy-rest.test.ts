import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDateOf } from '../../../src/features/clock/index.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { expectNoChange } from '../../support/database.js';
import { buildAccountInput } from '../../support/factories.js';
import { buildBusinessInput } from '../businesses/support.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * Dormancy over REST (docs/dormancy-and-escheatment.md, docs/adr/0109), against the real database: a sandbox advanced
 * by 800 days with accounts in every state (one used every month, one inactive, one dormant, one reactivated, one
 * woken by its customer's deposit, one closed), each transition on the right business date exactly once (audit rows
 * and events counted), a dormant account's debits refused with nothing changed, an incoming transfer that wakes
 * nothing, reactivation, and the escheatment list by state and asOf. Money moved sums to zero.
 */

const DAY_MS = 86_400_000;
const ZONE = 'America/New_York';

let service: TestService;
beforeAll(async () => {
  // The end of day runs only through the test's own advances.
  service = await startTestService({
    END_OF_DAY_INTERVAL_MS: '3600000',
    HOLD_EXPIRY_INTERVAL_MS: '3600000',
    FLAG_EXPIRY_INTERVAL_MS: '3600000',
  });
});
afterAll(() => service?.stop());

const query = async <T>(text: string, values: unknown[] = []) =>
  (await service.database.pool.query<T & object>(text, values)).rows;

const newAccount = async (state = 'IL'): Promise<string> => {
  const { customerId } = await createCustomer(service, {
    addresses: [{ type: 'HOME', street: '1 Main St', city: 'Somewhere', state, zip: '10001' }],
  });
  const res = await service.call('POST', '/sandbox/account', { body: buildAccountInput([customerId]) });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
};
const post = (accountId: string, type: 'CREDIT' | 'DEBIT', amount: number) =>
  service.call('POST', `/sandbox/account/${accountId}/transaction`, { body: { type, amount, description: type } });
const transfer = (fromAccountId: string, toAccountId: string, amount: number) =>
  service.call('POST', '/sandbox/transfer', { body: { fromAccountId, toAccountId, amount } });
const getAccount = async (accountId: string) => {
  const res = await service.call('GET', `/sandbox/account/${accountId}`);
  expectSuccess(res, 'account', 200);
  return res.json.data as Record<string, unknown>;
};
const advance = async (days: number) => {
  const res = await service.call('POST', '/sandbox/clock/advance', { body: { days } });
  expectSuccess(res, 'customer', 200);
};
const lastActivity = async (accountId: string) =>
  new Date(
    (await query<{ at: Date }>('SELECT last_activity_at AS at FROM accounts WHERE id = $1', [accountId]))[0]!.at,
  );
/** The business date the rule falls due on: the date (New York) holding `days` after the last activity. */
const dueDate = (from: Date, days: number) => businessDateOf(new Date(from.getTime() + days * DAY_MS), ZONE);

/** Each dormancy audit row of the account: its operation and the end of day (request id) that wrote it. */
const transitions = (accountId: string) =>
  query<{ operation: string; request_id: string; principal_id: string }>(
    `SELECT operation, request_id, principal_id FROM audit_events
     WHERE resource_id = $1 AND operation IN ('account.mark_inactive', 'account.mark_dormant', 'account.reactivate')
     ORDER BY occurred_at, operation`,
    [accountId],
  );
const eventsOf = async (accountId: string) =>
  (
    await query<{ type: string }>(
      `SELECT type FROM events WHERE resource_id = $1 AND type IN ('account.inactive', 'account.dormant', 'account.reactivated', 'account.escheatment_due') ORDER BY txid, id`,
      [accountId],
    )
  ).map((row) => row.type);

describe('800 days of a sandbox', () => {
  it('moves each account through its states on the right business dates, exactly once, and refuses a dormant debit', async () => {
    const started = Date.now();
    const active = await newAccount();
    const inactive = await newAccount();
    const dormant = await newAccount('NY');
    const reactivated = await newAccount();
    const woken = await newAccount();
    const closed = await newAccount();
    for (const id of [active, dormant, reactivated, woken]) expect((await post(id, 'CREDIT', 100)).status).toBe(201);
    const opened = await lastActivity(dormant);
    // The closed account closes at once (empty): the end of day never marks it.
    expectSuccess(
      await service.call('POST', `/sandbox/account/${closed}/close`, { body: { reason: 'CUSTOMER_REQUEST' } }),
      'account',
      200,
    );

    let day = 0;
    const until = async (target: number, everyMonth = true) => {
      while (day < target) {
        const step = Math.min(30, target - day);
        await advance(step);
        day += step;
        // The active account's customer deposits every month.
        if (everyMonth) expect((await post(active, 'CREDIT', 1)).status).toBe(201);
      }
    };

    // Day 200: the "inactive" account's customer deposits once, then never again.
    await until(200);
    expect((await post(inactive, 'CREDIT', 50)).status).toBe(201);
    const inactiveSince = await lastActivity(inactive);

    // Past 365 days: the others are INACTIVE, answered with status, statusSince, lastActivityAt.
    await until(400);
    const seen = await getAccount(dormant);
    expect(seen).toMatchObject({ status: 'INACTIVE', lastActivityAt: opened.toISOString() });
    expect(typeof seen.statusSince).toBe('string');
    // An ordinary account keeps exactly the contract's fields: no status.
    expect(Object.keys(await getAccount(active))).not.toContain('status');
    expect(Object.keys(await getAccount(active))).not.toContain('lastActivityAt');

    // Past 730 days: DORMANT.
    await until(760);
    expect(await getAccount(dormant)).toMatchObject({ status: 'DORMANT' });
    // Its events carry the account as its endpoint answers it, status included.
    const recent = await service.call('GET', `/sandbox/account/${dormant}/event`);
    expectSuccess(recent, 'account', 200);
    const byType = (type: string) =>
      (recent.json.data.events as { type: string; data: Record<string, unknown> }[]).find((e) => e.type === type);
    expect(byType('account.dormant')?.data).toMatchObject({ accountId: dormant, status: 'DORMANT' });
    expect(byType('account.inactive')?.data).toMatchObject({ accountId: dormant, status: 'INACTIVE' });

    // A dormant account refuses a client's debits (withdrawal, transfer out), writing nothing.
    const refused = await expectNoChange(service.database.pool, () => post(dormant, 'DEBIT', 10));
    expectFailure(refused, 'account', 409, 'ACCOUNT_DORMANT');
    expectFailure(
      await expectNoChange(service.database.pool, () => transfer(dormant, active, 10)),
      'account',
      409,
      'ACCOUNT_DORMANT',
    );
    // An incoming transfer is credited, but is not its customer's activity: still dormant.
    expect((await transfer(active, dormant, 5)).status).toBe(201);
    expect(await getAccount(dormant)).toMatchObject({ status: 'DORMANT', amount: 105 });

    // Reactivation by a call: active again, audited, event; a second call is refused.
    const again = await service.call('POST', `/sandbox/account/${reactivated}/reactivate`);
    expectSuccess(again, 'account', 200);
    expect(Object.keys(again.json.data)).not.toContain('status');
    expectFailure(
      await service.call('POST', `/sandbox/account/${reactivated}/reactivate`),
      'account',
      409,
      'ACCOUNT_NOT_DORMANT',
    );
    expectFailure(
      await service.call('POST', `/sandbox/account/${active}/reactivate`),
      'account',
      409,
      'ACCOUNT_NOT_DORMANT',
    );
    // Reactivation by the customer's own deposit: active again, and its debits pass.
    expect((await post(woken, 'CREDIT', 10)).status).toBe(201);
    expect(Object.keys(await getAccount(woken))).not.toContain('status');
    expect((await post(woken, 'DEBIT', 5)).status).toBe(201);

    await until(800);

    // Each transition once, on the business date its rule fell due, by the end of day's principal.
    const inactiveOn = dueDate(opened, 365);
    const dormantOn = dueDate(opened, 730);
    for (const id of [dormant, reactivated, woken])
      expect((await transitions(id)).slice(0, 2)).toEqual([
        {
          operation: 'account.mark_inactive',
          request_id: `end-of-day:${inactiveOn}:dormancy`,
          principal_id: 'system:end-of-day',
        },
        {
          operation: 'account.mark_dormant',
          request_id: `end-of-day:${dormantOn}:dormancy`,
          principal_id: 'system:end-of-day',
        },
      ]);
    expect((await eventsOf(dormant)).sort()).toEqual(['account.dormant', 'account.inactive']);
    expect(await eventsOf(reactivated)).toEqual(['account.inactive', 'account.dormant', 'account.reactivated']);
    expect((await transitions(reactivated)).map((row) => row.operation)).toEqual([
      'account.mark_inactive',
      'account.mark_dormant',
      'account.reactivate',
    ]);
    // The deposit's own statement woke it: its event, and no reactivation call.
    expect(await eventsOf(woken)).toEqual(['account.inactive', 'account.dormant', 'account.reactivated']);
    expect(await transitions(woken)).toHaveLength(2);
    expect(await transitions(inactive)).toEqual([
      {
        operation: 'account.mark_inactive',
        request_id: `end-of-day:${dueDate(inactiveSince, 365)}:dormancy`,
        principal_id: 'system:end-of-day',
      },
    ]);
    expect(await getAccount(inactive)).toMatchObject({ status: 'INACTIVE' });
    expect(await transitions(active)).toEqual([]);
    expect(await eventsOf(active)).toEqual([]);
    expect(await transitions(closed)).toEqual([]);
    expect(await getAccount(closed)).toMatchObject({ status: 'CLOSED' });

    // The end of day's record counts them: the step's records are the audit rows.
    const counted = await query<{ records: number }>(
      `SELECT coalesce(sum(records), 0)::int AS records FROM end_of_day_steps WHERE environment = 'sandbox' AND step = 'dormancy'`,
    );
    expect(counted[0]!.records).toBe(7);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
    // Kept fast: 800 days of end of day with a handful of accounts.
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);

  it('lists the accounts due for escheatment by state and asOf, with balance, owners and last activity', async () => {
    const res = await service.call('GET', '/sandbox/escheatment?state=NY');
    expectSuccess(res, 'customer', 200);
    const entries = res.json.data.accounts as Record<string, unknown>[];
    // New York's period is three years: at day 800 the dormant account (active on day 0) is not due within 120 days.
    // A thousand days on, it is, and so are Illinois's (three years too) accounts, whose last activity is days 200–800.
    expect(entries).toEqual([]);
    const clock = (await service.call('GET', '/sandbox/clock')).json.data as { businessDate: string };
    const later = new Date(`${clock.businessDate}T12:00:00Z`);
    later.setUTCDate(later.getUTCDate() + 1000);
    const asOf = later.toISOString().slice(0, 10);
    const due = await service.call('GET', `/sandbox/escheatment?state=NY&asOf=${asOf}`);
    expectSuccess(due, 'customer', 200);
    const [entry] = due.json.data.accounts as Record<string, unknown>[];
    expect(due.json.data.accounts).toHaveLength(1);
    expect(entry).toMatchObject({ currency: 'USD', balance: 105, status: 'DORMANT', state: 'NY' });
    expect(entry!.owners).toEqual([{ customerId: expect.any(String), name: expect.any(String) }]);
    expect(JSON.stringify(entry)).not.toMatch(/\d{3}-\d{2}-\d{4}/);
    // A page at a time.
    const il = await service.call('GET', `/sandbox/escheatment?state=IL&asOf=${asOf}&limit=1`);
    expectSuccess(il, 'customer', 200);
    expect(il.json.data.accounts).toHaveLength(1);
    expect(typeof il.json.data.nextAfter).toBe('string');
    const next = await service.call(
      'GET',
      `/sandbox/escheatment?state=IL&asOf=${asOf}&limit=1&after=${il.json.data.nextAfter}`,
    );
    expectSuccess(next, 'customer', 200);
    expect(next.json.data.accounts[0].accountId).not.toBe(il.json.data.accounts[0].accountId);

    // A business owner's state is its address's, its name its legal name (never its tax id).
    const business = buildBusinessInput({
      addresses: [{ type: 'OFFICE', street: '1 Main St', city: 'Austin', state: 'TX', zip: '73301' }],
    });
    const created = await service.call('POST', '/sandbox/customer', { body: business });
    expectSuccess(created, 'customer', 201);
    const opened = await service.call('POST', '/sandbox/account', {
      body: buildAccountInput([created.json.data.customerId]),
    });
    expectSuccess(opened, 'account', 201);
    const tx = await service.call('GET', `/sandbox/escheatment?state=TX&asOf=${asOf}`);
    expectSuccess(tx, 'customer', 200);
    expect(tx.json.data.accounts).toEqual([
      expect.objectContaining({
        accountId: opened.json.data.accountId,
        state: 'TX',
        status: 'ACTIVE',
        owners: [{ customerId: created.json.data.customerId, name: business.legalName }],
      }),
    ]);
    expect(tx.text).not.toContain(business.taxId);

    // Refused, with a code: a state not of the table, not a date, a date before 1970, a page too big.
    for (const query of ['state=XX', 'state=ny', 'asOf=tomorrow', 'asOf=2026-02-30', 'asOf=0001-01-01', 'limit=101'])
      expectFailure(await service.call('GET', `/sandbox/escheatment?${query}`), 'customer', 400, 'VALIDATION_FAILED');
  });
});
