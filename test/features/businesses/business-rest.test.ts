import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createCustomer, CUSTOMER_DATA_KEYS, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { bearer } from '../../support/http-auth.js';
import { startTestService, type TestService } from '../../support/service.js';
import { BUSINESS_DATA_KEYS, buildBusinessInput, expectNothingChanged, uniqueEin } from './support.js';

let service: TestService;
let ssnSearcher: string;
let reader: string;
beforeAll(async () => {
  service = await startTestService();
  ssnSearcher = (
    await issueApiToken(service.database.pool, { environments: ['*'], scopes: ['customers:ssn_search'], name: 'kyb' })
  ).token;
  reader = (
    await issueApiToken(service.database.pool, { environments: ['*'], scopes: ['customers:read'], name: 'support' })
  ).token;
});
afterAll(async () => service?.stop());

async function createBusiness(overrides: Parameters<typeof buildBusinessInput>[0] = {}) {
  const input = buildBusinessInput(overrides);
  const created = await service.call('POST', '/sandbox/customer', { body: input });
  expectSuccess(created, 'customer', 201);
  return { input, customerId: created.json.data.customerId as string, created };
}

const detailOf = (res: { json: { error: { details?: { field?: string; code: string }[] } } }) =>
  (res.json.error.details ?? []).map((detail) => [detail.field, detail.code]);

