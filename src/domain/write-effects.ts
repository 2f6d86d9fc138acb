import type { NewAuditEvent } from './audit-event.js';

/** What a write commits together with its change, atomically (one statement: all or nothing). */
export interface WriteEffects {
  audit: NewAuditEvent;
}

export interface CreationEffects extends WriteEffects {
  idempotency?: IdempotencyRecord | undefined;
}

/** A creation made, or not made because another request's record holds its idempotency key. */
export type CreationOutcome = 'created' | 'key-taken';

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

/**
 * A creation's idempotency key, with the result a retry will replay. The store writes it in the same
 * statement as the record, and writes neither when another unexpired record holds the key.
 */
export interface IdempotencyRecord {
  claim: IdempotencyClaim;
  result: unknown;
}
