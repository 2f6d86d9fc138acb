/** A request's claim on an idempotency key, inserted in the same transaction as the creation it guards. */
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
  /** The creation's result as first returned; null only while its transaction is still open. */
  result: unknown;
}

export type ClaimOutcome = { claimed: true } | { claimed: false; existing: StoredIdempotencyRecord };

export interface IdempotencyStore {
  /**
   * Takes the key for this transaction, or answers the unexpired record that already holds it. A
   * concurrent claim of the same key waits until the first transaction ends (then sees its record, or
   * takes the key if it rolled back); a wait longer than the store's limit throws
   * IDEMPOTENCY_KEY_IN_PROGRESS. An expired record is replaced, as if absent.
   */
  claim(claim: IdempotencyClaim): Promise<ClaimOutcome>;
  /** Stores the result of the creation that claimed the key (same transaction). */
  complete(claim: Pick<IdempotencyClaim, 'principalId' | 'environment' | 'key'>, result: unknown): Promise<void>;
  /** Deletes up to `limit` records that expired before `now`; returns how many. */
  purgeExpired(now: Date, limit: number): Promise<number>;
}
