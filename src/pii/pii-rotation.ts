import { type AuditOperation, auditEventFor, type NewAuditEvent } from '../domain/audit-event.js';
import type { Principal } from '../domain/caller.js';
import { newId } from '../domain/ids.js';
import { secretBinding, type SealedSecret } from '../features/webhooks/index.js';
import type { PiiCipher } from './pii-cipher.js';

export interface RotationReport {
  activeKeyId: string;
  /** The run's id: every audit event it wrote has it as resourceId (and requestId). */
  runId: string;
  reencrypted: number;
  batches: number;
  /** Rows that could not be opened (unknown key id, tampered ciphertext): listed by id, never by content. */
  failed: { customerId: string; keyId: string; reason: string }[];
  /** Rows still under another key after this run: the failed ones and any a request held locked meanwhile. */
  remaining: number;
}

/** A customer's encrypted columns, as stored. */
export interface SealedCustomer {
  id: string;
  environment: string;
  keyId: string;
  ssnCiphertext: Uint8Array;
  documentLocatorNumberCiphertext: Uint8Array;
}

export interface ResealBatch {
  activeKeyId: string;
  /** Only customers whose id sorts after this one. */
  after: string;
  limit: number;
  /** The new ciphertexts of a row, or undefined to leave it as it is. */
  reseal(row: SealedCustomer): Pick<SealedCustomer, 'ssnCiphertext' | 'documentLocatorNumberCiphertext'> | undefined;
  /** The audit event of the batch's re-encryption in one environment, written in the batch's transaction. */
  audit(environment: string): NewAuditEvent;
}

export interface SealedCustomerStore {
  /**
   * In one short transaction: locks up to `limit` customers not under the active key (skipping rows a
   * request holds), reseals them, stores the result and writes `audit(environment)` for each environment
   * it resealed rows of; returns the last id it looked at.
   */
  resealBatch(batch: ResealBatch): Promise<{ lastId: string | undefined; resealed: number }>;
  countNotUnder(keyId: string): Promise<number>;
}

/**
 * Re-encrypts every customer's SSN and document locator number that is not under the active PII key.
 *
 * - Batches in id order, one short transaction each, so the service keeps running: rows are locked
 *   FOR NO KEY UPDATE (which does not block account creation's FOR KEY SHARE on customers) and rows a
 *   request holds are SKIPPED, not waited for; they remain for the next run.
 * - Resumable by construction: a row already under the active key is never selected again, so an
 *   interrupted run simply continues where it stopped when started again.
 * - Each value is opened with the key its row names and sealed under the active key with the same
 *   associated data (environment, customer id, field), so the row binding is kept. The blind index is
 *   left alone: it has its own key (rotating it is a separate, offline procedure, docs/security.md).
 */
export async function rotatePiiKeys(
  store: SealedCustomerStore,
  cipher: PiiCipher,
  options: BatchOptions = {},
): Promise<RotationReport> {
  const failed: RotationReport['failed'] = [];
  const runId = options.runId ?? newId();
  const audit = rotationAudit(runId, 'pii_rotation.reencrypt_customers', [
    'socialSecurityNumber',
    'documentLocatorNumber',
  ]);
  const progress = await resealInBatches(store, cipher.activeKeyId, options, audit, (row: SealedCustomer) => {
    const binding = { environment: row.environment, customerId: row.id };
    try {
      return {
        ssnCiphertext: cipher.reseal(binding, 'ssn', row.keyId, row.ssnCiphertext),
        documentLocatorNumberCiphertext: cipher.reseal(
          binding,
          'document_locator_number',
          row.keyId,
          row.documentLocatorNumberCiphertext,
        ),
      };
    } catch (error) {
      failed.push({
        customerId: row.id,
        keyId: row.keyId,
        reason: error instanceof Error ? error.message : 'cannot be opened',
      });
      return undefined;
    }
  });
  return {
    activeKeyId: cipher.activeKeyId,
    runId,
    reencrypted: progress.reencrypted,
    batches: progress.batches,
    failed,
    remaining: progress.remaining,
  };
}

interface BatchOptions {
  batchSize?: number;
  onBatch?: (progress: { batch: number; reencrypted: number }) => void;
  /** The run's id in the audit trail; a new one by default. The CLI passes one id to both rotations of a run. */
  runId?: string;
}

