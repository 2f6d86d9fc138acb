import { expect } from 'vitest';
import type { AccessScope } from '../../../src/domain/caller.js';
import { createCustomer, expectFailure } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import type { CallOptions, CallResult, TestService } from '../../support/service.js';
import { buildBusinessInput, type BusinessInput } from '../businesses/support.js';

/** Helpers of the verification tests (docs/adr/0101): customers, the three routes, the job, the state in the database. */
export function verificationHelpers(service: TestService) {
  const path = (customerId: string) => `/sandbox/customer/${customerId}/verification`;
  const helpers = {
    token: async (scopes: AccessScope[], name: string) =>
      (await issueApiToken(service.database.pool, { environments: ['*'], scopes, name })).token,
    person: async (lastName = 'Doe', overrides: Record<string, unknown> = {}) =>
      (await createCustomer(service, { lastName, ...overrides })).customerId,
    business: async (overrides: Partial<BusinessInput> = {}) => {
      const res = await service.call('POST', '/sandbox/customer', { body: buildBusinessInput(overrides) });
      expect(res.status, res.text).toBe(201);
      return res.json.data.customerId as string;
    },
    addOwner: async (businessId: string, body: Record<string, unknown>) => {
      const res = await service.call('POST', `/sandbox/customer/${businessId}/beneficial-owner`, { body });
      expect(res.status, res.text).toBe(201);
    },
    get: (customerId: string, options?: CallOptions) => service.call('GET', path(customerId), options),
    read: async (customerId: string) => {
      const res = await helpers.get(customerId);
      expect(res.status, res.text).toBe(200);
      return res.json.data;
    },
    requestCheck: (customerId: string, options?: CallOptions) =>
      service.call('POST', `${path(customerId)}/check`, options),
    decide: (customerId: string, body: unknown, options?: CallOptions) =>
      service.call('POST', `${path(customerId)}/decision`, { ...options, body }),
    /** Asks for a check and applies its result (the job, run once: no waiting on a clock). */
    check: async (customerId: string) => {
      const res = await helpers.requestCheck(customerId);
      expect(res.status, res.text).toBe(202);
      await service.jobs.verificationChecks.runOnce();
      return helpers.read(customerId);
    },
    /** A status set directly, as a fixture (the transition walk starts from each one). */
    setStatus: async (customerId: string, status: string) => {
      await service.database.pool.query(
        `INSERT INTO customer_verifications (customer_id, environment, status) VALUES ($1, 'sandbox', $2)
         ON CONFLICT (customer_id, environment) DO UPDATE SET status = EXCLUDED.status`,
        [customerId, status],
      );
    },
    /** The verification tables, the events and the audit trail: a refusal leaves them as they were. */
    snapshot: async () => {
      const { rows } = await service.database.pool.query<Record<string, string>>(
        `SELECT (SELECT md5(coalesce(string_agg(concat_ws(':', customer_id, status, decision_outcome, decision_reason, decided_at), ','
                                                ORDER BY customer_id), '')) FROM customer_verifications) AS verifications,
                (SELECT md5(coalesce(string_agg(concat_ws(':', id, status, outcome, completed_at), ',' ORDER BY id), '')) FROM verification_checks) AS checks,
                (SELECT count(*)::text FROM events) AS events, (SELECT count(*)::text FROM audit_events) AS audit`,
      );
      return rows[0]!;
    },
    expectRefused: async (request: () => Promise<CallResult>, status: number, code: string) => {
      const before = await helpers.snapshot();
      const res = await request();
      expectFailure(res, 'customer', status, code);
      expect(await helpers.snapshot()).toEqual(before);
      return res;
    },
    /** The customer's verification events, oldest first, as the outbox holds them. */
    events: async (customerId: string) =>
      (
        await service.database.pool.query<{ payload: Record<string, string>; changed_fields: string[] }>(
          `SELECT payload, changed_fields FROM events WHERE resource_id = $1 AND type = 'customer.verification_updated'
            ORDER BY txid, id`,
          [customerId],
        )
      ).rows,
    /** The customer's verification audit rows, oldest first. */
    audit: async (customerId: string) =>
      (
        await service.database.pool.query<{ operation: string; principal_id: string; changed_fields: string[] }>(
          `SELECT operation, principal_id, changed_fields FROM audit_events
            WHERE resource_id = $1 AND operation LIKE 'customer.verification.%' ORDER BY occurred_at, id`,
          [customerId],
        )
      ).rows,
  };
  return helpers;
}
