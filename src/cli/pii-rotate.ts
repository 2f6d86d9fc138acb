import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.js';
import { PrismaSealedCustomerStore } from '../features/customers/index.js';
import { PrismaSealedBusinessStore } from '../features/businesses/index.js';
import { PrismaSealedWebhookSecretStore } from '../features/webhooks/index.js';
import { PrismaSealedDocumentStore } from '../features/verification/index.js';
import { PrismaSealedAccountNumberStore } from '../features/account-numbers/index.js';
import { newId } from '../domain/ids.js';
import { resolvePiiKeyring } from '../pii/dev-keys.js';
import { PiiCipher } from '../pii/pii-cipher.js';
import {
  rotateAccountNumbers,
  rotateBusinessTaxIds,
  rotateDocumentChunks,
  rotatePiiKeys,
  rotateWebhookSecrets,
} from '../pii/pii-rotation.js';
import { exitWithError, UsageError, withCliDatabase } from './cli-database.js';

/**
 * `npm run pii:rotate [-- --batch-size 500]`: re-encrypts every customer's SSN and document locator number,
 * every business's tax id, every verification document's content (in batches of at most 16 chunks, each up to
 * 256 KiB, whatever --batch-size says), every account number, then every webhook signing secret, not under PII_ACTIVE_KEY.
 * Safe while the service runs; run it again until it reports 0 remaining (docs/security.md, runbook).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'batch-size': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) throw new UsageError('Usage: npm run pii:rotate [-- --batch-size <1-10000>]');
  const batchSize = values['batch-size'] === undefined ? 500 : Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
    throw new UsageError('--batch-size must be a whole number from 1 to 10000');
  const config = loadConfig(process.env);
  const cipher = new PiiCipher(
    resolvePiiKeyring(config.pii, config.dataDir, (message) => process.stderr.write(`WARNING: ${message}\n`)),
  );

  // One run, one id: its audit events (every batch, every environment) are found with resourceId=<runId>.
  const runId = newId();
  const { report, taxIds, documents, accountNumbers, secrets } = await withCliDatabase(config, async (prisma) => ({
    report: await rotatePiiKeys(new PrismaSealedCustomerStore(prisma), cipher, {
      batchSize,
      runId,
      onBatch: ({ batch, reencrypted }) => process.stderr.write(`batch ${batch}: ${reencrypted} re-encrypted so far\n`),
    }),
    taxIds: await rotateBusinessTaxIds(new PrismaSealedBusinessStore(prisma), cipher, {
      batchSize,
      runId,
      onBatch: ({ batch, reencrypted }) =>
        process.stderr.write(`business tax ids, batch ${batch}: ${reencrypted} re-encrypted so far\n`),
    }),
    documents: await rotateDocumentChunks(new PrismaSealedDocumentStore(prisma), cipher, {
      batchSize,
      runId,
      onBatch: ({ batch, reencrypted }) =>
        process.stderr.write(`document chunks, batch ${batch}: ${reencrypted} re-encrypted so far\n`),
    }),
    accountNumbers: await rotateAccountNumbers(new PrismaSealedAccountNumberStore(prisma), cipher, {
      batchSize,
      runId,
      onBatch: ({ batch, reencrypted }) =>
        process.stderr.write(`account numbers, batch ${batch}: ${reencrypted} re-encrypted so far\n`),
    }),
    secrets: await rotateWebhookSecrets(new PrismaSealedWebhookSecretStore(prisma), cipher, {
      batchSize,
      runId,
      onBatch: ({ batch, reencrypted }) =>
        process.stderr.write(`webhook secrets, batch ${batch}: ${reencrypted} re-encrypted so far\n`),
    }),
  }));
  process.stdout.write(
    `${JSON.stringify({
      activeKeyId: report.activeKeyId,
      runId,
      reencrypted: report.reencrypted,
      batches: report.batches,
      failed: report.failed.length,
      remaining: report.remaining,
      businessTaxIds: {
        reencrypted: taxIds.reencrypted,
        batches: taxIds.batches,
        failed: taxIds.failed.length,
        remaining: taxIds.remaining,
      },
      documentChunks: {
        reencrypted: documents.reencrypted,
        batches: documents.batches,
        failed: documents.failed.length,
        remaining: documents.remaining,
      },
      accountNumbers: {
        reencrypted: accountNumbers.reencrypted,
        batches: accountNumbers.batches,
        failed: accountNumbers.failed.length,
        remaining: accountNumbers.remaining,
      },
      webhookSecrets: {
        reencrypted: secrets.reencrypted,
        batches: secrets.batches,
        failed: secrets.failed.length,
        remaining: secrets.remaining,
      },
    })}\n`,
  );
  for (const failure of report.failed)
    process.stderr.write(
      `customer ${failure.customerId} (key ${failure.keyId}) could not be re-encrypted: ${failure.reason}\n`,
    );
  for (const failure of taxIds.failed)
    process.stderr.write(
      `business ${failure.customerId} (key ${failure.keyId}): its tax id could not be re-encrypted: ${failure.reason}\n`,
    );
  for (const failure of documents.failed)
    process.stderr.write(
      `a document chunk of customer ${failure.customerId} (key ${failure.keyId}) could not be re-encrypted: ${failure.reason}\n`,
    );
  for (const failure of accountNumbers.failed)
    process.stderr.write(
      `account number ${failure.accountNumberId} (key ${failure.keyId}) could not be re-encrypted: ${failure.reason}\n`,
    );
  for (const failure of secrets.failed)
    process.stderr.write(
      `webhook endpoint ${failure.endpointId} (key ${failure.keyId}): its secret could not be re-encrypted: ${failure.reason}\n`,
    );
  if (
    report.failed.length > 0 ||
    taxIds.failed.length > 0 ||
    documents.failed.length > 0 ||
    accountNumbers.failed.length > 0 ||
    secrets.failed.length > 0
  )
    process.exit(1);
  const remaining =
    report.remaining + taxIds.remaining + documents.remaining + accountNumbers.remaining + secrets.remaining;
  if (remaining > 0) process.stderr.write(`${remaining} row(s) were busy and skipped: run pii:rotate again.\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  exitWithError(error, 'pii:rotate');
});
