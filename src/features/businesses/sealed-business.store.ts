import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { writeAuditEvents } from '../../db/sql/rotation-audit.js';
import type { SealedBusiness, SealedBusinessStore, TaxIdResealBatch } from '../../pii/pii-rotation.js';

/**
 * The businesses' sealed tax ids, for key rotation (src/pii/pii-rotation.ts, rotateBusinessTaxIds), as
 * PrismaSealedCustomerStore does the SSNs: SKIP LOCKED row locks and a batch UPDATE from arrays, one short
 * transaction a batch. Only the ciphertext and its key id change, which move no customer's version.
 */
export class PrismaSealedBusinessStore implements SealedBusinessStore {
  constructor(private readonly prisma: PrismaClient) {}

  async resealBatch(batch: TaxIdResealBatch): Promise<{ lastId: string | undefined; resealed: number }> {
    return this.prisma.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<SealedBusiness[]>`
          SELECT customer_id::text AS id, environment, pii_key_id AS "keyId", tax_id_ciphertext AS "taxIdCiphertext"
            FROM business_profiles WHERE pii_key_id <> ${batch.activeKeyId} AND customer_id > ${batch.after}::uuid
           ORDER BY customer_id LIMIT ${batch.limit} FOR NO KEY UPDATE SKIP LOCKED`;
        const ids: string[] = [];
        const environments: string[] = [];
        const taxIds: Buffer[] = [];
        for (const row of rows) {
          const resealed = batch.reseal(row);
          if (!resealed) continue;
          ids.push(row.id);
          environments.push(row.environment);
          taxIds.push(Buffer.from(resealed.taxIdCiphertext));
        }
        const resealed =
          ids.length === 0
            ? 0
            : await tx.$executeRaw`
                UPDATE business_profiles AS b
                   SET tax_id_ciphertext = v.tax_id, pii_key_id = ${batch.activeKeyId}
                  FROM unnest(${ids}::uuid[], ${environments}::varchar[], ${taxIds}::bytea[]) AS v(id, environment, tax_id)
                 WHERE b.customer_id = v.id AND b.environment = v.environment AND b.pii_key_id <> ${batch.activeKeyId}`;
        await writeAuditEvents(tx, environments, batch.audit);
        return { lastId: rows.at(-1)?.id, resealed };
      },
      { timeout: 120_000, maxWait: 10_000 },
    );
  }

  countNotUnder(keyId: string): Promise<number> {
    return this.prisma.businessProfile.count({ where: { piiKeyId: { not: keyId } } });
  }
}
