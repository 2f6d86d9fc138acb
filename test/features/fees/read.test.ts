import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, expectFailure, expectSuccess, exportedLedgerLines, sidesOf } from '../../rest/helpers.js';
import { graphql } from '../../graphql/helpers.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * The monthly maintenance fee over REST and GraphQL (docs/products.md#fees, docs/adr/0115): a sandbox advanced month
 * by month with its clock. An account whose minimum daily balance meets the waiver one month and dips below it for one
 * day the next, one on a product without a waiver (always charged), one whose fee overdraws into its overdraft limit
 * and one where the fee does not fit (charged down to minus the limit, the rest uncollected, then nothing at all).
 * `GET …/account/{id}/fees` and `Account.fees` answer the same assessments, newest first, paged; the ledger's
 * balances sum to zero after every month, and a reversed fee books back against the fee-income account.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const FIELDS = 'month minimumDailyBalance fee waivedAtMinimumDailyBalance outcome charged uncollected transactionId';
const DAY_MS = 86_400_000;

async function product(code: string, fee: string, waivedAtMinimumDailyBalance?: string) {
  const body = {
    code,
    name: code,
    accountType: 'CHECKING',
    currency: 'USD',
    fees: { monthlyMaintenance: { amount: fee, ...(waivedAtMinimumDailyBalance && { waivedAtMinimumDailyBalance }) } },
  };
  expectSuccess(await service.call('POST', '/sandbox/product', { body }), 'account', 201);
}

async function openAccount(productCode?: string, owner?: string): Promise<string> {
  const customerId = owner ?? (await createCustomer(service)).customerId;
  const body = {
    associatedCustomerIds: [customerId],
    name: 'Checking',
    currency: 'USD',
    type: 'CHECKING',
    ...(productCode && { productCode }),
  };
  const res = await service.call('POST', '/sandbox/account', { body });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
}

async function post(accountId: string, type: 'CREDIT' | 'DEBIT', amount: number) {
  const res = await service.call('POST', `/sandbox/account/${accountId}/transaction`, { body: { type, amount } });
  expectSuccess(res, 'account', 201);
}

const businessDate = async (): Promise<string> =>
  (await service.call('GET', '/sandbox/clock')).json.data.businessDate as string;

