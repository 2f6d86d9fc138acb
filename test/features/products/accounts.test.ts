import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { bearer } from '../../support/http-auth.js';
import { type CallResult, startTestService, type TestService } from '../../support/service.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';

/**
 * Accounts on a deposit product (docs/adr/0112), REST and GraphQL against the real database: `productCode` on
 * creation (its type and currency must be the product's: PRODUCT_MISMATCH; an unknown code PRODUCT_NOT_FOUND; both
 * write nothing), the answer's `productCode` only on an account that has one, GraphQL `Account.product` under
 * `products:read` (FORBIDDEN on that field alone without it).
 */

let service: TestService;
let opener: string;
let openerWithProducts: string;
beforeAll(async () => {
  service = await startTestService();
  const { pool } = service.database;
  opener = (await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:write', 'accounts:read'] })).token;
  openerWithProducts = (
    await issueApiToken(pool, { environments: ['*'], scopes: ['accounts:write', 'accounts:read', 'products:read'] })
  ).token;
  const body = {
    code: 'EVERYDAY_SAVINGS',
    name: 'Everyday savings',
    accountType: 'SAVINGS',
    currency: 'USD',
    interest: {
      annualRate: '0.01',
      dayCount: 'ACTUAL_365',
      balanceBasis: 'END_OF_DAY',
      compounding: 'DAILY',
      posting: 'MONTHLY',
    },
  };
  expectSuccess(await service.call('POST', '/sandbox/product', { body }), 'account', 201);
});
afterAll(async () => service?.stop());

const account = async (overrides: Record<string, unknown>, token = opener): Promise<CallResult> => {
  const { customerId } = await createCustomer(service);
  const body = { associatedCustomerIds: [customerId], name: 'Savings', currency: 'USD', type: 'SAVINGS', ...overrides };
  return service.call('POST', '/sandbox/account', { headers: bearer(token), body });
};

async function counts(): Promise<Record<string, string>> {
  const { rows } = await service.database.pool.query<Record<string, string>>(
    `SELECT (SELECT count(*)::text FROM accounts) AS accounts, (SELECT count(*)::text FROM account_customers) AS links,
            (SELECT count(*)::text FROM audit_events) AS audit, (SELECT count(*)::text FROM events) AS events,
            (SELECT count(*)::text FROM account_numbers) AS numbers`,
  );
  return rows[0]!;
}

describe('POST /{environment}/account with productCode', () => {
  it('opens an account on a product: the answer, a read and the event show productCode', async () => {
    const res = await account({ productCode: 'EVERYDAY_SAVINGS' });
    expectSuccess(res, 'account', 201);
    expect(res.json.data.productCode).toBe('EVERYDAY_SAVINGS');
    const read = await service.call('GET', `/sandbox/account/${res.json.data.accountId}`);
    expect(read.json.data.productCode).toBe('EVERYDAY_SAVINGS');
    const { rows } = await service.database.pool.query<{ payload: { productCode?: string } }>(
      "SELECT payload FROM events WHERE type = 'account.created' AND resource_id = $1",
      [res.json.data.accountId],
    );
    expect(rows[0]!.payload.productCode).toBe('EVERYDAY_SAVINGS');
  });

  it('an account without a product answers exactly as before: no productCode field', async () => {
    const res = await account({});
    expectSuccess(res, 'account', 201);
    expect(res.json.data).not.toHaveProperty('productCode');
    const read = await service.call('GET', `/sandbox/account/${res.json.data.accountId}`);
    expect(read.json.data).not.toHaveProperty('productCode');
  });

  it.each([
    ['another type', { productCode: 'EVERYDAY_SAVINGS', type: 'CHECKING' }, ['type']],
    ['another currency', { productCode: 'EVERYDAY_SAVINGS', currency: 'EUR' }, ['currency']],
    [
      'another type and currency',
      { productCode: 'EVERYDAY_SAVINGS', type: 'CHECKING', currency: 'EUR' },
      ['type', 'currency'],
    ],
  ])('refuses %s with 422 PRODUCT_MISMATCH, a detail each; nothing written', async (_what, overrides, fields) => {
    const { customerId } = await createCustomer(service);
    const before = await counts();
    const body = {
      associatedCustomerIds: [customerId],
      name: 'Savings',
      currency: 'USD',
      type: 'SAVINGS',
      ...overrides,
    };
    const res = await service.call('POST', '/sandbox/account', { headers: bearer(opener), body });
    expectFailure(res, 'account', 422, 'PRODUCT_MISMATCH');
    expect(res.json.error.details.map((detail: { field: string }) => detail.field)).toEqual(fields);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['an unknown code', 'NO_SUCH_PRODUCT'],
    ['a code of another environment only', 'not a code'],
  ])('refuses %s with 422 PRODUCT_NOT_FOUND; nothing written', async (_what, productCode) => {
    const { customerId } = await createCustomer(service);
    const before = await counts();
    const body = {
      associatedCustomerIds: [customerId],
      name: 'Savings',
      currency: 'USD',
      type: 'SAVINGS',
      productCode,
    };
    const res = await service.call('POST', '/sandbox/account', { headers: bearer(opener), body });
    expectFailure(res, 'account', 422, 'PRODUCT_NOT_FOUND');
    expect(res.json.error.details[0].field).toBe('productCode');
    expect(await counts()).toEqual(before);
  });

  it("keeps an account on a product in the product's currency: a PUT that changes it is PRODUCT_MISMATCH, nothing changed", async () => {
    const res = await account({ productCode: 'EVERYDAY_SAVINGS' });
    expectSuccess(res, 'account', 201);
    const path = `/sandbox/account/${res.json.data.accountId}`;
    const before = await counts();
    const refused = await service.call('PUT', path, { body: { name: 'Savings', currency: 'EUR' } });
    expectFailure(refused, 'account', 422, 'PRODUCT_MISMATCH');
    expect(refused.json.error.details[0].field).toBe('currency');
    expect(await counts()).toEqual(before);
    expect((await service.call('GET', path)).json.data.currency).toBe('USD');
    // A rename in the same currency is an ordinary update.
    const renamed = await service.call('PUT', path, { body: { name: 'Rainy day', currency: 'USD' } });
    expectSuccess(renamed, 'account', 200);
    expect(renamed.json.data).toMatchObject({ name: 'Rainy day', productCode: 'EVERYDAY_SAVINGS' });
  });

  it("the database itself keeps an account on its product's terms, whatever statement writes it", async () => {
    const res = await account({ productCode: 'EVERYDAY_SAVINGS' });
    await expect(
      service.database.pool.query("UPDATE accounts SET currency = 'EUR' WHERE id = $1", [res.json.data.accountId]),
    ).rejects.toThrow(/accounts_match_their_product/);
  });

  it('a product of another environment is not found in this one', async () => {
    const { customerId } = await createCustomer(service, undefined, 'production-like');
    const body = {
      associatedCustomerIds: [customerId],
      name: 'Savings',
      currency: 'USD',
      type: 'SAVINGS',
      productCode: 'EVERYDAY_SAVINGS',
    };
    const res = await service.call('POST', '/production-like/account', { headers: bearer(opener), body });
    expectFailure(res, 'account', 422, 'PRODUCT_NOT_FOUND');
  });
});

describe('GraphQL createAccount(productCode) and Account.product', () => {
  const CREATE = 'mutation($input: CreateAccountInput!) { createAccount(input: $input) { accountId productCode } }';
  const READ =
    'query($id: ID!) { account(accountId: $id) { accountId name productCode product { code accountType interest { rate { annualRate } } } } }';

  it('opens on a product; Account.product needs products:read, else null with FORBIDDEN and the rest answered', async () => {
    const { customerId } = await createCustomer(service);
    const created = await graphql(
      service,
      CREATE,
      {
        input: {
          associatedCustomerIds: [customerId],
          name: 'Savings',
          currency: 'USD',
          type: 'SAVINGS',
          productCode: 'EVERYDAY_SAVINGS',
        },
      },
      { auth: false, headers: bearer(opener) },
    );
    expect(errorCodes(created), created.text).toEqual([]);
    const { accountId, productCode } = created.json.data.createAccount;
    expect(productCode).toBe('EVERYDAY_SAVINGS');
    const full = await graphql(service, READ, { id: accountId }, { auth: false, headers: bearer(openerWithProducts) });
    expect(errorCodes(full), full.text).toEqual([]);
    expect(full.json.data.account.product).toEqual({
      code: 'EVERYDAY_SAVINGS',
      accountType: 'SAVINGS',
      interest: { rate: { annualRate: '0.01' } },
    });
    const partial = await graphql(service, READ, { id: accountId }, { auth: false, headers: bearer(opener) });
    expect(errorCodes(partial)).toEqual(['FORBIDDEN']);
    expect(partial.json.errors[0].path).toEqual(['account', 'product']);
    expect(partial.json.data.account).toEqual({
      accountId,
      name: 'Savings',
      productCode: 'EVERYDAY_SAVINGS',
      product: null,
    });
  });

  it("reads the products of a customer's accounts in one statement, however many accounts (no N+1)", async () => {
    const NESTED = 'query($id: ID!) { customer(customerId: $id) { accounts { accountId product { code } } } }';
    const statementsFor = async (accounts: number) => {
      const { customerId } = await createCustomer(service);
      for (let i = 0; i < accounts; i++)
        await graphql(
          service,
          CREATE,
          {
            input: {
              associatedCustomerIds: [customerId],
              name: `Savings ${i}`,
              currency: 'USD',
              type: 'SAVINGS',
              productCode: 'EVERYDAY_SAVINGS',
            },
          },
          { auth: false, headers: bearer(opener) },
        );
      service.statements.count = 0;
      const read = await graphql(service, NESTED, { id: customerId });
      const statements = service.statements.count;
      expect(errorCodes(read), read.text).toEqual([]);
      expect(
        read.json.data.customer.accounts.map((account: { product: { code: string } }) => account.product.code),
      ).toEqual(Array(accounts).fill('EVERYDAY_SAVINGS'));
      return statements;
    };
    expect(await statementsFor(4)).toBe(await statementsFor(1));
  });

  it('refuses a mismatch and an unknown code with REST codes; an account without a product has product null', async () => {
    const { customerId } = await createCustomer(service);
    const input = { associatedCustomerIds: [customerId], name: 'Checking', currency: 'USD', type: 'CHECKING' };
    const mismatch = await graphql(
      service,
      CREATE,
      { input: { ...input, productCode: 'EVERYDAY_SAVINGS' } },
      { auth: false, headers: bearer(opener) },
    );
    expect(errorCodes(mismatch)).toEqual(['PRODUCT_MISMATCH']);
    const unknown = await graphql(
      service,
      CREATE,
      { input: { ...input, productCode: 'NOPE' } },
      { auth: false, headers: bearer(opener) },
    );
    expect(errorCodes(unknown)).toEqual(['PRODUCT_NOT_FOUND']);
    const plain = await graphql(service, CREATE, { input }, { auth: false, headers: bearer(opener) });
    const id = plain.json.data.createAccount.accountId;
    const read = await graphql(service, READ, { id }, { auth: false, headers: bearer(openerWithProducts) });
    expect(errorCodes(read)).toEqual([]);
    expect(read.json.data.account).toMatchObject({ productCode: null, product: null });
  });
});
