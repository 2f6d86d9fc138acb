import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoChange as expectNoChangeIn } from '../../support/database.js';
import { buildAccountInput } from '../../support/factories.js';
import { buildBusinessInput } from '../businesses/support.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { eventually } from '../../support/eventually.js';
import { startTestService, type TestService } from '../../support/service.js';
import { ACCOUNT_DATA_KEYS, createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';

/**
 * Account relationships with roles (docs/adr/0091): through HTTP against the real database. An account whose
 * customers are all owners answers exactly the contract's account; any other role adds `relationships`.
 */
let service: TestService;
let eventReader: string;
let eventsOnly: string;
beforeAll(async () => {
  service = await startTestService({ EVENT_SEQUENCER_INTERVAL_MS: '20' });
  const pool = service.database.pool;
  eventReader = (await issueApiToken(pool, { environments: ['sandbox'], scopes: ['events:read', 'accounts:read'] }))
    .token;
  eventsOnly = (await issueApiToken(pool, { environments: ['sandbox'], scopes: ['events:read'] })).token;
});
afterAll(async () => service?.stop());

const expectNoChange = <T>(request: () => Promise<T>): Promise<T> => expectNoChangeIn(service.database.pool, request);
const as = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });

/**
 * Business customers cannot be created through the API yet: a person created through it, made a BUSINESS
 * here. The one place to switch to the API when it can.
 */
/** A BUSINESS customer, created through the API (src/features/businesses). */
async function createBusiness(): Promise<{ customerId: string }> {
  const res = await service.call('POST', '/sandbox/customer', { body: buildBusinessInput() });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return { customerId: res.json.data.customerId as string };
}

const link = (accountId: string, body: Record<string, unknown>) =>
  service.call('POST', `/sandbox/account/${accountId}/customer`, { body });
const setRole = (accountId: string, customerId: string, role: unknown, headers?: Record<string, string>) =>
  service.call('PUT', `/sandbox/account/${accountId}/customer/${customerId}`, {
    body: { role },
    ...(headers && { headers }),
  });

/** The links as stored, in the account's order. */
async function storedRoles(accountId: string): Promise<{ customerId: string; role: string }[]> {
  const { rows } = await service.database.pool.query<{ customerId: string; role: string }>(
    'SELECT customer_id::text AS "customerId", role FROM account_customers WHERE account_id = $1 ORDER BY position',
    [accountId],
  );
  return rows;
}

/** An account of `owners` new owners; answers its id and the owners' ids. */
async function accountOfOwners(owners: number): Promise<{ accountId: string; ownerIds: string[] }> {
  const ownerIds: string[] = [];
  for (let i = 0; i < owners; i++) ownerIds.push((await createCustomer(service)).customerId);
  const account = await createAccount(service, ownerIds);
  return { accountId: account.accountId, ownerIds };
}