describe('creating a business customer', () => {
  it('answers {customerId} as a person creation does, with Location and the sealed tax id stored apart', async () => {
    const { input, customerId, created } = await createBusiness();
    expect(Object.keys(created.json.data)).toEqual(['customerId']);
    expect(created.headers.get('location')).toBe(`/sandbox/customer/${customerId}`);
    const { rows } = await service.database.pool.query(
      `SELECT c.customer_type, c.ssn_ciphertext, c.first_name, c.date_of_birth, b.tax_id_ciphertext, b.pii_key_id
         FROM customers c JOIN business_profiles b ON b.customer_id = c.id WHERE c.id = $1`,
      [customerId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].customer_type).toBe('BUSINESS');
    expect([rows[0].ssn_ciphertext, rows[0].first_name, rows[0].date_of_birth]).toEqual([null, null, null]);
    expect(rows[0].pii_key_id).toEqual(expect.any(String));
    expect(Buffer.from(rows[0].tax_id_ciphertext).toString('latin1')).not.toContain(input.taxId.replace('-', ''));
  });

  it.each([
    ['taxId missing', { taxId: undefined }, 'VALIDATION_FAILED', 'taxId'],
    ['an EIN of eight digits', { taxId: '12-345678' }, 'VALIDATION_FAILED', 'taxId'],
    ['an EIN with letters', { taxId: '12-34567AB' }, 'VALIDATION_FAILED', 'taxId'],
    ['a non-US tax id with a dash', { taxId: 'GB-123', formationCountry: 'GB' }, 'VALIDATION_FAILED', 'taxId'],
    ['a non-US tax id too long', { taxId: 'A'.repeat(33), formationCountry: 'GB' }, 'VALIDATION_FAILED', 'taxId'],
    ['legalName missing', { legalName: undefined }, 'VALIDATION_FAILED', 'legalName'],
    ['an unknown entity type', { entityType: 'COOPERATIVE' }, 'VALIDATION_FAILED', 'entityType'],
    ['a formation date in the future', { formationDate: '2999-01-01' }, 'VALIDATION_FAILED', 'formationDate'],
    ['a formation date that is no date', { formationDate: '2020-02-30' }, 'VALIDATION_FAILED', 'formationDate'],
    ['a country that is not alpha-2', { formationCountry: 'USA' }, 'VALIDATION_FAILED', 'formationCountry'],
    ['an industry that is no NAICS code', { industry: '1' }, 'VALIDATION_FAILED', 'industry'],
    ['a website that is not http(s)', { website: 'ftp://acme.example.com' }, 'VALIDATION_FAILED', 'website'],
    ['a malformed email', { emails: ['not-an-email'] }, 'VALIDATION_FAILED', 'emails.0'],
    [
      'a malformed phone number',
      { phoneNumbers: [{ type: 'WORK', number: 'call me' }] },
      'VALIDATION_FAILED',
      'phoneNumbers.0.number',
    ],
    ['an unknown field', { favouriteColour: 'blue' }, 'VALIDATION_FAILED', 'favouriteColour'],
    ['a person field', { socialSecurityNumber: '123-45-6789' }, 'FIELD_NOT_FOR_CUSTOMER_TYPE', 'socialSecurityNumber'],
    ['a person name', { firstName: 'Ada' }, 'FIELD_NOT_FOR_CUSTOMER_TYPE', 'firstName'],
  ])('refuses %s, coded, changing nothing', async (_case, overrides, code, field) => {
    const body = buildBusinessInput(overrides as Parameters<typeof buildBusinessInput>[0]);
    const res = await expectNothingChanged(service, () => service.call('POST', '/sandbox/customer', { body }));
    expectFailure(res, 'customer', 400, code);
    expect(detailOf(res).map(([name]) => name)).toContain(field);
    expect(res.text).not.toContain(body.taxId ?? '\u0000');
  });

  it('refuses business fields on a person, and a customerType that is neither, by name', async () => {
    const person = (await import('../../support/factories.js')).buildCustomerInput();
    const withLegalName = await expectNothingChanged(service, () =>
      service.call('POST', '/sandbox/customer', { body: { ...person, legalName: 'Acme' } }),
    );
    expectFailure(withLegalName, 'customer', 400, 'FIELD_NOT_FOR_CUSTOMER_TYPE');
    expect(detailOf(withLegalName)).toEqual([['legalName', 'FIELD_NOT_FOR_CUSTOMER_TYPE']]);
    const unknownType = await expectNothingChanged(service, () =>
      service.call('POST', '/sandbox/customer', { body: { ...person, customerType: 'ROBOT' } }),
    );
    expectFailure(unknownType, 'customer', 400, 'VALIDATION_FAILED');
    expect(detailOf(unknownType)).toEqual([['customerType', 'INVALID_VALUE']]);
  });

  it('creates a person with "customerType": "INDIVIDUAL" exactly as without it', async () => {
    const person = (await import('../../support/factories.js')).buildCustomerInput();
    const created = await service.call('POST', '/sandbox/customer', {
      body: { ...person, customerType: 'INDIVIDUAL' },
    });
    expectSuccess(created, 'customer', 201);
    const read = await service.call('GET', `/sandbox/customer/${created.json.data.customerId}`);
    expect(Object.keys(read.json.data).sort()).toEqual([...CUSTOMER_DATA_KEYS].sort());
  });

  it('refuses a second business with the same tax id, in either EIN spelling (409 TAX_ID_ALREADY_EXISTS), audited', async () => {
    const ein = uniqueEin();
    await createBusiness({ taxId: ein });
    for (const spelling of [ein, ein.replace('-', '')]) {
      const audits = await service.database.pool.query(
        "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'customer.create.refused'",
      );
      const res = await expectNothingChanged(service, () =>
        service.call('POST', '/sandbox/customer', { body: buildBusinessInput({ taxId: spelling }) }),
      );
      expectFailure(res, 'customer', 409, 'TAX_ID_ALREADY_EXISTS');
      const after = await service.database.pool.query(
        "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'customer.create.refused'",
      );
      expect(after.rows[0].n).toBe(audits.rows[0].n + 1);
    }
    // The same digits in another environment are another business.
    const elsewhere = await service.call('POST', '/production-like/customer', {
      body: buildBusinessInput({ taxId: ein }),
    });
    expectSuccess(elsewhere, 'customer', 201);
  });

  it('takes externalId and metadata as a person does; a taken externalId wins over a taken tax id', async () => {
    const externalId = `biz-${Date.now()}`;
    const ein = uniqueEin();
    const { customerId } = await createBusiness({ taxId: ein, externalId, metadata: { tier: 'gold' } });
    const read = await service.call('GET', `/sandbox/customer/${customerId}`);
    expect(Object.keys(read.json.data).sort()).toEqual([...BUSINESS_DATA_KEYS, 'externalId', 'metadata'].sort());
    expect(read.json.data).toMatchObject({ externalId, metadata: { tier: 'gold' } });
    const both = await expectNothingChanged(service, () =>
      service.call('POST', '/sandbox/customer', { body: buildBusinessInput({ taxId: ein, externalId }) }),
    );
    expectFailure(both, 'customer', 409, 'EXTERNAL_ID_TAKEN');
    const found = await service.call('GET', `/sandbox/customer?externalId=${externalId}`);
    expect(found.json.data.customers.map((c: { customerId: string }) => c.customerId)).toEqual([customerId]);
  });

  it('creates and updates with customers:write alone, answering the acknowledgment', async () => {
    const writer = (
      await issueApiToken(service.database.pool, { environments: ['*'], scopes: ['customers:write'], name: 'writer' })
    ).token;
    const created = await service.call('POST', '/sandbox/customer', {
      body: buildBusinessInput(),
      headers: bearer(writer),
    });
    expectSuccess(created, 'customer', 201);
    const updated = await service.call('PUT', `/sandbox/customer/${created.json.data.customerId}`, {
      body: { industry: '52' },
      headers: bearer(writer),
    });
    expectSuccess(updated, 'customer', 200);
    expect(updated.json.data).toEqual({ customerId: created.json.data.customerId });
  });

  it('replays a creation with the same Idempotency-Key', async () => {
    const body = buildBusinessInput();
    const headers = { 'idempotency-key': `business-${Date.now()}` };
    const first = await service.call('POST', '/sandbox/customer', { body, headers });
    expectSuccess(first, 'customer', 201);
    const again = await expectNothingChanged(service, () =>
      service.call('POST', '/sandbox/customer', { body, headers }),
    );
    expect(again.json.data).toEqual(first.json.data);
  });
});

