import type { NewAuditEvent } from './audit-event.js';
import type { IdempotencyRecord } from '../features/idempotency/ports.js';

/** What a write commits together with its change, atomically (one statement: all or nothing). */
export interface WriteEffects {
  audit: NewAuditEvent;
}

export interface CreationEffects extends WriteEffects {
  idempotency?: IdempotencyRecord | undefined;
}

/** A creation made, or not made because another request's record holds its idempotency key. */
export type CreationOutcome = 'created' | 'key-taken';