/** Who rotates: the operator's command, in every environment (the audit trail names it). */
const ROTATION_PRINCIPAL: Principal = { id: 'cli:pii-rotate', kind: 'system', scopes: [], environments: '*' };

/**
 * The audit event of one batch in one environment: the run is the resource, so `resourceId=<runId>` finds
 * every batch of it; the fields re-encrypted by name, never a key, a ciphertext or a value.
 */
const rotationAudit =
  (runId: string, operation: AuditOperation, fields: readonly string[]) =>
  (environment: string): NewAuditEvent =>
    auditEventFor(
      { environment, principal: ROTATION_PRINCIPAL, requestId: runId },
      { operation, resourceType: 'pii_rotation', resourceId: runId, changedFields: fields },
    );

/** What both rotations' stores do: reseal a batch of rows not under the active key (audited), count those left. */
interface ResealingStore<Row, Resealed> {
  resealBatch(batch: {
    activeKeyId: string;
    after: string;
    limit: number;
    reseal(row: Row): Resealed | undefined;
    audit(environment: string): NewAuditEvent;
  }): Promise<{ lastId: string | undefined; resealed: number }>;
  countNotUnder(keyId: string): Promise<number>;
}

/** The batch loop of both rotations: in id order until a batch finds nothing, then what is left under another key. */
async function resealInBatches<Row, Resealed>(
  store: ResealingStore<Row, Resealed>,
  activeKeyId: string,
  options: BatchOptions,
  audit: (environment: string) => NewAuditEvent,
  reseal: (row: Row) => Resealed | undefined,
): Promise<{ reencrypted: number; batches: number; remaining: number }> {
  let reencrypted = 0;
  let batches = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { lastId, resealed } = await store.resealBatch({
      activeKeyId,
      after,
      limit: options.batchSize ?? 500,
      reseal,
      audit,
    });
    if (lastId === undefined) break;
    reencrypted += resealed;
    batches += 1;
    options.onBatch?.({ batch: batches, reencrypted });
    after = lastId;
  }
  return { reencrypted, batches, remaining: await store.countNotUnder(activeKeyId) };
}

/** A business's sealed tax id, as stored (business_profiles, docs/adr/0090). */
export interface SealedBusiness {
  id: string;
  environment: string;
  keyId: string;
  taxIdCiphertext: Uint8Array;
}

export interface TaxIdResealBatch {
  activeKeyId: string;
  /** Only businesses whose customer id sorts after this one. */
  after: string;
  limit: number;
  /** The new ciphertext of a row, or undefined to leave it as it is. */
  reseal(row: SealedBusiness): Pick<SealedBusiness, 'taxIdCiphertext'> | undefined;
  audit(environment: string): NewAuditEvent;
}

export interface SealedBusinessStore {
  /** As SealedCustomerStore.resealBatch, for business profiles whose tax id is not under the active key. */
  resealBatch(batch: TaxIdResealBatch): Promise<{ lastId: string | undefined; resealed: number }>;
  countNotUnder(keyId: string): Promise<number>;
}

/**
 * Re-encrypts every business's tax id that is not under the active PII key, as rotatePiiKeys does an SSN: in
 * batches, online, resumable, skipping rows a request holds, opened with the key the row names and sealed under the
 * active one with the same binding (environment, customer, `tax_id`). Its blind index is left alone. Audited as
 * the customers' re-encryption (`pii_rotation.reencrypt_customers`, field `taxId`): a business is a customer.
 */
export async function rotateBusinessTaxIds(
  store: SealedBusinessStore,
  cipher: PiiCipher,
  options: BatchOptions = {},
): Promise<RotationReport> {
  const failed: RotationReport['failed'] = [];
  const runId = options.runId ?? newId();
  const audit = rotationAudit(runId, 'pii_rotation.reencrypt_customers', ['taxId']);
  const progress = await resealInBatches(store, cipher.activeKeyId, options, audit, (row: SealedBusiness) => {
    try {
      const binding = { environment: row.environment, customerId: row.id };
      return { taxIdCiphertext: cipher.reseal(binding, 'tax_id', row.keyId, row.taxIdCiphertext) };
    } catch (error) {
      failed.push({
        customerId: row.id,
        keyId: row.keyId,
        reason: error instanceof Error ? error.message : 'cannot be opened',
      });
      return undefined;
    }
  });
  return {
    activeKeyId: cipher.activeKeyId,
    runId,
    reencrypted: progress.reencrypted,
    batches: progress.batches,
    failed,
    remaining: progress.remaining,
  };
}

