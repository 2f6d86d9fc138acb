import type { ResealBatch, SealedCustomer, SealedCustomerStore } from '../../pii/pii-rotation.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { writeAuditEvents } from '../../db/sql/rotation-audit.js';

/**
 * The customers' encrypted columns, for key rotation (src/pii/pii-rotation.ts). Raw SQL inside Prisma's
 * interactive transactions: SKIP LOCKED row locks and a batch UPDATE from arrays have no typed-API form.
 */
export class PrismaSealedCustomerStore implements SealedCustomerStore {
  constructor(private readonly prisma: PrismaClient) {}

  async resealBatch(batch: ResealBatch): Promise<{ lastId: string | undefined; resealed: number }> {
    // Operator batches may take longer than Prisma's default 5 s for an interactive transaction.
    return this.prisma.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<SealedCustomer[]>`
          SELECT id::text AS id, environment, pii_key_id AS "keyId", ssn_ciphertext AS "ssnCiphertext",
                 document_locator_number_ciphertext AS "documentLocatorNumberCiphertext"
            FROM customers WHERE pii_key_id <> ${batch.activeKeyId} AND id > ${batch.after}::uuid
           ORDER BY id LIMIT ${batch.limit} FOR NO KEY UPDATE SKIP LOCKED`;
        const ids: string[] = [];
        const resealedIds = new Set<string>();
        const ssns: Buffer[] = [];
        const documentLocatorNumbers: Buffer[] = [];
        for (const row of rows) {
          const resealed = batch.reseal(row);
          if (!resealed) continue;
          ids.push(row.id);
          resealedIds.add(row.id);
          ssns.push(Buffer.from(resealed.ssnCiphertext));
          documentLocatorNumbers.push(Buffer.from(resealed.documentLocatorNumberCiphertext));
        }
        const resealed =
          ids.length === 0
            ? 0
            : await tx.$executeRaw`
                UPDATE customers AS c
                   SET ssn_ciphertext = v.ssn, document_locator_number_ciphertext = v.dln, pii_key_id = ${batch.activeKeyId}
                  FROM unnest(${ids}::uuid[], ${ssns}::bytea[], ${documentLocatorNumbers}::bytea[]) AS v(id, ssn, dln)
                 WHERE c.id = v.id AND c.pii_key_id <> ${batch.activeKeyId}`;
        await writeAuditEvents(
          tx,
          rows.filter((row) => resealedIds.has(row.id)).map((row) => row.environment),
          batch.audit,
        );
        return { lastId: rows.at(-1)?.id, resealed };
      },
      { timeout: 120_000, maxWait: 10_000 },
    );
  }

  countNotUnder(keyId: string): Promise<number> {
    // A business has no sealed person columns (its tax id is its profile's: src/features/businesses).
    return this.prisma.customer.count({ where: { customerType: 'INDIVIDUAL', piiKeyId: { not: keyId } } });
  }
}
