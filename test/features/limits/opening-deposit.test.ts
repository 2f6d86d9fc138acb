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
 * A product's minimumOpeningDeposit (docs/adr/0114), REST and GraphQL against the real database: a client's first
 * posting of an account on a product (the opening window lasts until it) must be a credit (a deposit, a transfer in)
 * of at least the minimum, else MINIMUM_OPENING_DEPOSIT (422) with the minimum, and nothing changes; later credits are
 * free, the bank's own posting (a closing disbursement) is not refused, an account without a product is as before.
 */
let service: TestService;
let opening100: string;
beforeAll(async () => {
  service = await startTestService();
  opening100 = await product(service, { minimumOpeningDeposit: '100' });
});
afterAll(async () => service?.stop());

describe('minimumOpeningDeposit on REST', () => {
  it('refuses a first deposit below the minimum (422, the minimum), writing nothing; at the minimum it opens, then any credit posts', async () => {
    const id = await account(service, opening100);
    const res = await refusedUnchanged(service, () => post(service, id, { type: 'CREDIT', amount: '99.99' }));
    expectFailure(res, 'account', 422, 'MINIMUM_OPENING_DEPOSIT');
    expect(res.json.error.details).toEqual([expect.objectContaining({ field: 'amount', value: '100' })]);
    await posted(service, id, { type: 'CREDIT', amount: '100' });
    await posted(service, id, { type: 'CREDIT', amount: '0.01' });
    expect(await balances(service, id)).toEqual({
      amount: '100.01',
      available: '100.01',
    });
    await expectSoundLedger(service);
  });

  it('checks a transfer in as the opening deposit; a debit before any deposit (on an overdraft) is refused too', async () => {
    const from = await account(service, null);
    await posted(service, from, { type: 'CREDIT', amount: '500' });
    const id = await account(service, opening100);
    const res = await refusedUnchanged(service, () => transfer(service, from, id, '50'));
    expectFailure(res, 'account', 422, 'MINIMUM_OPENING_DEPOSIT');
    const limit = await service.call('PUT', `/sandbox/account/${id}/overdraft-limit`, {
      body: { overdraftLimit: 100 },
    });
    expect(limit.status, limit.text).toBe(200);
    const overdraw = await refusedUnchanged(service, () => post(service, id, { type: 'DEBIT', amount: '10' }));
    expectFailure(overdraw, 'account', 422, 'MINIMUM_OPENING_DEPOSIT');
    expectSuccess(await transfer(service, from, id, '150'), 'account', 201);
    expect(await balances(service, id)).toEqual({
      amount: '150',
      available: '150',
    });
    await expectSoundLedger(service);
  });

  it("does not refuse the bank's own posting: a closing disbursement opens it whatever the amount", async () => {
    const closing = await account(service, null);
    await posted(service, closing, { type: 'CREDIT', amount: '20' });
    const id = await account(service, opening100);
    const close = await service.call('POST', `/sandbox/account/${closing}/close`, {
      body: { reason: 'CUSTOMER_REQUEST', disbursementAccountId: id },
    });
    expect(close.status, close.text).toBe(200);
    expect(await balances(service, id)).toEqual({
      amount: '20',
      available: '20',
    });
  });

  it('leaves an account without a product as before: any first deposit posts', async () => {
    const id = await account(service, null);
    await posted(service, id, { type: 'CREDIT', amount: '0.01' });
    expect(await balances(service, id)).toEqual({
      amount: '0.01',
      available: '0.01',
    });
  });
});

describe('minimumOpeningDeposit on GraphQL', () => {
  it('postTransaction and transfer are refused with MINIMUM_OPENING_DEPOSIT and the same detail, writing nothing', async () => {
    const id = await account(service, opening100);
    const from = await account(service, null);
    await posted(service, from, { type: 'CREDIT', amount: '500' });
    const refused = await refusedUnchanged(service, () => graphqlPost(service, id, { type: 'CREDIT', amount: '1' }));
    expect(valuesOf(graphqlRefusal(refused, 'MINIMUM_OPENING_DEPOSIT'))).toEqual({ MINIMUM_OPENING_DEPOSIT: '100' });
    const moved = await refusedUnchanged(service, () => graphqlTransfer(service, from, id, '99'));
    expect(valuesOf(graphqlRefusal(moved, 'MINIMUM_OPENING_DEPOSIT'))).toEqual({
      MINIMUM_OPENING_DEPOSIT: '100',
    });
    expect((await graphqlPost(service, id, { type: 'CREDIT', amount: '100' })).json.errors).toBeUndefined();
    await expectSoundLedger(service);
  });
});
