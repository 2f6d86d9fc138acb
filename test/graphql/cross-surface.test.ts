import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { ACCOUNT_FIELDS, CUSTOMER_FIELDS, createAccount, createCustomer, graphql } from './helpers.js';

/**
 * REST and GraphQL are two views of one domain: what one writes the other reads, with the same ids
 * and values. REST per the contract (issue 3): `{ data, success, error, requestId, log_ref_id|logRefId }`.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const READ = `query($customerId: ID!, $accountId: ID!) {
  customer(customerId: $customerId) { ${CUSTOMER_FIELDS} }
  account(accountId: $accountId) { ${ACCOUNT_FIELDS} customers { customerId } }
}`;

describe('REST and GraphQL see the same records', () => {
  it('what REST writes, GraphQL reads', async () => {
    const input = buildCustomerInput({
      preferredName: 'Ada',
      firstName: 'Augusta',
      middleName: 'Ada',
      lastName: 'King',
    });
    const created = await service.call('POST', '/sandbox/customer', { body: input });
    expect(created.status).toBe(201);
    const customerId: string = created.json.data.customerId;
    const account = await service.call('POST', '/sandbox/account', {
      body: buildAccountInput([customerId], { name: 'Analytical Savings', type: 'SAVINGS', currency: 'GBP' }),
    });
    expect(account.status).toBe(201);
    const accountId: string = account.json.data.accountId;
    const updated = await service.call('PUT', `/sandbox/customer/${customerId}`, {
      body: { emails: ['ada@example.org'] },
    });
    expect(updated.status).toBe(200);

    const viaRest = (await service.call('GET', `/sandbox/customer/${customerId}`)).json.data;
    const accountViaRest = (await service.call('GET', `/sandbox/account/${accountId}`)).json.data;
    const viaGraphql = (await graphql(service, READ, { customerId, accountId })).json.data;

    const { id: customerNodeId, ...customer } = viaGraphql.customer;
    expect(customerNodeId).toBe(customerId);
    expect(customer).toEqual(viaRest);
    expect(customer.emails).toEqual(['ada@example.org']);
    const { id: accountNodeId, customerIds, customers, amount, transactions, ...accountRest } = viaGraphql.account;
    expect(accountNodeId).toBe(accountId);
    expect(customers).toEqual([{ customerId }]);
    expect({
      ...accountRest,
      customers: customerIds,
      amount: Number(amount),
      transactions: transactions.nodes,
    }).toEqual(accountViaRest);
  });

  it('what GraphQL writes, REST reads', async () => {
    const customerId = await createCustomer(service, buildCustomerInput({ preferredName: 'Linus' }));
    const accountId = await createAccount(service, buildAccountInput([customerId], { name: 'Kernel Checking' }));
    await graphql(
      service,
      'mutation($id: ID!) { updateAccount(accountId: $id, input: { name: "Renamed", currency: "EUR" }) { accountId } }',
      { id: accountId },
    );

    const viaGraphql = (await graphql(service, READ, { customerId, accountId })).json.data;
    const customer = await service.call('GET', `/sandbox/customer/${customerId}`);
    expect(customer.status).toBe(200);
    expect(customer.json).toMatchObject({ success: true, error: null, log_ref_id: customer.json.requestId });
    const { id: _customerNodeId, ...graphqlCustomer } = viaGraphql.customer;
    expect(customer.json.data).toEqual(graphqlCustomer);

    const account = await service.call('GET', `/sandbox/account/${accountId}`);
    expect(account.json).toMatchObject({ success: true, error: null, logRefId: account.json.requestId });
    expect(account.json.data).toEqual({
      accountId,
      type: 'CHECKING',
      name: 'Renamed',
      amount: 0,
      currency: 'EUR',
      customers: [customerId],
      transactions: [],
      flags: [],
    });
    expect(viaGraphql.account.amount).toBe('0');

    // A delete on one surface is a not-found on the other.
    expect(
      (await graphql(service, 'mutation($id: ID!) { deleteAccount(accountId: $id) }', { id: accountId })).json.data,
    ).toEqual({ deleteAccount: accountId });
    expect((await service.call('GET', `/sandbox/account/${accountId}`)).json.error.code).toBe('ACCOUNT_NOT_FOUND');
    expect((await service.call('DELETE', `/sandbox/customer/${customerId}`)).status).toBe(200);
    expect((await graphql(service, READ, { customerId, accountId })).json.data).toEqual({
      customer: null,
      account: null,
    });
  });

  it('an error has the same code on both surfaces', async () => {
    const customerId = await createCustomer(service, buildCustomerInput());
    await createAccount(service, buildAccountInput([customerId]));
    const rest = await service.call('DELETE', `/sandbox/customer/${customerId}`);
    const graph = await graphql(service, 'mutation($id: ID!) { deleteCustomer(customerId: $id) }', { id: customerId });
    expect(rest.status).toBe(409);
    expect(graph.json.errors[0].extensions.code).toBe(rest.json.error.code);
    expect(graph.json.errors[0].message).toBe(rest.json.error.message);
  });
});
