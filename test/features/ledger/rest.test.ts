import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoChange as expectNoChangeIn } from '../../support/database.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';

let service: TestService;
beforeAll(async () => {
  // The hold-expiry sweep never runs by itself within this file (hourly): a test runs it on demand
  // (service.jobs.holdExpiry.runOnce), so what it sees never depends on when the clock let the sweep run.
  service = await startTestService({ HOLD_EXPIRY_INTERVAL_MS: '3600000' });
});
afterAll(async () => service?.stop());

const expectNoChange = <T>(request: () => Promise<T>): Promise<T> => expectNoChangeIn(service.database.pool, request);

/**
 * Moves a hold's expiry into the past (the test's clock): the expiry sweep and the post see it expired. The
 * ledger's trigger lets an entry change only to POSTED or VOIDED, so this one statement runs with the session's
 * triggers off (session_replication_role = replica, the test role being a superuser).
 */
async function expirePast(transactionId: string, on: TestService = service): Promise<void> {
  const client = await on.database.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    const { rowCount } = await client.query(
      "UPDATE ledger_entries SET expires_at = now() - interval '1 second' WHERE id = $1 AND status = 'PENDING'",
      [transactionId],
    );
    await client.query('COMMIT');
    expect(rowCount).toBe(1);
  } finally {
    client.release();
  }
}

async function newAccount(currency = 'USD') {
  const { customerId } = await createCustomer(service);
  const res = await service.call('POST', '/sandbox/account', {
    body: { associatedCustomerIds: [customerId], name: 'Ledger test', currency, type: 'CHECKING' },
  });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
}

const post = (accountId: string, body: unknown, headers: Record<string, string> = {}) =>
  service.call('POST', `/sandbox/account/${accountId}/transaction`, { body, headers });

