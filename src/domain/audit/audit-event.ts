import { newId } from '../ids.js';
import type { Caller } from '../caller.js';

export const AUDIT_OPERATIONS = [
  'customer.create',
  'customer.update',
  'customer.delete',
  'account.create',
  'account.update',
  'account.delete',
  'account.customer.add',
  'account.customer.remove',
  'account.flag.set',
  'account.flag.clear',
  'account.overdraft_limit.set',
  'transaction.create',
  'transaction.post',
  'transaction.void',
  'transaction.expire',
  'transaction.reverse',
  'transfer.create',
] as const;
export type AuditOperation = (typeof AUDIT_OPERATIONS)[number];

export type AuditResourceType = 'customer' | 'account' | 'transaction' | 'transfer';

/**
 * One successful write, as the audit trail keeps it: who, where, what and which fields, never the
 * values written (so an SSN or document locator number can never reach the trail).
 */
export interface AuditEvent {
  eventId: string;
  /** ISO 8601, UTC. */
  occurredAt: string;
  /** `static:<digest prefix>`, `token:<id>` or `jwt:<subject>`. */
  principalId: string;
  environment: string;
  operation: AuditOperation;
  resourceType: AuditResourceType;
  resourceId: string;
  requestId: string;
  idempotencyKey: string | null;
  /** Names of the fields the write set (all given fields on create, the sent ones on update, none on delete). */
  changedFields: string[];
}

export type NewAuditEvent = Omit<AuditEvent, 'occurredAt'>;

export interface AuditQuery {
  first: number;
  /** Events whose id sorts after this one (ids are time-ordered UUIDv7). */
  after?: string | undefined;
  resourceId?: string | undefined;
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

/** The audit event of a write made by `caller`. */
export function auditEventFor(
  caller: Caller,
  write: {
    operation: AuditOperation;
    resourceType: AuditResourceType;
    resourceId: string;
    changedFields: readonly string[];
    idempotencyKey?: string | undefined;
  },
): NewAuditEvent {
  return {
    eventId: newId(),
    principalId: caller.principal.id,
    environment: caller.environment,
    operation: write.operation,
    resourceType: write.resourceType,
    resourceId: write.resourceId,
    requestId: caller.requestId,
    idempotencyKey: write.idempotencyKey ?? null,
    changedFields: [...write.changedFields],
  };
}
