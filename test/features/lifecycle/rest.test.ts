import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessScope } from '../../../src/domain/caller.js';
import { ACCOUNT_DATA_KEYS, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { expectNoChange } from '../../support/database.js';
import { buildAccountInput } from '../../support/factories.js';
import { bearer } from '../../support/http-auth.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { type CallResult, startTestService, type TestService } from '../../support/service.js';

/**
 * Accounts close and reopen, customers archive, over REST (docs/account-lifecycle.md, docs/adr/0106), against the
 * real database: closing with and without a disbursement (the balance moves as a transfer moves it, the ledger sums
 * to zero), every refusal writing nothing, postings on a closed account refused, reopening inside and outside the
 * window (ACCOUNT_REOPEN_WINDOW_DAYS=1 here, the sandbox's clock advanced), archiving and the customer list, scopes.
 */

let service: TestService;
const tokens = { noControls: '', noCustomersWrite: '', controlsOnly: '' };

const EVERY_SCOPE: AccessScope[] = [
  'customers:read',
  'customers:write',
  'accounts:read',
  'accounts:write',
  'accounts:controls',
  'transactions:write',
  'events:read',
  'audit:read',
];
const allBut = (scope: AccessScope) => EVERY_SCOPE.filter((other) => other !== scope);

beforeAll(async () => {
  service = await startTestService({
    ACCOUNT_REOPEN_WINDOW_DAYS: '1',
    // The end of day and the intra-day sweeps never run by themselves here: only the test's own advance moves time.
    END_OF_DAY_INTERVAL_MS: '3600000',
    HOLD_EXPIRY_INTERVAL_MS: '3600000',
    FLAG_EXPIRY_INTERVAL_MS: '3600000',
  });
  const { pool } = service.database;
  tokens.noControls = (await issueApiToken(pool, { environments: ['*'], scopes: allBut('accounts:controls') })).token;
  tokens.noCustomersWrite = (
    await issueApiToken(pool, { environments: ['*'], scopes: allBut('customers:write') })
  ).token;
  tokens.controlsOnly = (await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:controls'] })).token;
});
afterAll(() => service?.stop());

const newCustomer = async (lastName?: string) =>
  (await createCustomer(service, lastName === undefined ? {} : { lastName })).customerId;
const newAccount = async (customerId?: string, currency = 'USD'): Promise<string> => {
  const owner = customerId ?? (await newCustomer());
  const res = await service.call('POST', '/sandbox/account', { body: { ...buildAccountInput([owner]), currency } });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
};
const credit = (accountId: string, amount: number, extra: Record<string, unknown> = {}) =>
  service.call('POST', `/sandbox/account/${accountId}/transaction`, {
    body: { type: 'CREDIT', amount, description: 'Deposit', ...extra },
  });
const close = (accountId: string, body: unknown, headers?: Record<string, string>) =>
  service.call('POST', `/sandbox/account/${accountId}/close`, { body, ...(headers && { headers }) });
const reopen = (accountId: string, headers?: Record<string, string>) =>
  service.call('POST', `/sandbox/account/${accountId}/reopen`, { ...(headers && { headers }) });
const archive = (customerId: string, body: unknown, headers?: Record<string, string>) =>
  service.call('POST', `/sandbox/customer/${customerId}/archive`, { body, ...(headers && { headers }) });
const account = async (accountId: string) => {
  const res = await service.call('GET', `/sandbox/account/${accountId}`);
  expectSuccess(res, 'account', 200);
  return res.json.data;
};
const count = async (sql: string, values: unknown[]) =>
  Number((await service.database.pool.query<{ n: string }>(sql, values)).rows[0]!.n);

async function expectRefused(request: () => Promise<CallResult>, status: number, code: string, family = 'account') {
  const res = await expectNoChange(service.database.pool, request);
  expectFailure(res, family as 'account' | 'customer', status, code);
  return res;
}

describe('POST /{environment}/account/{accountId}/close', () => {
  it('closes an empty account: status CLOSED, closedAt by the clock, the reason, an audit row and account.closed', async () => {
    const accountId = await newAccount();
    const open = await account(accountId);
    // An open account has exactly the contract's fields: no status, closedAt or closeReason.
    expect(Object.keys(open).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    const clock = (await service.call('GET', '/sandbox/clock')).json.data as { now: string };
    const res = await close(accountId, { reason: 'CUSTOMER_REQUEST' });
    expectSuccess(res, 'account', 200);
    expect(res.json.data).toMatchObject({ accountId, status: 'CLOSED', closeReason: 'CUSTOMER_REQUEST' });
    expect(new Date(res.json.data.closedAt).getTime()).toBeGreaterThanOrEqual(new Date(clock.now).getTime() - 1000);
    expect(await account(accountId)).toEqual(res.json.data);
    expect(
      await count("SELECT count(*) AS n FROM audit_events WHERE operation = 'account.close' AND resource_id = $1", [
        accountId,
      ]),
    ).toBe(1);
    expect(
      await count("SELECT count(*) AS n FROM events WHERE type = 'account.closed' AND resource_id = $1", [accountId]),
    ).toBe(1);
  });

  it('moves a remaining balance to the disbursement account by a transfer, in the same transaction', async () => {
    const from = await newAccount();
    const to = await newAccount();
    expectSuccess(await credit(from, 125.5), 'account', 201);
    expectSuccess(await credit(to, 10), 'account', 201);
    const res = await close(from, { reason: 'DECEASED', disbursementAccountId: to });
    expectSuccess(res, 'account', 200);
    expect(res.json.data).toMatchObject({ amount: 0, status: 'CLOSED', closeReason: 'DECEASED' });
    expect((await account(to)).amount).toBe(135.5);
    // The transfer is a transfer: both sides share its id, with its audit row; the ledger sums to zero.
    const { rows } = await service.database.pool.query<{ transfer_id: string; type: string; amount: string }>(
      'SELECT transfer_id, type, trim_scale(amount)::text AS amount FROM ledger_entries WHERE transfer_id IS NOT NULL AND account_id IN ($1, $2) ORDER BY type',
      [from, to],
    );
    expect(rows.map((row) => [row.type, row.amount])).toEqual([
      ['CREDIT', '125.5'],
      ['DEBIT', '125.5'],
    ]);
    expect(rows[0]!.transfer_id).toBe(rows[1]!.transfer_id);
    const transfer = await service.call('GET', `/sandbox/transfer/${rows[0]!.transfer_id}`);
    expectSuccess(transfer, 'account', 200);
    expect(
      await count("SELECT count(*) AS n FROM audit_events WHERE operation = 'transfer.create' AND resource_id = $1", [
        rows[0]!.transfer_id,
      ]),
    ).toBe(1);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
    // Its history, statement and balance history stay readable.
    const history = await service.call('GET', `/sandbox/account/${from}/transaction`);
    expectSuccess(history, 'account', 200);
    expect(history.json.data.transactions).toHaveLength(2);
    const range = `from=2020-01-01T00:00:00Z&to=${encodeURIComponent(new Date(Date.now() + 400 * 86_400_000).toISOString())}`;
    const statement = await service.call('GET', `/sandbox/account/${from}/statement?${range}`);
    expect(statement.status, statement.text).toBe(200);
    const balances = await service.call('GET', `/sandbox/account/${from}/balance-history?${range}&interval=month`);
    expect(balances.status, balances.text).toBe(200);
  });

  it('refuses, changing nothing: a balance and no disbursement account, a pending hold, a second close', async () => {
    const funded = await newAccount();
    expectSuccess(await credit(funded, 40), 'account', 201);
    await expectRefused(() => close(funded, { reason: 'OTHER' }), 409, 'ACCOUNT_BALANCE_NOT_ZERO');

    const held = await newAccount();
    expectSuccess(await credit(held, 5, { hold: true }), 'account', 201);
    await expectRefused(() => close(held, { reason: 'OTHER' }), 409, 'ACCOUNT_HAS_PENDING_HOLDS');

    const closed = await newAccount();
    expectSuccess(await close(closed, { reason: 'BANK_DECISION' }), 'account', 200);
    await expectRefused(() => close(closed, { reason: 'BANK_DECISION' }), 409, 'ACCOUNT_CLOSED');
    expect((await account(closed)).closeReason).toBe('BANK_DECISION');
  });

  it('refuses a disbursement the ledger refuses, changing nothing: another currency, an unknown or closed account, itself', async () => {
    const from = await newAccount();
    expectSuccess(await credit(from, 12), 'account', 201);
    const euros = await newAccount(undefined, 'EUR');
    await expectRefused(() => close(from, { reason: 'OTHER', disbursementAccountId: euros }), 422, 'CURRENCY_MISMATCH');
    const unknown = await expectRefused(
      () => close(from, { reason: 'OTHER', disbursementAccountId: '0193a5c3-1c53-7e26-b8da-4f6a8b0c2d43' }),
      422,
      'ACCOUNT_NOT_FOUND',
    );
    expect(unknown.json.error.details[0].field).toBe('disbursementAccountId');
    const closedTarget = await newAccount();
    expectSuccess(await close(closedTarget, { reason: 'OTHER' }), 'account', 200);
    await expectRefused(
      () => close(from, { reason: 'OTHER', disbursementAccountId: closedTarget }),
      409,
      'ACCOUNT_CLOSED',
    );
    await expectRefused(() => close(from, { reason: 'OTHER', disbursementAccountId: from }), 400, 'VALIDATION_FAILED');
    await expectRefused(() => close(from, { reason: 'MOVED' }), 400, 'VALIDATION_FAILED');
    await expectRefused(() => close(from, {}), 400, 'VALIDATION_FAILED');
    await expectRefused(
      () => close('0193a5c3-1c53-7e26-b8da-4f6a8b0c2d43', { reason: 'OTHER' }),
      404,
      'ACCOUNT_NOT_FOUND',
    );
    expect((await account(from)).amount).toBe(12);
    expect((await account(from)).status).toBeUndefined();
  });

  it('a closed account refuses every posting: a credit, a debit, a hold, a transfer either way', async () => {
    const other = await newAccount();
    expectSuccess(await credit(other, 50), 'account', 201);
    const accountId = await newAccount();
    expectSuccess(await close(accountId, { reason: 'FRAUD' }), 'account', 200);
    await expectRefused(() => credit(accountId, 1), 409, 'ACCOUNT_CLOSED');
    await expectRefused(
      () =>
        service.call('POST', `/sandbox/account/${accountId}/transaction`, {
          body: { type: 'DEBIT', amount: 1, description: 'x' },
        }),
      409,
      'ACCOUNT_CLOSED',
    );
    await expectRefused(() => credit(accountId, 1, { hold: true }), 409, 'ACCOUNT_CLOSED');
    for (const body of [
      { fromAccountId: other, toAccountId: accountId, amount: 1 },
      { fromAccountId: accountId, toAccountId: other, amount: 1 },
    ])
      await expectRefused(() => service.call('POST', '/sandbox/transfer', { body }), 409, 'ACCOUNT_CLOSED');
    // The contract's DELETE keeps its meaning: an empty account goes, closed or not.
    expectSuccess(await service.call('DELETE', `/sandbox/account/${accountId}`), 'account', 200);
  });
});

describe('closing while money moves', () => {
  it('every deposit racing the closing either lands before it (and is disbursed) or is refused ACCOUNT_CLOSED', async () => {
    const from = await newAccount();
    const to = await newAccount();
    expectSuccess(await credit(from, 100), 'account', 201);
    const [closing, ...deposits] = await Promise.all([
      close(from, { reason: 'CUSTOMER_REQUEST', disbursementAccountId: to }),
      ...Array.from({ length: 8 }, () => credit(from, 1)),
    ]);
    expectSuccess(closing!, 'account', 200);
    const landed = deposits.filter((res) => res.status === 201).length;
    for (const res of deposits.filter((res) => res.status !== 201))
      expectFailure(res, 'account', 409, 'ACCOUNT_CLOSED');
    expect((await account(from)).amount).toBe(0);
    expect((await account(to)).amount).toBe(100 + landed);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });
});

describe('POST /{environment}/account/{accountId}/reopen', () => {
  it('reopens within the window: the contract fields again, postings accepted, account.reopened', async () => {
    const accountId = await newAccount();
    expectSuccess(await close(accountId, { reason: 'CUSTOMER_REQUEST' }), 'account', 200);
    const res = await reopen(accountId);
    expectSuccess(res, 'account', 200);
    expect(Object.keys(res.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    expectSuccess(await credit(accountId, 3), 'account', 201);
    expect(
      await count("SELECT count(*) AS n FROM events WHERE type = 'account.reopened' AND resource_id = $1", [accountId]),
    ).toBe(1);
    await expectRefused(() => reopen(accountId), 409, 'ACCOUNT_NOT_CLOSED');
  });

  it("refuses outside the window, by the environment's clock", async () => {
    const accountId = await newAccount();
    expectSuccess(await close(accountId, { reason: 'DORMANCY' }), 'account', 200);
    expectSuccess(await service.call('POST', '/sandbox/clock/advance', { body: { days: 2 } }), 'customer', 200);
    await expectRefused(() => reopen(accountId), 409, 'ACCOUNT_REOPEN_WINDOW_PASSED');
    expect((await account(accountId)).status).toBe('CLOSED');
  });
});

describe('POST /{environment}/customer/{customerId}/archive', () => {
  it('refuses while an account is open, then archives; the list leaves it out unless status=ARCHIVED', async () => {
    const lastName = `Archive${Date.now()}`;
    const customerId = await newCustomer(lastName);
    const accountId = await newAccount(customerId);
    await expectRefused(
      () => archive(customerId, { reason: 'CUSTOMER_REQUEST' }),
      409,
      'CUSTOMER_HAS_OPEN_ACCOUNTS',
      'customer',
    );
    const listed = async (query: string) => {
      const res = await service.call('GET', `/sandbox/customer?lastName=${lastName}${query}`);
      expectSuccess(res, 'customer', 200);
      return (res.json.data.customers as { customerId: string }[]).map((customer) => customer.customerId);
    };
    expect(await listed('')).toEqual([customerId]);

    expectSuccess(await close(accountId, { reason: 'CUSTOMER_REQUEST' }), 'account', 200);
    const res = await archive(customerId, { reason: 'DUPLICATE' });
    expectSuccess(res, 'customer', 200);
    expect(res.json.data).toMatchObject({ customerId, status: 'ARCHIVED', archiveReason: 'DUPLICATE' });
    expect(typeof res.json.data.archivedAt).toBe('string');
    const read = await service.call('GET', `/sandbox/customer/${customerId}`);
    expect(read.json.data).toEqual(res.json.data);
    expect(await listed('')).toEqual([]);
    expect(await listed('&status=ARCHIVED')).toEqual([customerId]);
    expect(await listed('&status=ACTIVE')).toEqual([]);
    expect(
      await count("SELECT count(*) AS n FROM audit_events WHERE operation = 'customer.archive' AND resource_id = $1", [
        customerId,
      ]),
    ).toBe(1);
    // One customer.archived event through the outbox (docs/adr/0109), the customer as archived.
    const events = await service.database.pool.query<{ payload: Record<string, unknown> }>(
      "SELECT payload FROM events WHERE type = 'customer.archived' AND resource_id = $1",
      [customerId],
    );
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0]!.payload).toMatchObject({ id: customerId, archiveReason: 'DUPLICATE' });

    // An archived customer opens no account, is linked to none, is not archived twice; its account stays closed.
    await expectRefused(
      () => service.call('POST', '/sandbox/account', { body: buildAccountInput([customerId]) }),
      409,
      'CUSTOMER_ARCHIVED',
    );
    const other = await newAccount();
    await expectRefused(
      () => service.call('POST', `/sandbox/account/${other}/customer`, { body: { customerId } }),
      409,
      'CUSTOMER_ARCHIVED',
    );
    await expectRefused(() => reopen(accountId), 409, 'CUSTOMER_ARCHIVED');
    await expectRefused(() => archive(customerId, { reason: 'OTHER' }), 409, 'CUSTOMER_ARCHIVED', 'customer');
    await expectRefused(() => archive(customerId, { reason: 'GONE' }), 400, 'VALIDATION_FAILED', 'customer');
  });

  it('a customer without accounts archives at once; an unknown one is CUSTOMER_NOT_FOUND', async () => {
    const customerId = await newCustomer();
    expectSuccess(await archive(customerId, { reason: 'BANK_DECISION' }), 'customer', 200);
    await expectRefused(
      () => archive('0193a5c3-1c53-7e26-b8da-4f6a8b0c2d43', { reason: 'OTHER' }),
      404,
      'CUSTOMER_NOT_FOUND',
      'customer',
    );
  });
});

describe('scopes', () => {
  it('close and reopen need accounts:controls, archive customers:write: 403 without, nothing changes', async () => {
    const customerId = await newCustomer();
    const accountId = await newAccount(customerId);
    await expectRefused(() => close(accountId, { reason: 'OTHER' }, bearer(tokens.noControls)), 403, 'FORBIDDEN');
    // accounts:controls alone closes it, answered with its id only (no accounts:read).
    const closed = await close(accountId, { reason: 'OTHER' }, bearer(tokens.controlsOnly));
    expectSuccess(closed, 'account', 200);
    expect(closed.json.data).toEqual({ accountId });
    await expectRefused(() => reopen(accountId, bearer(tokens.noControls)), 403, 'FORBIDDEN');
    await expectRefused(
      () => archive(customerId, { reason: 'OTHER' }, bearer(tokens.noCustomersWrite)),
      403,
      'FORBIDDEN',
      'customer',
    );
    expectSuccess(await reopen(accountId, bearer(tokens.controlsOnly)), 'account', 200);
  });
});

it('keeps the ledger sound', async () => {
  expect(await ledgerViolations(service.database.pool)).toEqual([]);
});
