import { describe, expect, it } from 'vitest';
import type { Caller } from '../../src/domain/caller.js';
import { isWithinBounds, PAGE_SIZE, pageOf, pageSize } from '../../src/domain/pagination.js';
import { listAccountsQuery } from '../../src/features/accounts/index.js';
import { AuditService, listAuditEventsQuery } from '../../src/features/audit/index.js';
import { listCustomersQuery } from '../../src/features/customers/index.js';
import {
  EventService,
  listEventsQuery,
  RECENT_EVENTS,
  recentEventsFirst,
  recordEventsQuery,
} from '../../src/features/events/index.js';
import { listTransactionsQuery } from '../../src/features/ledger/index.js';
import { listWebhookAttemptsQuery } from '../../src/features/webhooks/index.js';

/**
 * The typed page of every list (src/domain/pagination.ts): one bound rule (isWithinBounds) on the typed `first`,
 * applied by the services (pageOf/pageSize) to what GraphQL and other callers pass, and by the REST operations'
 * query schemas (limitParameterOf) to `limit`. Both surfaces refuse the same bad bound with VALIDATION_FAILED;
 * each names its own parameter (`first`, `limit`) with the detail code its contract has always answered.
 */
const caller: Caller = {
  environment: 'sandbox',
  principal: {
    id: 'test',
    kind: 'static-token',
    scopes: ['customers:read', 'accounts:read', 'events:read', 'audit:read', 'webhooks:read'],
    environments: '*',
  },
  requestId: 'req-1',
};
const unread = (): never => {
  throw new Error('a refused page reads nothing');
};
const stores = {
  events: { list: unread, recent: unread, recentOfMany: unread, find: unread },
  accounts: { findById: unread },
} as never;

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as { code: string; details: { field?: string; code: string }[] };
  }
  throw new Error('not refused');
};
const asyncRefusal = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    return error as { code: string; details: { field?: string; code: string }[] };
  }
  throw new Error('not refused');
};

describe('the typed page', () => {
  it("has one bound rule: a whole number from 1 to the list's max", () => {
    expect([1, 20, 100].every((size) => isWithinBounds(size))).toBe(true);
    expect([0, -1, 101, 1.5, Number.NaN].some((size) => isWithinBounds(size))).toBe(false);
    expect(isWithinBounds(50, RECENT_EVENTS)).toBe(true);
    expect(isWithinBounds(51, RECENT_EVENTS)).toBe(false);
  });

  it('pageOf takes the default when first is absent and refuses a bad bound with VALIDATION_FAILED (first, OUT_OF_RANGE)', () => {
    expect(pageOf({})).toEqual({ first: PAGE_SIZE.default, after: undefined });
    expect(pageOf({ first: 7, after: 'x' })).toEqual({ first: 7, after: 'x' });
    for (const first of [0, 101, 2.5]) {
      expect(refusal(() => pageOf({ first }))).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ field: 'first', code: 'OUT_OF_RANGE' }],
      });
    }
    expect(pageSize(undefined, RECENT_EVENTS)).toBe(RECENT_EVENTS.default);
    expect(recentEventsFirst(51 - 1)).toBe(50);
  });

  it.each([0, 101])(
    'first %i: every REST list refuses limit with VALIDATION_FAILED, as the services refuse first',
    async (bad) => {
      const limit = { limit: String(bad) };
      for (const parse of [
        listCustomersQuery,
        listAccountsQuery,
        listEventsQuery,
        listTransactionsQuery,
        listWebhookAttemptsQuery,
      ]) {
        expect(refusal(() => parse(caller, limit))).toMatchObject({
          code: 'VALIDATION_FAILED',
          details: [{ field: 'limit', code: 'INVALID_VALUE' }],
        });
      }
      expect(refusal(() => listAuditEventsQuery(caller, { first: String(bad) }))).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ field: 'first' }],
      });

      const events = new EventService(stores);
      expect(await asyncRefusal(() => events.find(caller, {}, { first: bad }))).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ field: 'first', code: 'OUT_OF_RANGE' }],
      });
      const audit = new AuditService({ audit: { list: unread } } as never);
      expect(await asyncRefusal(() => audit.find(caller, {}, { first: bad }))).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ field: 'first', code: 'OUT_OF_RANGE' }],
      });
    },
  );

  it('recent events: REST limit and the typed first share RECENT_EVENTS (1 to 50)', async () => {
    expect(recordEventsQuery(caller, { limit: '50' })).toEqual({ first: 50 });
    expect(refusal(() => recordEventsQuery(caller, { limit: '51' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'limit' }],
    });
    const events = new EventService(stores);
    const record = { resourceType: 'customer' as const, resourceId: '018f0000-0000-7000-8000-000000000000' };
    expect(await asyncRefusal(() => events.recent(caller, record, { first: 51 }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'first', code: 'OUT_OF_RANGE' }],
    });
    expect(
      await asyncRefusal(() => events.recentOfMany(caller, { resourceType: 'account', resourceIds: [] }, { first: 0 })),
    ).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it("the services validate the typed filter where GraphQL's schema cannot: unknown event types, a negative sequence", async () => {
    const events = new EventService(stores);
    expect(await asyncRefusal(() => events.find(caller, { types: ['customer.read'] }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'types.0' }],
    });
    expect(await asyncRefusal(() => events.find(caller, {}, { after: -1 }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'after', code: 'OUT_OF_RANGE' }],
    });
    const audit = new AuditService({ audit: { list: unread } } as never);
    expect(await asyncRefusal(() => audit.find(caller, {}, { after: 'not-an-id' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'after' }],
    });
  });

  it('REST checks the scope before the query: a caller without it is FORBIDDEN whatever the query says', () => {
    const reader: Caller = { ...caller, principal: { ...caller.principal, scopes: ['events:read'] } };
    expect(refusal(() => listAccountsQuery(reader, { limit: '0' }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(refusal(() => listCustomersQuery(reader, { socialSecurityNumber: '1' }))).toMatchObject({
      code: 'FORBIDDEN',
    });
  });
});
