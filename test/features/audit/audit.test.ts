import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { assertNoSensitiveValues, buildAccountInput, buildCustomerInput } from '../../support/factories.js';

let h: DomainHarness;
beforeAll(async () => {
  h = await createDomainHarness();
});
afterAll(async () => h.close());

const tokenScope = (environment = 'sandbox') =>
  h.caller(environment, { id: 'token:0123456789abcdef', kind: 'api-token' });

async function auditRowsText(): Promise<string> {
  const { rows } = await h.pool.query('SELECT * FROM audit_events');
  return JSON.stringify(rows);
}

describe('audit trail', () => {
  it('records every successful write with who, where, what and field names, in the same transaction', async () => {
    const createScope = tokenScope();
    const {
      value: { customerId },
    } = await h.services.customers.create(createScope, buildCustomerInput(), { idempotencyKey: 'audit-create-1' });
    await h.services.customers.update(tokenScope(), customerId, { preferredName: 'Sam', emails: ['sam@example.com'] });
    const { value: account } = await h.services.accounts.create(tokenScope(), buildAccountInput([customerId]));
    await h.services.accounts.update(tokenScope(), account.accountId, { name: 'Bills', currency: 'USD' });
    await h.services.accounts.delete(tokenScope(), account.accountId);
    await h.services.customers.delete(tokenScope(), customerId);

    const customerEvents = (await h.services.audit.find(h.caller(), { resourceId: customerId })).items;
    expect(customerEvents.map((e) => e.operation)).toEqual(['customer.create', 'customer.update', 'customer.delete']);
    const [created, updated, deleted] = customerEvents;
    expect(created).toMatchObject({
      principalId: 'token:0123456789abcdef',
      environment: 'sandbox',
      resourceType: 'customer',
      resourceId: customerId,
      requestId: createScope.requestId,
      idempotencyKey: 'audit-create-1',
    });
    expect(created!.changedFields.sort()).toEqual([
      'addresses',
      'dateOfBirth',
      'documentLocatorNumber',
      'emails',
      'firstName',
      'lastName',
      'middleName',
      'phoneNumbers',
      'preferredName',
      'socialSecurityNumber',
    ]);
    expect(updated!.changedFields.sort()).toEqual(['emails', 'preferredName']);
    expect(updated!.idempotencyKey).toBeNull();
    expect(deleted!.changedFields).toEqual([]);
    expect(Date.parse(created!.occurredAt)).not.toBeNaN();

    const accountEvents = (await h.services.audit.find(h.caller(), { resourceId: account.accountId })).items;
    expect(accountEvents.map((e) => [e.operation, e.resourceType, [...e.changedFields].sort()])).toEqual([
      ['account.create', 'account', ['associatedCustomerIds', 'currency', 'name', 'type']],
      ['account.update', 'account', ['currency', 'name']],
      ['account.delete', 'account', []],
    ]);
  });

  it('is written in the same transaction: when the audit row cannot be stored, the write is undone', async () => {
    // A request id longer than the column allows makes the audit INSERT fail after the customer INSERT.
    const scope = { ...h.caller(), requestId: 'r'.repeat(200) };
    const count = async () => (await h.pool.query('SELECT count(*)::int AS n FROM customers')).rows[0].n as number;
    const before = await count();
    await expect(h.services.customers.create(scope, buildCustomerInput())).rejects.toThrow();
    expect(await count()).toBe(before);
  });

  it("keeps a deleted customer's events (no foreign key to the record)", async () => {
    const {
      value: { customerId },
    } = await h.services.customers.create(h.caller(), buildCustomerInput());
    await h.services.customers.delete(h.caller(), customerId);
    const { rows } = await h.pool.query('SELECT count(*)::int AS n FROM audit_events WHERE resource_id = $1', [
      customerId,
    ]);
    expect(rows[0].n).toBe(2);
  });

  it('writes nothing for a failed or refused write', async () => {
    const before = (await h.pool.query('SELECT count(*)::int AS n FROM audit_events')).rows[0].n;
    const {
      value: { customerId },
    } = await h.services.customers.create(h.caller(), buildCustomerInput());
    await h.services.accounts.create(h.caller(), buildAccountInput([customerId]));
    await expect(h.services.customers.delete(h.caller(), customerId)).rejects.toMatchObject({
      code: 'CUSTOMER_HAS_ACCOUNTS',
    });
    await expect(
      h.services.customers.update(h.caller(), customerId, { dateOfBirth: '1990-01-01' }),
    ).rejects.toMatchObject({ code: 'FIELD_NOT_UPDATABLE' });
    await expect(
      h.services.customers.update(h.caller(), '0190f0f0-0000-7000-8000-000000000000', { preferredName: 'X' }),
    ).rejects.toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });
    await expect(
      h.services.customers.create(h.caller('sandbox', { scopes: ['customers:read'] }), buildCustomerInput()),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const after = (await h.pool.query('SELECT count(*)::int AS n FROM audit_events')).rows[0].n;
    expect(after - before).toBe(2); // the customer and the account creations only
  });

  it('never holds an SSN or document locator number', async () => {
    const input = buildCustomerInput();
    const {
      value: { customerId },
    } = await h.services.customers.create(h.caller(), input);
    await h.services.customers.update(h.caller(), customerId, { preferredName: 'Kim' });
    const text = await auditRowsText();
    expect(text).toContain(customerId);
    assertNoSensitiveValues(text, 'audit_events');
    expect(text).not.toContain(input.socialSecurityNumber.replaceAll('-', ''));
  });

  it('is append-only in the database itself: UPDATE, DELETE and TRUNCATE are refused', async () => {
    await h.services.customers.create(h.caller(), buildCustomerInput());
    const client = await h.pool.connect();
    try {
      await expect(client.query("UPDATE audit_events SET principal_id = 'someone-else'")).rejects.toMatchObject({
        code: '42501',
        message: expect.stringContaining('append-only'),
      });
      await expect(client.query('DELETE FROM audit_events')).rejects.toMatchObject({ code: '42501' });
      await expect(client.query('TRUNCATE audit_events')).rejects.toMatchObject({ code: '42501' });
    } finally {
      client.release();
    }
    const { rows } = await h.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE principal_id = 'someone-else'",
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('reading the audit trail', () => {
  it('pages with first/after in time order and filters by operation, resource and time range', async () => {
    const environment = 'production-like';
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await h.services.customers.create(h.caller(environment), buildCustomerInput())).value.customerId);
    await h.services.customers.update(h.caller(environment), ids[0]!, { preferredName: 'Lee' });

    const all = await h.services.audit.find(h.caller(environment), {}, { first: 100 });
    expect(all.items).toHaveLength(6);
    expect(all.nextAfter).toBeNull();
    expect(all.items.every((e) => e.environment === environment)).toBe(true);

    const firstPage = await h.services.audit.find(h.caller(environment), {}, { first: 4 });
    expect(firstPage.nextAfter).toBe(firstPage.items.at(-1)!.eventId);
    const secondPage = await h.services.audit.find(
      h.caller(environment),
      {},
      { first: 4, after: firstPage.nextAfter! },
    );
    expect(secondPage.nextAfter).toBeNull();
    expect([...firstPage.items, ...secondPage.items].map((e) => e.eventId)).toEqual(all.items.map((e) => e.eventId));
    const exact = await h.services.audit.find(h.caller(environment), {}, { first: 6 });
    expect(exact.nextAfter).toBeNull();

    const updates = await h.services.audit.find(h.caller(environment), { operation: 'customer.update' });
    expect(updates.items.map((e) => e.resourceId)).toEqual([ids[0]]);

    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await h.services.audit.find(h.caller(environment), { from: future })).items).toEqual([]);
    expect((await h.services.audit.find(h.caller(environment), { to: future })).items).toHaveLength(6);
    // Other environments' events are invisible.
    expect(
      (await h.services.audit.find(h.caller('sandbox'), {}, { first: 100 })).items.some(
        (e) => e.environment !== 'sandbox',
      ),
    ).toBe(false);
  });

  it('validates its filters', async () => {
    await expect(h.services.audit.find(h.caller(), {}, { first: 0 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [expect.objectContaining({ field: 'first' })],
    });
    await expect(h.services.audit.find(h.caller(), {}, { first: 101 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(h.services.audit.find(h.caller(), { operation: 'customer.read' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(h.services.audit.find(h.caller(), { from: 'yesterday' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(
      h.services.audit.find(h.caller(), { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(h.services.audit.find(h.caller(), { resourceId: 'not-an-id' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(h.services.audit.find(h.caller(), { sort: 'desc' } as never)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [expect.objectContaining({ code: 'UNKNOWN_FIELD' })],
    });
  });
});
