import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStores } from '../../../src/features/stores.js';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { assertNoSensitiveValues, buildAccountInput, buildCustomerInput } from '../../support/factories.js';

let h: DomainHarness;
beforeAll(async () => {
  h = await createDomainHarness({ idempotencyWaitMs: 500 });
});
afterAll(async () => h.close());

const count = async (table: string) =>
  (await h.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;
let keys = 0;
const newKey = () => `key-${Date.now()}-${++keys}`;

describe('idempotency keys', () => {
  it('replays a customer creation: same id, no second record, marked as a replay', async () => {
    const input = buildCustomerInput();
    const key = newKey();
    const first = await h.services.customers.create(h.caller(), input, { idempotencyKey: key });
    expect(first.replayed).toBe(false);
    const customers = await count('customers');
    const audits = await count('audit_events');

    const again = await h.services.customers.create(h.caller(), { ...input }, { idempotencyKey: key });
    // The whole customer both times; the replay is a fact beside the value, never a field of it.
    expect(again).toEqual({ value: first.value, replayed: true });
    expect(first.value).toMatchObject({ lastName: input.lastName, emails: input.emails, accountIds: [] });
    // The key keeps the id only: no copy of the customer's personal data outside its own row.
    const { rows } = await h.pool.query('SELECT result FROM idempotency_keys WHERE key = $1', [key]);
    expect(rows[0].result).toEqual({ customerId: first.value.customerId });
    expect(await count('customers')).toBe(customers);
    expect(await count('audit_events')).toBe(audits);
  });

  it('treats the same input written differently (key order, SSN without dashes) as the same request', async () => {
    const input = buildCustomerInput();
    const key = newKey();
    const first = await h.services.customers.create(h.caller(), input, { idempotencyKey: key });
    const reordered = Object.fromEntries(
      Object.entries({ ...input, socialSecurityNumber: input.socialSecurityNumber.replaceAll('-', '') }).reverse(),
    );
    expect(await h.services.customers.create(h.caller(), reordered, { idempotencyKey: key })).toEqual({
      value: first.value,
      replayed: true,
    });
  });

  it('replays an account creation with the whole stored account', async () => {
    const {
      value: { customerId },
    } = await h.services.customers.create(h.caller(), buildCustomerInput());
    const key = newKey();
    const first = await h.services.accounts.create(h.caller(), buildAccountInput([customerId]), {
      idempotencyKey: key,
    });
    const again = await h.services.accounts.create(h.caller(), buildAccountInput([customerId.toUpperCase()]), {
      idempotencyKey: key,
    });
    expect(again).toEqual({ value: first.value, replayed: true });
    expect(await count(`accounts WHERE id = '${first.value.accountId}'`)).toBe(1);
  });

  it('answers IDEMPOTENCY_KEY_REUSED for the same key with a different request, and creates nothing', async () => {
    const key = newKey();
    await h.services.customers.create(h.caller(), buildCustomerInput(), { idempotencyKey: key });
    const before = await count('customers');
    const error = await h.services.customers
      .create(h.caller(), buildCustomerInput(), { idempotencyKey: key })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', kind: 'unprocessable' });
    assertNoSensitiveValues(
      JSON.stringify(error) + String((error as Error).message),
      'the IDEMPOTENCY_KEY_REUSED error',
    );
    expect(await count('customers')).toBe(before);

    // Another operation under the same key is a different request too.
    const {
      value: { customerId },
    } = await h.services.customers.create(h.caller(), buildCustomerInput());
    await expect(
      h.services.accounts.create(h.caller(), buildAccountInput([customerId]), { idempotencyKey: key }),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('scopes keys to the principal and the environment', async () => {
    const key = newKey();
    const mine = await h.services.customers.create(
      h.caller('sandbox', { id: 'token:aaaaaaaaaaaaaaaa' }),
      buildCustomerInput(),
      { idempotencyKey: key },
    );
    const theirs = await h.services.customers.create(
      h.caller('sandbox', { id: 'token:bbbbbbbbbbbbbbbb' }),
      buildCustomerInput(),
      { idempotencyKey: key },
    );
    const elsewhere = await h.services.customers.create(
      h.caller('production-like', { id: 'token:aaaaaaaaaaaaaaaa' }),
      buildCustomerInput(),
      { idempotencyKey: key },
    );
    expect(new Set([mine.value.customerId, theirs.value.customerId, elsewhere.value.customerId]).size).toBe(3);
  });

  it('creates exactly one record for 20 concurrent requests with one key', async () => {
    const input = buildCustomerInput();
    const key = newKey();
    const before = await count('customers');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        h.services.customers.create(h.caller(), structuredClone(input), { idempotencyKey: key }),
      ),
    );
    expect(new Set(results.map((r) => r.value.customerId)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await count('customers')).toBe(before + 1);
    expect(await count(`audit_events WHERE idempotency_key = '${key}'`)).toBe(1);
  });

  it('answers IDEMPOTENCY_KEY_IN_PROGRESS when the first request holds the key too long', async () => {
    const input = buildCustomerInput();
    const key = newKey();
    const blocker = await h.pool.connect();
    try {
      // Another instance's open transaction holding the key.
      await blocker.query('BEGIN');
      await blocker.query(
        "INSERT INTO idempotency_keys (principal_id, environment, key, operation, fingerprint, expires_at) VALUES ('test', 'sandbox', $1, 'customer.create', '\\x00', now() + interval '1 hour')",
        [key],
      );
      // The blocker never commits before this answers: the answer itself shows the wait was the key's own bounded
      // one (its lock time-out), not the blocker's end nor the statement time-out (another error), however slow the machine.
      await expect(h.services.customers.create(h.caller(), input, { idempotencyKey: key })).rejects.toMatchObject({
        code: 'IDEMPOTENCY_KEY_IN_PROGRESS',
        kind: 'conflict',
      });
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
    // The holder gave up: the key is free and the request goes through.
    await expect(h.services.customers.create(h.caller(), input, { idempotencyKey: key })).resolves.toHaveProperty(
      'value.customerId',
    );
  });

  it('keeps no key for a failed creation, so the corrected request can use it', async () => {
    const key = newKey();
    const bad = { ...buildCustomerInput(), dateOfBirth: '3000-01-01' };
    await expect(h.services.customers.create(h.caller(), bad, { idempotencyKey: key })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const {
      value: { customerId },
    } = await h.services.customers.create(h.caller(), buildCustomerInput(), { idempotencyKey: key });
    expect(customerId).toBeTruthy();
    const unknown = await h.services.accounts
      .create(h.caller(), buildAccountInput(['0190f0f0-0000-7000-8000-000000000000']), { idempotencyKey: newKey() })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'CUSTOMER_NOT_FOUND' });
  });

  it('ignores expired keys and purges them', async () => {
    const key = newKey();
    const first = await h.services.customers.create(h.caller(), buildCustomerInput(), { idempotencyKey: key });
    await h.pool.query("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1", [key]);
    const second = await h.services.customers.create(h.caller(), buildCustomerInput(), { idempotencyKey: key });
    expect(second.value.customerId).not.toBe(first.value.customerId);
    expect(second.replayed).toBe(false);

    await h.pool.query("UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1", [key]);
    expect(await createStores(h.prisma).idempotency.purgeExpired(new Date(), 1000)).toBeGreaterThanOrEqual(1);
    expect(await count(`idempotency_keys WHERE key = '${key}'`)).toBe(0);
  });

  it('validates the key: 1–255 printable ASCII characters', async () => {
    for (const idempotencyKey of ['', 'k'.repeat(256), 'clé', 'tab\there']) {
      await expect(
        h.services.customers.create(h.caller(), buildCustomerInput(), { idempotencyKey }),
      ).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [expect.objectContaining({ field: 'idempotencyKey' })],
      });
    }
    await expect(
      h.services.customers.create(h.caller(), buildCustomerInput(), { idempotencyKey: 'k'.repeat(255) }),
    ).resolves.toHaveProperty('value.customerId');
  });

  it('stores a keyed fingerprint, never the input or an unkeyed hash of it', async () => {
    const input = buildCustomerInput();
    const key = newKey();
    await h.services.customers.create(h.caller(), input, { idempotencyKey: key });
    const { rows } = await h.pool.query('SELECT * FROM idempotency_keys WHERE key = $1', [key]);
    assertNoSensitiveValues(JSON.stringify(rows), 'idempotency_keys');
    const stored = (rows[0].fingerprint as Buffer).toString('hex');
    const ssn = input.socialSecurityNumber.replaceAll('-', '');
    for (const guess of [ssn, JSON.stringify(input), `customer.create${ssn}`]) {
      expect(stored).not.toBe(createHash('sha256').update(guess).digest('hex'));
    }
    expect(rows[0].result).toEqual({ customerId: expect.any(String) });
  });
});
