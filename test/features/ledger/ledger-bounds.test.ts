import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableCounts } from '../../support/database.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';

/**
 * Balances are DECIMAL(24,6) (prisma/migrations/20261124000000_ledger): at most 999999999999999999.999999 either
 * way. The settlement account goes negative by every deposit of the environment and currency, so enough
 * deposits push it past the column's range; such a posting must be refused with a coded 4xx that writes nothing,
 * never a 500.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

/** The largest amount the API accepts (MAX_AMOUNT is exclusive), in USD. */
const MAX_DEPOSIT = 999_999_999_999.99;
/** A seeded balance near the column's bound, so that a few maximal deposits reach it (instead of a million). */
const SEEDED = '999999000000000000';

async function newAccount(currency = 'USD'): Promise<string> {
  const { customerId } = await createCustomer(service);
  const res = await service.call('POST', '/sandbox/account', {
    body: { associatedCustomerIds: [customerId], name: 'Bounds', currency, type: 'CHECKING' },
  });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
}

/**
 * One balanced posting written straight into the database, as the posting statement writes it (the
 * account's credit against the settlement account's debit, balances and running balances updated), for
 * an amount the API would refuse: the ledger's invariants hold before the test starts.
 */
async function seedDeposit(accountId: string, currency: string, amount: string): Promise<void> {
  await service.database.pool.query(
    `WITH s AS (
       INSERT INTO ledger_settlement_accounts AS s (environment, currency, amount) VALUES ('sandbox', $2, -$3::numeric)
       ON CONFLICT (environment, currency) DO UPDATE SET amount = s.amount - $3::numeric RETURNING s.id, s.amount
     ), a AS (
       UPDATE accounts SET amount = amount + $3::numeric, entry_count = entry_count + 1 WHERE id = $1::uuid RETURNING id, amount
     ), posting AS (SELECT gen_random_uuid() AS id)
     INSERT INTO ledger_entries (id, environment, account_id, is_settlement, posting_id, type, amount, posted_amount, currency, description, status, balance_after, posted_at)
     SELECT gen_random_uuid(), 'sandbox', a.id, false, posting.id, 'CREDIT', $3::numeric, $3::numeric, $2, 'seed', 'POSTED', a.amount, now() FROM a, posting
     UNION ALL
     SELECT gen_random_uuid(), 'sandbox', s.id, true, posting.id, 'DEBIT', $3::numeric, $3::numeric, $2, 'seed', 'POSTED', s.amount, now() FROM s, posting`,
    [accountId, currency, amount],
  );
}

const deposit = (accountId: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  service.call('POST', `/sandbox/account/${accountId}/transaction`, {
    body: { type: 'CREDIT', amount: MAX_DEPOSIT, ...body },
    headers,
  });

describe('balances at the bound of their column', () => {
  it('repeated maximal deposits: the one that would take the settlement account past DECIMAL(24,6) is a coded 400 that writes nothing; the money still sums to zero', async () => {
    await seedDeposit(await newAccount(), 'USD', SEEDED);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
    const target = await newAccount();
    let refused;
    for (let i = 0; i < 5 && !refused; i++) {
      const res = await deposit(target);
      if (res.status !== 201) refused = res;
    }
    expect(refused, 'a deposit was refused within 5 maximal deposits').toBeDefined();
    expectFailure(refused!, 'account', 400, 'VALIDATION_FAILED');
    expect(refused!.json.error.details).toEqual([
      { field: 'amount', code: 'OUT_OF_RANGE', message: expect.stringMatching(/balance/) },
    ]);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);

    // Nothing written by a refused posting, with or without an Idempotency-Key; the key stays free.
    const before = await tableCounts(service.database.pool);
    const key = `bounds-${randomUUID()}`;
    expectFailure(await deposit(target), 'account', 400, 'VALIDATION_FAILED');
    expectFailure(await deposit(target, {}, { 'idempotency-key': key }), 'account', 400, 'VALIDATION_FAILED');
    expect(await tableCounts(service.database.pool)).toEqual(before);
    // The refusal did not take the key: a withdrawal (which moves the settlement account back) posts under it.
    expectSuccess(await deposit(target, { type: 'DEBIT', amount: 0.01 }, { 'idempotency-key': key }), 'account', 201);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);

    // GraphQL answers the same refusal.
    const viaGraphql = await graphql(
      service,
      'mutation($id: ID!, $input: PostTransactionInput!) { postTransaction(accountId: $id, input: $input) { transactionId } }',
      {
        id: target,
        input: { type: 'CREDIT', amount: String(MAX_DEPOSIT) },
      },
    );
    expect(errorCodes(viaGraphql)).toEqual(['VALIDATION_FAILED']);
    expect(await tableCounts(service.database.pool)).not.toEqual(before); // the withdrawal above
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('a customer account at the bound: a transfer into it (the settlement account untouched) is refused the same way; a withdrawal from it still works', async () => {
    const other = await newAccount('EUR');
    expectSuccess(
      await service.call('PUT', `/sandbox/account/${other}/overdraft-limit`, { body: { overdraftLimit: 5000 } }),
      'account',
      200,
    );
    const full = await newAccount('EUR');
    await seedDeposit(full, 'EUR', '999999999999999000');
    const transfer = (amount: number) =>
      service.call('POST', '/sandbox/transfer', { body: { fromAccountId: other, toAccountId: full, amount } });
    expectSuccess(await transfer(999), 'account', 201);
    const before = await tableCounts(service.database.pool);
    const refused = await transfer(1);
    expectFailure(refused, 'account', 400, 'VALIDATION_FAILED');
    expect(refused.json.error.details).toEqual([
      { field: 'amount', code: 'OUT_OF_RANGE', message: expect.stringMatching(/balance/) },
    ]);
    expect(await tableCounts(service.database.pool)).toEqual(before);
    expectSuccess(await deposit(full, { type: 'DEBIT', amount: 5 }), 'account', 201);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });
});
