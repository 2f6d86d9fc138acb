import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { createDomainHarness, type DomainHarness } from '../support/domain.js';

let h: DomainHarness;
beforeAll(async () => {
  h = await createDomainHarness();
});
afterAll(async () => h.close());

describe('smoke', () => {
  it('creates a customer and an account and reads them back', async () => {
    const { customerId } = await h.services.customers.create(h.scope(), buildCustomerInput());
    const account = await h.services.accounts.create(h.scope(), buildAccountInput([customerId]));
    expect(account).toMatchObject({ amount: '0', customerIds: [customerId], transactions: [], flags: [] });
    const customer = await h.services.customers.get(h.scope(), customerId);
    expect(customer.accountIds).toEqual([account.accountId]);
    await expect(h.services.customers.delete(h.scope(), customerId)).rejects.toMatchObject({ code: 'CUSTOMER_HAS_ACCOUNTS' });
    await h.services.accounts.delete(h.scope(), account.accountId);
    await h.services.customers.delete(h.scope(), customerId);
    await expect(h.services.customers.get(h.scope(), customerId)).rejects.toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });
  });
});
