import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoChange as expectNoChangeIn } from '../../support/database.js';
import {
  buildCustomerInput,
  SENSITIVE_VALUES,
  uniqueDocumentLocatorNumber,
  uniqueSsn,
} from '../../support/factories.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createAccount, createCustomer, CUSTOMER_DATA_KEYS, expectFailure, expectSuccess } from '../../rest/helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

/** Runs a request that must be refused and asserts that no table changed. */
const expectNoChange = <T>(request: () => Promise<T>): Promise<T> => expectNoChangeIn(service.database.pool, request);

describe('POST /{environment}/customer', () => {
  it('creates a customer: 201, data is exactly {customerId}, Location names the new record', async () => {
    const created = await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() });
    expectSuccess(created, 'customer', 201);
    expect(Object.keys(created.json.data)).toEqual(['customerId']);
    expect(created.json.data.customerId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(created.headers.get('location')).toBe(`/sandbox/customer/${created.json.data.customerId}`);
    const followed = await service.call('GET', created.headers.get('location')!);
    expectSuccess(followed, 'customer', 200);
    expect(followed.json.data.customerId).toBe(created.json.data.customerId);
  });

  it('stores the SSN and document locator number but never returns them', async () => {
    const { customerId, input } = await createCustomer(service);
    const res = await service.call('GET', `/sandbox/customer/${customerId}`);
    expect(res.text).not.toContain(input.socialSecurityNumber.replaceAll('-', ''));
    const { rows } = await service.database.pool.query('SELECT ssn_ciphertext FROM customers WHERE id = $1', [
      customerId,
    ]);
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0].ssn_ciphertext).toString('utf8')).not.toContain(
      input.socialSecurityNumber.replaceAll('-', ''),
    );
  });

  it('refuses a second customer with the same SSN in the environment, with or without dashes (409)', async () => {
    const ssn = uniqueSsn();
    await createCustomer(service, { socialSecurityNumber: ssn });
    for (const variant of [ssn, ssn.replaceAll('-', '')]) {
      const res = await expectNoChange(() =>
        service.call('POST', '/sandbox/customer', { body: { ...baseInput(), socialSecurityNumber: variant } }),
      );
      expectFailure(res, 'customer', 409, 'CUSTOMER_ALREADY_EXISTS');
    }
    // Environments are separate systems of record: the same person may be enrolled in each.
    await createCustomer(service, { socialSecurityNumber: ssn }, 'production-like');
  });

  it('answers VALIDATION_FAILED with a detail per problem, never echoing the value', async () => {
    const invalidSsn = '000-12-3456';
    SENSITIVE_VALUES.add(invalidSsn);
    const input: Record<string, unknown> = {
      ...baseInput(),
      socialSecurityNumber: invalidSsn,
      emails: 'not-a-list',
      nickname: 'Al',
    };
    delete input.firstName;
    const res = await expectNoChange(() => service.call('POST', '/sandbox/customer', { body: input }));
    expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
    const byField = Object.fromEntries(
      res.json.error.details.map((d: { field: string; code: string }) => [d.field, d.code]),
    );
    expect(byField).toMatchObject({
      firstName: 'REQUIRED',
      emails: 'INVALID_TYPE',
      nickname: 'UNKNOWN_FIELD',
      socialSecurityNumber: 'INVALID_VALUE',
    });
  });

  it('answers VALIDATION_FAILED for a POST without a body, and for a JSON body that is not an object', async () => {
    expectFailure(
      await expectNoChange(() => service.call('POST', '/sandbox/customer')),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
    const emptyJson = await service.call('POST', '/sandbox/customer', {
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expectFailure(emptyJson, 'customer', 400, 'VALIDATION_FAILED');
    for (const rawBody of ['42', '"text"', 'null', '[]']) {
      const res = await service.call('POST', '/sandbox/customer', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
    }
  });
});

describe('GET /{environment}/customer/{customerId}', () => {
  it('returns exactly the contract fields', async () => {
    const { customerId, input } = await createCustomer(service);
    const res = await service.call('GET', `/sandbox/customer/${customerId}`);
    expectSuccess(res, 'customer', 200);
    expect(Object.keys(res.json.data).sort()).toEqual([...CUSTOMER_DATA_KEYS].sort());
    expect(res.json.data).toEqual({
      customerId,
      accountIds: [],
      addresses: input.addresses,
      dateOfBirth: input.dateOfBirth,
      emails: input.emails,
      firstName: input.firstName,
      lastName: input.lastName,
      middleName: input.middleName,
      phoneNumbers: input.phoneNumbers,
      preferredName: input.preferredName,
    });
  });

  it('lists the ids of the customer’s accounts in accountIds', async () => {
    const { customerId } = await createCustomer(service);
    const first = await createAccount(service, [customerId]);
    const second = await createAccount(service, [customerId]);
    const res = await service.call('GET', `/sandbox/customer/${customerId}`);
    expect(res.json.data.accountIds).toEqual([first.accountId, second.accountId]);
  });

  it('accepts ids in any case, a trailing slash and ignores query strings', async () => {
    const { customerId } = await createCustomer(service);
    for (const path of [
      `/sandbox/customer/${customerId.toUpperCase()}`,
      `/sandbox/customer/${customerId}/`,
      `/sandbox/customer/${customerId}?expand=all`,
    ]) {
      const res = await service.call('GET', path);
      expectSuccess(res, 'customer', 200);
      expect(res.json.data.customerId).toBe(customerId);
    }
  });

  it('answers 404 CUSTOMER_NOT_FOUND for an unknown id, well formed or not', async () => {
    for (const id of ['0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e', 'not-an-id']) {
      expectFailure(await service.call('GET', `/sandbox/customer/${id}`), 'customer', 404, 'CUSTOMER_NOT_FOUND');
    }
  });
});

describe('PUT /{environment}/customer/{customerId}', () => {
  it('changes only the fields sent and returns the full customer', async () => {
    const { customerId, input } = await createCustomer(service);
    const res = await service.call('PUT', `/sandbox/customer/${customerId}`, {
      body: { preferredName: 'Sandy', emails: [] },
    });
    expectSuccess(res, 'customer', 200);
    expect(Object.keys(res.json.data).sort()).toEqual([...CUSTOMER_DATA_KEYS].sort());
    expect(res.json.data).toMatchObject({
      customerId,
      preferredName: 'Sandy',
      emails: [],
      phoneNumbers: input.phoneNumbers,
      addresses: input.addresses,
      firstName: input.firstName,
    });
    const reread = await service.call('GET', `/sandbox/customer/${customerId}`);
    expect(reread.json.data).toEqual(res.json.data);
  });

  const NOT_UPDATABLE: Record<string, () => unknown> = {
    socialSecurityNumber: () => uniqueSsn(),
    documentLocatorNumber: () => uniqueDocumentLocatorNumber(),
    dateOfBirth: () => '1990-01-01',
    firstName: () => 'Other',
    middleName: () => 'Other',
    lastName: () => 'Other',
    customerId: () => '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e',
    accountIds: () => [],
  };
  for (const [field, value] of Object.entries(NOT_UPDATABLE)) {
    it(`refuses to change ${field} (400 FIELD_NOT_UPDATABLE) and changes nothing`, async () => {
      const { customerId } = await createCustomer(service);
      const before = await service.call('GET', `/sandbox/customer/${customerId}`);
      const res = await expectNoChange(() =>
        service.call('PUT', `/sandbox/customer/${customerId}`, {
          body: { preferredName: 'Changed', [field]: value() },
        }),
      );
      expectFailure(res, 'customer', 400, 'FIELD_NOT_UPDATABLE');
      expect(res.json.error.details).toEqual([{ field, code: 'FIELD_NOT_UPDATABLE', message: expect.any(String) }]);
      const after = await service.call('GET', `/sandbox/customer/${customerId}`);
      expect(after.json.data).toEqual(before.json.data);
    });
  }

  it('answers VALIDATION_FAILED for an invalid value or an empty update, and changes nothing', async () => {
    const { customerId } = await createCustomer(service);
    const before = await service.call('GET', `/sandbox/customer/${customerId}`);
    for (const body of [{ emails: ['not an email'] }, {}, { phoneNumbers: [{ type: 'MOBILE' }] }]) {
      const res = await service.call('PUT', `/sandbox/customer/${customerId}`, { body });
      expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
    }
    expect((await service.call('GET', `/sandbox/customer/${customerId}`)).json.data).toEqual(before.json.data);
  });

  it('answers 404 CUSTOMER_NOT_FOUND for an unknown customer', async () => {
    const res = await service.call('PUT', '/sandbox/customer/0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e', {
      body: { preferredName: 'X' },
    });
    expectFailure(res, 'customer', 404, 'CUSTOMER_NOT_FOUND');
  });
});

describe('DELETE /{environment}/customer/{customerId}', () => {
  it('deletes: data is {}, and the customer is gone', async () => {
    const { customerId } = await createCustomer(service);
    const res = await service.call('DELETE', `/sandbox/customer/${customerId}`);
    expectSuccess(res, 'customer', 200);
    expect(res.json.data).toEqual({});
    expectFailure(await service.call('GET', `/sandbox/customer/${customerId}`), 'customer', 404, 'CUSTOMER_NOT_FOUND');
    expectFailure(
      await service.call('DELETE', `/sandbox/customer/${customerId}`),
      'customer',
      404,
      'CUSTOMER_NOT_FOUND',
    );
  });

  it('refuses while the customer has accounts (409 CUSTOMER_HAS_ACCOUNTS), then succeeds once they are deleted', async () => {
    const { customerId } = await createCustomer(service);
    const account = await createAccount(service, [customerId]);
    const before = await service.call('GET', `/sandbox/customer/${customerId}`);
    const refused = await expectNoChange(() => service.call('DELETE', `/sandbox/customer/${customerId}`));
    expectFailure(refused, 'customer', 409, 'CUSTOMER_HAS_ACCOUNTS');
    expect((await service.call('GET', `/sandbox/customer/${customerId}`)).json.data).toEqual(before.json.data);

    expectSuccess(await service.call('DELETE', `/sandbox/account/${account.accountId}`), 'account', 200);
    expectSuccess(await service.call('DELETE', `/sandbox/customer/${customerId}`), 'customer', 200);
  });

  it('ignores a body on DELETE, even one that is not JSON', async () => {
    const { customerId } = await createCustomer(service);
    const res = await service.call('DELETE', `/sandbox/customer/${customerId}`, {
      rawBody: '{broken',
      headers: { 'content-type': 'text/plain' },
    });
    expectSuccess(res, 'customer', 200);
  });
});

describe('environments', () => {
  it('isolates data: a customer of sandbox is not found in production-like, and cannot be changed from there', async () => {
    const { customerId } = await createCustomer(service);
    const before = await service.call('GET', `/sandbox/customer/${customerId}`);
    await expectNoChange(async () => {
      expectFailure(
        await service.call('GET', `/production-like/customer/${customerId}`),
        'customer',
        404,
        'CUSTOMER_NOT_FOUND',
      );
      expectFailure(
        await service.call('PUT', `/production-like/customer/${customerId}`, { body: { preferredName: 'Elsewhere' } }),
        'customer',
        404,
        'CUSTOMER_NOT_FOUND',
      );
      expectFailure(
        await service.call('DELETE', `/production-like/customer/${customerId}`),
        'customer',
        404,
        'CUSTOMER_NOT_FOUND',
      );
    });
    expect((await service.call('GET', `/sandbox/customer/${customerId}`)).json.data).toEqual(before.json.data);
  });
});

function baseInput() {
  return {
    dateOfBirth: '1980-02-29',
    documentLocatorNumber: uniqueDocumentLocatorNumber(),
    preferredName: 'Sam',
    firstName: 'Samuel',
    middleName: '',
    lastName: 'Lee',
    emails: ['sam@example.com'],
    phoneNumbers: [],
    addresses: [],
  };
}
