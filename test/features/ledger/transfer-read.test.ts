import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { graphql } from '../../graphql/helpers.js';

/**
 * Reading a transfer by its id (issue 30): REST `GET /{environment}/transfer/{transferId}` answers what creating
 * it answered (both sides, as they are now), 404 TRANSFER_NOT_FOUND for an id that names no transfer of the
 * environment; GraphQL `transfer(transferId)` answers the same, or null.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

async function newAccount(environment = 'sandbox'): Promise<string> {
  const { customerId } = await createCustomer(service, {}, environment);
  const res = await service.call('POST', `/${environment}/account`, {
    body: { associatedCustomerIds: [customerId], name: 'Transfers', currency: 'USD', type: 'CHECKING' },
  });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
}

async function fundedTransfer(environment = 'sandbox') {
  const from = await newAccount(environment);
  const to = await newAccount(environment);
  expectSuccess(
    await service.call('POST', `/${environment}/account/${from}/transaction`, { body: { type: 'CREDIT', amount: 50 } }),
    'account',
    201,
  );
  const res = await service.call('POST', `/${environment}/transfer`, {
    body: { fromAccountId: from, toAccountId: to, amount: 20.25, description: 'Rent share' },
  });
  expectSuccess(res, 'account', 201);
  return { from, to, created: res.json.data };
}

describe('GET /{environment}/transfer/{transferId}', () => {
  it('answers the transfer as its creation did, both sides, in the account envelope; any case of the id', async () => {
    const { from, to, created } = await fundedTransfer();
    const res = await service.call('GET', `/sandbox/transfer/${created.transferId}`);
    expectSuccess(res, 'account', 200);
    expect(res.json.data).toEqual(created);
    expect(res.json.data).toMatchObject({
      amount: 20.25,
      currency: 'USD',
      description: 'Rent share',
      debit: { accountId: from, type: 'DEBIT' },
      credit: { accountId: to, type: 'CREDIT' },
    });
    expect((await service.call('GET', `/sandbox/transfer/${created.transferId.toUpperCase()}`)).json.data).toEqual(
      created,
    );
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('shows both sides as they are now after a reversal, which is a transaction of its own', async () => {
    const { from, created } = await fundedTransfer();
    const reversal = await service.call(
      'POST',
      `/sandbox/account/${from}/transaction/${created.debit.transactionId}/reverse`,
      { body: {} },
    );
    expectSuccess(reversal, 'account', 201);
    const res = await service.call('GET', `/sandbox/transfer/${created.transferId}`);
    expect(res.json.data).toEqual(created);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('answers 404 TRANSFER_NOT_FOUND for an unknown id, a malformed one, the id of one of its transactions, and a transfer of another environment', async () => {
    const { created } = await fundedTransfer('production-like');
    const sideId = created.debit.transactionId as string;
    for (const id of ['0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e', 'not-a-uuid', sideId, created.transferId]) {
      expectFailure(await service.call('GET', `/sandbox/transfer/${id}`), 'account', 404, 'TRANSFER_NOT_FOUND');
    }
    const sandbox = await fundedTransfer();
    expectFailure(
      await service.call('GET', `/sandbox/transfer/${sandbox.created.debit.transactionId}`),
      'account',
      404,
      'TRANSFER_NOT_FOUND',
    );
    expectSuccess(await service.call('GET', `/production-like/transfer/${created.transferId}`), 'account', 200);
  });
});

describe('GraphQL transfer(transferId)', () => {
  const TRANSFER = `query($id: ID!) { transfer(transferId: $id) { transferId amount currency description
    debit { transactionId accountId type amount balanceAfter transferId } credit { transactionId accountId type amount transferId } } }`;

  it('answers the transfer REST answers, and null for an id that names none here', async () => {
    const { created } = await fundedTransfer();
    const result = await graphql(service, TRANSFER, { id: created.transferId });
    expect(result.json.errors).toBeUndefined();
    expect(result.json.data.transfer).toEqual({
      transferId: created.transferId,
      amount: '20.25',
      currency: 'USD',
      description: 'Rent share',
      debit: {
        transactionId: created.debit.transactionId,
        accountId: created.debit.accountId,
        type: 'DEBIT',
        amount: '20.25',
        balanceAfter: '29.75',
        transferId: created.transferId,
      },
      credit: {
        transactionId: created.credit.transactionId,
        accountId: created.credit.accountId,
        type: 'CREDIT',
        amount: '20.25',
        transferId: created.transferId,
      },
    });
    const other = await fundedTransfer('production-like');
    for (const id of ['0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e', 'nope', other.created.transferId]) {
      const missing = await graphql(service, TRANSFER, { id });
      expect(missing.json.errors).toBeUndefined();
      expect(missing.json.data.transfer).toBeNull();
    }
  });
});