describe('deposits and withdrawals', () => {
  it('a CREDIT raises amount, a DEBIT lowers it; each answers the transaction with its running balance', async () => {
    const accountId = await newAccount();
    const credit = await post(accountId, { type: 'CREDIT', amount: 25.5, description: 'Payroll' });
    expectSuccess(credit, 'account', 201);
    expect(credit.json.data).toMatchObject({
      accountId,
      type: 'CREDIT',
      amount: 25.5,
      currency: 'USD',
      status: 'POSTED',
      balanceAfter: 25.5,
      description: 'Payroll',
      transferId: null,
    });
    expect(credit.headers.get('location')).toBe(
      `/sandbox/account/${accountId}/transaction/${credit.json.data.transactionId}`,
    );
    const debit = await post(accountId, { type: 'DEBIT', amount: 0.5 });
    expectSuccess(debit, 'account', 201);
    expect(debit.json.data).toMatchObject({ type: 'DEBIT', amount: 0.5, balanceAfter: 25, description: '' });

    const account = await service.call('GET', `/sandbox/account/${accountId}`);
    expect(account.json.data.amount).toBe(25);
    expect(account.json.data.transactions.map((t: { transactionId: string }) => t.transactionId)).toEqual([
      debit.json.data.transactionId,
      credit.json.data.transactionId,
    ]);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('refuses a debit beyond the available balance with INSUFFICIENT_FUNDS, writing nothing', async () => {
    const accountId = await newAccount();
    await post(accountId, { type: 'CREDIT', amount: 10 });
    const res = await expectNoChange(() => post(accountId, { type: 'DEBIT', amount: 10.01 }));
    expectFailure(res, 'account', 409, 'INSUFFICIENT_FUNDS');
  });

  it('refuses amounts with more decimals than the currency has, and non-positive ones', async () => {
    const usd = await newAccount('USD');
    const jpy = await newAccount('JPY');
    expectFailure(
      await expectNoChange(() => post(usd, { type: 'CREDIT', amount: 1.001 })),
      'account',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await expectNoChange(() => post(jpy, { type: 'CREDIT', amount: 1.5 })),
      'account',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await expectNoChange(() => post(usd, { type: 'CREDIT', amount: 0 })),
      'account',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await expectNoChange(() => post(usd, { type: 'CREDIT', amount: -3 })),
      'account',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await expectNoChange(() => post(usd, { type: 'SEND', amount: 3 })),
      'account',
      400,
      'VALIDATION_FAILED',
    );
    expectSuccess(await post(jpy, { type: 'CREDIT', amount: 1500 }), 'account', 201);
  });

  it('answers 404 for an unknown account', async () => {
    expectFailure(
      await post('0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e', { type: 'CREDIT', amount: 1 }),
      'account',
      404,
      'ACCOUNT_NOT_FOUND',
    );
  });

  it('replays a posting sent again with the same Idempotency-Key, and posts it once', async () => {
    const accountId = await newAccount();
    const first = await post(accountId, { type: 'CREDIT', amount: 7 }, { 'idempotency-key': 'deposit-1' });
    const again = await post(accountId, { type: 'CREDIT', amount: 7 }, { 'idempotency-key': 'deposit-1' });
    expectSuccess(again, 'account', 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.data).toEqual(first.json.data);
    expect((await service.call('GET', `/sandbox/account/${accountId}`)).json.data.amount).toBe(7);
    expectFailure(
      await post(accountId, { type: 'CREDIT', amount: 8 }, { 'idempotency-key': 'deposit-1' }),
      'account',
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
  });
});

describe('holds', () => {
  it('a DEBIT hold lowers the available balance only; posting it for less releases the rest', async () => {
    const accountId = await newAccount();
    await post(accountId, { type: 'CREDIT', amount: 100 });
    const hold = await post(accountId, { type: 'DEBIT', amount: 60, hold: true });
    expectSuccess(hold, 'account', 201);
    expect(hold.json.data).toMatchObject({ status: 'PENDING', balanceAfter: null, amount: 60, authorizedAmount: 60 });
    expectFailure(await post(accountId, { type: 'DEBIT', amount: 50 }), 'account', 409, 'INSUFFICIENT_FUNDS');
    const posted = await service.call(
      'POST',
      `/sandbox/account/${accountId}/transaction/${hold.json.data.transactionId}/post`,
      { body: { amount: 45 } },
    );
    expectSuccess(posted, 'account', 200);
    expect(posted.json.data).toMatchObject({
      transactionId: hold.json.data.transactionId,
      status: 'POSTED',
      amount: 45,
      authorizedAmount: 60,
      balanceAfter: 55,
    });
    expectFailure(
      await service.call('POST', `/sandbox/account/${accountId}/transaction/${hold.json.data.transactionId}/void`),
      'account',
      409,
      'TRANSACTION_NOT_PENDING',
    );
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('a voided hold frees the amount', async () => {
    const accountId = await newAccount();
    await post(accountId, { type: 'CREDIT', amount: 10 });
    const hold = await post(accountId, { type: 'DEBIT', amount: 10, hold: true });
    const voided = await service.call(
      'POST',
      `/sandbox/account/${accountId}/transaction/${hold.json.data.transactionId}/void`,
    );
    expectSuccess(voided, 'account', 200);
    expect(voided.json.data).toMatchObject({ status: 'VOIDED', balanceAfter: null });
    expectSuccess(await post(accountId, { type: 'DEBIT', amount: 10 }), 'account', 201);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });
});

describe('hold expiry', () => {
  it('an expired hold voids itself (audited as the service), and its amount is available again', async () => {
    const accountId = await newAccount();
    await post(accountId, { type: 'CREDIT', amount: 10 });
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    const hold = await post(accountId, { type: 'DEBIT', amount: 10, hold: true, expiresAt });
    expectSuccess(hold, 'account', 201);
    expect(hold.json.data.expiresAt).toBe(expiresAt);
    // Time passes by the database, not by waiting: however long the request took, the hold is now past its expiry.
    await expirePast(hold.json.data.transactionId);
    const path = `/sandbox/account/${accountId}/transaction/${hold.json.data.transactionId}`;
    expect((await service.call('GET', path)).json.data.status).toBe('PENDING');
    // One pass of the job the service runs every HOLD_EXPIRY_INTERVAL_MS.
    await service.jobs.holdExpiry.runOnce();
    expect((await service.call('GET', path)).json.data.status).toBe('VOIDED');
    expectFailure(await service.call('POST', `${path}/post`), 'account', 409, 'TRANSACTION_NOT_PENDING');
    expectSuccess(await post(accountId, { type: 'DEBIT', amount: 10 }), 'account', 201);
    const audit = await service.database.pool.query(
      "SELECT principal_id FROM audit_events WHERE operation = 'transaction.expire' AND resource_id = $1",
      [hold.json.data.transactionId],
    );
    expect(audit.rows).toEqual([{ principal_id: 'system:hold-expiry' }]);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('a hold past its expiry that the sweep has not reached yet cannot post: HOLD_EXPIRED', async () => {
    // This file's service never sweeps by itself (HOLD_EXPIRY_INTERVAL_MS above).
    const { customerId } = await createCustomer(service);
    const account = await createAccount(service, [customerId]);
    await service.call('POST', `/sandbox/account/${account.accountId}/transaction`, {
      body: { type: 'CREDIT', amount: 5 },
    });
    const hold = await service.call('POST', `/sandbox/account/${account.accountId}/transaction`, {
      body: { type: 'DEBIT', amount: 5, hold: true, expiresAt: new Date(Date.now() + 3600_000).toISOString() },
    });
    expectSuccess(hold, 'account', 201);
    // Past its expiry by the database, not after a wait that a loaded machine could outlast before the answer.
    await expirePast(hold.json.data.transactionId);
    const posted = await service.call(
      'POST',
      `/sandbox/account/${account.accountId}/transaction/${hold.json.data.transactionId}/post`,
    );
    expectFailure(posted, 'account', 409, 'HOLD_EXPIRED');
    expectSuccess(
      await service.call(
        'POST',
        `/sandbox/account/${account.accountId}/transaction/${hold.json.data.transactionId}/void`,
      ),
      'account',
      200,
    );
  });

  it('refuses an expiry in the past, too far ahead, or on a transaction that is not a hold', async () => {
    const accountId = await newAccount();
    expectFailure(
      await expectNoChange(() =>
        post(accountId, { type: 'DEBIT', amount: 1, hold: true, expiresAt: '2020-01-01T00:00:00Z' }),
      ),
      'account',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await expectNoChange(() =>
        post(accountId, { type: 'DEBIT', amount: 1, hold: true, expiresAt: '2999-01-01T00:00:00Z' }),
      ),
      'account',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await expectNoChange(() =>
        post(accountId, { type: 'CREDIT', amount: 1, expiresAt: new Date(Date.now() + 60_000).toISOString() }),
      ),
      'account',
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('transfers and reversals', () => {
  it('moves money between accounts, reverses both sides at most once', async () => {
    const from = await newAccount();
    const to = await newAccount();
    await post(from, { type: 'CREDIT', amount: 50 });
    const transfer = await service.call('POST', '/sandbox/transfer', {
      body: { fromAccountId: from, toAccountId: to, amount: 20, description: 'Rent' },
    });
    expectSuccess(transfer, 'account', 201);
    expect(transfer.json.data).toMatchObject({
      amount: 20,
      currency: 'USD',
      debit: { accountId: from, type: 'DEBIT', balanceAfter: 30 },
      credit: { accountId: to, type: 'CREDIT', balanceAfter: 20 },
    });
    expect(transfer.json.data.debit.transferId).toBe(transfer.json.data.transferId);

    const reversal = await service.call(
      'POST',
      `/sandbox/account/${to}/transaction/${transfer.json.data.credit.transactionId}/reverse`,
      { body: {} },
    );
    expectSuccess(reversal, 'account', 201);
    expect(reversal.json.data).toMatchObject({
      accountId: to,
      type: 'DEBIT',
      amount: 20,
      balanceAfter: 0,
      reversesTransactionId: transfer.json.data.credit.transactionId,
    });
    expect((await service.call('GET', `/sandbox/account/${from}`)).json.data.amount).toBe(50);
    const again = await service.call(
      'POST',
      `/sandbox/account/${from}/transaction/${transfer.json.data.debit.transactionId}/reverse`,
      { body: {} },
    );
    expectFailure(again, 'account', 409, 'TRANSACTION_ALREADY_REVERSED');
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it("reverses a deposit against settlement; refuses reversing a hold, a reversal, or another account's transaction", async () => {
    const accountId = await newAccount();
    const other = await newAccount();
    const deposit = await post(accountId, { type: 'CREDIT', amount: 12 });
    const reversalPath = `/sandbox/account/${accountId}/transaction/${deposit.json.data.transactionId}/reverse`;
    expectFailure(
      await expectNoChange(() =>
        service.call('POST', `/sandbox/account/${other}/transaction/${deposit.json.data.transactionId}/reverse`, {
          body: {},
        }),
      ),
      'account',
      404,
      'TRANSACTION_NOT_FOUND',
    );
    const reversal = await service.call('POST', reversalPath, { body: { description: 'Sent twice' } });
    expectSuccess(reversal, 'account', 201);
    expect(reversal.json.data).toMatchObject({ type: 'DEBIT', amount: 12, balanceAfter: 0, description: 'Sent twice' });
    expectFailure(
      await expectNoChange(() =>
        service.call('POST', `/sandbox/account/${accountId}/transaction/${reversal.json.data.transactionId}/reverse`, {
          body: {},
        }),
      ),
      'account',
      409,
      'REVERSAL_NOT_REVERSIBLE',
    );
    await post(accountId, { type: 'CREDIT', amount: 5 });
    const hold = await post(accountId, { type: 'DEBIT', amount: 5, hold: true });
    expectFailure(
      await expectNoChange(() =>
        service.call('POST', `/sandbox/account/${accountId}/transaction/${hold.json.data.transactionId}/reverse`, {
          body: {},
        }),
      ),
      'account',
      409,
      'TRANSACTION_NOT_POSTED',
    );
    expectFailure(
      await service.call('GET', `/sandbox/account/${other}/transaction/${deposit.json.data.transactionId}`),
      'account',
      404,
      'TRANSACTION_NOT_FOUND',
    );
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('opposite transfers between the same two accounts, all at once, neither deadlock nor lose money', async () => {
    const a = await newAccount();
    const b = await newAccount();
    await post(a, { type: 'CREDIT', amount: 1000 });
    await post(b, { type: 'CREDIT', amount: 1000 });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        service.call('POST', '/sandbox/transfer', {
          body:
            i % 2 === 0
              ? { fromAccountId: a, toAccountId: b, amount: 3 }
              : { fromAccountId: b, toAccountId: a, amount: 2 },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const [balanceA, balanceB] = await Promise.all(
      [a, b].map(async (id) => (await service.call('GET', `/sandbox/account/${id}`)).json.data.amount),
    );
    expect([balanceA, balanceB]).toEqual([1000 - 20 * 3 + 20 * 2, 1000 + 20 * 3 - 20 * 2]);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('refuses a transfer between currencies and to an unknown account', async () => {
    const usd = await newAccount('USD');
    const eur = await newAccount('EUR');
    await post(usd, { type: 'CREDIT', amount: 5 });
    expectFailure(
      await expectNoChange(() =>
        service.call('POST', '/sandbox/transfer', { body: { fromAccountId: usd, toAccountId: eur, amount: 1 } }),
      ),
      'account',
      422,
      'CURRENCY_MISMATCH',
    );
    const unknown = await expectNoChange(() =>
      service.call('POST', '/sandbox/transfer', {
        body: { fromAccountId: usd, toAccountId: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e', amount: 1 },
      }),
    );
    expectFailure(unknown, 'account', 422, 'ACCOUNT_NOT_FOUND');
    expect(unknown.json.error.details[0].field).toBe('toAccountId');
  });
});

describe('account rules that change with money', () => {
  it('the currency is fixed once there are transactions; deletion needs a zero balance', async () => {
    const accountId = await newAccount();
    await post(accountId, { type: 'CREDIT', amount: 5 });
    expectFailure(
      await expectNoChange(() =>
        service.call('PUT', `/sandbox/account/${accountId}`, { body: { name: 'x', currency: 'EUR' } }),
      ),
      'account',
      409,
      'ACCOUNT_HAS_TRANSACTIONS',
    );
    expectSuccess(
      await service.call('PUT', `/sandbox/account/${accountId}`, { body: { name: 'Renamed', currency: 'USD' } }),
      'account',
      200,
    );
    expectFailure(
      await expectNoChange(() => service.call('DELETE', `/sandbox/account/${accountId}`)),
      'account',
      409,
      'ACCOUNT_BALANCE_NOT_ZERO',
    );
    await post(accountId, { type: 'DEBIT', amount: 5 });
    expectSuccess(await service.call('DELETE', `/sandbox/account/${accountId}`), 'account', 200);
    const history = await service.database.pool.query(
      'SELECT count(*)::int AS n FROM ledger_entries WHERE account_id = $1',
      [accountId],
    );
    expect(history.rows[0].n).toBe(2);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('flags: FROZEN stops every posting, DEBITS_BLOCKED only debits', async () => {
    const accountId = await newAccount();
    await post(accountId, { type: 'CREDIT', amount: 5 });
    expectSuccess(await service.call('PUT', `/sandbox/account/${accountId}/flags/DEBITS_BLOCKED`), 'account', 200);
    expectFailure(await post(accountId, { type: 'DEBIT', amount: 1 }), 'account', 409, 'DEBITS_BLOCKED');
    expectSuccess(await post(accountId, { type: 'CREDIT', amount: 1 }), 'account', 201);
    const frozen = await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`);
    expect(frozen.json.data.flags).toEqual(['DEBITS_BLOCKED', 'FROZEN']);
    expectFailure(await post(accountId, { type: 'CREDIT', amount: 1 }), 'account', 409, 'ACCOUNT_FROZEN');
    expectSuccess(await service.call('DELETE', `/sandbox/account/${accountId}/flags/FROZEN`), 'account', 200);
    expectFailure(
      await service.call('PUT', `/sandbox/account/${accountId}/flags/CLOSED`),
      'account',
      400,
      'VALIDATION_FAILED',
    );
  });

  it('joint holders: a customer is added and removed, never the last', async () => {
    const { customerId: first } = await createCustomer(service);
    const { customerId: second } = await createCustomer(service);
    const account = await createAccount(service, [first]);
    const added = await service.call('POST', `/sandbox/account/${account.accountId}/customer`, {
      body: { customerId: second },
    });
    expectSuccess(added, 'account', 200);
    expect(added.json.data.customers).toEqual([first, second]);
    const removed = await service.call('DELETE', `/sandbox/account/${account.accountId}/customer/${first}`);
    expect(removed.json.data.customers).toEqual([second]);
    expectFailure(
      await service.call('DELETE', `/sandbox/account/${account.accountId}/customer/${second}`),
      'account',
      409,
      'ACCOUNT_NEEDS_A_CUSTOMER',
    );
  });

  it('an overdraft limit lets the balance go below zero, down to it', async () => {
    const accountId = await newAccount();
    expectSuccess(
      await service.call('PUT', `/sandbox/account/${accountId}/overdraft-limit`, { body: { overdraftLimit: 100 } }),
      'account',
      200,
    );
    expectSuccess(await post(accountId, { type: 'DEBIT', amount: 100 }), 'account', 201);
    expectFailure(await post(accountId, { type: 'DEBIT', amount: 0.01 }), 'account', 409, 'INSUFFICIENT_FUNDS');
    expect((await service.call('GET', `/sandbox/account/${accountId}`)).json.data.amount).toBe(-100);
  });
});

describe('GET transactions', () => {
  it('pages newest first', async () => {
    const accountId = await newAccount();
    for (let i = 1; i <= 5; i++) await post(accountId, { type: 'CREDIT', amount: i });
    const first = await service.call('GET', `/sandbox/account/${accountId}/transaction?limit=2`);
    expectSuccess(first, 'account', 200);
    expect(first.json.data.transactions.map((t: { amount: number }) => t.amount)).toEqual([5, 4]);
    const second = await service.call(
      'GET',
      `/sandbox/account/${accountId}/transaction?limit=2&after=${first.json.data.nextAfter}`,
    );
    expect(second.json.data.transactions.map((t: { amount: number }) => t.amount)).toEqual([3, 2]);
    const last = await service.call(
      'GET',
      `/sandbox/account/${accountId}/transaction?limit=2&after=${second.json.data.nextAfter}`,
    );
    expect(last.json.data).toMatchObject({ nextAfter: null });
    const one = await service.call(
      'GET',
      `/sandbox/account/${accountId}/transaction/${last.json.data.transactions[0].transactionId}`,
    );
    expectSuccess(one, 'account', 200);
    expect(one.json.data.amount).toBe(1);
  });
});