/** Moves the sandbox's clock forward to business date `date` (its end of day runs for every date passed). */
async function advanceTo(date: string) {
  const days = Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${await businessDate()}T00:00:00Z`)) / DAY_MS);
  expect(days).toBeGreaterThan(0);
  expectSuccess(await service.call('POST', '/sandbox/clock/advance', { body: { days } }), 'customer', 200);
  expect(await businessDate()).toBe(date);
}

/** The first date of the month after `date`'s, and `day` of it. */
const nextMonth = (date: string, day = 1): string => {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, day)).toISOString().slice(0, 10);
};

const balanceOf = async (accountId: string): Promise<string> =>
  (
    await service.database.pool.query<{ amount: string }>(
      'SELECT trim_scale(amount)::text AS amount FROM accounts WHERE id = $1',
      [accountId],
    )
  ).rows[0]!.amount;

const feeIncome = async (): Promise<string | null> =>
  (
    await service.database.pool.query<{ amount: string }>(
      "SELECT trim_scale(amount)::text AS amount FROM ledger_internal_accounts WHERE environment = 'sandbox' AND purpose = 'FEE_INCOME'",
    )
  ).rows[0]?.amount ?? null;

async function feesOf(accountId: string, query = '') {
  const res = await service.call('GET', `/sandbox/account/${accountId}/fees${query}`);
  expectSuccess(res, 'account', 200);
  return res.json.data as { fees: Record<string, unknown>[]; nextAfter: string | null };
}

/** The assessment as answered, without its transaction id (checked apart). */
const assessment = (
  month: string,
  minimumDailyBalance: string,
  fee: string,
  waivedAt: string | null,
  outcome: string,
  charged: string,
  uncollected: string,
) => ({
  month,
  minimumDailyBalance,
  fee,
  waivedAtMinimumDailyBalance: waivedAt,
  outcome,
  charged,
  uncollected,
  transactionId: outcome === 'CHARGED' ? expect.any(String) : null,
});

describe('the monthly maintenance fee, month by month', () => {
  it('waives, charges, overdraws within the limit, leaves the rest uncollected; REST and GraphQL agree', async () => {
    await product('FEE_WAIVABLE', '5', '500');
    await product('FEE_ALWAYS', '3');
    await product('FEE_LARGE', '25');
    const waivable = await openAccount('FEE_WAIVABLE');
    const always = await openAccount('FEE_ALWAYS');
    const overdrawn = await openAccount('FEE_LARGE');
    const short = await openAccount('FEE_LARGE');
    const plain = await openAccount();
    for (const [accountId, limit] of [
      [overdrawn, 20],
      [short, 5],
    ] as const)
      expectSuccess(
        await service.call('PUT', `/sandbox/account/${accountId}/overdraft-limit`, { body: { overdraftLimit: limit } }),
        'account',
        200,
      );
    await post(waivable, 'CREDIT', 1000);
    await post(always, 'CREDIT', 100);
    await post(overdrawn, 'CREDIT', 10);
    await post(short, 'CREDIT', 10);
    const first = await businessDate();
    const firstMonth = first.slice(0, 7);

    // Month 1 closes: every day at the opening balances.
    await advanceTo(nextMonth(first));
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
    expect((await feesOf(waivable)).fees).toEqual([assessment(firstMonth, '1000', '5', '500', 'WAIVED', '0', '0')]);
    expect((await feesOf(always)).fees).toEqual([assessment(firstMonth, '100', '3', null, 'CHARGED', '3', '0')]);
    // 10 + the 20 of the limit: all 25 fit, the account is overdrawn to -15.
    expect((await feesOf(overdrawn)).fees).toEqual([assessment(firstMonth, '10', '25', null, 'CHARGED', '25', '0')]);
    // 10 + the 5 of the limit: 15 is charged, down to -5 and no further; 10 uncollected.
    expect((await feesOf(short)).fees).toEqual([assessment(firstMonth, '10', '25', null, 'CHARGED', '15', '10')]);
    expect([
      await balanceOf(waivable),
      await balanceOf(always),
      await balanceOf(overdrawn),
      await balanceOf(short),
    ]).toEqual(['1000', '97', '-15', '-5']);
    expect(await feeIncome()).toBe('43');

    // Month 2: the waivable account dips below 500 for one day (the 10th) and is charged.
    const second = await businessDate();
    const secondMonth = second.slice(0, 7);
    await advanceTo(`${secondMonth}-10`);
    await post(waivable, 'DEBIT', 600);
    await advanceTo(`${secondMonth}-11`);
    await post(waivable, 'CREDIT', 600);
    await advanceTo(nextMonth(second));
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
    const waivableFees = (await feesOf(waivable)).fees;
    expect(waivableFees).toEqual([
      assessment(secondMonth, '400', '5', '500', 'CHARGED', '5', '0'),
      assessment(firstMonth, '1000', '5', '500', 'WAIVED', '0', '0'),
    ]);
    // The first month's fee counts on that month's last day: 97 all month.
    expect((await feesOf(always)).fees[0]).toEqual(assessment(secondMonth, '97', '3', null, 'CHARGED', '3', '0'));
    // -15 + 20: 5 fits of 25.
    expect((await feesOf(overdrawn)).fees[0]).toEqual(assessment(secondMonth, '-15', '25', null, 'CHARGED', '5', '20'));
    // Already at minus its limit: nothing fits, nothing is posted.
    expect((await feesOf(short)).fees[0]).toEqual(assessment(secondMonth, '-5', '25', null, 'UNCOLLECTED', '0', '25'));
    expect([
      await balanceOf(waivable),
      await balanceOf(always),
      await balanceOf(overdrawn),
      await balanceOf(short),
    ]).toEqual(['995', '94', '-20', '-5']);
    expect(await feeIncome()).toBe('56');
    // An account on no product with a fee has none.
    expect(await feesOf(plain)).toEqual({ fees: [], nextAfter: null });

    // Paged, newest first: REST's nextAfter is GraphQL's cursor.
    const page1 = await feesOf(waivable, '?limit=1');
    expect(page1).toEqual({ fees: [waivableFees[0]], nextAfter: secondMonth });
    expect(await feesOf(waivable, `?limit=1&after=${secondMonth}`)).toEqual({
      fees: [waivableFees[1]],
      nextAfter: null,
    });
    const gql = await graphql(
      service,
      `query($id: ID!, $plain: ID!, $after: String) {
         account(accountId: $id) { all: fees { nodes { ${FIELDS} } pageInfo { hasNextPage endCursor } }
                                   older: fees(first: 1, after: $after) { edges { cursor node { month } } pageInfo { hasNextPage } } }
         plain: account(accountId: $plain) { fees { nodes { month } } } }`,
      { id: waivable, plain, after: secondMonth },
    );
    expect(gql.json.errors).toBeUndefined();
    expect(gql.json.data.account.all).toEqual({
      nodes: waivableFees,
      pageInfo: { hasNextPage: false, endCursor: firstMonth },
    });
    expect(gql.json.data.account.older).toEqual({
      edges: [{ cursor: firstMonth, node: { month: firstMonth } }],
      pageInfo: { hasNextPage: false },
    });
    expect(gql.json.data.plain).toEqual({ fees: { nodes: [] } });

    // The fee is a transaction of the account, audited by the end of day; a reversal books it back to fee income.
    const feeTransaction = waivableFees[0]!.transactionId as string;
    const tx = await service.call('GET', `/sandbox/account/${waivable}/transaction/${feeTransaction}`);
    expect(tx.status, tx.text).toBe(200);
    expect(tx.json.data).toMatchObject({ type: 'DEBIT', description: `Monthly maintenance fee ${secondMonth}` });
    const { rows: audits } = await service.database.pool.query<{ operation: string; n: number }>(
      `SELECT operation, count(*)::int AS n FROM audit_events WHERE environment = 'sandbox'
         AND operation LIKE 'account.maintenance_fee.%' AND principal_id = 'system:end-of-day' GROUP BY operation ORDER BY operation`,
    );
    expect(audits).toEqual([
      { operation: 'account.maintenance_fee.charge', n: 6 },
      { operation: 'account.maintenance_fee.uncollected', n: 1 },
      { operation: 'account.maintenance_fee.waive', n: 1 },
    ]);
    const settlementBefore = (
      await service.database.pool.query<{ amount: string }>(
        "SELECT trim_scale(amount)::text AS amount FROM ledger_settlement_accounts WHERE environment = 'sandbox'",
      )
    ).rows[0]!.amount;
    const reversal = await service.call('POST', `/sandbox/account/${waivable}/transaction/${feeTransaction}/reverse`, {
      body: { description: 'Fee refunded' },
    });
    expect(reversal.status, reversal.text).toBe(201);
    expect(await balanceOf(waivable)).toBe('1000');
    expect(await feeIncome()).toBe('51');
    const settlementAfter = (
      await service.database.pool.query<{ amount: string }>(
        "SELECT trim_scale(amount)::text AS amount FROM ledger_settlement_accounts WHERE environment = 'sandbox'",
      )
    ).rows[0]!.amount;
    expect(settlementAfter).toBe(settlementBefore);
    // The ledger export names the bank's side of the fee and of its reversal: the fee-income account, not settlement.
    const { rows: postings } = await service.database.pool.query<{ posting_id: string }>(
      'SELECT posting_id FROM ledger_entries WHERE id = ANY($1::uuid[]) ORDER BY posting_seq',
      [[feeTransaction, reversal.json.data.transactionId]],
    );
    expect(postings).toHaveLength(2);
    const lines = await exportedLedgerLines(service);
    expect(sidesOf(lines, postings[0]!.posting_id)).toEqual(['CUSTOMER DEBIT', 'FEE_INCOME CREDIT']);
    expect(sidesOf(lines, postings[1]!.posting_id)).toEqual(['CUSTOMER CREDIT', 'FEE_INCOME DEBIT']);
    expect(new Set(lines.map((line) => line.accountKind))).toEqual(new Set(['CUSTOMER', 'SETTLEMENT', 'FEE_INCOME']));
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it("a list of accounts reads its accounts' fees in one statement, whatever its length", async () => {
    await product('FEE_BATCH', '2');
    const one = (await createCustomer(service)).customerId;
    const four = (await createCustomer(service)).customerId;
    await openAccount('FEE_BATCH', one);
    for (let i = 0; i < 4; i++) await openAccount('FEE_BATCH', four);
    await advanceTo(nextMonth(await businessDate()));
    const month = (
      await service.database.pool.query<{ month: string }>(
        "SELECT to_char(max(month), 'YYYY-MM') AS month FROM maintenance_fee_assessments WHERE environment = 'sandbox'",
      )
    ).rows[0]!.month;
    const read = async (customerId: string) => {
      service.statements.count = 0;
      const res = await graphql(
        service,
        'query($id: ID!) { customer(customerId: $id) { accounts { fees(first: 5) { nodes { month outcome charged uncollected } } } } }',
        { id: customerId },
      );
      expect(res.json.errors).toBeUndefined();
      return { statements: service.statements.count, accounts: res.json.data.customer.accounts };
    };
    const single = await read(one);
    const many = await read(four);
    // Nothing was deposited: nothing fits, all of each fee is uncollected.
    const fees = { nodes: [{ month, outcome: 'UNCOLLECTED', charged: '0', uncollected: '2' }] };
    expect(single.accounts).toEqual([{ fees }]);
    expect(many.accounts).toEqual([{ fees }, { fees }, { fees }, { fees }]);
    expect(many.statements).toBe(single.statements);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('an unknown account is ACCOUNT_NOT_FOUND; a bad page is VALIDATION_FAILED', async () => {
    expectFailure(
      await service.call('GET', '/sandbox/account/00000000-0000-4000-8000-000000000000/fees'),
      'account',
      404,
      'ACCOUNT_NOT_FOUND',
    );
    expectFailure(await service.call('GET', '/sandbox/account/not-an-id/fees'), 'account', 404, 'ACCOUNT_NOT_FOUND');
    const accountId = await openAccount();
    expectFailure(
      await service.call('GET', `/sandbox/account/${accountId}/fees?limit=0`),
      'account',
      400,
      'VALIDATION_FAILED',
    );
    const badAfter = await service.call('GET', `/sandbox/account/${accountId}/fees?after=2026-13`);
    expectFailure(badAfter, 'account', 400, 'VALIDATION_FAILED');
    expect(badAfter.json.error.details).toEqual([expect.objectContaining({ field: 'after', code: 'INVALID_FORMAT' })]);
    const gql = await graphql(
      service,
      'query($id: ID!) { account(accountId: $id) { fees(after: "June") { nodes { month } } } }',
      {
        id: accountId,
      },
    );
    expect(gql.json.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});
