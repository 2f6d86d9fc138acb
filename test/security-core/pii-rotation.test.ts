import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaSealedCustomerStore } from '../../src/db/sealed-customer.store.js';
import { createStores } from '../../src/db/stores.js';
import { createDomainServices } from '../../src/domain/services.js';
import { PiiCipher } from '../../src/pii/pii-cipher.js';
import { rotatePiiKeys } from '../../src/pii/pii-rotation.js';
import { createDomainHarness, type DomainHarness } from '../support/domain.js';
import { buildCustomerInput, type CustomerInput } from '../support/factories.js';

const run = promisify(execFile);
const keys = { old: randomBytes(32), new: randomBytes(32), third: randomBytes(32) };
const blindIndexKey = randomBytes(32);
const cipherWith = (activeKeyId: keyof typeof keys, available: (keyof typeof keys)[] = ['old', 'new', 'third']) =>
  new PiiCipher({ keys: new Map(available.map((kid) => [kid, keys[kid]])), activeKeyId, blindIndexKey });

let h: DomainHarness;
const created = new Map<string, { environment: string; input: CustomerInput }>();

interface Row {
  id: string;
  environment: string;
  pii_key_id: string;
  ssn_ciphertext: Buffer;
  document_locator_number_ciphertext: Buffer;
  ssn_blind_index: Buffer;
}
const rows = async () => (await h.pool.query<Row>('SELECT id::text, environment, pii_key_id, ssn_ciphertext, document_locator_number_ciphertext, ssn_blind_index FROM customers ORDER BY id')).rows;

/** Every row opens, under the key it names, to exactly the values it was created with. */
function expectAllReadable(cipher: PiiCipher, all: Row[]) {
  for (const row of all) {
    const binding = { environment: row.environment, customerId: row.id };
    const { input } = created.get(row.id)!;
    const ssnMatches = cipher.open(binding, 'ssn', row.pii_key_id, row.ssn_ciphertext) === input.socialSecurityNumber.replaceAll('-', '');
    const dlnMatches = cipher.open(binding, 'document_locator_number', row.pii_key_id, row.document_locator_number_ciphertext) === String(input.documentLocatorNumber);
    expect(ssnMatches && dlnMatches).toBe(true); // compared, never printed
  }
}

beforeAll(async () => {
  h = await createDomainHarness({ keyring: { keys: new Map([['old', keys.old]]), activeKeyId: 'old', blindIndexKey } });
  for (const environment of ['sandbox', 'sandbox', 'sandbox', 'sandbox', 'sandbox', 'production-like', 'production-like']) {
    const input = buildCustomerInput();
    const { value: { customerId } } = await h.services.customers.create(h.scope(environment), input);
    created.set(customerId, { environment, input });
  }
});
afterAll(async () => h.close());

describe('npm run pii:rotate', () => {
  it('re-encrypts every row under the active key in batches, keeping values, bindings and blind indexes', async () => {
    const before = await rows();
    expect(before.every((row) => row.pii_key_id === 'old')).toBe(true);

    const report = await rotatePiiKeys(new PrismaSealedCustomerStore(h.prisma), cipherWith('new'), { batchSize: 3 });
    expect(report).toEqual({ activeKeyId: 'new', reencrypted: 7, batches: 3, failed: [], remaining: 0 });

    const after = await rows();
    expect(after.every((row) => row.pii_key_id === 'new')).toBe(true);
    for (const [i, row] of after.entries()) {
      expect(row.ssn_ciphertext.equals(before[i]!.ssn_ciphertext)).toBe(false);
      expect(row.ssn_blind_index.equals(before[i]!.ssn_blind_index)).toBe(true);
    }
    // Readable with the new key alone: the old one can now be retired from PII_KEYS.
    expectAllReadable(cipherWith('new', ['new']), after);
  });

  it('does nothing on a second run', async () => {
    const before = await rows();
    expect(await rotatePiiKeys(new PrismaSealedCustomerStore(h.prisma), cipherWith('new'), { batchSize: 3 })).toEqual({ activeKeyId: 'new', reencrypted: 0, batches: 0, failed: [], remaining: 0 });
    expect(await rows()).toEqual(before);
  });

  it('keeps duplicate detection working after rotation (the blind index key is separate)', async () => {
    const services = createDomainServices({ stores: createStores(h.prisma), protector: cipherWith('new') });
    const [id, { environment, input }] = [...created.entries()][0]!;
    expect(id).toBeTruthy();
    await expect(services.customers.create(h.scope(environment), { ...input })).rejects.toMatchObject({ code: 'CUSTOMER_ALREADY_EXISTS' });
  });

  it('skips rows a running request holds locked, and picks them up on the next run', async () => {
    const holder = await h.pool.connect();
    const [lockedId] = [...created.keys()];
    try {
      await holder.query('BEGIN');
      await holder.query("UPDATE customers SET preferred_name = 'Busy' WHERE id = $1", [lockedId]);
      const started = Date.now();
      const report = await rotatePiiKeys(new PrismaSealedCustomerStore(h.prisma), cipherWith('third'), { batchSize: 2 });
      expect(Date.now() - started).toBeLessThan(5000); // did not wait for the lock
      expect(report).toMatchObject({ reencrypted: 6, remaining: 1, failed: [] });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect(await rotatePiiKeys(new PrismaSealedCustomerStore(h.prisma), cipherWith('third'), { batchSize: 2 })).toMatchObject({ reencrypted: 1, remaining: 0 });
    expectAllReadable(cipherWith('third', ['third']), await rows());
  });

  it('runs as a process and reports its counts (the npm script)', async () => {
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: h.database.url,
      API_TOKENS: 'static-token-for-tests-0001',
      PII_KEYS: `third:${keys.third.toString('base64')},new:${keys.new.toString('base64')}`,
      PII_ACTIVE_KEY: 'new',
      PII_BLIND_INDEX_KEY: blindIndexKey.toString('base64'),
    };
    const { stdout } = await run(path.resolve('node_modules/.bin/tsx'), ['src/cli/pii-rotate.ts', '--batch-size', '4'], { env });
    expect(JSON.parse(stdout)).toEqual({ activeKeyId: 'new', reencrypted: 7, batches: 2, failed: 0, remaining: 0 });
    expectAllReadable(cipherWith('new', ['new']), await rows());
  });

  it('reports rows it cannot open by id (never by content) and re-encrypts the rest', async () => {
    const [brokenId] = [...created.keys()].slice(-1);
    await h.pool.query("UPDATE customers SET pii_key_id = 'retired-too-early' WHERE id = $1", [brokenId]);
    const report = await rotatePiiKeys(new PrismaSealedCustomerStore(h.prisma), cipherWith('old'), { batchSize: 10 });
    expect(report.reencrypted).toBe(6);
    expect(report.failed).toEqual([{ customerId: brokenId, keyId: 'retired-too-early', reason: 'PII key "retired-too-early" is not configured' }]);
    expect(report.remaining).toBe(1);
  });
});
