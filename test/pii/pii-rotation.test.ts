import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaEventStore } from '../../src/features/events/event.store.js';
import { PrismaSealedCustomerStore } from '../../src/features/customers/sealed-customer.store.js';
import { PrismaSealedWebhookSecretStore } from '../../src/features/webhooks/sealed-webhook-secret.store.js';
import { createStores } from '../../src/features/stores.js';
import { PrismaWebhookStore } from '../../src/features/webhooks/webhook.store.js';
import { createDomainServices } from '../../src/features/services.js';
import { secretBinding } from '../../src/features/webhooks/webhook.js';
import { WebhookService } from '../../src/features/webhooks/webhook.service.js';
import { startWebhookDelivery } from '../../src/features/webhooks/webhook-delivery.job.js';
import { createUrlGuard } from '../../src/features/webhooks/webhook-http.js';
import { PiiCipher } from '../../src/pii/pii-cipher.js';
import { rotatePiiKeys, rotateWebhookSecrets } from '../../src/pii/pii-rotation.js';
import { memoryLogger } from '../runtime/process-helpers.js';
import { createDomainHarness, type DomainHarness } from '../support/domain.js';
import { sequenceAll } from '../support/events.js';
import { buildCustomerInput, type CustomerInput } from '../support/factories.js';
import { startReceiver, type Receiver } from '../features/webhooks/receiver.js';
import { TEST_STATIC_TOKEN } from '../support/static-token.js';
import { ATTEMPT_TIMEOUT_MS } from '../features/webhooks/settings.js';

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
const rows = async () =>
  (
    await h.pool.query<Row>(
      'SELECT id::text, environment, pii_key_id, ssn_ciphertext, document_locator_number_ciphertext, ssn_blind_index FROM customers ORDER BY id',
    )
  ).rows;

/** Every row opens, under the key it names, to exactly the values it was created with. */
function expectAllReadable(cipher: PiiCipher, all: Row[]) {
  for (const row of all) {
    const binding = { environment: row.environment, customerId: row.id };
    const { input } = created.get(row.id)!;
    const ssnMatches =
      cipher.open(binding, 'ssn', row.pii_key_id, row.ssn_ciphertext) ===
      input.socialSecurityNumber.replaceAll('-', '');
    const dlnMatches =
      cipher.open(binding, 'document_locator_number', row.pii_key_id, row.document_locator_number_ciphertext) ===
      String(input.documentLocatorNumber);
    expect(ssnMatches && dlnMatches).toBe(true); // compared, never printed
  }
}

/** Webhook endpoints and the secrets they were given (after a rotation: the previous one too). */
const endpoints = new Map<string, { environment: string; secret: string; previous?: string }>();
let receiver: Receiver;
/** Endpoint management as the runtime builds it, reaching the test receiver on 127.0.0.1. */
let webhookService: WebhookService;

interface EndpointRow {
  id: string;
  environment: string;
  secret_key_id: string;
  secret_ciphertext: Buffer;
  previous_secret_key_id: string | null;
  previous_secret_ciphertext: Buffer | null;
}
const endpointRows = async () =>
  (
    await h.pool.query<EndpointRow>(
      'SELECT id::text, environment, secret_key_id, secret_ciphertext, previous_secret_key_id, previous_secret_ciphertext FROM webhook_endpoints ORDER BY id',
    )
  ).rows;

/** Every endpoint's secrets open, under the keys their row names, to exactly the secrets it was given. */
function expectSecretsReadable(cipher: PiiCipher, all: EndpointRow[]) {
  for (const row of all) {
    const binding = secretBinding(row.environment, row.id);
    const given = endpoints.get(row.id)!;
    expect(
      cipher.openSecret(binding, { keyId: row.secret_key_id, ciphertext: row.secret_ciphertext }) === given.secret,
    ).toBe(true);
    if (row.previous_secret_ciphertext) {
      expect(
        cipher.openSecret(binding, {
          keyId: row.previous_secret_key_id!,
          ciphertext: row.previous_secret_ciphertext,
        }) === given.previous,
      ).toBe(true);
    }
  }
}