describe('linking a customer with a role: POST /{environment}/account/{accountId}/customer', () => {
  it('links as an OWNER without a role: the answer is exactly the contract account, without relationships', async () => {
    const { accountId, ownerIds } = await accountOfOwners(1);
    const { customerId } = await createCustomer(service);
    const res = await link(accountId, { customerId });
    expectSuccess(res, 'account', 200);
    expect(Object.keys(res.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    expect(res.json.data.customers).toEqual([...ownerIds, customerId]);
    expect(await storedRoles(accountId)).toEqual([
      { customerId: ownerIds[0], role: 'OWNER' },
      { customerId, role: 'OWNER' },
    ]);
    // An explicit OWNER is the same call.
    const other = await createCustomer(service);
    const explicit = await link(accountId, { customerId: other.customerId, role: 'OWNER' });
    expect(Object.keys(explicit.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
  });

  for (const role of ['AUTHORIZED_SIGNER', 'AUTHORIZED_USER', 'BENEFICIARY', 'CUSTODIAN'] as const) {
    it(`links a ${role}: the account answers relationships, in customers order, on every read`, async () => {
      const { accountId, ownerIds } = await accountOfOwners(1);
      const { customerId } = await createCustomer(service);
      const res = await link(accountId, { customerId, role });
      expectSuccess(res, 'account', 200);
      const relationships = [
        { customerId: ownerIds[0], role: 'OWNER' },
        { customerId, role },
      ];
      expect(res.json.data.customers).toEqual([ownerIds[0], customerId]);
      expect(res.json.data.relationships).toEqual(relationships);
      expect(Object.keys(res.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS, 'relationships'].sort());
      const read = await service.call('GET', `/sandbox/account/${accountId}`);
      expect(read.json.data).toEqual(res.json.data);
      const listed = await service.call('GET', `/sandbox/account?customerId=${customerId}`);
      expect(listed.json.data.accounts).toEqual([res.json.data]);
      // The customer lists the account, as for any link.
      expect((await service.call('GET', `/sandbox/customer/${customerId}`)).json.data.accountIds).toEqual([accountId]);
    });
  }

  it('a BUSINESS customer may be an OWNER, BENEFICIARY or CUSTODIAN, never a signer or user (409, nothing changes)', async () => {
    const { accountId } = await accountOfOwners(1);
    for (const role of ['AUTHORIZED_SIGNER', 'AUTHORIZED_USER']) {
      const { customerId } = await createBusiness();
      const res = await expectNoChange(() => link(accountId, { customerId, role }));
      expectFailure(res, 'account', 409, 'ROLE_REQUIRES_INDIVIDUAL');
    }
    for (const role of ['OWNER', 'BENEFICIARY', 'CUSTODIAN']) {
      const { customerId } = await createBusiness();
      expectSuccess(await link(accountId, { customerId, role }), 'account', 200);
    }
    expect((await storedRoles(accountId)).map((link) => link.role)).toEqual([
      'OWNER',
      'OWNER',
      'BENEFICIARY',
      'CUSTODIAN',
    ]);
  });

  it('refuses an unknown role (400 VALIDATION_FAILED on role) and a second link with another role (409), changing nothing', async () => {
    const { accountId, ownerIds } = await accountOfOwners(1);
    const { customerId } = await createCustomer(service);
    for (const role of ['JOINT_OWNER', 'owner', 7, null]) {
      const res = await expectNoChange(() => link(accountId, { customerId, role }));
      expectFailure(res, 'account', 400, 'VALIDATION_FAILED');
      expect(res.json.error.details.map((detail: { field: string }) => detail.field)).toEqual(['role']);
    }
    expectSuccess(await link(accountId, { customerId, role: 'BENEFICIARY' }), 'account', 200);
    const again = await expectNoChange(() => link(accountId, { customerId, role: 'CUSTODIAN' }));
    expectFailure(again, 'account', 409, 'CUSTOMER_ALREADY_LINKED');
    const owner = await expectNoChange(() => link(accountId, { customerId }));
    expectFailure(owner, 'account', 409, 'CUSTOMER_ALREADY_LINKED');
    // The same role again is today's no-op: answered, unchanged.
    const same = await link(accountId, { customerId, role: 'BENEFICIARY' });
    expectSuccess(same, 'account', 200);
    expect(same.json.data.relationships).toEqual([
      { customerId: ownerIds[0], role: 'OWNER' },
      { customerId, role: 'BENEFICIARY' },
    ]);
  });
});

describe('changing a role: PUT /{environment}/account/{accountId}/customer/{customerId}', () => {
  it('changes a role and back: the answer is the account, with relationships only while a role is not OWNER; the ETag moves', async () => {
    const { accountId, ownerIds } = await accountOfOwners(2);
    const before = await service.call('GET', `/sandbox/account/${accountId}`);
    const customerBefore = await service.call('GET', `/sandbox/customer/${ownerIds[1]}`);
    const res = await setRole(accountId, ownerIds[1]!, 'AUTHORIZED_SIGNER');
    expectSuccess(res, 'account', 200);
    expect(res.json.data).toEqual({
      ...before.json.data,
      relationships: [
        { customerId: ownerIds[0], role: 'OWNER' },
        { customerId: ownerIds[1], role: 'AUTHORIZED_SIGNER' },
      ],
    });
    expect(res.headers.get('etag')).not.toBe(before.headers.get('etag'));
    const read = await service.call('GET', `/sandbox/account/${accountId}`);
    expect(read.headers.get('etag')).toBe(res.headers.get('etag'));
    // A customer answers no roles: its own version stays.
    const customerAfter = await service.call('GET', `/sandbox/customer/${ownerIds[1]}`);
    expect(customerAfter.json.data).toEqual(customerBefore.json.data);
    expect(customerAfter.headers.get('etag')).toBe(customerBefore.headers.get('etag'));

    const back = await setRole(accountId, ownerIds[1]!, 'OWNER');
    expectSuccess(back, 'account', 200);
    expect(back.json.data).toEqual(before.json.data);
    expect(Object.keys(back.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    expect(back.headers.get('etag')).not.toBe(res.headers.get('etag'));
  });

  it('the same role changes nothing: answered, the ETag stays', async () => {
    const { accountId, ownerIds } = await accountOfOwners(1);
    const before = await service.call('GET', `/sandbox/account/${accountId}`);
    const res = await setRole(accountId, ownerIds[0]!, 'OWNER');
    expectSuccess(res, 'account', 200);
    expect(res.json.data).toEqual(before.json.data);
    expect(res.headers.get('etag')).toBe(before.headers.get('etag'));
  });

  it('honours If-Match: a stale version is 412 and changes nothing', async () => {
    const { accountId, ownerIds } = await accountOfOwners(2);
    const stale = '"1"';
    const current = (await service.call('GET', `/sandbox/account/${accountId}`)).headers.get('etag')!;
    expect(current).not.toBe(stale);
    const res = await expectNoChange(() => setRole(accountId, ownerIds[1]!, 'BENEFICIARY', { 'if-match': stale }));
    expectFailure(res, 'account', 412, 'PRECONDITION_FAILED');
    expect(await storedRoles(accountId)).toEqual(ownerIds.map((customerId) => ({ customerId, role: 'OWNER' })));
    expectSuccess(await setRole(accountId, ownerIds[1]!, 'BENEFICIARY', { 'if-match': current }), 'account', 200);
  });

  it('refuses, each coded and changing nothing: the last OWNER, a BUSINESS signer, an unknown role, a customer not linked, no account', async () => {
    const { accountId, ownerIds } = await accountOfOwners(1);
    const business = await createBusiness();
    expectSuccess(await link(accountId, { customerId: business.customerId, role: 'BENEFICIARY' }), 'account', 200);
    const outsider = await createCustomer(service);
    const before = await storedRoles(accountId);

    const lastOwner = await expectNoChange(() => setRole(accountId, ownerIds[0]!, 'BENEFICIARY'));
    expectFailure(lastOwner, 'account', 409, 'LAST_OWNER');
    for (const role of ['AUTHORIZED_SIGNER', 'AUTHORIZED_USER']) {
      const res = await expectNoChange(() => setRole(accountId, business.customerId, role));
      expectFailure(res, 'account', 409, 'ROLE_REQUIRES_INDIVIDUAL');
    }
    const unknown = await expectNoChange(() => setRole(accountId, ownerIds[0]!, 'SIGNATORY'));
    expectFailure(unknown, 'account', 400, 'VALIDATION_FAILED');
    expect(unknown.json.error.details).toEqual([
      { field: 'role', code: 'INVALID_VALUE', message: expect.stringContaining('AUTHORIZED_SIGNER') },
    ]);
    const missingRole = await expectNoChange(() =>
      service.call('PUT', `/sandbox/account/${accountId}/customer/${ownerIds[0]}`, { body: {} }),
    );
    expectFailure(missingRole, 'account', 400, 'VALIDATION_FAILED');
    const notLinked = await expectNoChange(() => setRole(accountId, outsider.customerId, 'OWNER'));
    expectFailure(notLinked, 'account', 404, 'CUSTOMER_NOT_FOUND');
    const malformed = await expectNoChange(() => setRole(accountId, 'not-an-id', 'OWNER'));
    expectFailure(malformed, 'account', 404, 'CUSTOMER_NOT_FOUND');
    const noAccount = await expectNoChange(() =>
      setRole('0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e', ownerIds[0]!, 'OWNER'),
    );
    expectFailure(noAccount, 'account', 404, 'ACCOUNT_NOT_FOUND');
    expect(await storedRoles(accountId)).toEqual(before);

    // Once another customer is an OWNER, the first may step down.
    expectSuccess(await setRole(accountId, business.customerId, 'OWNER'), 'account', 200);
    expectSuccess(await setRole(accountId, ownerIds[0]!, 'BENEFICIARY'), 'account', 200);
  });

  it('needs accounts:write, as linking does', async () => {
    const { accountId, ownerIds } = await accountOfOwners(2);
    const reader = await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['accounts:read'] });
    const res = await expectNoChange(() =>
      service.call('PUT', `/sandbox/account/${accountId}/customer/${ownerIds[1]}`, {
        body: { role: 'BENEFICIARY' },
        ...as(reader.token),
      }),
    );
    expectFailure(res, 'account', 403, 'FORBIDDEN');
  });
});

describe('removing a customer: the last OWNER stays', () => {
  it('refuses removing the last OWNER while other customers remain (409 LAST_OWNER); a non-owner goes', async () => {
    const { accountId, ownerIds } = await accountOfOwners(1);
    const { customerId } = await createCustomer(service);
    expectSuccess(await link(accountId, { customerId, role: 'AUTHORIZED_USER' }), 'account', 200);
    const res = await expectNoChange(() =>
      service.call('DELETE', `/sandbox/account/${accountId}/customer/${ownerIds[0]}`),
    );
    expectFailure(res, 'account', 409, 'LAST_OWNER');
    const removed = await service.call('DELETE', `/sandbox/account/${accountId}/customer/${customerId}`);
    expectSuccess(removed, 'account', 200);
    // All owners again: the contract's account.
    expect(Object.keys(removed.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    // The last customer of all keeps today's code.
    const last = await expectNoChange(() =>
      service.call('DELETE', `/sandbox/account/${accountId}/customer/${ownerIds[0]}`),
    );
    expectFailure(last, 'account', 409, 'ACCOUNT_NEEDS_A_CUSTOMER');
  });

  it('two concurrent removals or demotions of the two owners of one account leave one owner, every round', async () => {
    for (let round = 0; round < 4; round++) {
      const { accountId, ownerIds } = await accountOfOwners(2);
      const { customerId: user } = await createCustomer(service);
      expectSuccess(await link(accountId, { customerId: user, role: 'AUTHORIZED_USER' }), 'account', 200);
      // Round by round: both removed, both demoted, and one of each (in either order).
      const kinds = [
        ['remove', 'remove'],
        ['demote', 'demote'],
        ['remove', 'demote'],
        ['demote', 'remove'],
      ][round]!;
      const change = (ownerId: string, kind: string) =>
        kind === 'remove'
          ? service.call('DELETE', `/sandbox/account/${accountId}/customer/${ownerId}`)
          : setRole(accountId, ownerId, 'BENEFICIARY');
      // The account row is held by another transaction until both changes wait for it: both statements start
      // (take their snapshots) while the account has two owners, so the second must count what the first left.
      const blocker = await service.database.pool.connect();
      try {
        await blocker.query('BEGIN');
        await blocker.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
        const outcomes = Promise.all([change(ownerIds[0]!, kinds[0]!), change(ownerIds[1]!, kinds[1]!)]);
        await eventually(
          async () =>
            (
              await service.database.pool.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%account_customers%'`,
              )
            ).rows[0]!.n,
          (waiting) => waiting === 2,
        );
        await blocker.query('COMMIT');
        const answers = await outcomes;
        expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
        expect(answers.find((res) => res.status === 409)!.json.error.code).toBe('LAST_OWNER');
      } finally {
        blocker.release();
      }
      const owners = (await storedRoles(accountId)).filter((link) => link.role === 'OWNER');
      expect(owners).toHaveLength(1);
      expect(ownerIds).toContain(owners[0]!.customerId);
    }
  });
});

describe('creating an account with relationships: POST /{environment}/account', () => {
  it('takes the roles of some associated customers; the others are owners; the answer, GET and list show relationships', async () => {
    const owner = await createCustomer(service);
    const signer = await createCustomer(service);
    const beneficiary = await createBusiness();
    const res = await service.call('POST', '/sandbox/account', {
      body: {
        ...buildAccountInput([owner.customerId, signer.customerId, beneficiary.customerId]),
        relationships: [
          { customerId: beneficiary.customerId, role: 'BENEFICIARY' },
          { customerId: signer.customerId, role: 'AUTHORIZED_SIGNER' },
        ],
      },
    });
    expectSuccess(res, 'account', 201);
    expect(res.json.data.customers).toEqual([owner.customerId, signer.customerId, beneficiary.customerId]);
    expect(res.json.data.relationships).toEqual([
      { customerId: owner.customerId, role: 'OWNER' },
      { customerId: signer.customerId, role: 'AUTHORIZED_SIGNER' },
      { customerId: beneficiary.customerId, role: 'BENEFICIARY' },
    ]);
    const read = await service.call('GET', `/sandbox/account/${res.json.data.accountId}`);
    expect(read.json.data).toEqual(res.json.data);
    expect(read.headers.get('etag')).toBe(res.headers.get('etag'));
  });

  it('an update, a flag and the unfiltered list answer the relationships too', async () => {
    const { accountId, ownerIds } = await accountOfOwners(2);
    expectSuccess(await setRole(accountId, ownerIds[0]!, 'CUSTODIAN'), 'account', 200);
    const relationships = [
      { customerId: ownerIds[0], role: 'CUSTODIAN' },
      { customerId: ownerIds[1], role: 'OWNER' },
    ];
    const updated = await service.call('PUT', `/sandbox/account/${accountId}`, {
      body: { name: 'Renamed', currency: 'USD' },
    });
    expectSuccess(updated, 'account', 200);
    expect(updated.json.data.relationships).toEqual(relationships);
    const flagged = await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`);
    expect(flagged.json.data.relationships).toEqual(relationships);
    // Ids are time-ordered: the page after every earlier account starts with this one.
    const { rows } = await service.database.pool.query<{ id: string }>(
      'SELECT id::text FROM accounts WHERE id < $1 ORDER BY id DESC LIMIT 1',
      [accountId],
    );
    const after = rows.length > 0 ? `&after=${rows[0]!.id}` : '';
    const page = await service.call('GET', `/sandbox/account?limit=1${after}`);
    expect(page.json.data.accounts).toEqual([flagged.json.data]);
  });

  it('all owners (none named, or every one OWNER) answer exactly as without relationships', async () => {
    const { customerId } = await createCustomer(service);
    const res = await service.call('POST', '/sandbox/account', {
      body: { ...buildAccountInput([customerId]), relationships: [{ customerId, role: 'OWNER' }] },
    });
    expectSuccess(res, 'account', 201);
    expect(Object.keys(res.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    const empty = await service.call('POST', '/sandbox/account', {
      body: { ...buildAccountInput([customerId]), relationships: [] },
    });
    expectSuccess(empty, 'account', 201);
    expect(Object.keys(empty.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
  });

  it('refuses, each coded and creating nothing: no OWNER, an id not associated, a duplicate, an unknown role, a BUSINESS signer', async () => {
    const first = await createCustomer(service);
    const second = await createBusiness();
    const outsider = await createCustomer(service);
    const ids = [first.customerId, second.customerId];
    const create = (relationships: unknown) =>
      expectNoChange(() =>
        service.call('POST', '/sandbox/account', { body: { ...buildAccountInput(ids), relationships } }),
      );
    const detailsOf = (res: Awaited<ReturnType<typeof create>>) =>
      res.json.error.details.map((detail: { field: string; code: string }) => [detail.field, detail.code]);

    const noOwner = await create([
      { customerId: first.customerId, role: 'BENEFICIARY' },
      { customerId: second.customerId, role: 'CUSTODIAN' },
    ]);
    expectFailure(noOwner, 'account', 400, 'VALIDATION_FAILED');
    expect(detailsOf(noOwner)).toEqual([['relationships', 'OWNER_REQUIRED']]);

    const notAssociated = await create([{ customerId: outsider.customerId, role: 'BENEFICIARY' }]);
    expectFailure(notAssociated, 'account', 400, 'VALIDATION_FAILED');
    expect(detailsOf(notAssociated)).toEqual([['relationships.0.customerId', 'NOT_ASSOCIATED']]);

    const twice = await create([
      { customerId: second.customerId, role: 'BENEFICIARY' },
      { customerId: second.customerId.toUpperCase(), role: 'CUSTODIAN' },
    ]);
    expectFailure(twice, 'account', 400, 'VALIDATION_FAILED');
    expect(detailsOf(twice)).toEqual([['relationships', 'INVALID_VALUE']]);

    const unknown = await create([{ customerId: second.customerId, role: 'HEIR' }]);
    expectFailure(unknown, 'account', 400, 'VALIDATION_FAILED');
    expect(detailsOf(unknown)).toEqual([['relationships.0.role', 'INVALID_VALUE']]);

    const businessSigner = await create([{ customerId: second.customerId, role: 'AUTHORIZED_SIGNER' }]);
    expectFailure(businessSigner, 'account', 409, 'ROLE_REQUIRES_INDIVIDUAL');
    expect(businessSigner.json.error.details).toEqual([
      { field: 'relationships', code: 'ROLE_REQUIRES_INDIVIDUAL', message: expect.stringContaining(second.customerId) },
    ]);
  });

  it('a retry with the same Idempotency-Key answers the same relationships', async () => {
    const owner = await createCustomer(service);
    const user = await createCustomer(service);
    const body = {
      ...buildAccountInput([owner.customerId, user.customerId]),
      relationships: [{ customerId: user.customerId, role: 'AUTHORIZED_USER' }],
    };
    const headers = { 'idempotency-key': `roles-${owner.customerId}` };
    const first = await service.call('POST', '/sandbox/account', { body, headers });
    expectSuccess(first, 'account', 201);
    const replay = await service.call('POST', '/sandbox/account', { body, headers });
    expect(replay.json.data).toEqual(first.json.data);
    expect(replay.json.data.relationships).toEqual([
      { customerId: owner.customerId, role: 'OWNER' },
      { customerId: user.customerId, role: 'AUTHORIZED_USER' },
    ]);
  });
});

describe('events and audit of a role change', () => {
  it('writes account.relationship_changed (the role only with accounts:read) and an audit event; a no-op writes the audit only', async () => {
    const { accountId, ownerIds } = await accountOfOwners(2);
    expectSuccess(await setRole(accountId, ownerIds[1]!, 'CUSTODIAN'), 'account', 200);
    expectSuccess(await setRole(accountId, ownerIds[1]!, 'CUSTODIAN'), 'account', 200);

    const eventsOf = async (token: string) =>
      (
        await eventually(
          () => service.call('GET', `/sandbox/account/${accountId}/event`, as(token)),
          (res) =>
            res.status === 200 &&
            res.json.data.events.some((event: { type: string }) => event.type === 'account.relationship_changed'),
        )
      ).json.data.events.filter((event: { type: string }) => event.type === 'account.relationship_changed');
    const seen = await eventsOf(eventReader);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      type: 'account.relationship_changed',
      resourceType: 'account',
      resourceId: accountId,
      data: { accountId, customerId: ownerIds[1], role: 'CUSTODIAN' },
    });
    const withheld = await eventsOf(eventsOnly);
    expect(withheld[0].data).toEqual({ accountId, customerId: ownerIds[1] });

    const { rows } = await service.database.pool.query<{ operation: string; changed_fields: string[] }>(
      "SELECT operation, changed_fields FROM audit_events WHERE resource_id = $1 AND operation = 'account.customer.role.set' ORDER BY occurred_at",
      [accountId],
    );
    expect(rows).toEqual([
      { operation: 'account.customer.role.set', changed_fields: ['relationships'] },
      { operation: 'account.customer.role.set', changed_fields: [] },
    ]);
    const { rows: events } = await service.database.pool.query<{ changed_fields: string[] }>(
      "SELECT changed_fields FROM events WHERE resource_id = $1 AND type = 'account.relationship_changed'",
      [accountId],
    );
    expect(events).toEqual([{ changed_fields: ['relationships'] }]);
  });

  it('a refused role change writes neither an event nor an audit event', async () => {
    const { accountId, ownerIds } = await accountOfOwners(1);
    expectFailure(await setRole(accountId, ownerIds[0]!, 'BENEFICIARY'), 'account', 409, 'LAST_OWNER');
    const { rows } = await service.database.pool.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM audit_events WHERE resource_id = $1 AND operation = 'account.customer.role.set')::int
            + (SELECT count(*) FROM events WHERE resource_id = $1 AND type = 'account.relationship_changed')::int AS n`,
      [accountId],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('account.created carries the relationships, as the account answers them', async () => {
    const owner = await createCustomer(service);
    const beneficiary = await createCustomer(service);
    const res = await service.call('POST', '/sandbox/account', {
      body: {
        ...buildAccountInput([owner.customerId, beneficiary.customerId]),
        relationships: [{ customerId: beneficiary.customerId, role: 'BENEFICIARY' }],
      },
    });
    expectSuccess(res, 'account', 201);
    const accountId = res.json.data.accountId;
    const events = await eventually(
      () => service.call('GET', `/sandbox/account/${accountId}/event`, as(eventReader)),
      (read) => read.status === 200 && read.json.data.events.length > 0,
    );
    const created = events.json.data.events.find((event: { type: string }) => event.type === 'account.created');
    expect(created.data).toEqual(res.json.data);
  });
});
