import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessScope } from '../../../src/domain/caller.js';
import { createAccount, createCustomer, CUSTOMER_DATA_KEYS, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { eventually } from '../../support/eventually.js';
import { bearer } from '../../support/http-auth.js';
import { type CallOptions, type CallResult, startTestService, type TestService } from '../../support/service.js';
import { buildBusinessInput } from './support.js';

/**
 * The beneficial owners of a business customer (docs/adr/0094): every route, every coded refusal (nothing
 * changed: the rows, events and audit trail are compared before and after), the sum under concurrency, the
 * delete rule both ways, the events with their read scope and the audit rows, and no SSN or tax id anywhere.
 */

let service: TestService;
let reader: string;
let writer: string;
let eventsOnly: string;
const answers: string[] = [];
/** Every SSN and tax id this test handed out: none may appear in an answer, an event, an audit row or a log line. */
const secrets: string[] = [];

const call = async (method: string, pathname: string, options?: CallOptions): Promise<CallResult> => {
  const res = await service.call(method, pathname, options);
  answers.push(res.text);
  return res;
};

beforeAll(async () => {
  service = await startTestService();
  const token = async (scopes: AccessScope[], name: string) =>
    (await issueApiToken(service.database.pool, { environments: ['*'], scopes, name })).token;
  reader = await token(['customers:read'], 'reader');
  writer = await token(['customers:write'], 'writer');
  eventsOnly = await token(['events:read'], 'follower');
});
afterAll(async () => service?.stop());

async function createBusiness(environment = 'sandbox'): Promise<string> {
  const input = buildBusinessInput();
  secrets.push(input.taxId, input.taxId.replace('-', ''));
  const res = await call('POST', `/${environment}/customer`, { body: input });
  expectSuccess(res, 'customer', 201);
  return res.json.data.customerId as string;
}

async function createPerson(environment = 'sandbox'): Promise<string> {
  const { customerId, input } = await createCustomer(service, {}, environment);
  secrets.push(input.socialSecurityNumber, input.socialSecurityNumber.replaceAll('-', ''));
  return customerId;
}

const ownersPath = (businessId: string) => `/sandbox/customer/${businessId}/beneficial-owner`;
const add = (businessId: string, body: unknown, options: CallOptions = {}) =>
  call('POST', ownersPath(businessId), { ...options, body });
const remove = (businessId: string, ownerId: string) => call('DELETE', `${ownersPath(businessId)}/${ownerId}`);

async function listOwners(businessId: string): Promise<Record<string, unknown>[]> {
  const res = await call('GET', ownersPath(businessId));
  expectSuccess(res, 'customer', 200);
  expect(Object.keys(res.json.data)).toEqual(['beneficialOwners']);
  return res.json.data.beneficialOwners;
}

/** The owners' rows, the events and the audit trail: a refusal leaves all three as they were. */
async function snapshot(): Promise<Record<string, string>> {
  const { rows } = await service.database.pool.query<Record<string, string>>(
    `SELECT (SELECT md5(coalesce(string_agg(concat_ws(':', business_customer_id, owner_customer_id, prongs::text, ownership_percentage, title),
                                            ',' ORDER BY business_customer_id, owner_customer_id), '')) FROM beneficial_owners) AS owners,
            (SELECT count(*)::text FROM events) AS events, (SELECT count(*)::text FROM audit_events) AS audit,
            (SELECT count(*)::text FROM customers) AS customers`,
  );
  return rows[0]!;
}

async function expectRefused(
  request: () => Promise<CallResult>,
  status: number,
  code: string,
  field?: string,
): Promise<CallResult> {
  const before = await snapshot();
  const res = await request();
  expectFailure(res, 'customer', status, code);
  if (field !== undefined)
    expect(res.json.error.details.map((detail: { field?: string }) => detail.field)).toContain(field);
  expect(await snapshot()).toEqual(before);
  return res;
}

describe('the beneficial-owner routes', () => {
  it('adds, lists (by addedAt), shows the ids on the business, and removes owners', async () => {
    const businessId = await createBusiness();
    const [ceo, partner, director] = [await createPerson(), await createPerson(), await createPerson()];
    const tagBefore = (await call('GET', `/sandbox/customer/${businessId}`)).headers.get('etag');
    expect(tagBefore).toEqual(expect.any(String));
    const first = await add(businessId, {
      customerId: ceo,
      prongs: ['CONTROL', 'OWNERSHIP'],
      ownershipPercentage: '40',
      title: 'CEO',
    });
    expectSuccess(first, 'customer', 201);
    expect(first.json.data).toEqual({
      customerId: ceo,
      prongs: ['OWNERSHIP', 'CONTROL'],
      ownershipPercentage: '40.00',
      title: 'CEO',
      addedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expectSuccess(
      await add(businessId, { customerId: partner, prongs: ['OWNERSHIP'], ownershipPercentage: '33.33' }),
      'customer',
      201,
    );
    const third = await add(businessId, { customerId: director.toUpperCase(), prongs: ['CONTROL'], title: null });
    expectSuccess(third, 'customer', 201);
    expect(third.json.data).toMatchObject({ customerId: director, ownershipPercentage: null, title: null });

    const owners = await listOwners(businessId);
    expect(owners[0]).toEqual(first.json.data);
    expect(owners.at(-1)).toEqual(third.json.data);
    // addedAt, then customerId: the order the list promises, whatever the clock's resolution.
    const sorted = [...owners].sort(
      (a, b) =>
        String(a.addedAt).localeCompare(String(b.addedAt)) || String(a.customerId).localeCompare(String(b.customerId)),
    );
    expect(owners).toEqual(sorted);
    expect(owners.map((owner) => owner.customerId).sort()).toEqual([ceo, partner, director].sort());

    const business = await call('GET', `/sandbox/customer/${businessId}`);
    expectSuccess(business, 'customer', 200);
    expect(business.json.data.beneficialOwnerIds).toEqual(owners.map((owner) => owner.customerId));
    // The owners are part of what the business answers: its ETag moved, and the old tag gets the new answer.
    expect(business.headers.get('etag')).not.toBe(tagBefore);
    const conditional = await call('GET', `/sandbox/customer/${businessId}`, {
      headers: { 'if-none-match': tagBefore! },
    });
    expect(conditional.status).toBe(200);
    const listed = await call('GET', '/sandbox/customer?customerType=BUSINESS&limit=100');
    const inPage = listed.json.data.customers.find((c: { customerId: string }) => c.customerId === businessId);
    expect(inPage.beneficialOwnerIds).toEqual(business.json.data.beneficialOwnerIds);
    // A person's answer is as it was: the contract's fields, no beneficialOwnerIds.
    const person = await call('GET', `/sandbox/customer/${ceo}`);
    expect(Object.keys(person.json.data).sort()).toEqual([...CUSTOMER_DATA_KEYS].sort());

    const removed = await remove(businessId, partner);
    expectSuccess(removed, 'customer', 200);
    expect(removed.json.data).toEqual({});
    expect((await listOwners(businessId)).map((owner) => owner.customerId)).toEqual(
      owners.map((owner) => owner.customerId).filter((id) => id !== partner),
    );
    const afterRemoval = await call('GET', `/sandbox/customer/${businessId}`);
    expect(afterRemoval.json.data.beneficialOwnerIds).not.toContain(partner);
    expect(afterRemoval.headers.get('etag')).not.toBe(business.headers.get('etag'));
  });

  it('needs customers:read to list and customers:write to change', async () => {
    const businessId = await createBusiness();
    const person = await createPerson();
    await expectRefused(
      () => add(businessId, { customerId: person, prongs: ['CONTROL'] }, { headers: bearer(reader) }),
      403,
      'FORBIDDEN',
    );
    // Without customers:read, the answer is the owner's id alone: no more than the token could read (ADR 0087).
    const added = await add(
      businessId,
      { customerId: person, prongs: ['OWNERSHIP'], ownershipPercentage: '30', title: 'COO' },
      { headers: bearer(writer) },
    );
    expectSuccess(added, 'customer', 201);
    expect(added.json.data).toEqual({ customerId: person });
    expectFailure(await call('GET', ownersPath(businessId), { headers: bearer(writer) }), 'customer', 403, 'FORBIDDEN');
    expectSuccess(await call('GET', ownersPath(businessId), { headers: bearer(reader) }), 'customer', 200);
    await expectRefused(
      () => call('DELETE', `${ownersPath(businessId)}/${person}`, { headers: bearer(reader) }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('refusals: coded, and nothing changes', () => {
  it.each([
    ['no prongs', { prongs: [] }, 'prongs'],
    ['a prong twice', { prongs: ['CONTROL', 'CONTROL'] }, 'prongs'],
    ['an unknown prong', { prongs: ['VOTING'] }, 'prongs.0'],
    ['prongs missing', { prongs: undefined }, 'prongs'],
    ['OWNERSHIP without a percentage', { prongs: ['OWNERSHIP'] }, 'ownershipPercentage'],
    ['a percentage without OWNERSHIP', { prongs: ['CONTROL'], ownershipPercentage: '10' }, 'ownershipPercentage'],
    ['a percentage over 100', { prongs: ['OWNERSHIP'], ownershipPercentage: '100.01' }, 'ownershipPercentage'],
    ['a negative percentage', { prongs: ['OWNERSHIP'], ownershipPercentage: '-1' }, 'ownershipPercentage'],
    ['three decimal places', { prongs: ['OWNERSHIP'], ownershipPercentage: '12.345' }, 'ownershipPercentage'],
    ['an exponent', { prongs: ['OWNERSHIP'], ownershipPercentage: '1e1' }, 'ownershipPercentage'],
    ['a number, not a string', { prongs: ['OWNERSHIP'], ownershipPercentage: 25 }, 'ownershipPercentage'],
    ['a title too long', { prongs: ['CONTROL'], title: 'T'.repeat(101) }, 'title'],
    ['an unknown field', { prongs: ['CONTROL'], socialSecurityNumber: '123-45-6789' }, 'socialSecurityNumber'],
    ['customerId missing', { customerId: undefined, prongs: ['CONTROL'] }, 'customerId'],
  ])('%s: 400 VALIDATION_FAILED', async (_, body, field) => {
    const businessId = await createBusiness();
    const person = await createPerson();
    await expectRefused(() => add(businessId, { customerId: person, ...body }), 400, 'VALIDATION_FAILED', field);
    expect(await listOwners(businessId)).toEqual([]);
  });

  it('the path names no customer, or a person (NOT_A_BUSINESS), on every route', async () => {
    const person = await createPerson();
    const other = await createPerson();
    const body = { customerId: other, prongs: ['CONTROL'] };
    for (const missing of ['not-a-uuid', '0190a6c4-3c1e-7a4b-9f2d-5b8e1c2d3f40']) {
      await expectRefused(() => add(missing, body), 404, 'CUSTOMER_NOT_FOUND');
      await expectRefused(() => call('GET', ownersPath(missing)), 404, 'CUSTOMER_NOT_FOUND');
      await expectRefused(() => remove(missing, other), 404, 'CUSTOMER_NOT_FOUND');
    }
    await expectRefused(() => add(person, body), 409, 'NOT_A_BUSINESS');
    await expectRefused(() => call('GET', ownersPath(person)), 409, 'NOT_A_BUSINESS');
    await expectRefused(() => remove(person, other), 409, 'NOT_A_BUSINESS');
    await expectRefused(() => remove(person, 'not-a-uuid'), 409, 'NOT_A_BUSINESS');
  });

  it('the owner: the business itself, no customer, another environment, a business, already an owner', async () => {
    const businessId = await createBusiness();
    const otherBusiness = await createBusiness();
    const elsewhere = await createPerson('production-like');
    const person = await createPerson();
    await expectRefused(
      () => add(businessId, { customerId: businessId, prongs: ['CONTROL'] }),
      400,
      'OWNER_IS_THE_BUSINESS',
    );
    for (const customerId of ['0190a6c4-3c1e-7a4b-9f2d-5b8e1c2d3f40', 'not-a-uuid', elsewhere])
      await expectRefused(
        () => add(businessId, { customerId, prongs: ['CONTROL'] }),
        422,
        'CUSTOMER_NOT_FOUND',
        'customerId',
      );
    await expectRefused(
      () => add(businessId, { customerId: otherBusiness, prongs: ['OWNERSHIP'], ownershipPercentage: '30' }),
      409,
      'OWNER_NOT_AN_INDIVIDUAL',
    );
    expectSuccess(await add(businessId, { customerId: person, prongs: ['CONTROL'] }), 'customer', 201);
    await expectRefused(
      () => add(businessId, { customerId: person, prongs: ['OWNERSHIP'], ownershipPercentage: '30' }),
      409,
      'BENEFICIAL_OWNER_EXISTS',
    );
    expect((await listOwners(businessId)).map((owner) => [owner.customerId, owner.prongs])).toEqual([
      [person, ['CONTROL']],
    ]);
    await expectRefused(() => remove(businessId, otherBusiness), 404, 'BENEFICIAL_OWNER_NOT_FOUND');
    await expectRefused(() => remove(businessId, 'not-a-uuid'), 404, 'BENEFICIAL_OWNER_NOT_FOUND');
  });

  it('percentages sum to at most 100, in exact decimals', async () => {
    const businessId = await createBusiness();
    const people = [await createPerson(), await createPerson(), await createPerson(), await createPerson()];
    // 0.1 + 0.2 in binary floating point is not 0.3: these three sum to exactly 100 only in decimals.
    for (const [index, share] of ['33.33', '33.37', '33.30'].entries())
      expectSuccess(
        await add(businessId, { customerId: people[index], prongs: ['OWNERSHIP'], ownershipPercentage: share }),
        'customer',
        201,
      );
    const refused = await expectRefused(
      () => add(businessId, { customerId: people[3], prongs: ['OWNERSHIP'], ownershipPercentage: '0.01' }),
      409,
      'OWNERSHIP_OVER_100',
    );
    expect(refused.json.error.message).toContain('100.00');
    // 0 % still names an owner (the percentage is required, not the share), and control adds none.
    expectSuccess(
      await add(businessId, { customerId: people[3], prongs: ['OWNERSHIP', 'CONTROL'], ownershipPercentage: '0' }),
      'customer',
      201,
    );
    const { rows } = await service.database.pool.query(
      'SELECT sum(ownership_percentage)::text AS total FROM beneficial_owners WHERE business_customer_id = $1',
      [businessId],
    );
    expect(rows[0].total).toBe('100.00');
  });

  it('a business has at most 50 owners (BENEFICIAL_OWNER_LIMIT)', async () => {
    const businessId = await createBusiness();
    for (let index = 0; index < 50; index++)
      expectSuccess(await add(businessId, { customerId: await createPerson(), prongs: ['CONTROL'] }), 'customer', 201);
    const extra = await createPerson();
    await expectRefused(
      () => add(businessId, { customerId: extra, prongs: ['CONTROL'] }),
      409,
      'BENEFICIAL_OWNER_LIMIT',
    );
    expect(await listOwners(businessId)).toHaveLength(50);
  });
});

describe('concurrent additions', () => {
  it('five additions of 30 % to one business: exactly three succeed, the sum stays at 90', async () => {
    const businessId = await createBusiness();
    const people = await Promise.all(Array.from({ length: 5 }, () => createPerson()));
    // The business's row is held until all five wait for it: each must count what the ones before it added.
    const blocker = await service.database.pool.connect();
    let answers: CallResult[];
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT id FROM customers WHERE id = $1 FOR NO KEY UPDATE', [businessId]);
      const outcomes = Promise.all(
        people.map((customerId) => add(businessId, { customerId, prongs: ['OWNERSHIP'], ownershipPercentage: '30' })),
      );
      await eventually(
        async () =>
          (
            await service.database.pool.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM customers c%FOR NO KEY UPDATE%'`,
            )
          ).rows[0]!.n,
        (waiting) => waiting === 5,
      );
      await blocker.query('COMMIT');
      answers = await outcomes;
    } finally {
      blocker.release();
    }
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 201, 409, 409]);
    for (const res of answers.filter((r) => r.status === 409)) expect(res.json.error.code).toBe('OWNERSHIP_OVER_100');
    const owners = await listOwners(businessId);
    expect(owners).toHaveLength(3);
    const { rows } = await service.database.pool.query(
      'SELECT sum(ownership_percentage)::text AS total FROM beneficial_owners WHERE business_customer_id = $1',
      [businessId],
    );
    expect(rows[0].total).toBe('90.00');
  });
});

describe('deleting customers', () => {
  it('an owner cannot be deleted until removed; then it can', async () => {
    const businessId = await createBusiness();
    const owner = await createPerson();
    expectSuccess(
      await add(businessId, { customerId: owner, prongs: ['OWNERSHIP'], ownershipPercentage: '25' }),
      'customer',
      201,
    );
    await expectRefused(() => call('DELETE', `/sandbox/customer/${owner}`), 409, 'CUSTOMER_IS_A_BENEFICIAL_OWNER');
    expectSuccess(await call('GET', `/sandbox/customer/${owner}`), 'customer', 200);
    expect(await listOwners(businessId)).toHaveLength(1);
    expectSuccess(await remove(businessId, owner), 'customer', 200);
    expectSuccess(await call('DELETE', `/sandbox/customer/${owner}`), 'customer', 200);
    expectFailure(await call('GET', `/sandbox/customer/${owner}`), 'customer', 404, 'CUSTOMER_NOT_FOUND');
  });

  it('an owner with accounts is refused for its accounts first', async () => {
    const businessId = await createBusiness();
    const owner = await createPerson();
    await createAccount(service, [owner]);
    expectSuccess(await add(businessId, { customerId: owner, prongs: ['CONTROL'] }), 'customer', 201);
    await expectRefused(() => call('DELETE', `/sandbox/customer/${owner}`), 409, 'CUSTOMER_HAS_ACCOUNTS');
  });

  it('deleting a business removes its owners, and frees them', async () => {
    const businessId = await createBusiness();
    const owner = await createPerson();
    expectSuccess(await add(businessId, { customerId: owner, prongs: ['CONTROL'] }), 'customer', 201);
    expectSuccess(await call('DELETE', `/sandbox/customer/${businessId}`), 'customer', 200);
    const { rows } = await service.database.pool.query(
      'SELECT count(*)::int AS n FROM beneficial_owners WHERE business_customer_id = $1',
      [businessId],
    );
    expect(rows[0].n).toBe(0);
    expectSuccess(await call('DELETE', `/sandbox/customer/${owner}`), 'customer', 200);
  });
});

describe('events, audit and personal data', () => {
  it('writes customer.beneficial_owner_added / _removed and audit rows; the events follow customers:read', async () => {
    const businessId = await createBusiness();
    const owner = await createPerson();
    const body = { customerId: owner, prongs: ['OWNERSHIP', 'CONTROL'], ownershipPercentage: '51.5', title: 'Founder' };
    expectSuccess(await add(businessId, body), 'customer', 201);
    expectSuccess(await remove(businessId, owner), 'customer', 200);
    const expected = {
      customerId: businessId,
      ownerCustomerId: owner,
      prongs: ['OWNERSHIP', 'CONTROL'],
      ownershipPercentage: '51.50',
      title: 'Founder',
    };

    const { pool } = service.database;
    const events = await pool.query(
      `SELECT type, resource_type, payload, changed_fields FROM events
        WHERE resource_id = $1 AND type LIKE 'customer.beneficial_owner%' ORDER BY occurred_at, type`,
      [businessId],
    );
    expect(events.rows).toEqual([
      {
        type: 'customer.beneficial_owner_added',
        resource_type: 'customer',
        payload: expected,
        changed_fields: ['beneficialOwners'],
      },
      {
        type: 'customer.beneficial_owner_removed',
        resource_type: 'customer',
        payload: expected,
        changed_fields: ['beneficialOwners'],
      },
    ]);
    const audit = await pool.query(
      `SELECT operation, resource_type, changed_fields FROM audit_events
        WHERE resource_id = $1 AND operation LIKE 'customer.beneficial_owner%' ORDER BY occurred_at, operation`,
      [businessId],
    );
    expect(audit.rows).toEqual([
      { operation: 'customer.beneficial_owner.add', resource_type: 'customer', changed_fields: ['beneficialOwners'] },
      {
        operation: 'customer.beneficial_owner.remove',
        resource_type: 'customer',
        changed_fields: ['beneficialOwners'],
      },
    ]);

    // Through the API: the record's events, in full with customers:read, withheld without it.
    const full = await eventually(
      () => call('GET', `/sandbox/customer/${businessId}/event`),
      (res) =>
        res.json.data.events.filter((e: { type: string }) => e.type.startsWith('customer.beneficial')).length === 2,
    );
    const ownerEvents = full.json.data.events.filter((e: { type: string }) => e.type.startsWith('customer.beneficial'));
    expect(ownerEvents.map((e: { type: string }) => e.type)).toEqual([
      'customer.beneficial_owner_removed',
      'customer.beneficial_owner_added',
    ]);
    for (const event of ownerEvents) expect(event.data).toEqual(expected);
    const withheld = await call('GET', `/sandbox/customer/${businessId}/event`, { headers: bearer(eventsOnly) });
    expectSuccess(withheld, 'customer', 200);
    for (const event of withheld.json.data.events.filter((e: { type: string }) =>
      e.type.startsWith('customer.beneficial'),
    ))
      expect(event.data).toEqual({
        customerId: businessId,
        changedFields: ['beneficialOwners'],
        requiredScope: 'customers:read',
      });
  });

  it('no SSN or tax id of this test appears in any answer, event, audit row or log line', async () => {
    expect(secrets.length).toBeGreaterThan(4);
    expect(answers.length).toBeGreaterThan(20);
    const { pool } = service.database;
    const events = (await pool.query('SELECT payload::text AS p FROM events')).rows.map((row) => row.p).join('\n');
    const audit = (await pool.query('SELECT to_jsonb(a)::text AS r FROM audit_events a')).rows
      .map((row) => row.r)
      .join('\n');
    const owners = (await pool.query('SELECT to_jsonb(o)::text AS r FROM beneficial_owners o')).rows
      .map((row) => row.r)
      .join('\n');
    const logs = service.logLines.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      for (const [where, text] of [
        ['an answer', answers.join('\n')],
        ['an event', events],
        ['the audit trail', audit],
        ['beneficial_owners', owners],
        ['the logs', logs],
      ] as const)
        expect(text.includes(secret), `${where} holds an SSN or tax id`).toBe(false);
    }
  });
});
