import type { IdempotencyKeyId, IdempotencyStore, StoredIdempotencyRecord } from './ports.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { execute, statement } from '../../db/sql/sql.js';

const SQL = {
  // Raw SQL: the typed deleteMany has no LIMIT, and a purge must stay a short statement however many expired.
  purge: statement(
    'idempotency_purge',
    `DELETE FROM idempotency_keys WHERE (principal_id, environment, key) IN (
       SELECT principal_id, environment, key FROM idempotency_keys WHERE expires_at < $1::timestamptz LIMIT $2::int)`,
  ),
};

/** Idempotency records on PostgreSQL; the creations write them (src/db/sql/write-effects.ts). */
export class PrismaIdempotencyStore implements IdempotencyStore {
  constructor(private readonly prisma: PrismaClient) {}

  async find(key: IdempotencyKeyId): Promise<StoredIdempotencyRecord | null> {
    return this.prisma.idempotencyKey.findFirst({
      where: {
        principalId: key.principalId,
        environment: key.environment,
        key: key.key,
        expiresAt: { gt: new Date() },
      },
      select: { operation: true, fingerprint: true, result: true },
    });
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    return execute(this.prisma, SQL.purge, [now, limit]);
  }
}
