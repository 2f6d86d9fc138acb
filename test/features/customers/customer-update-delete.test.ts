import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DomainHarness, createDomainHarness } from '../../support/domain.js';
import { buildAccountInput, buildCustomerInput, type CustomerInput, uniqueSsn } from '../../support/factories.js';
import { databaseState, detailFields, expectRejectedWithoutChange } from '../../support/db-state.js';

let h: DomainHarness;
beforeAll(async () => {
  h = await createDomainHarness();
});
afterAll(async () => h.close());

const customers = () => h.services.customers;

async function newCustomer(overrides: Partial<CustomerInput> = {}) {
  const input = buildCustomerInput(overrides);
  const {
    value: { customerId },
  } = await customers().create(h.caller(), input);
  return { customerId, input, customer: await customers().get(h.caller(), customerId) };
}

async function encryptedColumns(customerId: string) {
  const { rows } = await h.pool.query<{
    ssn_ciphertext: Buffer;
    document_locator_number_ciphertext: Buffer;
    ssn_blind_index: Buffer;
    pii_key_id: string;
  }>(
    'SELECT ssn_ciphertext, document_locator_number_ciphertext, ssn_blind_index, pii_key_id FROM customers WHERE id = $1',
    [customerId],
  );
  return rows[0];
}

describe('updating a customer', () => {
  it('changes only the fields sent and returns the full updated customer', async () => {
    const { customerId, customer } = await newCustomer();
    const before = await encryptedColumns(customerId);
    const updated = await customers().update(h.caller(), customerId, { preferredName: 'Sasha' });
    // The version moves with the change (docs/adr/0057-row-versions-and-etags.md).
    expect(updated).toEqual({ ...customer, preferredName: 'Sasha', version: customer.version + 1 });
    expect(await customers().get(h.caller(), customerId)).toEqual(updated);
    expect(await encryptedColumns(customerId)).toEqual(before);
  });

  it('replaces arrays whole', async () => {
    const { customerId, customer } = await newCustomer({
      emails: ['one@example.com', 'two@example.com'],
      phoneNumbers: [
        { type: 'MOBILE', number: '555 0101' },
        { type: 'HOME', number: '555 0102' },
      ],
    });
    const updated = await customers().update(h.caller(), customerId, {
      emails: ['three@example.com'],
      phoneNumbers: [{ type: 'WORK', number: '555 0103' }],
      addresses: [],
    });
    expect(updated).toEqual({
      ...customer,
      emails: ['three@example.com'],
      phoneNumbers: [{ type: 'WORK', number: '555 0103' }],
      addresses: [],
      version: customer.version + 1,
    });
    expect(await customers().get(h.caller(), customerId)).toEqual(updated);
  });

  const identityFields = {
    socialSecurityNumber: '123-45-6789',
    dateOfBirth: '1970-01-01',
    firstName: 'Mallory',
    middleName: 'M',
    lastName: 'Other',
    documentLocatorNumber: 42,
  };

  it.each(Object.entries(identityFields))(
    'refuses to change %s with FIELD_NOT_UPDATABLE, even alongside a valid change',
    async (field, value) => {
      const { customerId, customer } = await newCustomer();
      const error = await expectRejectedWithoutChange(
        h.pool,
        () => customers().update(h.caller(), customerId, { preferredName: 'Changed', [field]: value }),
        { code: 'FIELD_NOT_UPDATABLE', kind: 'invalid_input' },
      );
      expect(detailFields(error)).toEqual([field]);
      expect(error.message).toContain(field);
      expect(await customers().get(h.caller(), customerId)).toEqual(customer);
    },
  );

  it('names every non-updatable field sent, documentLocatorNumber included', async () => {
    const { customerId, customer } = await newCustomer();
    const error = await expectRejectedWithoutChange(
      h.pool,
      () => customers().update(h.caller(), customerId, { ...identityFields, emails: ['new@example.com'] }),
      { code: 'FIELD_NOT_UPDATABLE' },
    );
    expect(detailFields(error).sort()).toEqual(Object.keys(identityFields).sort());
    for (const field of Object.keys(identityFields)) expect(error.message).toContain(field);
    expect(error.message).not.toContain('123-45-6789');
    expect(await customers().get(h.caller(), customerId)).toEqual(customer);
  });

  it.each([
    ['customerId', '0190a0a0-0000-7000-8000-000000000000'],
    ['accountIds', []],
  ])('refuses the read-only field %s', async (field, value) => {
    const { customerId } = await newCustomer();
    const error = await expectRejectedWithoutChange(
      h.pool,
      () => customers().update(h.caller(), customerId, { [field]: value }),
      {
        code: 'FIELD_NOT_UPDATABLE',
      },
    );
    expect(detailFields(error)).toEqual([field]);
  });

  it.each([
    ['an invalid email', { emails: ['nope'] }, 'emails.0'],
    ['a lower-case phone type', { phoneNumbers: [{ type: 'mobile', number: '555 0101' }] }, 'phoneNumbers.0.type'],
    ['an incomplete address', { addresses: [{ type: 'HOME', street: '1 Main St' }] }, 'addresses.0.city'],
    ['a blank preferred name', { preferredName: ' ' }, 'preferredName'],
    ['null instead of a list', { emails: null }, 'emails'],
    ['an unknown field', { preferredName: 'Ok', nickname: 'Al' }, 'nickname'],
  ])('rejects %s with VALIDATION_FAILED and changes nothing', async (_case, changes, field) => {
    const { customerId, customer } = await newCustomer();
    const error = await expectRejectedWithoutChange(h.pool, () => customers().update(h.caller(), customerId, changes), {
      code: 'VALIDATION_FAILED',
    });
    expect(detailFields(error)).toContain(field);
    expect(await customers().get(h.caller(), customerId)).toEqual(customer);
  });

  it('rejects an update that changes nothing', async () => {
    const { customerId } = await newCustomer();
    await expectRejectedWithoutChange(h.pool, () => customers().update(h.caller(), customerId, {}), {
      code: 'VALIDATION_FAILED',
    });
  });

  it('answers CUSTOMER_NOT_FOUND for an unknown, malformed or other-environment id, changing nothing', async () => {
    const { customerId } = await newCustomer();
    for (const [environment, id] of [
      ['sandbox', '0190a0a0-0000-7000-8000-000000000000'],
      ['sandbox', 'nope'],
      ['production-like', customerId],
    ] as const) {
      await expectRejectedWithoutChange(
        h.pool,
        () => customers().update(h.caller(environment), id, { preferredName: 'X' }),
        {
          code: 'CUSTOMER_NOT_FOUND',
          kind: 'not_found',
        },
      );
    }
  });
});

