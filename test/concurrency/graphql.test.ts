import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoChange as expectNoChangeIn } from '../support/database.js';
import { buildCustomerInput } from '../support/factories.js';
import { ledgerViolations } from '../support/ledger-invariants.js';
import { startTestService, type TestService } from '../support/service.js';
import { createCustomer, errorCodes, graphql } from '../graphql/helpers.js';

/** Optimistic concurrency over GraphQL: `version` and `expectedVersion` (docs/adr/0057-row-versions-and-etags.md). */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const expectNoChange = <T>(request: () => Promise<T>): Promise<T> => expectNoChangeIn(service.database.pool, request);

const CUSTOMER_VERSION = 'query($id: ID!) { customer(customerId: $id) { preferredName version } }';
const UPDATE_CUSTOMER =
  'mutation($id: ID!, $name: String!, $v: Int) { updateCustomer(customerId: $id, input: { preferredName: $name }, expectedVersion: $v) { preferredName version } }';
const DELETE_CUSTOMER = 'mutation($id: ID!, $v: Int) { deleteCustomer(customerId: $id, expectedVersion: $v) }';
const ACCOUNT_VERSION = 'query($id: ID!) { account(accountId: $id) { name amount version } }';
const UPDATE_ACCOUNT =
  'mutation($id: ID!, $name: String!, $v: Int) { updateAccount(accountId: $id, input: { name: $name, currency: "USD" }, expectedVersion: $v) { name version } }';
const DELETE_ACCOUNT = 'mutation($id: ID!, $v: Int) { deleteAccount(accountId: $id, expectedVersion: $v) }';
const ACCOUNT_CONTROLS = {
  setFlag:
    'mutation($id: ID!, $v: Int) { setAccountFlag(accountId: $id, flag: FROZEN, reason: "Case 4711", expectedVersion: $v) { flags version } }',
  clearFlag:
    'mutation($id: ID!, $v: Int) { clearAccountFlag(accountId: $id, flag: FROZEN, expectedVersion: $v) { flags version } }',
  overdraft:
    'mutation($id: ID!, $v: Int) { setOverdraftLimit(accountId: $id, overdraftLimit: "25", expectedVersion: $v) { overdraftLimit version } }',
  removeHolder:
    'mutation($id: ID!, $customerId: ID!, $v: Int) { removeAccountCustomer(accountId: $id, customerId: $customerId, expectedVersion: $v) { version } }',
};

const customerVersion = async (id: string): Promise<number> =>
  (await graphql(service, CUSTOMER_VERSION, { id })).json.data.customer.version;
const accountVersion = async (id: string): Promise<number> =>
  (await graphql(service, ACCOUNT_VERSION, { id })).json.data.account.version;

describe('version and expectedVersion', () => {
  it("a customer's version is REST's ETag's; two updates with the same expectedVersion: exactly one wins", async () => {
    const id = await createCustomer(service, buildCustomerInput());
    const version = await customerVersion(id);
    expect((await service.call('GET', `/sandbox/customer/${id}`)).headers.get('etag')).toBe(`"${id}.${version}"`);
    const answers = await Promise.all(
      ['Ada', 'Bea'].map((name) => graphql(service, UPDATE_CUSTOMER, { id, name, v: version })),
    );
    const won = answers.filter((res) => !res.json.errors);
    const lost = answers.filter((res) => res.json.errors);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(errorCodes(lost[0]!)).toEqual(['PRECONDITION_FAILED']);
    const stored = (await graphql(service, CUSTOMER_VERSION, { id })).json.data.customer;
    expect(stored).toEqual(won[0]!.json.data.updateCustomer);
    expect(stored.version).not.toBe(version);
  });

  it('a stale expectedVersion changes nothing (update and delete); without it, or with the current one, the write happens', async () => {
    const id = await createCustomer(service, buildCustomerInput());
    const first = await customerVersion(id);
    await graphql(service, UPDATE_CUSTOMER, { id, name: 'Second' });
    for (const query of [UPDATE_CUSTOMER, DELETE_CUSTOMER]) {
      const refused = await expectNoChange(() => graphql(service, query, { id, name: 'Third', v: first }));
      expect(errorCodes(refused)).toEqual(['PRECONDITION_FAILED']);
    }
    expect((await graphql(service, CUSTOMER_VERSION, { id })).json.data.customer.preferredName).toBe('Second');
    const deleted = await graphql(service, DELETE_CUSTOMER, { id, v: await customerVersion(id) });
    expect(deleted.json).toEqual({ data: { deleteCustomer: id } });
  });

  it("an account's version moves with a deposit, so a rename expecting the earlier one is refused; with the current one it happens", async () => {
    const customerId = await createCustomer(service, buildCustomerInput());
    const created = await service.call('POST', '/sandbox/account', {
      body: { associatedCustomerIds: [customerId], name: 'Everyday', currency: 'USD', type: 'CHECKING' },
    });
    const id = created.json.data.accountId as string;
    const version = await accountVersion(id);
    expect(version).toBe(1);
    await service.call('POST', `/sandbox/account/${id}/transaction`, {
      body: { type: 'CREDIT', amount: 10, description: 'In' },
    });
    const refused = await expectNoChange(() => graphql(service, UPDATE_ACCOUNT, { id, name: 'Savings', v: version }));
    expect(errorCodes(refused)).toEqual(['PRECONDITION_FAILED']);
    const current = await accountVersion(id);
    expect(current).toBeGreaterThan(version);
    const renamed = await graphql(service, UPDATE_ACCOUNT, { id, name: 'Savings', v: current });
    expect(renamed.json.data.updateAccount.name).toBe('Savings');
    await service.call('POST', `/sandbox/account/${id}/transaction`, {
      body: { type: 'DEBIT', amount: 10, description: 'Out' },
    });
    expect(errorCodes(await expectNoChange(() => graphql(service, DELETE_ACCOUNT, { id, v: current })))).toEqual([
      'PRECONDITION_FAILED',
    ]);
    expect((await graphql(service, DELETE_ACCOUNT, { id, v: await accountVersion(id) })).json).toEqual({
      data: { deleteAccount: id },
    });
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it("an account's flags, overdraft limit and holders take expectedVersion: a stale one changes nothing, the current one writes", async () => {
    const customerId = await createCustomer(service, buildCustomerInput());
    const jointId = await createCustomer(service, buildCustomerInput());
    const created = await service.call('POST', '/sandbox/account', {
      body: { associatedCustomerIds: [customerId, jointId], name: 'Joint', currency: 'USD', type: 'CHECKING' },
    });
    const id = created.json.data.accountId as string;
    for (const [name, mutation] of Object.entries(ACCOUNT_CONTROLS)) {
      const stale = await accountVersion(id);
      // Another client renames the account (a deposit would be refused while it is frozen).
      await graphql(service, UPDATE_ACCOUNT, { id, name: `Renamed ${name}` });
      expect(await accountVersion(id)).not.toBe(stale);
      const refused = await expectNoChange(() => graphql(service, mutation, { id, customerId: jointId, v: stale }));
      expect(errorCodes(refused), name).toEqual(['PRECONDITION_FAILED']);
      const current = await accountVersion(id);
      const done = await graphql(service, mutation, { id, customerId: jointId, v: current });
      expect(done.json.errors, name).toBeUndefined();
      expect(Object.values(done.json.data)[0]).toMatchObject({ version: await accountVersion(id) });
    }
    const account = (await service.call('GET', `/sandbox/account/${id}`)).json.data;
    expect(account.flags).toEqual([]);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });
});
