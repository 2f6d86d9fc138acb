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
 * A product's minimumBalance (docs/adr/0114), REST and GraphQL against the real database: a client's debit (a
 * withdrawal, a debit hold, a transfer out) that would leave the available balance below it is MINIMUM_BALANCE
 * (409) with the minimum and what is available, and changes nothing; holds count, the overdraft limit does not
 * lower it, a correction (reversal) and the bank's own posting (a closing disbursement) are not refused, and an
 * account without a product is as before.
 */
let service: TestService;
let minimum500: string;
beforeAll(async () => {
  service = await startTestService();
  minimum500 = await product(service, { minimumBalance: '500' });
});
afterAll(async () => service?.stop());

/** An account on the 500-minimum product holding `amount`. */
async function funded(amount: string, productCode: string | null = minimum500): Promise<string> {
  const id = await account(service, productCode);
  await posted(service, id, { type: 'CREDIT', amount });
  return id;
}

describe('minimumBalance on REST', () => {
  it('refuses a withdrawal below the minimum (409, the minimum and the available balance), writing nothing; down to it posts', async () => {
    const id = await funded('600');
    const res = await refusedUnchanged(service, () => post(service, id, { type: 'DEBIT', amount: '100.01' }));
    expectFailure(res, 'account', 409, 'MINIMUM_BALANCE');
    expect(valuesOf(res.json.error.details)).toEqual({ MINIMUM_BALANCE: '500', AVAILABLE: '600' });
    await posted(service, id, { type: 'DEBIT', amount: '100' });
    expect(await balances(service, id)).toEqual({ amount: '500', available: '500' });
    await expectSoundLedger(service);
  });

  it('counts pending debits: a debit hold is refused below the minimum, and a hold lowers what a withdrawal may take', async () => {
    const id = await funded('700');
    const refused = await refusedUnchanged(service, () =>
      post(service, id, { type: 'DEBIT', amount: '250', hold: true }),
    );
    expectFailure(refused, 'account', 409, 'MINIMUM_BALANCE');
    const hold = await posted(service, id, { type: 'DEBIT', amount: '150', hold: true });
    const res = await refusedUnchanged(service, () => post(service, id, { type: 'DEBIT', amount: '51' }));
    expectFailure(res, 'account', 409, 'MINIMUM_BALANCE');
    expect(valuesOf(res.json.error.details)).toEqual({ MINIMUM_BALANCE: '500', AVAILABLE: '550' });
    // Capturing the hold takes what was reserved, never more: it is not refused.
    const capture = await service.call('POST', `/sandbox/account/${id}/transaction/${hold.transactionId}/post`, {
      body: {},
    });
    expectSuccess(capture, 'account', 200);
    expect(await balances(service, id)).toEqual({ amount: '550', available: '550' });
    await expectSoundLedger(service);
  });

  it('refuses a transfer out below the minimum; a transfer in is not a debit of it', async () => {
    const from = await funded('520');
    const to = await funded('50', null);
    const res = await refusedUnchanged(service, () => transfer(service, from, to, '20.01'));
    expectFailure(res, 'account', 409, 'MINIMUM_BALANCE');
    expect(valuesOf(res.json.error.details)).toEqual({ MINIMUM_BALANCE: '500', AVAILABLE: '520' });
    expectSuccess(await transfer(service, to, from, '10'), 'account', 201);
    expectSuccess(await transfer(service, from, to, '30'), 'account', 201);
    expect(await balances(service, from)).toEqual({ amount: '500', available: '500' });
    await expectSoundLedger(service);
  });

  it('is not lowered by the overdraft limit: with minimumBalance 0 an overdraft is refused as MINIMUM_BALANCE, past the limit as INSUFFICIENT_FUNDS', async () => {
    const noNegative = await product(service, { minimumBalance: '0' });
    const id = await funded('10', noNegative);
    const limit = await service.call('PUT', `/sandbox/account/${id}/overdraft-limit`, {
      body: { overdraftLimit: 100 },
    });
    expect(limit.status, limit.text).toBe(200);
    const res = await refusedUnchanged(service, () => post(service, id, { type: 'DEBIT', amount: '50' }));
    expectFailure(res, 'account', 409, 'MINIMUM_BALANCE');
    expect(valuesOf(res.json.error.details)).toEqual({ MINIMUM_BALANCE: '0', AVAILABLE: '10' });
    const beyond = await refusedUnchanged(service, () => post(service, id, { type: 'DEBIT', amount: '200' }));
    expectFailure(beyond, 'account', 409, 'INSUFFICIENT_FUNDS');
  });

  it('does not refuse a reversal (a correction) nor the bank’s own posting (a closing disbursement)', async () => {
    const id = await account(service, minimum500);
    const deposit = await posted(service, id, { type: 'CREDIT', amount: '500' });
    await posted(service, id, { type: 'CREDIT', amount: '40' });
    // Reversing the first deposit leaves 40, below the minimum: a correction is not refused.
    const reversal = await service.call('POST', `/sandbox/account/${id}/transaction/${deposit.transactionId}/reverse`, {
      body: {},
    });
    expectSuccess(reversal, 'account', 201);
    expect(await balances(service, id)).toEqual({ amount: '40', available: '40' });
    const other = await account(service, null);
    const close = await service.call('POST', `/sandbox/account/${id}/close`, {
      body: { reason: 'CUSTOMER_REQUEST', disbursementAccountId: other },
    });
    expect(close.status, close.text).toBe(200);
    expect(await balances(service, other)).toEqual({ amount: '40', available: '40' });
    await expectSoundLedger(service);
  });

  it('leaves an account without a product as before: it may go down to zero', async () => {
    const id = await funded('600', null);
    await posted(service, id, { type: 'DEBIT', amount: '600' });
    expect(await balances(service, id)).toEqual({ amount: '0', available: '0' });
    const res = await refusedUnchanged(service, () => post(service, id, { type: 'DEBIT', amount: '0.01' }));
    expectFailure(res, 'account', 409, 'INSUFFICIENT_FUNDS');
  });
});

describe('minimumBalance on GraphQL', () => {
  it('postTransaction and transfer are refused with MINIMUM_BALANCE and the same details, writing nothing', async () => {
    const id = await funded('600');
    const other = await account(service, null);
    const refused = await refusedUnchanged(service, () => graphqlPost(service, id, { type: 'DEBIT', amount: '100.5' }));
    expect(valuesOf(graphqlRefusal(refused, 'MINIMUM_BALANCE'))).toEqual({ MINIMUM_BALANCE: '500', AVAILABLE: '600' });
    const moved = await refusedUnchanged(service, () => graphqlTransfer(service, id, other, '101'));
    expect(valuesOf(graphqlRefusal(moved, 'MINIMUM_BALANCE'))).toEqual({ MINIMUM_BALANCE: '500', AVAILABLE: '600' });
    const ok = await graphqlTransfer(service, id, other, '100');
    expect(ok.json.errors).toBeUndefined();
    await expectSoundLedger(service);
  });
});