describe('deleting a customer', () => {
  it('is refused with CUSTOMER_HAS_ACCOUNTS while an account is linked, and changes nothing', async () => {
    const { customerId, customer } = await newCustomer();
    const { value: account } = await h.services.accounts.create(h.caller(), buildAccountInput([customerId]));
    await expectRejectedWithoutChange(h.pool, () => customers().delete(h.caller(), customerId), {
      code: 'CUSTOMER_HAS_ACCOUNTS',
      kind: 'conflict',
    });
    // Linking the account moved the customer's version (its accountIds changed); the refused deletion did not.
    expect(await customers().get(h.caller(), customerId)).toEqual({
      ...customer,
      accountIds: [account.accountId],
      version: customer.version + 1,
    });
  });

  it('removes the row with its ciphertexts and blind index, so the same SSN can be enrolled again', async () => {
    const ssn = uniqueSsn();
    const { customerId } = await newCustomer({ socialSecurityNumber: ssn });
    const { value: account } = await h.services.accounts.create(h.caller(), buildAccountInput([customerId]));
    await h.services.accounts.delete(h.caller(), account.accountId);
    const sealed = (await encryptedColumns(customerId))!;

    await customers().delete(h.caller(), customerId);

    const { rows } = await h.pool.query(
      `SELECT id FROM customers
       WHERE id = $1 OR ssn_blind_index = $2 OR ssn_ciphertext = $3 OR document_locator_number_ciphertext = $4`,
      [
        customerId,
        h.cipher.blindIndex('sandbox', ssn.replaceAll('-', '')),
        sealed.ssn_ciphertext,
        sealed.document_locator_number_ciphertext,
      ],
    );
    expect(rows).toEqual([]);
    expect((await h.pool.query('SELECT 1 FROM account_customers WHERE customer_id = $1', [customerId])).rows).toEqual(
      [],
    );
    await expect(customers().get(h.caller(), customerId)).rejects.toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });

    const again = await customers().create(
      h.caller(),
      buildCustomerInput({ socialSecurityNumber: ssn.replaceAll('-', '') }),
    );
    expect(again.value.customerId).not.toBe(customerId);
  });

  it('is irreversible: deleting twice answers CUSTOMER_NOT_FOUND the second time', async () => {
    const { customerId } = await newCustomer();
    await customers().delete(h.caller(), customerId);
    await expectRejectedWithoutChange(h.pool, () => customers().delete(h.caller(), customerId), {
      code: 'CUSTOMER_NOT_FOUND',
    });
  });

  it('cannot delete a customer of another environment, nor a malformed id', async () => {
    const { customerId } = await newCustomer();
    await expectRejectedWithoutChange(h.pool, () => customers().delete(h.caller('production-like'), customerId), {
      code: 'CUSTOMER_NOT_FOUND',
    });
    await expectRejectedWithoutChange(h.pool, () => customers().delete(h.caller(), 'not-an-id'), {
      code: 'CUSTOMER_NOT_FOUND',
    });
    expect((await customers().get(h.caller(), customerId)).customerId).toBe(customerId);
  });

  it('leaves every other customer untouched', async () => {
    const keep = await newCustomer();
    const remove = await newCustomer();
    const before = await databaseState(h.pool);
    await customers().delete(h.caller(), remove.customerId);
    const after = await databaseState(h.pool);
    expect(after.counts.customers).toBe(before.counts.customers! - 1);
    expect(after.customers).toEqual(
      (before.customers as { id: string }[]).filter((row) => row.id !== remove.customerId),
    );
    expect(await customers().get(h.caller(), keep.customerId)).toEqual(keep.customer);
  });
});
