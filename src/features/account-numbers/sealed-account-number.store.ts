import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { writeAuditEvents } from '../../db/sql/rotation-audit.js';
import type {
  AccountNumberResealBatch,
  SealedAccountNumberRow,
  SealedAccountNumberStore,
} from '../../pii/pii-rotation.js';

/**
 * The account numbers' ciphertexts, for key rotation (src/pii/pii-rotation.ts, rotateAccountNumbers), as
 * PrismaSealedCustomerStore does the SSNs: SKIP LOCKED row locks and a batch UPDATE from arrays, one short
 * transaction a batch. Only the ciphertext and its key id change; the blind index has its own key and stays.
 */
export class PrismaSealedAccountNumberStore implements SealedAccountNumberStore {
  constructor(private readonly prisma: PrismaClient) {}

  async resealBatch(batch: AccountNumberResealBatch): Promise<{ lastId: string | undefined; resealed: number }> {
    return this.prisma.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<SealedAccountNumberRow[]>`
          SELECT id::text AS id, environment, account_id::text AS "accountId", pii_key_id AS "keyId", number_ciphertext AS ciphertext
            FROM account_numbers WHERE pii_key_id <> ${batch.activeKeyId} AND id > ${batch.after}::uuid
           ORDER BY id LIMIT ${batch.limit} FOR NO KEY UPDATE SKIP LOCKED`;
        const ids: string[] = [];
        const environments: string[] = [];
        const ciphertexts: Buffer[] = [];
        for (const row of rows) {
          const resealed = batch.reseal(row);
          if (!resealed) continue;
          ids.push(row.id);
          environments.push(row.environment);
          ciphertexts.push(Buffer.from(resealed.ciphertext));
        }
        const resealed =
          ids.length === 0
            ? 0
            : await tx.$executeRaw`
                UPDATE account_numbers AS n
                   SET number_ciphertext = v.ciphertext, pii_key_id = ${batch.activeKeyId}
                  FROM unnest(${ids}::uuid[], ${ciphertexts}::bytea[]) AS v(id, ciphertext)
                 WHERE n.id = v.id AND n.pii_key_id <> ${batch.activeKeyId}`;
        await writeAuditEvents(tx, environments, batch.audit);
        return { lastId: rows.at(-1)?.id, resealed };
      },
      { timeout: 120_000, maxWait: 10_000 },
    );
  }

  countNotUnder(keyId: string): Promise<number> {
    return this.prisma.accountNumber.count({ where: { piiKeyId: { not: keyId } } });
  }
}