export interface WebhookSecretRotationReport {
  runId: string;
  reencrypted: number;
  batches: number;
  /** Endpoints whose secret could not be opened: listed by id and key id, never by content. */
  failed: { endpointId: string; keyId: string; reason: string }[];
  /** Endpoints with a secret still under another key after this run (failed, or held locked meanwhile). */
  remaining: number;
}

/** An endpoint's sealed secrets, as stored: the current one and, after a rotation, the previous one. */
export interface SealedWebhookSecrets {
  id: string;
  environment: string;
  secret: SealedSecret;
  previous: SealedSecret | null;
  /** The previous secret's overlap is over: it signs nothing any more. */
  previousExpired: boolean;
}

export interface WebhookSecretResealBatch {
  activeKeyId: string;
  /** Only endpoints whose id sorts after this one. */
  after: string;
  limit: number;
  /** Both secrets sealed under the active key (previous: null to drop an expired one), or undefined to leave the row. */
  reseal(row: SealedWebhookSecrets): { secret: SealedSecret; previous: SealedSecret | null } | undefined;
  /** As ResealBatch.audit. */
  audit(environment: string): NewAuditEvent;
}

export interface SealedWebhookSecretStore {
  /** As SealedCustomerStore.resealBatch, for endpoints with a secret (current or previous) not under the active key. */
  resealBatch(batch: WebhookSecretResealBatch): Promise<{ lastId: string | undefined; resealed: number }>;
  countNotUnder(keyId: string): Promise<number>;
}

/**
 * Re-encrypts every webhook signing secret that is not under the active PII key, like rotatePiiKeys: in
 * batches, online, resumable, skipping rows a request holds. The secret itself does not change (receivers
 * keep verifying with it); only its sealing does, with the same binding to its environment and endpoint.
 * A previous secret whose overlap has ended is dropped rather than resealed: nothing uses it any more.
 */
export async function rotateWebhookSecrets(
  store: SealedWebhookSecretStore,
  cipher: PiiCipher,
  options: BatchOptions = {},
): Promise<WebhookSecretRotationReport> {
  const activeKeyId = cipher.activeKeyId;
  const failed: WebhookSecretRotationReport['failed'] = [];
  const runId = options.runId ?? newId();
  const audit = rotationAudit(runId, 'pii_rotation.reencrypt_webhook_secrets', ['secret']);
  const progress = await resealInBatches(store, activeKeyId, options, audit, (row: SealedWebhookSecrets) => {
    const binding = secretBinding(row.environment, row.id);
    let opening = row.secret;
    const under = (sealed: SealedSecret) => {
      opening = sealed;
      return sealed.keyId === activeKeyId ? sealed : cipher.resealSecret(binding, sealed);
    };
    try {
      return { secret: under(row.secret), previous: row.previous && !row.previousExpired ? under(row.previous) : null };
    } catch (error) {
      failed.push({
        endpointId: row.id,
        keyId: opening.keyId,
        reason: error instanceof Error ? error.message : 'cannot be opened',
      });
      return undefined;
    }
  });
  return { runId, reencrypted: progress.reencrypted, batches: progress.batches, failed, remaining: progress.remaining };
}

/** One chunk of a verification document's content, as stored, with what it is bound to (docs/adr/0103). */
export interface SealedDocumentChunk {
  documentId: string;
  seq: number;
  environment: string;
  customerId: string;
  keyId: string;
  ciphertext: Uint8Array;
}

export interface DocumentChunkResealBatch {
  activeKeyId: string;
  /** Only chunks after this cursor (`<documentId>/<seq>`; the nil UUID first). */
  after: string;
  limit: number;
  reseal(row: SealedDocumentChunk): { ciphertext: Uint8Array } | undefined;
  audit(environment: string): NewAuditEvent;
}

export interface SealedDocumentStore {
  /** As SealedCustomerStore.resealBatch, for document chunks not under the active key; lastId is a chunk cursor. */
  resealBatch(batch: DocumentChunkResealBatch): Promise<{ lastId: string | undefined; resealed: number }>;
  countNotUnder(keyId: string): Promise<number>;
}

