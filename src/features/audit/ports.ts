import type { PageRequest } from '../../domain/pagination.js';
import type { AuditEvent, AuditOperation } from '../../domain/audit-event.js';

/** What the audit service needs from storage (src/features/audit/audit.store.ts implements it). */

/** A page of the trail (`after`: events whose id sorts after this one; ids are time-ordered UUIDv7), filtered. */
export interface AuditQuery extends PageRequest {
  resourceId?: string | undefined;
  /** Who wrote, exactly as the events name it (`token:<id>`, `jwt:<subject>`, `static:<label>`, `cli:…`). */
  principalId?: string | undefined;
  operation?: AuditOperation | undefined;
  /** Inclusive lower bound of occurredAt. */
  from?: Date | undefined;
  /** Exclusive upper bound of occurredAt. */
  to?: Date | undefined;
}

/**
 * The trail's reads. Events are appended by the writes themselves (WriteEffects), in the same statement
 * as their change; the database refuses UPDATE, DELETE and TRUNCATE on the table behind it.
 */
export interface AuditStore {
  list(environment: string, query: AuditQuery): Promise<AuditEvent[]>;
}
