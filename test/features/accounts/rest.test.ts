import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoChange as expectNoChangeIn } from '../../support/database.js';
import { buildAccountInput } from '../../support/factories.js';
import { startTestService, type TestService } from '../../support/service.js';
import { ACCOUNT_DATA_KEYS, createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

/** Runs a request that must be refused and asserts that no table changed. */
const expectNoChange = <T>(request: () => Promise<T>): Promise<T> => expectNoChangeIn(service.database.pool, request);

const MISSING_ID = '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e';

describe('POST /{environment}/account', () => {
  it('creates an account: 201, the full account with amount 0 as a JSON number, Location', async () => {
    const { customerId: first } = await createCustomer(service);
    const { customerId: second } = await createCustomer(service);
    const res = await service.call('POST', '/sandbox/account', {
      body: buildAccountInput([first, second], { name: 'Joint Savings', type: 'MONEY_MARKET', currency: 'EUR' }),
    });
    expectSuccess(res, 'account', 201);
    expect(Object.keys(res.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    expect(res.json.data).toEqual({
      accountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'MONEY_MARKET',
      name: 'Joint Savings',
      amount: 0,
      currency: 'EUR',
      customers: [first, second],
      transactions: [],
      flags: [],
    });
    expect(res.text).toContain('"amount":0,');
    expect(res.headers.get('location')).toBe(`/sandbox/account/${res.json.data.accountId}`);
    const followed = await service.call('GET', res.headers.get('location')!);
    expect(followed.json.data).toEqual(res.json.data);
  });

  it('answers 422 CUSTOMER_NOT_FOUND listing every associated customer that does not exist, and creates nothing', async () => {
    const { customerId } = await createCustomer(service);
    const otherMissing = '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8f';
    const res = await expectNoChange(() =>
      service.call('POST', '/sandbox/account', { body: buildAccountInput([customerId, MISSING_ID, otherMissing]) }),
    );
    expectFailure(res, 'account', 422, 'CUSTOMER_NOT_FOUND');
    expect(res.json.error.details).toEqual([
      { field: 'associatedCustomerIds', code: 'CUSTOMER_NOT_FOUND', message: expect.stringContaining(MISSING_ID) },
      { field: 'associatedCustomerIds', code: 'CUSTOMER_NOT_FOUND', message: expect.stringContaining(otherMissing) },
    ]);
    expect((await service.call('GET', `/sandbox/customer/${customerId}`)).json.data.accountIds).toEqual([]);
  });

  it('answers VALIDATION_FAILED for missing, malformed or unknown fields, and creates nothing', async () => {
    const { customerId } = await createCustomer(service);
    for (const body of [
      { name: 'No customers', currency: 'USD', type: 'CHECKING' },
      buildAccountInput([], {}),
      buildAccountInput([customerId], { type: 'checking' }),
      buildAccountInput([customerId], { currency: 'usd' }),
      { ...buildAccountInput([customerId]), amount: 100 },
    ]) {
      const res = await expectNoChange(() => service.call('POST', '/sandbox/account', { body }));
      expectFailure(res, 'account', 400, 'VALIDATION_FAILED');
      expect(res.json.error.details.length).toBeGreaterThan(0);
    }
  });

  it('cannot link a customer of another environment (422)', async () => {
    const { customerId } = await createCustomer(service, {}, 'production-like');
    const res = await expectNoChange(() =>
      service.call('POST', '/sandbox/account', { body: buildAccountInput([customerId]) }),
    );
    expectFailure(res, 'account', 422, 'CUSTOMER_NOT_FOUND');
  });
});

describe('GET /{environment}/account/{accountId}', () => {
  it('returns exactly the contract fields', async () => {
    const { customerId } = await createCustomer(service);
    const account = await createAccount(service, [customerId]);
    const res = await service.call('GET', `/sandbox/account/${account.accountId}`);
    expectSuccess(res, 'account', 200);
    expect(Object.keys(res.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    expect(res.json.data).toEqual(account);
  });

  it('answers 404 ACCOUNT_NOT_FOUND for an unknown id, well formed or not', async () => {
    for (const id of [MISSING_ID, 'nope']) {
      expectFailure(await service.call('GET', `/sandbox/account/${id}`), 'account', 404, 'ACCOUNT_NOT_FOUND');
    }
  });
});

describe('PUT /{environment}/account/{accountId}', () => {
  it('renames and re-denominates; type, amount and customers stay', async () => {
    const { customerId } = await createCustomer(service);
    const account = await createAccount(service, [customerId]);
    const res = await service.call('PUT', `/sandbox/account/${account.accountId}`, {
      body: { name: 'Bills', currency: 'GBP' },
    });
    expectSuccess(res, 'account', 200);
    expect(res.json.data).toEqual({ ...account, name: 'Bills', currency: 'GBP' });
    expect((await service.call('GET', `/sandbox/account/${account.accountId}`)).json.data).toEqual(res.json.data);
  });

  for (const [field, value] of [
    ['type', 'SAVINGS'],
    ['amount', 10],
    ['customers', []],
    ['accountId', MISSING_ID],
  ] as const) {
    it(`refuses to change ${field} (400 FIELD_NOT_UPDATABLE) and changes nothing`, async () => {
      const { customerId } = await createCustomer(service);
      const account = await createAccount(service, [customerId]);
      const res = await expectNoChange(() =>
        service.call('PUT', `/sandbox/account/${account.accountId}`, {
          body: { name: 'Renamed', currency: 'USD', [field]: value },
        }),
      );
      expectFailure(res, 'account', 400, 'FIELD_NOT_UPDATABLE');
      expect(res.json.error.details).toEqual([{ field, code: 'FIELD_NOT_UPDATABLE', message: expect.any(String) }]);
      expect((await service.call('GET', `/sandbox/account/${account.accountId}`)).json.data).toEqual(account);
    });
  }

  it('requires both name and currency (400 VALIDATION_FAILED)', async () => {
    const { customerId } = await createCustomer(service);
    const account = await createAccount(service, [customerId]);
    const res = await service.call('PUT', `/sandbox/account/${account.accountId}`, { body: { name: 'Only a name' } });
    expectFailure(res, 'account', 400, 'VALIDATION_FAILED');
    expect(res.json.error.details).toEqual([{ field: 'currency', code: 'REQUIRED', message: expect.any(String) }]);
    expect((await service.call('GET', `/sandbox/account/${account.accountId}`)).json.data).toEqual(account);
  });

  it('answers 404 ACCOUNT_NOT_FOUND for an unknown account', async () => {
    const res = await service.call('PUT', `/sandbox/account/${MISSING_ID}`, { body: { name: 'X', currency: 'USD' } });
    expectFailure(res, 'account', 404, 'ACCOUNT_NOT_FOUND');
  });
});

describe('DELETE /{environment}/account/{accountId}', () => {
  it('deletes: data is {}, the account is gone and its customers no longer list it', async () => {
    const { customerId } = await createCustomer(service);
    const account = await createAccount(service, [customerId]);
    const res = await service.call('DELETE', `/sandbox/account/${account.accountId}`);
    expectSuccess(res, 'account', 200);
    expect(res.json.data).toEqual({});
    expectFailure(
      await service.call('GET', `/sandbox/account/${account.accountId}`),
      'account',
      404,
      'ACCOUNT_NOT_FOUND',
    );
    expect((await service.call('GET', `/sandbox/customer/${customerId}`)).json.data.accountIds).toEqual([]);
    expectFailure(
      await service.call('DELETE', `/sandbox/account/${account.accountId}`),
      'account',
      404,
      'ACCOUNT_NOT_FOUND',
    );
  });
});

describe('environments', () => {
  it('isolates accounts: not found, not changeable and not deletable from another environment', async () => {
    const { customerId } = await createCustomer(service);
    const account = await createAccount(service, [customerId]);
    await expectNoChange(async () => {
      expectFailure(
        await service.call('GET', `/production-like/account/${account.accountId}`),
        'account',
        404,
        'ACCOUNT_NOT_FOUND',
      );
      expectFailure(
        await service.call('PUT', `/production-like/account/${account.accountId}`, {
          body: { name: 'X', currency: 'USD' },
        }),
        'account',
        404,
        'ACCOUNT_NOT_FOUND',
      );
      expectFailure(
        await service.call('DELETE', `/production-like/account/${account.accountId}`),
        'account',
        404,
        'ACCOUNT_NOT_FOUND',
      );
    });
    expect((await service.call('GET', `/sandbox/account/${account.accountId}`)).json.data).toEqual(account);
  });
});