beforeAll(async () => {
  h = await createDomainHarness({ keyring: { keys: new Map([['old', keys.old]]), activeKeyId: 'old', blindIndexKey } });
  for (const environment of [
    'sandbox',
    'sandbox',
    'sandbox',
    'sandbox',
    'sandbox',
    'production-like',
    'production-like',
  ]) {
    const input = buildCustomerInput();
    const {
      value: { customerId },
    } = await h.services.customers.create(h.caller(environment), input);
    created.set(customerId, { environment, input });
  }
  receiver = await startReceiver();
  webhookService = new WebhookService(createStores(h.prisma).webhooks, h.cipher, { urlGuard: createUrlGuard(true) });
  // Sealed under 'old': one plain, one rotated (its previous secret still signs), one whose previous secret
  // expired (dropped by the re-encryption, not resealed). Only the first takes the test's events.
  const plain = await webhookService.create(h.caller(), {
    url: receiver.url('/plain'),
    eventTypes: ['customer.updated'],
  });
  endpoints.set(plain.endpoint.endpointId, { environment: 'sandbox', secret: plain.secret });
  const rotating = await webhookService.create(h.caller(), {
    url: receiver.url('/rotated'),
    eventTypes: ['customer.updated'],
  });
  const rotated = await webhookService.rotateSecret(h.caller(), rotating.endpoint.endpointId);
  endpoints.set(rotating.endpoint.endpointId, {
    environment: 'sandbox',
    secret: rotated.secret,
    previous: rotating.secret,
  });
  const expiring = await webhookService.create(h.caller('production-like'), {
    url: 'https://hooks.example.com/expired',
    eventTypes: ['account.deleted'],
  });
  const renewed = await webhookService.rotateSecret(h.caller('production-like'), expiring.endpoint.endpointId);
  await h.pool.query(
    "UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1",
    [expiring.endpoint.endpointId],
  );
  endpoints.set(expiring.endpoint.endpointId, { environment: 'production-like', secret: renewed.secret });
});
afterAll(async () => {
  await receiver?.close();
  await h.close();
});

