import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../../src/db/connection/pool.js';
import { createPrismaClient } from '../../../src/db/connection/prisma-client.js';
import { createStores } from '../../../src/features/stores.js';
import { sandboxProvider, VerificationService } from '../../../src/features/verification/index.js';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { buildCustomerInput } from '../../support/factories.js';

/**
 * The verification job with several instances (docs/adr/0101): two services on their own connection pools apply
 * the due results of one database at once; each check is applied exactly once (one result, one event and one
 * audit row per check), whichever instance took it. No clock is waited for: the sandbox's delay is 0.
 */
let h: DomainHarness;
let other: { service: VerificationService; close: () => Promise<void> };

beforeAll(async () => {
  h = await createDomainHarness();
  const pool = createPool({
    connectionString: h.database.url,
    max: 10,
    connectTimeoutMs: 60_000,
    statementTimeoutMs: 60_000,
  });
  const prisma = createPrismaClient(pool);
  other = {
    service: new VerificationService(createStores(prisma), sandboxProvider(0)),
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
});
afterAll(async () => {
  await other?.close();
  await h?.close();
});

describe('the verification job on two instances', () => {
  it('applies every due check once, whichever instance takes it', async () => {
    const lastNames = ['Doe', 'Review', 'Reject'];
    const ids: string[] = [];
    for (let i = 0; i < 24; i += 1) {
      const { value } = await h.services.customers.create(
        h.caller(),
        buildCustomerInput({ lastName: lastNames[i % 3]! }),
      );
      await h.services.verification.requestCheck(h.caller(), value.customerId);
      ids.push(value.customerId);
    }
    const [first, second] = await Promise.all([
      h.services.verification.completeDueChecks(),
      other.service.completeDueChecks(),
    ]);
    expect(first + second).toBe(ids.length);
    expect(await h.services.verification.completeDueChecks()).toBe(0);

    const { rows } = await h.pool.query<{ id: string; events: number; results: number; completed: number }>(
      `SELECT c.id::text AS id,
              (SELECT count(*)::int FROM events e WHERE e.resource_id = c.id AND e.type = 'customer.verification_updated') AS events,
              (SELECT count(*)::int FROM audit_events a WHERE a.resource_id = c.id AND a.operation = 'customer.verification.result') AS results,
              (SELECT count(*)::int FROM verification_checks k WHERE k.customer_id = c.id AND k.status = 'COMPLETED') AS completed
         FROM customers c WHERE c.id = ANY($1::uuid[])`,
      [ids],
    );
    expect(rows).toHaveLength(ids.length);
    for (const row of rows) expect(row).toEqual({ id: row.id, events: 2, results: 1, completed: 1 });
    const statuses = await h.services.verification.getMany(h.caller(), ids);
    expect(statuses.map((verification) => verification!.status)).toEqual(
      ids.map((_id, i) => ['VERIFIED', 'NEEDS_REVIEW', 'REJECTED'][i % 3]),
    );
  });

  it('leaves a check that is not due yet for a later pass', async () => {
    const { value } = await h.services.customers.create(h.caller(), buildCustomerInput());
    const check = await h.services.verification.requestCheck(h.caller(), value.customerId);
    await h.pool.query(`UPDATE verification_checks SET due_at = now() + interval '1 day' WHERE id = $1`, [
      check.checkId,
    ]);
    expect(await h.services.verification.completeDueChecks()).toBe(0);
    expect((await h.services.verification.get(h.caller(), value.customerId)).status).toBe('PENDING');
  });

  it('without a provider (VERIFICATION_PROVIDER=none) refuses a check with 503 VERIFICATION_PROVIDER_NOT_CONFIGURED, writing nothing', async () => {
    const unconfigured = new VerificationService(createStores(h.prisma), null);
    const { value } = await h.services.customers.create(h.caller(), buildCustomerInput());
    const count = async () =>
      (
        await h.pool.query<{ n: string }>(
          `SELECT (SELECT count(*) FROM verification_checks) + (SELECT count(*) FROM customer_verifications) + (SELECT count(*) FROM audit_events) AS n`,
        )
      ).rows[0]!.n;
    const before = await count();
    await expect(unconfigured.requestCheck(h.caller(), value.customerId)).rejects.toMatchObject({
      code: 'VERIFICATION_PROVIDER_NOT_CONFIGURED',
      kind: 'unavailable',
    });
    expect(await count()).toBe(before);
    expect(await unconfigured.completeDueChecks()).toBe(0);
  });
});
