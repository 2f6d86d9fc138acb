/** A request's claim on an idempotency key, written in the same statement as the creation it guards. */
export interface IdempotencyClaim {
  principalId: string;
  environment: string;
  key: string;
  operation: string;
  /** Keyed digest of the operation and its validated input. */
  fingerprint: Uint8Array;
  expiresAt: Date;
}

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

/**
 * A creation's idempotency key, with the result a retry will replay. The store writes it in the same
 * statement as the record, and writes neither when another unexpired record holds the key.
 */
export interface IdempotencyRecord {
  claim: IdempotencyClaim;
  result: unknown;
}