describe('npm run pii:rotate', () => {
  it('re-encrypts every row under the active key in batches, keeping values, bindings and blind indexes', async () => {
    const before = await rows();
    expect(before.every((row) => row.pii_key_id === 'old')).toBe(true);

    const report = await rotatePiiKeys(new PrismaSealedCustomerStore(h.prisma), cipherWith('new'), { batchSize: 3 });
    expect(report).toEqual({
      activeKeyId: 'new',
      runId: expect.any(String),
      reencrypted: 7,
      batches: 3,
      failed: [],
      remaining: 0,
    });
    // Audited in each batch's transaction, once per environment it re-encrypted rows of (ids sort by creation:
    // five sandbox customers, then two production-like ones; batches of 3: s s s | s s p | p): names, never values.
    const audit = await h.pool.query(
      'SELECT environment, principal_id, operation, resource_type, resource_id::text, request_id, changed_fields FROM audit_events WHERE resource_id = $1 ORDER BY id',
      [report.runId],
    );
    expect(audit.rows.map((row) => row.environment).sort()).toEqual([
      'production-like',
      'production-like',
      'sandbox',
      'sandbox',
    ]);
    for (const row of audit.rows) {
      expect(row).toMatchObject({
        principal_id: 'cli:pii-rotate',
        operation: 'pii_rotation.reencrypt_customers',
        resource_type: 'pii_rotation',
        resource_id: report.runId,
        request_id: report.runId,
      });
      expect(row.changed_fields).toEqual(['socialSecurityNumber', 'documentLocatorNumber']);
    }
    // …and the audit trail's readers see them like any other write.
    const listed = await h.services.audit.find(h.caller('production-like', { scopes: ['audit:read'] }), {
      resourceId: report.runId,
    });
    expect(listed.items.map((event) => event.operation)).toEqual([
      'pii_rotation.reencrypt_customers',
      'pii_rotation.reencrypt_customers',
    ]);

    const after = await rows();
    expect(after.every((row) => row.pii_key_id === 'new')).toBe(true);
    for (const [i, row] of after.entries()) {
      expect(row.ssn_ciphertext.equals(before[i]!.ssn_ciphertext)).toBe(false);
      expect(row.ssn_blind_index.equals(before[i]!.ssn_blind_index)).toBe(true);
    }
    // Readable with the new key alone: the old one can now be retired from PII_KEYS.
    expectAllReadable(cipherWith('new', ['new']), after);
  });

  it('re-encrypts webhook secrets too: none stays under the retired key, and deliveries verify with the same secrets', async () => {
    const before = await endpointRows();
    expect(before.map((row) => [row.secret_key_id, row.previous_secret_key_id])).toEqual([
      ['old', null],
      ['old', 'old'],
      ['old', 'old'],
    ]);

    const report = await rotateWebhookSecrets(new PrismaSealedWebhookSecretStore(h.prisma), cipherWith('third'), {
      batchSize: 2,
    });
    expect(report).toEqual({ runId: expect.any(String), reencrypted: 3, batches: 2, failed: [], remaining: 0 });
    const audit = await h.pool.query(
      'SELECT environment, operation, changed_fields FROM audit_events WHERE resource_id = $1 ORDER BY environment',
      [report.runId],
    );
    expect(audit.rows.map((row) => [row.environment, row.operation, row.changed_fields]).sort()).toEqual([
      ['production-like', 'pii_rotation.reencrypt_webhook_secrets', ['secret']],
      ['sandbox', 'pii_rotation.reencrypt_webhook_secrets', ['secret']],
    ]);
    const after = await endpointRows();
    // The expired previous secret is gone (and its expiry with it); the one still in its overlap is resealed.
    expect(after.map((row) => [row.secret_key_id, row.previous_secret_key_id])).toEqual([
      ['third', null],
      ['third', 'third'],
      ['third', null],
    ]);
    expect(
      (
        await h.pool.query(
          'SELECT count(*)::int AS n FROM webhook_endpoints WHERE previous_secret_expires_at IS NOT NULL',
        )
      ).rows[0].n,
    ).toBe(1);
    for (const [i, row] of after.entries())
      expect(row.secret_ciphertext.equals(before[i]!.secret_ciphertext)).toBe(false);
    // Readable with the new key alone: 'old' can leave PII_KEYS.
    expectSecretsReadable(cipherWith('third', ['third']), after);
    // Nothing to re-encrypt, nothing audited.
    const idle = await rotateWebhookSecrets(new PrismaSealedWebhookSecretStore(h.prisma), cipherWith('third'), {
      batchSize: 2,
    });
    expect(idle).toEqual({ runId: expect.any(String), reencrypted: 0, batches: 0, failed: [], remaining: 0 });
    expect(
      (await h.pool.query('SELECT count(*)::int AS n FROM audit_events WHERE resource_id = $1', [idle.runId])).rows[0]
        .n,
    ).toBe(0);

    // A dispatcher holding only the new key signs with the secrets the receivers were given.
    const [someone] = [...created.keys()];
    await h.services.customers.update(h.caller(), someone!, { preferredName: 'Rotated' });
    await sequenceAll(new PrismaEventStore(h.prisma), h.pool);
    const { logger } = memoryLogger();
    const dispatcher = startWebhookDelivery(
      new PrismaWebhookStore(h.prisma),
      cipherWith('third', ['third']),
      {
        timeoutMs: ATTEMPT_TIMEOUT_MS,
        retryScheduleMs: [100],
        pollIntervalMs: 50,
        concurrency: 2,
        allowPrivateNetworks: true,
      },
      logger,
    );
    try {
      dispatcher.wake();
      const [plain] = await receiver.waitFor('/plain', 1);
      const [rotated] = await receiver.waitFor('/rotated', 1);
      const [plainId, rotatedId] = [...endpoints.keys()];
      expect(new Webhook(endpoints.get(plainId!)!.secret).verify(plain!.body, plain!.headers)).toMatchObject({
        type: 'customer.updated',
      });
      expect(new Webhook(endpoints.get(rotatedId!)!.secret).verify(rotated!.body, rotated!.headers)).toMatchObject({
        type: 'customer.updated',
      });
      expect(new Webhook(endpoints.get(rotatedId!)!.previous!).verify(rotated!.body, rotated!.headers)).toMatchObject({
        type: 'customer.updated',
      });
    } finally {
      await dispatcher.stop();
    }
  });

  it('does nothing on a second run', async () => {
    const before = await rows();
    expect(await rotatePiiKeys(new PrismaSealedCustomerStore(h.prisma), cipherWith('new'), { batchSize: 3 })).toEqual({
      activeKeyId: 'new',
      runId: expect.any(String),
      reencrypted: 0,
      batches: 0,
      failed: [],
      remaining: 0,
    });
    expect(await rows()).toEqual(before);
  });

  it('keeps duplicate detection working after rotation (the blind index key is separate)', async () => {
    const services = createDomainServices({ stores: createStores(h.prisma), protector: cipherWith('new') });
    const [id, { environment, input }] = [...created.entries()][0]!;
    expect(id).toBeTruthy();
    await expect(services.customers.create(h.caller(environment), { ...input })).rejects.toMatchObject({
      code: 'CUSTOMER_ALREADY_EXISTS',
    });
  });

  it('skips rows a running request holds locked, and picks them up on the next run', async () => {
    const holder = await h.pool.connect();
    const [lockedId] = [...created.keys()];
    try {
      await holder.query('BEGIN');
      await holder.query("UPDATE customers SET preferred_name = 'Busy' WHERE id = $1", [lockedId]);
      // Did not wait for the lock, shown by what it did rather than by how long it took: the holder never lets
      // go before this returns, so a run that waited would never answer, and one cut off would report it failed.
      const report = await rotatePiiKeys(new PrismaSealedCustomerStore(h.prisma), cipherWith('third'), {
        batchSize: 2,
      });
      expect(report).toMatchObject({ reencrypted: 6, remaining: 1, failed: [] });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect(
      await rotatePiiKeys(new PrismaSealedCustomerStore(h.prisma), cipherWith('third'), { batchSize: 2 }),
    ).toMatchObject({ reencrypted: 1, remaining: 0 });
    expectAllReadable(cipherWith('third', ['third']), await rows());
  });

  it('runs as a process and reports its counts (the npm script)', async () => {
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: h.database.url,
      API_TOKENS: TEST_STATIC_TOKEN,
      PII_KEYS: `third:${keys.third.toString('base64')},new:${keys.new.toString('base64')}`,
      PII_ACTIVE_KEY: 'new',
      PII_BLIND_INDEX_KEY: blindIndexKey.toString('base64'),
    };
    const { stdout } = await run(
      path.resolve('node_modules/.bin/tsx'),
      ['src/cli/pii-rotate.ts', '--batch-size', '4'],
      { env },
    );
    const output = JSON.parse(stdout);
    expect(output).toEqual({
      activeKeyId: 'new',
      runId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reencrypted: 7,
      batches: 2,
      failed: 0,
      remaining: 0,
      businessTaxIds: { reencrypted: 0, batches: 0, failed: 0, remaining: 0 },
      documentChunks: { reencrypted: 0, batches: 0, failed: 0, remaining: 0 },
      webhookSecrets: { reencrypted: 3, batches: 1, failed: 0, remaining: 0 },
      accountNumbers: { reencrypted: 0, batches: 0, failed: 0, remaining: 0 },
    });
    expectAllReadable(cipherWith('new', ['new']), await rows());
    const secrets = await endpointRows();
    expect(secrets.every((row) => row.secret_key_id === 'new' && (row.previous_secret_key_id ?? 'new') === 'new')).toBe(
      true,
    );
    expectSecretsReadable(cipherWith('new', ['new']), secrets);
    // One run, one id, both rotations audited under it.
    const operations = await h.pool.query(
      'SELECT DISTINCT operation FROM audit_events WHERE resource_id = $1 ORDER BY operation',
      [output.runId],
    );
    expect(operations.rows.map((row) => row.operation)).toEqual([
      'pii_rotation.reencrypt_customers',
      'pii_rotation.reencrypt_webhook_secrets',
    ]);
  });

  it('reports rows it cannot open by id (never by content) and re-encrypts the rest', async () => {
    const [brokenId] = [...created.keys()].slice(-1);
    await h.pool.query("UPDATE customers SET pii_key_id = 'retired-too-early' WHERE id = $1", [brokenId]);
    const report = await rotatePiiKeys(new PrismaSealedCustomerStore(h.prisma), cipherWith('old'), { batchSize: 10 });
    expect(report.reencrypted).toBe(6);
    expect(report.failed).toEqual([
      { customerId: brokenId, keyId: 'retired-too-early', reason: 'PII key "retired-too-early" is not configured' },
    ]);
    expect(report.remaining).toBe(1);

    // The same for a webhook secret: named by endpoint id, its sealing left as it was, the others resealed.
    const [, rotatedId] = [...endpoints.keys()];
    await h.pool.query("UPDATE webhook_endpoints SET previous_secret_key_id = 'retired-too-early' WHERE id = $1", [
      rotatedId,
    ]);
    const secrets = await rotateWebhookSecrets(new PrismaSealedWebhookSecretStore(h.prisma), cipherWith('old'), {
      batchSize: 10,
    });
    expect(secrets).toEqual({
      runId: expect.any(String),
      reencrypted: 2,
      batches: 1,
      failed: [
        { endpointId: rotatedId, keyId: 'retired-too-early', reason: 'PII key "retired-too-early" is not configured' },
      ],
      remaining: 1,
    });
    expect((await endpointRows()).find((row) => row.id === rotatedId)).toMatchObject({
      secret_key_id: 'new',
      previous_secret_key_id: 'retired-too-early',
    });
  });
});
