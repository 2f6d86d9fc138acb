import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from '../../rest/helpers.js';
import { startTestService, type TestService } from '../../support/service.js';
import {
  account,
  balances,
  expectSoundLedger,
  graphqlPost,
  graphqlRefusal,
  graphqlTransfer,
  post,
  posted,
  product,
  refusedUnchanged,
  transfer,
  valuesOf,
} from './support.js';

/**
 * A product's withdrawal limits (docs/adr/0114), REST and GraphQL against the real database: every client debit of an
 * account on a product (a withdrawal, a debit hold when made, a transfer out) counts toward `dailyWithdrawalTotal` on
 * the environment's business date and toward `withdrawalsPerMonth` in its business month; one more is
 * WITHDRAWAL_LIMIT_EXCEEDED (409) with the limit and what was used, and changes nothing. Credits, reversals and an
 * account without a product do not count. (Concurrent debits: concurrency.test.ts.)
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

async function funded(productCode: string | null, amount = '1000'): Promise<string> {
  const id = await account(service, productCode);
  await posted(service, id, { type: 'CREDIT', amount });
  return id;
}

describe('dailyWithdrawalTotal', () => {
  it('refuses the debit that would take the business date total over the limit (409, limit and used), writing nothing', async () => {
    const code = await product(service, {
      limits: { dailyWithdrawalTotal: '100' },
    });
    const id = await funded(code);
    await posted(service, id, { type: 'DEBIT', amount: '60' });
    await posted(service, id, { type: 'DEBIT', amount: '30', hold: true });
    const res = await refusedUnchanged(service, () => post(service, id, { type: 'DEBIT', amount: '10.01' }));
    expectFailure(res, 'account', 409, 'WITHDRAWAL_LIMIT_EXCEEDED');
    expect(valuesOf(res.json.error.details)).toEqual({
      DAILY_WITHDRAWAL_TOTAL: '100',
      USED: '90',
    });
    const other = await account(service, null);
    const out = await refusedUnchanged(service, () => transfer(service, id, other, '10.01'));
    expectFailure(out, 'account', 409, 'WITHDRAWAL_LIMIT_EXCEEDED');
    // Credits do not count, and up to the limit posts.
    await posted(service, id, { type: 'CREDIT', amount: '500' });
    expectSuccess(await transfer(service, id, other, '10'), 'account', 201);
    expect(await balances(service, id)).toEqual({
      amount: '1430',
      available: '1400',
    });
    await expectSoundLedger(service);
  });

  it("counts the business date: the environment's next date starts from 0", async () => {
    const code = await product(service, {
      limits: { dailyWithdrawalTotal: '50' },
    });
    const id = await funded(code);
    await posted(service, id, { type: 'DEBIT', amount: '50' });
    expectFailure(await post(service, id, { type: 'DEBIT', amount: '1' }), 'account', 409, 'WITHDRAWAL_LIMIT_EXCEEDED');
    const advance = await service.call('POST', '/sandbox/clock/advance', {
      body: { days: 1 },
    });
    expect(advance.status, advance.text).toBe(200);
    await posted(service, id, { type: 'DEBIT', amount: '50' });
    const res = await post(service, id, { type: 'DEBIT', amount: '0.01' });
    expectFailure(res, 'account', 409, 'WITHDRAWAL_LIMIT_EXCEEDED');
    expect(valuesOf(res.json.error.details)).toEqual({
      DAILY_WITHDRAWAL_TOTAL: '50',
      USED: '50',
    });
  });
});

describe('withdrawalsPerMonth', () => {
  it('refuses one debit more than the business month allows, whatever its amount; a reversal does not count', async () => {
    const code = await product(service, { limits: { withdrawalsPerMonth: 2 } });
    const id = await funded(code);
    const first = await posted(service, id, { type: 'DEBIT', amount: '1' });
    const other = await account(service, null);
    expectSuccess(await transfer(service, id, other, '1'), 'account', 201);
    const res = await refusedUnchanged(service, () => post(service, id, { type: 'DEBIT', amount: '0.01' }));
    expectFailure(res, 'account', 409, 'WITHDRAWAL_LIMIT_EXCEEDED');
    expect(valuesOf(res.json.error.details)).toEqual({
      WITHDRAWALS_PER_MONTH: '2',
      USED: '2',
    });
    const hold = await refusedUnchanged(service, () => post(service, id, { type: 'DEBIT', amount: '1', hold: true }));
    expectFailure(hold, 'account', 409, 'WITHDRAWAL_LIMIT_EXCEEDED');
    // A reversal undoes a posting: neither refused nor counted (the count stays 2), and credits post.
    const reversal = await service.call('POST', `/sandbox/account/${id}/transaction/${first.transactionId}/reverse`, {
      body: {},
    });
    expectSuccess(reversal, 'account', 201);
    await posted(service, id, { type: 'CREDIT', amount: '5' });
    expectFailure(await post(service, id, { type: 'DEBIT', amount: '1' }), 'account', 409, 'WITHDRAWAL_LIMIT_EXCEEDED');
    await expectSoundLedger(service);
  });

  it('leaves an account without a product as before: no debit is counted', async () => {
    const id = await funded(null);
    for (let n = 0; n < 5; n++) await posted(service, id, { type: 'DEBIT', amount: '100' });
    const { rows } = await service.database.pool.query(
      'SELECT withdrawal_day, withdrawal_day_total, withdrawal_month, withdrawal_month_count FROM accounts WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({
      withdrawal_day: null,
      withdrawal_day_total: null,
      withdrawal_month: null,
      withdrawal_month_count: null,
    });
    expect(await balances(service, id)).toEqual({
      amount: '500',
      available: '500',
    });
  });
});

describe('withdrawal limits on GraphQL', () => {
  it('postTransaction and transfer are refused with WITHDRAWAL_LIMIT_EXCEEDED and the same details, writing nothing', async () => {
    const code = await product(service, {
      limits: { dailyWithdrawalTotal: '100', withdrawalsPerMonth: 6 },
    });
    const id = await funded(code);
    const other = await account(service, null);
    expect((await graphqlPost(service, id, { type: 'DEBIT', amount: '99' })).json.errors).toBeUndefined();
    const refused = await refusedUnchanged(service, () => graphqlPost(service, id, { type: 'DEBIT', amount: '1.5' }));
    expect(valuesOf(graphqlRefusal(refused, 'WITHDRAWAL_LIMIT_EXCEEDED'))).toEqual({
      DAILY_WITHDRAWAL_TOTAL: '100',
      USED: '99',
    });
    const moved = await refusedUnchanged(service, () => graphqlTransfer(service, id, other, '2'));
    expect(valuesOf(graphqlRefusal(moved, 'WITHDRAWAL_LIMIT_EXCEEDED'))).toEqual({
      DAILY_WITHDRAWAL_TOTAL: '100',
      USED: '99',
    });
    expect((await graphqlTransfer(service, id, other, '1')).json.errors).toBeUndefined();
    await expectSoundLedger(service);
  });
});