/** A document chunk is up to 256 KiB: a rotation batch of them stays a few MiB, whatever --batch-size says. */
export const DOCUMENT_CHUNKS_PER_BATCH = 16;

/**
 * Re-encrypts every verification document chunk not under the active PII key (docs/adr/0103), as rotatePiiKeys does
 * an SSN: in small batches (DOCUMENT_CHUNKS_PER_BATCH at most), online, resumable, skipping rows a request holds,
 * each chunk opened with the key it names and sealed under the active one with the same binding (environment,
 * customer, document, position). Audited as `pii_rotation.reencrypt_customers` with the field `documents`.
 */
export async function rotateDocumentChunks(
  store: SealedDocumentStore,
  cipher: PiiCipher,
  options: BatchOptions = {},
): Promise<RotationReport> {
  const failed: RotationReport['failed'] = [];
  const runId = options.runId ?? newId();
  const audit = rotationAudit(runId, 'pii_rotation.reencrypt_customers', ['documents']);
  const batchSize = Math.min(options.batchSize ?? DOCUMENT_CHUNKS_PER_BATCH, DOCUMENT_CHUNKS_PER_BATCH);
  const progress = await resealInBatches(
    store,
    cipher.activeKeyId,
    { ...options, batchSize },
    audit,
    (row: SealedDocumentChunk) => {
      try {
        const binding = { environment: row.environment, customerId: row.customerId, documentId: row.documentId };
        return cipher.resealChunk(binding, row.seq, { keyId: row.keyId, ciphertext: row.ciphertext });
      } catch (error) {
        failed.push({
          customerId: row.customerId,
          keyId: row.keyId,
          reason: error instanceof Error ? error.message : 'cannot be opened',
        });
        return undefined;
      }
    },
  );
  return {
    activeKeyId: cipher.activeKeyId,
    runId,
    reencrypted: progress.reencrypted,
    batches: progress.batches,
    failed,
    remaining: progress.remaining,
  };
}

/** An account number's sealed digits, as stored (account_numbers, docs/adr/0107). */
export interface SealedAccountNumberRow {
  id: string;
  environment: string;
  accountId: string;
  keyId: string;
  ciphertext: Uint8Array;
}

export interface AccountNumberResealBatch {
  activeKeyId: string;
  /** Only account numbers whose id sorts after this one. */
  after: string;
  limit: number;
  reseal(row: SealedAccountNumberRow): { ciphertext: Uint8Array } | undefined;
  audit(environment: string): NewAuditEvent;
}

export interface SealedAccountNumberStore {
  /** As SealedCustomerStore.resealBatch, for account numbers not under the active key. */
  resealBatch(batch: AccountNumberResealBatch): Promise<{ lastId: string | undefined; resealed: number }>;
  countNotUnder(keyId: string): Promise<number>;
}

/**
 * Re-encrypts every account number not under the active PII key (docs/adr/0107), as rotatePiiKeys does an SSN: in
 * batches, online, resumable, skipping rows a request holds, each opened with the key it names and sealed under
 * the active one with the same binding (environment, account, number). The blind index is left alone. Audited as
 * `pii_rotation.reencrypt_account_numbers` (field `accountNumber`).
 */
export async function rotateAccountNumbers(
  store: SealedAccountNumberStore,
  cipher: PiiCipher,
  options: BatchOptions = {},
): Promise<{
  runId: string;
  reencrypted: number;
  batches: number;
  failed: { accountNumberId: string; keyId: string; reason: string }[];
  remaining: number;
}> {
  const failed: { accountNumberId: string; keyId: string; reason: string }[] = [];
  const runId = options.runId ?? newId();
  const audit = rotationAudit(runId, 'pii_rotation.reencrypt_account_numbers', ['accountNumber']);
  const progress = await resealInBatches(store, cipher.activeKeyId, options, audit, (row: SealedAccountNumberRow) => {
    try {
      const binding = { environment: row.environment, accountId: row.accountId, accountNumberId: row.id };
      return { ciphertext: cipher.resealAccountNumber(binding, { keyId: row.keyId, ciphertext: row.ciphertext }) };
    } catch (error) {
      failed.push({
        accountNumberId: row.id,
        keyId: row.keyId,
        reason: error instanceof Error ? error.message : 'cannot be opened',
      });
      return undefined;
    }
  });
  return { runId, reencrypted: progress.reencrypted, batches: progress.batches, failed, remaining: progress.remaining };
}
