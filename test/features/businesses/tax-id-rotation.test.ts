import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaSealedBusinessStore } from '../../../src/features/businesses/sealed-business.store.js';
import { createDomainServices } from '../../../src/features/services.js';
import { createStores } from '../../../src/features/stores.js';
import type { PiiCipher } from '../../../src/pii/pii-cipher.js';
import { rotateBusinessTaxIds } from '../../../src/pii/pii-rotation.js';
import type { DomainHarness } from '../../support/domain.js';
import { rotationKeys } from '../../support/pii-rotation.js';
import { buildBusinessInput } from './support.js';

/** `npm run pii:rotate` re-seals a business's tax id as it does an SSN (docs/adr/0090). */
const { cipherWith, createHarness, runPiiRotate } = rotationKeys();

let h: DomainHarness;
/** customer id → its normalised tax id */
const taxIds = new Map<string, string>();

interface Row {
  id: string;
  environment: string;
  pii_key_id: string;
  tax_id_ciphertext: Buffer;
  tax_id_blind_index: Buffer;
  version: number;
}
const rows = async () =>
  (
    await h.pool.query<Row>(
      `SELECT b.customer_id::text AS id, b.environment, b.pii_key_id, b.tax_id_ciphertext, b.tax_id_blind_index, c.version
         FROM business_profiles b JOIN customers c ON c.id = b.customer_id ORDER BY b.customer_id`,
    )
  ).rows;

const opensTo = (cipher: PiiCipher, row: Row) =>
  cipher.open({ environment: row.environment, customerId: row.id }, 'tax_id', row.pii_key_id, row.tax_id_ciphertext) ===
  taxIds.get(row.id);

beforeAll(async () => {
  h = await createHarness();
  for (const environment of ['sandbox', 'sandbox', 'sandbox', 'production-like', 'production-like']) {
    const input = buildBusinessInput();
    const { value } = await h.services.customers.create(h.caller(environment), input);
    taxIds.set(value.customerId, input.taxId.replace('-', ''));
  }
});
afterAll(async () => h?.close());

describe('rotating the tax ids', () => {
  it('re-seals every tax id under the active key, in batches, audited, without moving a version', async () => {
    const before = await rows();
    expect(before.map((row) => row.pii_key_id)).toEqual(['old', 'old', 'old', 'old', 'old']);
    const report = await rotateBusinessTaxIds(new PrismaSealedBusinessStore(h.prisma), cipherWith('new'), {
      batchSize: 2,
    });
    expect(report).toEqual({
      activeKeyId: 'new',
      runId: expect.any(String),
      reencrypted: 5,
      batches: 3,
      failed: [],
      remaining: 0,
    });
    const after = await rows();
    expect(after.map((row) => row.pii_key_id)).toEqual(['new', 'new', 'new', 'new', 'new']);
    // Readable with the new key alone, to exactly the tax id it was created with (compared, never printed).
    expect(after.every((row) => opensTo(cipherWith('new', ['new']), row))).toBe(true);
    expect(after.map((row) => row.tax_id_blind_index)).toEqual(before.map((row) => row.tax_id_blind_index));
    expect(after.map((row) => row.version)).toEqual(before.map((row) => row.version));
    const audit = await h.pool.query(
      'SELECT DISTINCT environment, operation, changed_fields FROM audit_events WHERE resource_id = $1 ORDER BY environment',
      [report.runId],
    );
    expect(audit.rows).toEqual([
      { environment: 'production-like', operation: 'pii_rotation.reencrypt_customers', changed_fields: ['taxId'] },
      { environment: 'sandbox', operation: 'pii_rotation.reencrypt_customers', changed_fields: ['taxId'] },
    ]);
  });

  it('does nothing on a second run', async () => {
    const before = await rows();
    const report = await rotateBusinessTaxIds(new PrismaSealedBusinessStore(h.prisma), cipherWith('new'));
    expect([report.reencrypted, report.batches, report.remaining]).toEqual([0, 0, 0]);
    expect(await rows()).toEqual(before);
  });

  it('reports a row it cannot open by id, and re-seals the rest', async () => {
    const [brokenId] = [...taxIds.keys()];
    await h.pool.query("UPDATE business_profiles SET pii_key_id = 'retired' WHERE customer_id = $1", [brokenId]);
    const report = await rotateBusinessTaxIds(new PrismaSealedBusinessStore(h.prisma), cipherWith('old'));
    expect(report.reencrypted).toBe(4);
    expect(report.failed).toEqual([
      { customerId: brokenId, keyId: 'retired', reason: 'PII key "retired" is not configured' },
    ]);
    expect(report.remaining).toBe(1);
    await h.pool.query("UPDATE business_profiles SET pii_key_id = 'new' WHERE customer_id = $1", [brokenId]);
  });

  it('is run by npm run pii:rotate, which reports the tax ids apart', async () => {
    const { stdout } = await runPiiRotate(h.database.url, 2);
    const output = JSON.parse(stdout);
    // The previous test left four businesses under 'old' and one under 'new': that one is re-sealed.
    expect(output.businessTaxIds).toEqual({ reencrypted: 1, batches: 1, failed: 0, remaining: 0 });
    expect([output.reencrypted, output.remaining]).toEqual([0, 0]);
    const after = await rows();
    expect(after.map((row) => row.pii_key_id)).toEqual(['old', 'old', 'old', 'old', 'old']);
    expect(after.every((row) => opensTo(cipherWith('old', ['old']), row))).toBe(true);
  });

  it('keeps duplicate detection after rotation (the blind index has its own key)', async () => {
    const services = createDomainServices({ stores: createStores(h.prisma), protector: cipherWith('new') });
    const [first] = [...taxIds.values()];
    await expect(
      services.customers.create(h.caller(), buildBusinessInput({ taxId: `${first!.slice(0, 2)}-${first!.slice(2)}` })),
    ).rejects.toMatchObject({ code: 'TAX_ID_ALREADY_EXISTS' });
  });
});
