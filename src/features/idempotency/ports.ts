import type { IdempotencyClaim } from '../../domain/write-effects.js';

export type { IdempotencyClaim, IdempotencyRecord } from '../../domain/write-effects.js';

export interface StoredIdempotencyRecord {
  operation: string;
  fingerprint: Uint8Array;
  /** The creation's result as first returned. */
  result: unknown;
}

export type IdempotencyKeyId = Pick<IdempotencyClaim, 'principalId' | 'environment' | 'key'>;

/**
 * Idempotency records. They are written by the creation they guard (CreationEffects), so a record
 * exists exactly when its creation committed; this store only reads and purges them.
 */
export interface IdempotencyStore {
  /** The unexpired record holding the key, or null. */
  find(key: IdempotencyKeyId): Promise<StoredIdempotencyRecord | null>;
  /** Deletes up to `limit` records that expired before `now`; returns how many. */
  purgeExpired(now: Date, limit: number): Promise<number>;
}
