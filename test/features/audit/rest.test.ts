import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { assertNoSensitiveValues, buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { startTestService, type TestService } from '../../support/service.js';
import { expectFailure, expectSuccess } from '../../rest/helpers.js';
import { bearer, challenge } from '../../support/http-auth.js';

/**
 * GET /{environment}/audit-events after a whole flow of writes over REST: pagination, filters, the scope
 * it needs, and what the rows hold (never an SSN or document locator number).
 */
let service: TestService;
let auditor: string;
const flow = {
  ssn: '',
  dln: 0,
  customerId: '',
  otherCustomerId: '',
  accountId: '',
};
beforeAll(async () => {
  service = await startTestService();
  ({ token: auditor } = await issueApiToken(service.database.pool, {
    environments: ['sandbox'],
    scopes: ['audit:read'],
  }));
  const input = buildCustomerInput();
  flow.ssn = input.socialSecurityNumber;
  flow.dln = input.documentLocatorNumber;
  const created = await service.call('POST', '/sandbox/customer', {
    body: input,
    headers: { 'idempotency-key': 'flow-1', 'x-request-id': 'flow-create' },
  });
  flow.customerId = created.json.data.customerId;
  flow.otherCustomerId = (
    await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() })
  ).json.data.customerId;
  expectSuccess(
    await service.call('PUT', `/sandbox/customer/${flow.customerId}`, {
      body: { preferredName: 'Ada', emails: ['ada@example.com'] },
    }),
    'customer',
    200,
  );
  flow.accountId = (
    await service.call('POST', '/sandbox/account', { body: buildAccountInput([flow.customerId, flow.otherCustomerId]) })
  ).json.data.accountId;
  expectSuccess(
    await service.call('PUT', `/sandbox/account/${flow.accountId}`, { body: { name: 'Household', currency: 'USD' } }),
    'account',
    200,
  );
  expectSuccess(await service.call('DELETE', `/sandbox/account/${flow.accountId}`), 'account', 200);
  expectSuccess(await service.call('DELETE', `/sandbox/customer/${flow.otherCustomerId}`), 'customer', 200);
  // Refused and failed writes leave no event.
  expectFailure(
    await service.call('POST', '/sandbox/customer', { body: { ...input, firstName: '' } }),
    'customer',
    400,
    'VALIDATION_FAILED',
  );
  expectFailure(
    await service.call('POST', '/sandbox/customer', { body: buildCustomerInput(), headers: bearer(auditor) }),
    'customer',
    403,
    'FORBIDDEN',
  );
  // Another environment's events are not this one's.
  await service.call('POST', '/production-like/customer', { body: buildCustomerInput() });
});
afterAll(async () => service?.stop());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Event = Record<string, any>;

async function readAll(query: string, pageSize: number): Promise<{ events: Event[]; pages: number }> {
  const events: Event[] = [];
  let after: string | null = null;
  let pages = 0;
  do {
    const cursor: string = after === null ? '' : `&after=${after}`;
    const res = await service.call('GET', `/sandbox/audit-events?first=${pageSize}${query}${cursor}`, {
      headers: bearer(auditor),
    });
    expectSuccess(res, 'customer', 200);
    expect(res.json.data.events.length).toBeLessThanOrEqual(pageSize);
    events.push(...res.json.data.events);
    after = res.json.data.nextAfter;
    // The name every other list answers; `nextCursor`, deprecated, carries the same value for one release.
    expect(res.json.data.nextCursor).toBe(after);
    pages += 1;
  } while (after !== null && pages < 20);
  return { events, pages };
}

describe('GET /{environment}/audit-events', () => {
  it('pages through every write of the flow, oldest first, with cursors', async () => {
    const { events, pages } = await readAll('', 2);
    expect(events.map((event) => event.operation)).toEqual([
      'customer.create',
      'customer.create',
      'customer.update',
      'account.create',
      'account.update',
      'account.delete',
      'customer.delete',
    ]);
    expect(pages).toBe(4);
    expect(new Set(events.map((event) => event.eventId)).size).toBe(7);
    expect(events[0]).toMatchObject({
      resourceType: 'customer',
      resourceId: flow.customerId,
      requestId: 'flow-create',
      idempotencyKey: 'flow-1',
    });
    expect(events[0]!.principalId).toMatch(/^static:/);
    expect(events[0]!.changedFields).toContain('socialSecurityNumber');
    expect(events[2]!.changedFields.sort()).toEqual(['emails', 'preferredName']);
  });

  it('filters by resource, operation and time range', async () => {
    const byResource = await readAll(`&resourceId=${flow.accountId.toUpperCase()}`, 100);
    expect(byResource.events.map((event) => event.operation)).toEqual([
      'account.create',
      'account.update',
      'account.delete',
    ]);
    const byOperation = await readAll('&operation=customer.create', 100);
    expect(byOperation.events.map((event) => event.resourceId)).toEqual([flow.customerId, flow.otherCustomerId]);
    const all = (await readAll('', 100)).events;
    const pivot = all[3]!.occurredAt as string;
    const from = await readAll(`&from=${encodeURIComponent(pivot)}`, 100);
    const to = await readAll(`&to=${encodeURIComponent(pivot)}`, 100);
    expect(from.events.every((event) => event.occurredAt >= pivot)).toBe(true);
    expect(to.events.every((event) => event.occurredAt < pivot)).toBe(true);
    expect(from.events.length + to.events.length).toBe(all.length);
  });

  it('answers VALIDATION_FAILED for unusable filters', async () => {
    const res = await service.call('GET', '/sandbox/audit-events?first=500&operation=customer.read&from=yesterday', {
      headers: bearer(auditor),
    });
    expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
    expect(res.json.error.details.map((detail: { field: string }) => detail.field).sort()).toEqual([
      'first',
      'from',
      'operation',
    ]);
  });

  it('is refused without audit:read (403 insufficient_scope, scope="audit:read"), even to a token that may write', async () => {
    const { token } = await issueApiToken(service.database.pool, {
      environments: ['*'],
      scopes: ['customers:read', 'customers:write', 'accounts:read', 'accounts:write'],
    });
    const res = await service.call('GET', '/sandbox/audit-events', { headers: bearer(token) });
    expectFailure(res, 'customer', 403, 'FORBIDDEN');
    expect(res.headers.get('www-authenticate')).toBe(
      challenge('insufficient_scope', 'The token lacks the scope this operation needs: audit:read.', 'audit:read'),
    );
    expectFailure(
      await service.call('GET', '/production-like/audit-events', { headers: bearer(auditor) }),
      'customer',
      403,
      'FORBIDDEN',
    );
  });

  it('keeps no SSN or document locator number in any audit row of the flow', async () => {
    const { rows } = await service.database.pool.query<{ row: string }>(
      'SELECT row_to_json(a)::text AS row FROM audit_events a',
    );
    expect(rows.length).toBe(8);
    const text = rows.map((r) => r.row).join('\n');
    for (const value of [flow.ssn, flow.ssn.replaceAll('-', ''), String(flow.dln)]) expect(text).not.toContain(value);
    assertNoSensitiveValues(text, 'the audit_events table');
  });
});
