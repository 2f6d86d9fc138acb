import { idempotencyKeyInProgress } from '../domain/errors.js';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore } from '../domain/idempotency/idempotency-store.js';
import type { Prisma, PrismaClient } from './prisma-client.js';

type Client = PrismaClient | Prisma.TransactionClient;

/** How long a request waits for a concurrent request holding the same key before IDEMPOTENCY_KEY_IN_PROGRESS. */
export const DEFAULT_IDEMPOTENCY_WAIT_MS = 2000;

function isLockTimeout(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++, e = (e as { cause?: unknown }).cause) {
    const { code, originalCode, message } = e as { code?: unknown; originalCode?: unknown; message?: unknown };
    if (code === '55P03' || originalCode === '55P03') return true;
    if (typeof message === 'string' && /lock timeout|55P03/.test(message)) return true;
  }
  return false;
}

/**
 * Idempotency keys on PostgreSQL. Must run inside the transaction of the creation it guards: the
 * primary key (principal_id, environment, key) is what makes a concurrent duplicate wait.
 */
export class PrismaIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly client: Client,
    private readonly waitMs = DEFAULT_IDEMPOTENCY_WAIT_MS,
  ) {}

  async claim(claim: IdempotencyClaim): Promise<ClaimOutcome> {
    const fingerprint = Buffer.from(claim.fingerprint);
    // lock_timeout bounds the wait behind a concurrent holder of the key (below the statement timeout,
    // so the caller gets a clear answer instead of a cancelled statement), for this statement only.
    await this.client.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.trunc(this.waitMs)}`);
    let inserted: unknown[];
    try {
      inserted = await this.client.$queryRaw<unknown[]>`
        INSERT INTO idempotency_keys (principal_id, environment, key, operation, fingerprint, expires_at)
        VALUES (${claim.principalId}, ${claim.environment}, ${claim.key}, ${claim.operation}, ${fingerprint}, ${claim.expiresAt})
        ON CONFLICT (principal_id, environment, key) DO UPDATE
          SET operation = EXCLUDED.operation, fingerprint = EXCLUDED.fingerprint, result = NULL,
              created_at = CURRENT_TIMESTAMP, expires_at = EXCLUDED.expires_at
          WHERE idempotency_keys.expires_at <= CURRENT_TIMESTAMP
        RETURNING 1 AS claimed`;
    } catch (error) {
      if (isLockTimeout(error)) throw idempotencyKeyInProgress();
      throw error;
    }
    await this.client.$executeRawUnsafe('SET LOCAL lock_timeout TO DEFAULT');
    if (inserted.length > 0) return { claimed: true };
    // The key is held by a committed, unexpired record (read with a fresh READ COMMITTED snapshot).
    const existing = await this.client.idempotencyKey.findUniqueOrThrow({
      where: { principalId_environment_key: { principalId: claim.principalId, environment: claim.environment, key: claim.key } },
      select: { operation: true, fingerprint: true, result: true },
    });
    return { claimed: false, existing };
  }

  async complete(claim: Pick<IdempotencyClaim, 'principalId' | 'environment' | 'key'>, result: unknown): Promise<void> {
    await this.client.idempotencyKey.update({
      where: { principalId_environment_key: { principalId: claim.principalId, environment: claim.environment, key: claim.key } },
      data: { result: result as Prisma.InputJsonValue },
      select: { key: true },
    });
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    return this.client.$executeRaw`
      DELETE FROM idempotency_keys WHERE (principal_id, environment, key) IN (
        SELECT principal_id, environment, key FROM idempotency_keys WHERE expires_at < ${now} LIMIT ${limit})`;
  }
}