describe("a business's answers", () => {
  it('GET, the list and PUT answer exactly the business fields; a person keeps the contract fields', async () => {
    const { customerId, input } = await createBusiness({ legalName: `Exact Fields ${Date.now()} Inc` });
    const person = await createCustomer(service);

    const read = await service.call('GET', `/sandbox/customer/${customerId}`);
    expectSuccess(read, 'customer', 200);
    expect(Object.keys(read.json.data).sort()).toEqual(BUSINESS_DATA_KEYS);
    expect(read.json.data).toMatchObject({
      customerId,
      customerType: 'BUSINESS',
      legalName: input.legalName,
      doingBusinessAs: 'Acme',
      entityType: 'LLC',
      formationDate: '2015-03-01',
      formationState: 'DE',
      formationCountry: 'US',
      industry: '332710',
      website: 'https://acme.example.com',
      accountIds: [],
      emails: input.emails,
    });

    const personRead = await service.call('GET', `/sandbox/customer/${person.customerId}`);
    expect(Object.keys(personRead.json.data).sort()).toEqual([...CUSTOMER_DATA_KEYS].sort());

    const businesses = await service.call('GET', '/sandbox/customer?customerType=BUSINESS&limit=100');
    expectSuccess(businesses, 'customer', 200);
    const listed = businesses.json.data.customers.find((c: { customerId: string }) => c.customerId === customerId);
    expect(listed).toEqual(read.json.data);
    expect(businesses.json.data.customers.every((c: { customerType?: string }) => c.customerType === 'BUSINESS')).toBe(
      true,
    );
    const people = await service.call('GET', '/sandbox/customer?customerType=INDIVIDUAL&limit=100');
    expect(people.json.data.customers.length).toBeGreaterThan(0);
    for (const customer of people.json.data.customers)
      expect(Object.keys(customer).sort()).toEqual([...CUSTOMER_DATA_KEYS].sort());
    // The unfiltered list holds both shapes.
    const all = await service.call('GET', '/sandbox/customer?limit=100');
    expectSuccess(all, 'customer', 200);

    const etag = read.headers.get('etag');
    const updated = await service.call('PUT', `/sandbox/customer/${customerId}`, {
      body: { doingBusinessAs: 'Acme Two', website: null, emails: ['new@acme.example.com'] },
    });
    expectSuccess(updated, 'customer', 200);
    expect(Object.keys(updated.json.data).sort()).toEqual(BUSINESS_DATA_KEYS);
    expect(updated.json.data).toMatchObject({
      doingBusinessAs: 'Acme Two',
      website: null,
      emails: ['new@acme.example.com'],
    });
    expect(updated.headers.get('etag')).not.toBe(etag);
    expect((await service.call('GET', `/sandbox/customer/${customerId}`)).json.data).toEqual(updated.json.data);
  });

  it('moves the ETag when only the profile changes, and honours If-Match', async () => {
    const { customerId } = await createBusiness();
    const before = await service.call('GET', `/sandbox/customer/${customerId}`);
    const etag = before.headers.get('etag')!;
    const changed = await service.call('PUT', `/sandbox/customer/${customerId}`, {
      body: { industry: '5415' },
      headers: { 'if-match': etag },
    });
    expectSuccess(changed, 'customer', 200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    const stale = await expectNothingChanged(service, () =>
      service.call('PUT', `/sandbox/customer/${customerId}`, {
        body: { industry: '54' },
        headers: { 'if-match': etag },
      }),
    );
    expect(stale.status).toBe(412);
  });

  it.each([
    [{ legalName: 'Other' }, 'FIELD_NOT_UPDATABLE', 'legalName'],
    [{ taxId: '98-7654321' }, 'FIELD_NOT_UPDATABLE', 'taxId'],
    [{ entityType: 'TRUST' }, 'FIELD_NOT_UPDATABLE', 'entityType'],
    [{ formationDate: '2001-01-01' }, 'FIELD_NOT_UPDATABLE', 'formationDate'],
    [{ formationCountry: 'GB' }, 'FIELD_NOT_UPDATABLE', 'formationCountry'],
    [{ customerType: 'INDIVIDUAL' }, 'FIELD_NOT_UPDATABLE', 'customerType'],
    [{ firstName: 'Ada' }, 'FIELD_NOT_FOR_CUSTOMER_TYPE', 'firstName'],
    [{ preferredName: 'Ada' }, 'FIELD_NOT_FOR_CUSTOMER_TYPE', 'preferredName'],
    [{ website: 'javascript:alert(1)' }, 'VALIDATION_FAILED', 'website'],
  ])('refuses a business PUT of %o, coded, changing nothing', async (body, code, field) => {
    const { customerId } = await createBusiness();
    const res = await expectNothingChanged(service, () =>
      service.call('PUT', `/sandbox/customer/${customerId}`, { body }),
    );
    expectFailure(res, 'customer', 400, code);
    expect(detailOf(res).map(([name]) => name)).toContain(field);
  });

  it.each([
    [{ website: 'https://person.example.com' }, 'FIELD_NOT_FOR_CUSTOMER_TYPE', 'website'],
    [{ legalName: 'Ada Ltd' }, 'FIELD_NOT_FOR_CUSTOMER_TYPE', 'legalName'],
    [{ customerType: 'BUSINESS' }, 'FIELD_NOT_UPDATABLE', 'customerType'],
  ])("refuses a person's PUT of %o, coded, changing nothing", async (body, code, field) => {
    const { customerId } = await createCustomer(service);
    const res = await expectNothingChanged(service, () =>
      service.call('PUT', `/sandbox/customer/${customerId}`, { body }),
    );
    expectFailure(res, 'customer', 400, code);
    expect(detailOf(res).map(([name]) => name)).toContain(field);
  });

  it('deletes a business with its profile; refused while an account is linked', async () => {
    const { customerId } = await createBusiness();
    const account = { json: { data: await createAccount(service, [customerId]) } };
    const refused = await expectNothingChanged(service, () =>
      service.call('DELETE', `/sandbox/customer/${customerId}`),
    );
    expectFailure(refused, 'customer', 409, 'CUSTOMER_HAS_ACCOUNTS');
    const withAccount = await service.call('GET', `/sandbox/customer/${customerId}`);
    expect(withAccount.json.data.accountIds).toEqual([account.json.data.accountId]);
    expect((await service.call('DELETE', `/sandbox/account/${account.json.data.accountId}`)).status).toBeLessThan(300);
    expect((await service.call('DELETE', `/sandbox/customer/${customerId}`)).status).toBeLessThan(300);
    expectFailure(await service.call('GET', `/sandbox/customer/${customerId}`), 'customer', 404, 'CUSTOMER_NOT_FOUND');
    const { rows } = await service.database.pool.query('SELECT 1 FROM business_profiles WHERE customer_id = $1', [
      customerId,
    ]);
    expect(rows).toHaveLength(0);
  });
});

describe('finding businesses', () => {
  it('filters by legalName prefix, case- and accent-insensitive', async () => {
    const stem = `Zürcher${Date.now()}`;
    const { customerId } = await createBusiness({
      legalName: `${stem} Bäckerei AG`,
      formationCountry: 'CH',
      taxId: `CHE${Date.now()}`,
    });
    await createBusiness({ legalName: `Other ${stem}` });
    for (const prefix of [stem, stem.toLowerCase(), stem.replace('ü', 'u').toUpperCase()]) {
      const res = await service.call('GET', `/sandbox/customer?legalName=${encodeURIComponent(prefix)}`);
      expectSuccess(res, 'customer', 200);
      expect(res.json.data.customers.map((c: { customerId: string }) => c.customerId)).toEqual([customerId]);
    }
  });

  it('searches by tax id in a body with customers:ssn_search, in either spelling, audited; never in a URL', async () => {
    const ein = uniqueEin();
    const { customerId } = await createBusiness({ taxId: ein });
    const audits = async () =>
      (
        await service.database.pool.query(
          "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'customer.search'",
        )
      ).rows[0].n as number;
    for (const taxId of [ein, ein.replace('-', '')]) {
      const before = await audits();
      const res = await service.call('POST', '/sandbox/customer/search', {
        body: { taxId },
        headers: bearer(ssnSearcher),
      });
      expectSuccess(res, 'customer', 200);
      expect(res.json.data.customers.map((c: { customerId: string }) => c.customerId)).toEqual([customerId]);
      expect(await audits()).toBe(before + 1);
    }
    const forbidden = await service.call('POST', '/sandbox/customer/search', {
      body: { taxId: ein },
      headers: bearer(reader),
    });
    expectFailure(forbidden, 'customer', 403, 'FORBIDDEN');
    for (const name of ['taxId', 'tax_id']) {
      const inUrl = await service.call('GET', `/sandbox/customer?${name}=${ein}`);
      expectFailure(inUrl, 'customer', 400, 'VALIDATION_FAILED');
      expect(detailOf(inUrl)).toEqual([[name, 'NOT_ALLOWED_IN_URL']]);
    }
  });
});
