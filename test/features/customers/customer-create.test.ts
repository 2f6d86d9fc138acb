import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DomainHarness, createDomainHarness } from '../../support/domain.js';
import { buildCustomerInput, uniqueSsn } from '../../support/factories.js';
import { detailFields, expectRejectedWithoutChange } from '../../support/db-state.js';

let h: DomainHarness;
beforeAll(async () => {
  h = await createDomainHarness();
});
afterAll(async () => h.close());

const create = async (input: unknown, environment = 'sandbox') =>
  (await h.services.customers.create(h.caller(environment), input)).value;

/** Creating `input` must fail with VALIDATION_FAILED pointing at `field`, leaving the database untouched. */
async function expectInvalid(input: unknown, field: string) {
  const error = await expectRejectedWithoutChange(h.pool, () => create(input), {
    code: 'VALIDATION_FAILED',
    kind: 'invalid_input',
  });
  // One problem, one detail: a client fixing the field must not be told the same thing twice.
  expect(detailFields(error)).toEqual([field]);
  return error;
}

interface StoredPersonalData {
  environment: string;
  pii_key_id: string;
  ssn_ciphertext: Buffer;
  document_locator_number_ciphertext: Buffer;
  ssn_blind_index: Buffer;
  row_text: string;
}

async function storedPersonalData(customerId: string): Promise<StoredPersonalData> {
  const { rows } = await h.pool.query<StoredPersonalData>(
    `SELECT environment, pii_key_id, ssn_ciphertext, document_locator_number_ciphertext, ssn_blind_index, row_to_json(c)::text AS row_text
     FROM customers c WHERE id = $1`,
    [customerId],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);
const dayOffsetUtc = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('creating a customer', () => {
  it('stores a valid customer with no accounts and returns exactly the contract fields (and its row version)', async () => {
    const input = buildCustomerInput({ emails: ['a@example.com', 'b@example.org'] });
    const { customerId } = await create(input);
    const customer = await h.services.customers.get(h.caller(), customerId);
    expect(Object.keys(customer).sort()).toEqual(
      [
        'accountIds',
        'addresses',
        'customerId',
        'dateOfBirth',
        'emails',
        'firstName',
        'lastName',
        'middleName',
        'phoneNumbers',
        'preferredName',
        'version',
      ].sort(),
    );
    expect(customer).toEqual({
      customerId,
      accountIds: [],
      dateOfBirth: input.dateOfBirth,
      preferredName: input.preferredName,
      firstName: input.firstName,
      middleName: input.middleName,
      lastName: input.lastName,
      emails: input.emails,
      phoneNumbers: input.phoneNumbers,
      addresses: input.addresses,
      version: 1,
    });
  });

  it.each([
    ['with dashes', (ssn: string) => ssn],
    ['without dashes', (ssn: string) => ssn.replaceAll('-', '')],
  ])('accepts an SSN %s and stores it only encrypted, normalised to nine digits', async (_form, format) => {
    const ssn = uniqueSsn();
    const digits = ssn.replaceAll('-', '');
    const input = buildCustomerInput({ socialSecurityNumber: format(ssn) });
    const { customerId } = await create(input);

    const stored = await storedPersonalData(customerId);
    for (const plain of [ssn, digits, String(input.documentLocatorNumber)]) {
      expect(stored.row_text).not.toContain(plain);
      expect(stored.ssn_ciphertext.includes(Buffer.from(plain))).toBe(false);
      expect(stored.document_locator_number_ciphertext.includes(Buffer.from(plain))).toBe(false);
      expect(stored.row_text).not.toContain(Buffer.from(plain).toString('hex'));
    }
    const binding = { environment: 'sandbox', customerId };
    expect(h.cipher.open(binding, 'ssn', stored.pii_key_id, stored.ssn_ciphertext)).toBe(digits);
    expect(
      h.cipher.open(binding, 'document_locator_number', stored.pii_key_id, stored.document_locator_number_ciphertext),
    ).toBe(String(input.documentLocatorNumber));
    expect(stored.ssn_blind_index.equals(h.cipher.blindIndex('sandbox', digits))).toBe(true);
  });

  it.each([
    ['area 000', '000-12-3456'],
    ['area 666', '666-12-3456'],
    ['area 900', '900-12-3456'],
    ['area 999', '999-12-3456'],
    ['area 9xx without dashes', '950123456'],
    ['group 00', '123-00-4567'],
    ['group 00 without dashes', '123004567'],
    ['serial 0000', '123-45-0000'],
    ['serial 0000 without dashes', '123450000'],
    ['one dash only (after the area)', '123-456789'],
    ['one dash only (before the serial)', '12345-6789'],
    ['dashes in the wrong places', '12-345-6789'],
    ['eight digits', '12345678'],
    ['ten digits', '1234567890'],
    ['letters', 'abc-de-fghi'],
    ['spaces instead of dashes', '123 45 6789'],
    ['surrounding spaces', ' 123-45-6789 '],
    ['non-ASCII digits', '١٢٣-٤٥-٦٧٨٩'],
    ['an empty string', ''],
  ])('rejects an SSN with %s', async (_case, ssn) => {
    await expectInvalid(buildCustomerInput({ socialSecurityNumber: ssn }), 'socialSecurityNumber');
  });

  it('rejects an SSN sent as a number', async () => {
    await expectInvalid({ ...buildCustomerInput(), socialSecurityNumber: 123456789 }, 'socialSecurityNumber');
  });

  it.each([
    ['a leap day', '2000-02-29'],
    ['today', todayUtc()],
    ['the earliest accepted date', '1900-01-01'],
  ])('accepts a date of birth on %s', async (_case, dateOfBirth) => {
    const { customerId } = await create(buildCustomerInput({ dateOfBirth }));
    expect((await h.services.customers.get(h.caller(), customerId)).dateOfBirth).toBe(dateOfBirth);
  });

  it.each([
    ['29 February of a common year', '2001-02-29'],
    ['31 April', '1990-04-31'],
    ['month 13', '1990-13-01'],
    ['month 00', '1990-00-10'],
    ['day 00', '1990-01-00'],
    ['a missing leading zero', '1985-4-12'],
    ['US notation', '04/12/1985'],
    ['a timestamp', '1985-04-12T00:00:00Z'],
    ['tomorrow', dayOffsetUtc(1)],
    ['next year', dayOffsetUtc(366)],
    ['a date before 1900', '1899-12-31'],
    ['an empty string', ''],
  ])('rejects a date of birth that is %s', async (_case, dateOfBirth) => {
    await expectInvalid(buildCustomerInput({ dateOfBirth }), 'dateOfBirth');
  });

  it('rejects a date of birth sent as a number', async () => {
    await expectInvalid({ ...buildCustomerInput(), dateOfBirth: 19850412 }, 'dateOfBirth');
  });

  it.each([
    ['zero', 0],
    ['the largest safe integer', Number.MAX_SAFE_INTEGER],
  ])('accepts a document locator number of %s', async (_case, documentLocatorNumber) => {
    const { customerId } = await create(buildCustomerInput({ documentLocatorNumber }));
    const stored = await storedPersonalData(customerId);
    expect(
      h.cipher.open(
        { environment: 'sandbox', customerId },
        'document_locator_number',
        stored.pii_key_id,
        stored.document_locator_number_ciphertext,
      ),
    ).toBe(String(documentLocatorNumber));
  });

  it.each([
    ['negative', -1],
    ['a fraction', 1.5],
    ['beyond the safe integer range', Number.MAX_SAFE_INTEGER + 1],
    ['a numeric string', '12345'],
    ['null', null],
    ['a boolean', true],
  ])('rejects a document locator number that is %s', async (_case, documentLocatorNumber) => {
    await expectInvalid({ ...buildCustomerInput(), documentLocatorNumber }, 'documentLocatorNumber');
  });

  it('accepts empty contact lists and an empty middle name', async () => {
    const { customerId } = await create(
      buildCustomerInput({ middleName: '', emails: [], phoneNumbers: [], addresses: [] }),
    );
    expect(await h.services.customers.get(h.caller(), customerId)).toMatchObject({
      middleName: '',
      emails: [],
      phoneNumbers: [],
      addresses: [],
    });
  });

  it.each([
    ['no @', 'alex.example.com'],
    ['no domain', 'alex@'],
    ['no local part', '@example.com'],
    ['a space', 'alex doe@example.com'],
    ['more than 254 characters', `${'a'.repeat(250)}@example.com`],
  ])('rejects an email with %s', async (_case, email) => {
    await expectInvalid(buildCustomerInput({ emails: ['ok@example.com', email] }), 'emails.1');
  });

  it.each([
    ['a string instead of a list', 'alex@example.com', 'emails'],
    ['a number in the list', [42], 'emails.0'],
    ['more than 10 addresses', Array.from({ length: 11 }, (_, i) => `a${i}@example.com`), 'emails'],
  ])('rejects emails given as %s', async (_case, emails, field) => {
    await expectInvalid({ ...buildCustomerInput(), emails }, field);
  });

  it('trims names and keeps phone and address types as given', async () => {
    const { customerId } = await create(
      buildCustomerInput({
        firstName: '  Alexandra ',
        phoneNumbers: [{ type: 'WORK_MOBILE', number: '(555) 010-1234' }],
        addresses: [{ type: 'MAILING', street: '2 Side St', city: 'Springfield', state: 'IL', zip: '62702' }],
      }),
    );
    const customer = await h.services.customers.get(h.caller(), customerId);
    expect(customer.firstName).toBe('Alexandra');
    expect(customer.phoneNumbers).toEqual([{ type: 'WORK_MOBILE', number: '(555) 010-1234' }]);
    expect(customer.addresses[0]?.type).toBe('MAILING');
  });

  it.each([
    ['a lower-case type', { type: 'mobile', number: '555 0101' }, 'phoneNumbers.0.type'],
    ['a mixed-case type', { type: 'Mobile', number: '555 0101' }, 'phoneNumbers.0.type'],
    ['a type with a space', { type: 'WORK PHONE', number: '555 0101' }, 'phoneNumbers.0.type'],
    ['an empty type', { type: '', number: '555 0101' }, 'phoneNumbers.0.type'],
    ['no type', { number: '555 0101' }, 'phoneNumbers.0.type'],
    ['an empty number', { type: 'MOBILE', number: '' }, 'phoneNumbers.0.number'],
    ['a blank number', { type: 'MOBILE', number: '   ' }, 'phoneNumbers.0.number'],
    ['letters in the number', { type: 'MOBILE', number: 'call me' }, 'phoneNumbers.0.number'],
    ['a numeric number', { type: 'MOBILE', number: 5550101 }, 'phoneNumbers.0.number'],
    ['an unknown field', { type: 'MOBILE', number: '555 0101', extension: '12' }, 'phoneNumbers.0.extension'],
  ])('rejects a phone with %s', async (_case, phone, field) => {
    await expectInvalid({ ...buildCustomerInput(), phoneNumbers: [phone] }, field);
  });

  it('rejects a phone that is not an object', async () => {
    await expectInvalid({ ...buildCustomerInput(), phoneNumbers: ['+1 555 0101'] }, 'phoneNumbers.0');
  });

  const address = { type: 'HOME', street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' };
  it.each(['type', 'street', 'city', 'state', 'zip'])(
    'rejects an address whose %s is empty or missing',
    async (key) => {
      await expectInvalid({ ...buildCustomerInput(), addresses: [{ ...address, [key]: '' }] }, `addresses.0.${key}`);
      const { [key as keyof typeof address]: _omitted, ...withoutKey } = address;
      await expectInvalid({ ...buildCustomerInput(), addresses: [withoutKey] }, `addresses.0.${key}`);
    },
  );

  it.each([
    ['a lower-case type', { ...address, type: 'home' }, 'addresses.0.type'],
    ['a non-string zip', { ...address, zip: 62701 }, 'addresses.0.zip'],
    ['an unknown field', { ...address, country: 'US' }, 'addresses.0.country'],
    ['a street over 200 characters', { ...address, street: 'x'.repeat(201) }, 'addresses.0.street'],
  ])('rejects an address with %s', async (_case, value, field) => {
    await expectInvalid({ ...buildCustomerInput(), addresses: [value] }, field);
  });

  it.each([
    'socialSecurityNumber',
    'dateOfBirth',
    'documentLocatorNumber',
    'preferredName',
    'firstName',
    'middleName',
    'lastName',
    'emails',
    'phoneNumbers',
    'addresses',
  ])('requires %s', async (field) => {
    const { [field as keyof ReturnType<typeof buildCustomerInput>]: _omitted, ...input } = buildCustomerInput();
    const error = await expectInvalid(input, field);
    expect(error.details?.find((d) => d.field === field)?.code).toBe('REQUIRED');
  });

  it.each([
    ['documentLocatorNumber', '12345'],
    ['socialSecurityNumber', 123456789],
    ['emails', 'alex@example.com'],
    ['addresses', {}],
    ['firstName', null],
  ])('tells a wrong type of %s (INVALID_TYPE) from a missing field', async (field, value) => {
    const error = await expectInvalid({ ...buildCustomerInput(), [field]: value }, field);
    expect(error.details?.[0]?.code).toBe('INVALID_TYPE');
  });

  it.each(['preferredName', 'firstName', 'middleName', 'lastName'])(
    'rejects a %s over 100 characters',
    async (field) => {
      await expectInvalid({ ...buildCustomerInput(), [field]: 'x'.repeat(101) }, field);
    },
  );

  it.each(['preferredName', 'firstName', 'lastName'])('rejects a blank %s', async (field) => {
    await expectInvalid({ ...buildCustomerInput(), [field]: '   ' }, field);
  });

  it('rejects control characters in a name', async () => {
    await expectInvalid({ ...buildCustomerInput(), lastName: 'Doe\u0000' }, 'lastName');
  });

  // Found by npm run fuzz: PostgreSQL refuses unpaired surrogates in jsonb, which was a 500.
  it.each([
    ['a name', { lastName: 'Doe\ud800' }, 'lastName'],
    ['a middle name', { middleName: '\udc00' }, 'middleName'],
    [
      'an address field',
      { addresses: [{ type: 'HOME', street: '1 Main St\ud83d', city: 'Springfield', state: 'IL', zip: '62701' }] },
      'addresses.0.street',
    ],
  ])('rejects an unpaired surrogate in %s, and accepts a paired one (emoji)', async (_case, change, field) => {
    await expectInvalid({ ...buildCustomerInput(), ...change }, field);
    const {
      value: { customerId },
    } = await h.services.customers.create(
      h.caller(),
      buildCustomerInput({
        lastName: 'Doe 😀',
        addresses: [{ type: 'HOME', street: '1 Main St 🏠', city: 'Springfield', state: 'IL', zip: '62701' }],
      }),
    );
    expect((await h.services.customers.get(h.caller(), customerId)).lastName).toBe('Doe 😀');
  });

  it.each([
    ['an unknown field', '"nickname": "Al"', 'nickname'],
    ['a service-assigned field', '"customerId": "0190a0a0-0000-7000-8000-000000000000"', 'customerId'],
    ['accounts', '"accountIds": []', 'accountIds'],
    ['__proto__ (as JSON.parse creates it)', '"__proto__": {"isAdmin": true}', '__proto__'],
    ['constructor', '"constructor": {"prototype": {"isAdmin": true}}', 'constructor'],
  ])('rejects %s instead of ignoring it', async (_case, member, field) => {
    const json = JSON.stringify(buildCustomerInput());
    const input: unknown = JSON.parse(`${json.slice(0, -1)}, ${member}}`);
    expect(Object.hasOwn(input as object, field)).toBe(true);
    const error = await expectInvalid(input, field);
    expect(error.details?.find((d) => d.field === field)?.code).toBe('UNKNOWN_FIELD');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it.each([
    ['null', null],
    ['an array', [buildCustomerInput()]],
    ['a string', 'customer'],
  ])('rejects a body that is %s', async (_case, input) => {
    await expectRejectedWithoutChange(h.pool, () => create(input), { code: 'VALIDATION_FAILED' });
  });

  it('reports every invalid field at once', async () => {
    const error = await expectRejectedWithoutChange(
      h.pool,
      () =>
        create({
          ...buildCustomerInput(),
          socialSecurityNumber: '000-00-0000',
          dateOfBirth: '2001-02-29',
          documentLocatorNumber: -5,
          emails: ['nope'],
        }),
      { code: 'VALIDATION_FAILED' },
    );
    expect(detailFields(error)).toEqual(
      expect.arrayContaining(['socialSecurityNumber', 'dateOfBirth', 'documentLocatorNumber', 'emails.0']),
    );
  });
});

describe('SSN uniqueness', () => {
  it('refuses the same SSN in the same environment, dashed or not, without revealing it', async () => {
    const ssn = uniqueSsn();
    await create(buildCustomerInput({ socialSecurityNumber: ssn }));
    for (const form of [ssn, ssn.replaceAll('-', '')]) {
      const error = await expectRejectedWithoutChange(
        h.pool,
        () => create(buildCustomerInput({ socialSecurityNumber: form })),
        {
          code: 'CUSTOMER_ALREADY_EXISTS',
          kind: 'conflict',
        },
      );
      expect(error.message).not.toContain(ssn);
      expect(error.message).not.toContain(ssn.replaceAll('-', ''));
      expect(JSON.stringify(error.details ?? [])).not.toMatch(/\d{4}/);
    }
  });

  it('allows the same SSN in another environment, with a different blind index', async () => {
    const ssn = uniqueSsn();
    const inSandbox = await create(buildCustomerInput({ socialSecurityNumber: ssn }), 'sandbox');
    const elsewhere = await create(
      buildCustomerInput({ socialSecurityNumber: ssn.replaceAll('-', '') }),
      'production-like',
    );
    expect(elsewhere.customerId).not.toBe(inSandbox.customerId);
    const [a, b] = [await storedPersonalData(inSandbox.customerId), await storedPersonalData(elsewhere.customerId)];
    expect(a.environment).toBe('sandbox');
    expect(b.environment).toBe('production-like');
    expect(a.ssn_blind_index.equals(b.ssn_blind_index)).toBe(false);
    // Environments are partitions: neither customer is visible from the other environment.
    await expect(h.services.customers.get(h.caller('production-like'), inSandbox.customerId)).rejects.toMatchObject({
      code: 'CUSTOMER_NOT_FOUND',
    });
    await expect(h.services.customers.get(h.caller('sandbox'), elsewhere.customerId)).rejects.toMatchObject({
      code: 'CUSTOMER_NOT_FOUND',
    });
  });
});

describe('retrieving a customer', () => {
  it.each([
    ['an unknown id', '0190a0a0-0000-7000-8000-000000000000'],
    ['a malformed id', 'not-a-uuid'],
    ['an SQL fragment', "' OR 1=1 --"],
  ])('answers CUSTOMER_NOT_FOUND for %s', async (_case, id) => {
    await expect(h.services.customers.get(h.caller(), id)).rejects.toMatchObject({
      code: 'CUSTOMER_NOT_FOUND',
      kind: 'not_found',
    });
  });

  it('finds an id written in upper case', async () => {
    const { customerId } = await create(buildCustomerInput());
    expect((await h.services.customers.get(h.caller(), customerId.toUpperCase())).customerId).toBe(customerId);
  });
});
