import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { buildCustomerInput } from '../../support/factories.js';
import { startTestService, type TestService } from '../../support/service.js';
import { expectFailure, expectSuccess } from '../../rest/helpers.js';
import { bearer } from '../../support/http-auth.js';

/**
 * The audit trail filtered by who wrote (`principalId`), over REST and GraphQL: only that principal's
 * events, combined with the other filters, and a malformed value refused with nothing read.
 */
let service: TestService;
let auditor: string;
let writer: { token: string; principalId: string };
let writtenByWriter: string[];

beforeAll(async () => {
  service = await startTestService();
  ({ token: auditor } = await issueApiToken(service.database.pool, {
    environments: ['sandbox'],
    scopes: ['audit:read'],
  }));
  writer = await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['customers:write'] });
  await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() }); // by the static token
  writtenByWriter = [];
  for (let index = 0; index < 2; index += 1) {
    const res = await service.call('POST', '/sandbox/customer', {
      body: buildCustomerInput(),
      headers: bearer(writer.token),
    });
    writtenByWriter.push(res.json.data.customerId);
  }
  expectSuccess(
    await service.call('PUT', `/sandbox/customer/${writtenByWriter[0]}`, {
      body: { preferredName: 'Ada' },
      headers: bearer(writer.token),
    }),
    'customer',
    200,
  );
});
afterAll(async () => service?.stop());

describe('the audit trail filtered by principal', () => {
  it('answers only the events of that principal over REST, with the other filters too', async () => {
    const res = await service.call(
      'GET',
      `/sandbox/audit-events?principalId=${encodeURIComponent(writer.principalId)}`,
      { headers: bearer(auditor) },
    );
    expectSuccess(res, 'customer', 200);
    const events = res.json.data.events as { principalId: string; operation: string; resourceId: string }[];
    expect(events.map((event) => [event.operation, event.resourceId])).toEqual([
      ['customer.create', writtenByWriter[0]],
      ['customer.create', writtenByWriter[1]],
      ['customer.update', writtenByWriter[0]],
    ]);
    expect(new Set(events.map((event) => event.principalId))).toEqual(new Set([writer.principalId]));
    const updates = await service.call(
      'GET',
      `/sandbox/audit-events?principalId=${encodeURIComponent(writer.principalId)}&operation=customer.update`,
      { headers: bearer(auditor) },
    );
    expect(updates.json.data.events.map((event: { resourceId: string }) => event.resourceId)).toEqual([
      writtenByWriter[0],
    ]);
    const nobody = await service.call('GET', '/sandbox/audit-events?principalId=token%3Anobody', {
      headers: bearer(auditor),
    });
    expect(nobody.json.data.events).toEqual([]);
  });

  it('refuses an empty or overlong principal with VALIDATION_FAILED', async () => {
    for (const value of ['', 'x'.repeat(301)]) {
      const res = await service.call('GET', `/sandbox/audit-events?principalId=${value}`, { headers: bearer(auditor) });
      expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
      expect(res.json.error.details.map((detail: { field: string }) => detail.field)).toEqual(['principalId']);
    }
  });

  it('filters the same way over GraphQL', async () => {
    const res = await service.call('POST', '/sandbox/graphql', {
      headers: bearer(auditor),
      body: {
        query:
          'query ($who: String) { auditEvents(principalId: $who, first: 10) { nodes { principalId operation resourceId } } }',
        variables: { who: writer.principalId },
      },
    });
    expect(res.json.errors).toBeUndefined();
    const nodes = res.json.data.auditEvents.nodes as { principalId: string; operation: string; resourceId: string }[];
    expect(nodes.map((node) => node.operation)).toEqual(['customer.create', 'customer.create', 'customer.update']);
    expect(nodes.every((node) => node.principalId === writer.principalId)).toBe(true);
    const bad = await service.call('POST', '/sandbox/graphql', {
      headers: bearer(auditor),
      body: { query: '{ auditEvents(principalId: "") { nodes { eventId } } }' },
    });
    expect(bad.json.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});
