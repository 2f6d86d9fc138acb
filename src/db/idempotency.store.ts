import { idempotencyKeyInProgress } from '../domain/errors.js';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore } from '../domain/idempotency/idempotency-store.js';
import { jsonParameter, type Queryable, queryRows, runWrite, statement } from './sql.js';

/** How long a request waits for a concurrent request holding the same key before IDEMPOTENCY_KEY_IN_PROGRESS. */
export const DEFAULT_IDEMPOTENCY_WAIT_MS = 2000;

function isLockTimeout(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++, e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === '55P03') return true;
    if (typeof message === 'string' && /lock timeout|55P03/.test(message)) return true;
  }
  return false;
}

const SQL = {
  /**
   * lock_timeout bounds the wait behind a concurrent holder of the key (below the statement timeout, so
   * the caller gets a clear answer instead of a cancelled statement), for this statement only: set before
   * the row is inserted (the INSERT reads from `setting`), restored once the insert is done (the outer
   * SELECT reads the finished count). One round trip instead of SET, INSERT, SET.
   */
  claim: statement(
    'idempotency_claim',
    `WITH setting AS MATERIALIZED (
       SELECT current_setting('lock_timeout') AS previous, set_config('lock_timeout', $7, true) AS applied
     ), claimed AS (
       INSERT INTO idempotency_keys (principal_id, environment, key, operation, fingerprint, expires_at)
       SELECT $1, $2, $3, $4, $5, $6 FROM setting
       ON CONFLICT (principal_id, environment, key) DO UPDATE
         SET operation = EXCLUDED.operation, fingerprint = EXCLUDED.fingerprint, result = NULL,
             created_at = CURRENT_TIMESTAMP, expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= CURRENT_TIMESTAMP
       RETURNING 1
     )
     SELECT done.claimed, set_config('lock_timeout', (SELECT previous FROM setting), true) AS restored
     FROM (SELECT count(*)::int AS claimed FROM claimed) AS done`,
  ),
  existing: statement(
    'idempotency_existing',
    'SELECT operation, fingerprint, result FROM idempotency_keys WHERE principal_id = $1 AND environment = $2 AND key = $3',
  ),
  complete: statement('idempotency_complete', 'UPDATE idempotency_keys SET result = $4::jsonb WHERE principal_id = $1 AND environment = $2 AND key = $3'),
  purge: statement(
    'idempotency_purge',
    `DELETE FROM idempotency_keys WHERE (principal_id, environment, key) IN (
       SELECT principal_id, environment, key FROM idempotency_keys WHERE expires_at < $1 LIMIT $2)`,
  ),
};

/**
 * Idempotency keys on PostgreSQL. Must run inside the transaction of the creation it guards: the
 * primary key (principal_id, environment, key) is what makes a concurrent duplicate wait.
 */
export class PgIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: Queryable,
    private readonly waitMs = DEFAULT_IDEMPOTENCY_WAIT_MS,
  ) {}

  async claim(claim: IdempotencyClaim): Promise<ClaimOutcome> {
    let claimed: boolean;
    try {
      const [row] = await queryRows<{ claimed: number }>(this.db, SQL.claim, [
        claim.principalId,
        claim.environment,
        claim.key,
        claim.operation,
        Buffer.from(claim.fingerprint),
        claim.expiresAt,
        `${Math.trunc(this.waitMs)}ms`,
      ]);
      claimed = row!.claimed > 0;
    } catch (error) {
      if (isLockTimeout(error)) throw idempotencyKeyInProgress();
      throw error;
    }
    if (claimed) return { claimed: true };
    // The key is held by a committed, unexpired record (read with a fresh READ COMMITTED snapshot).
    const [existing] = await queryRows<{ operation: string; fingerprint: Buffer; result: unknown }>(this.db, SQL.existing, [
      claim.principalId,
      claim.environment,
      claim.key,
    ]);
    if (!existing) throw new Error('idempotency record vanished between claim and read');
    return { claimed: false, existing };
  }

  /** Inside the creation's transaction, sent with its other writes (sql.ts, DeferredWrite). */
  async complete(claim: Pick<IdempotencyClaim, 'principalId' | 'environment' | 'key'>, result: unknown): Promise<void> {
    await runWrite(this.db, { statement: SQL.complete, values: [claim.principalId, claim.environment, claim.key, jsonParameter(result)] });
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    const result = await this.db.query({ name: SQL.purge.name, text: SQL.purge.text, values: [now, limit] });
    return result.rowCount ?? 0;
  }
}
