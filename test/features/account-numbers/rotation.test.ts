import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROUTING_NUMBER, PrismaSealedAccountNumberStore } from '../../../src/features/account-numbers/index.js';
import { createDomainServices, type DomainServices } from '../../../src/features/services.js';
import { createStores } from '../../../src/features/stores.js';
import type { PiiCipher } from '../../../src/pii/pii-cipher.js';
import { rotateAccountNumbers } from '../../../src/pii/pii-rotation.js';
import type { DomainHarness } from '../../support/domain.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { rotationKeys } from '../../support/pii-rotation.js';

/**
 * `npm run pii:rotate` re-seals account numbers (docs/adr/0107): every number not under the active PII key is
 * opened with its own and sealed under the active one, in batches, audited; the blind index is left alone, so
 * that afterwards the full list answers the same digits and the inbound look-up still finds them.
 */
const { cipherWith, createHarness, runPiiRotate } = rotationKeys();
const servicesWith = (cipher: PiiCipher): DomainServices =>
  createDomainServices({ stores: createStores(h.prisma), protector: cipher });

let h: DomainHarness;
/** account id → environment and the digits of its numbers, oldest first (compared, never printed). */
const accounts = new Map<string, { environment: string; numbers: string[] }>();

interface Row {
  id: string;
  pii_key_id: string;
  number_ciphertext: Buffer;
  number_blind_index: Buffer;
  status: string;
  updated_at: Date;
}
const rows = async () =>
  (
    await h.pool.query<Row>(
      'SELECT id::text, pii_key_id, number_ciphertext, number_blind_index, status, updated_at FROM account_numbers ORDER BY id',
    )
  ).rows;

const fullLists = async (services: DomainServices) =>
  Promise.all(
    [...accounts].map(async ([accountId, { environment }]) =>
      (await services.accountNumbers.list(h.caller(environment), accountId)).map((n) => n.accountNumber),
    ),
  );

beforeAll(async () => {
  h = await createHarness();
  for (const environment of ['sandbox', 'sandbox', 'production-like']) {
    const caller = h.caller(environment);
    const customer = await h.services.customers.create(caller, buildCustomerInput());
    const account = await h.services.accounts.create(caller, buildAccountInput([customer.value.customerId]));
    accounts.set(account.value.accountId, { environment, numbers: [] });
  }
  // A second number on the first account.
  const [firstId] = accounts.keys();
  await h.services.accountNumbers.add(h.caller(), firstId!, {});
  for (const [accountId, entry] of accounts)
    entry.numbers = (await h.services.accountNumbers.list(h.caller(entry.environment), accountId)).map(
      (n) => n.accountNumber,
    );
});
afterAll(async () => h?.close());

describe('rotating the account numbers', () => {
  it('re-seals every number under the active key, in batches, audited; the lists and look-ups answer as before', async () => {
    const before = await rows();
    expect(before).toHaveLength(4);
    expect(before.map((row) => row.pii_key_id)).toEqual(['old', 'old', 'old', 'old']);
    const report = await rotateAccountNumbers(new PrismaSealedAccountNumberStore(h.prisma), cipherWith('new'), {
      batchSize: 3,
    });
    expect(report).toEqual({ runId: expect.any(String), reencrypted: 4, batches: 2, failed: [], remaining: 0 });
    const after = await rows();
    expect(after.map((row) => row.pii_key_id)).toEqual(['new', 'new', 'new', 'new']);
    for (const [i, row] of after.entries()) {
      expect(row.number_ciphertext.equals(before[i]!.number_ciphertext)).toBe(false);
      expect(row.number_blind_index.equals(before[i]!.number_blind_index)).toBe(true);
      expect([row.status, row.updated_at]).toEqual([before[i]!.status, before[i]!.updated_at]);
    }
    // With the new key alone: the same digits, and each is found by the look-up.
    const rotated = servicesWith(cipherWith('new', ['new']));
    expect(await fullLists(rotated)).toEqual([...accounts.values()].map((entry) => entry.numbers));
    for (const [accountId, { environment, numbers }] of accounts)
      for (const accountNumber of numbers)
        expect(
          await rotated.accountNumbers.lookup(h.caller(environment), {
            routingNumber: DEFAULT_ROUTING_NUMBER,
            accountNumber,
          }),
        ).toMatchObject({ accountId, status: 'ACTIVE' });
    // The old key alone opens none of them any more.
    await expect(fullLists(servicesWith(cipherWith('old', ['old'])))).rejects.toThrow();
    const audit = await h.pool.query(
      'SELECT DISTINCT environment, operation, changed_fields FROM audit_events WHERE resource_id = $1 ORDER BY environment',
      [report.runId],
    );
    expect(audit.rows).toEqual([
      {
        environment: 'production-like',
        operation: 'pii_rotation.reencrypt_account_numbers',
        changed_fields: ['accountNumber'],
      },
      {
        environment: 'sandbox',
        operation: 'pii_rotation.reencrypt_account_numbers',
        changed_fields: ['accountNumber'],
      },
    ]);
    expect(JSON.stringify(audit.rows)).not.toMatch(/\d{10}/);
  });

  it('does nothing on a second run', async () => {
    const before = await rows();
    const report = await rotateAccountNumbers(new PrismaSealedAccountNumberStore(h.prisma), cipherWith('new'));
    expect([report.reencrypted, report.batches, report.remaining]).toEqual([0, 0, 0]);
    expect(await rows()).toEqual(before);
  });

  it('reports a number it cannot open by id, and re-seals the rest', async () => {
    const [broken] = await rows();
    await h.pool.query("UPDATE account_numbers SET pii_key_id = 'retired' WHERE id = $1", [broken!.id]);
    const report = await rotateAccountNumbers(new PrismaSealedAccountNumberStore(h.prisma), cipherWith('old'));
    expect(report.reencrypted).toBe(3);
    expect(report.failed).toEqual([
      { accountNumberId: broken!.id, keyId: 'retired', reason: 'PII key "retired" is not configured' },
    ]);
    expect(report.remaining).toBe(1);
    await h.pool.query("UPDATE account_numbers SET pii_key_id = 'new' WHERE id = $1", [broken!.id]);
  });

  it('is run by npm run pii:rotate, which reports the account numbers apart; the digits never in its output', async () => {
    const { stdout, stderr } = await runPiiRotate(h.database.url, 2);
    const output = JSON.parse(stdout);
    // The previous test left three numbers under 'old' and one under 'new': that one is re-sealed.
    expect(output.accountNumbers).toEqual({ reencrypted: 1, batches: 1, failed: 0, remaining: 0 });
    expect((await rows()).map((row) => row.pii_key_id)).toEqual(['old', 'old', 'old', 'old']);
    const rotated = servicesWith(cipherWith('old', ['old']));
    expect(await fullLists(rotated)).toEqual([...accounts.values()].map((entry) => entry.numbers));
    for (const { numbers } of accounts.values())
      for (const number of numbers) expect(`${stdout}${stderr}`).not.toContain(number);
  });
});
