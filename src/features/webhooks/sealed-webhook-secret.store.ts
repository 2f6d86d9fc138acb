import type {
  SealedWebhookSecrets,
  SealedWebhookSecretStore,
  WebhookSecretResealBatch,
} from '../../pii/pii-rotation.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { writeAuditEvents } from '../../db/sql/rotation-audit.js';

interface Row {
  id: string;
  environment: string;
  keyId: string;
  ciphertext: Uint8Array;
  previousKeyId: string | null;
  previousCiphertext: Uint8Array | null;
  previousExpired: boolean;
}

/**
 * Webhook endpoints' sealed secrets, for key rotation (src/pii/pii-rotation.ts): the customers' pattern
 * (src/features/customers/sealed-customer.store.ts), raw SQL inside Prisma's interactive transactions, for the current
 * secret and the previous one a rotation keeps for its overlap.
 */
export class PrismaSealedWebhookSecretStore implements SealedWebhookSecretStore {
  constructor(private readonly prisma: PrismaClient) {}

  async resealBatch(batch: WebhookSecretResealBatch): Promise<{ lastId: string | undefined; resealed: number }> {
    return this.prisma.$transaction(
      async (tx) => {
        // FOR NO KEY UPDATE: a rotate-secret or a delivery's outcome waits for this short transaction; SKIP
        // LOCKED: an endpoint a request is changing is left for the next run.
        const rows = await tx.$queryRaw<Row[]>`
          SELECT id::text AS id, environment, secret_key_id AS "keyId", secret_ciphertext AS ciphertext,
                 previous_secret_key_id AS "previousKeyId", previous_secret_ciphertext AS "previousCiphertext",
                 coalesce(previous_secret_expires_at <= CURRENT_TIMESTAMP, false) AS "previousExpired"
            FROM webhook_endpoints
           WHERE (secret_key_id <> ${batch.activeKeyId} OR (previous_secret_ciphertext IS NOT NULL AND previous_secret_key_id IS DISTINCT FROM ${batch.activeKeyId}))
             AND id > ${batch.after}::uuid
           ORDER BY id LIMIT ${batch.limit} FOR NO KEY UPDATE SKIP LOCKED`;
        const ids: string[] = [];
        const resealedIds = new Set<string>();
        const keyIds: string[] = [];
        const ciphertexts: Buffer[] = [];
        // No previous secret travels as '' and an empty bytea: Prisma's pg adapter serialises a bytea[] that
        // starts with a null as text, so the arrays carry no nulls; NULLIF turns them back.
        const previousKeyIds: string[] = [];
        const previousCiphertexts: Buffer[] = [];
        for (const row of rows) {
          const sealed: SealedWebhookSecrets = {
            id: row.id,
            environment: row.environment,
            secret: { keyId: row.keyId, ciphertext: row.ciphertext },
            previous:
              row.previousCiphertext === null
                ? null
                : { keyId: row.previousKeyId ?? '', ciphertext: row.previousCiphertext },
            previousExpired: row.previousExpired,
          };
          const resealed = batch.reseal(sealed);
          if (!resealed) continue;
          ids.push(row.id);
          resealedIds.add(row.id);
          keyIds.push(resealed.secret.keyId);
          ciphertexts.push(Buffer.from(resealed.secret.ciphertext));
          previousKeyIds.push(resealed.previous?.keyId ?? '');
          previousCiphertexts.push(resealed.previous ? Buffer.from(resealed.previous.ciphertext) : Buffer.alloc(0));
        }
        const resealed =
          ids.length === 0
            ? 0
            : await tx.$executeRaw`
                UPDATE webhook_endpoints AS w
                   SET secret_key_id = v.key_id, secret_ciphertext = v.ciphertext,
                       previous_secret_key_id = NULLIF(v.previous_key_id, ''), previous_secret_ciphertext = NULLIF(v.previous_ciphertext, ''::bytea),
                       previous_secret_expires_at = CASE WHEN length(v.previous_ciphertext) = 0 THEN NULL ELSE w.previous_secret_expires_at END
                  FROM unnest(${ids}::uuid[], ${keyIds}::varchar[], ${ciphertexts}::bytea[], ${previousKeyIds}::varchar[], ${previousCiphertexts}::bytea[])
                       AS v(id, key_id, ciphertext, previous_key_id, previous_ciphertext)
                 WHERE w.id = v.id`;
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

  async countNotUnder(keyId: string): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ remaining: number }[]>`
      SELECT count(*)::int AS remaining FROM webhook_endpoints
       WHERE secret_key_id <> ${keyId} OR (previous_secret_ciphertext IS NOT NULL AND previous_secret_key_id IS DISTINCT FROM ${keyId})`;
    return row!.remaining;
  }
}
