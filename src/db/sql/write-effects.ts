import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { IdempotencyRecord } from '../../domain/write-effects.js';
import { jsonParameter } from './sql.js';

/**
 * The effects a write commits with its change (src/features/ports.ts, WriteEffects), as WITH queries of
 * the write's one statement: PostgreSQL runs every data-modifying WITH query to completion against the
 * same snapshot, and the statement is atomic, so the change and its effects are committed together or
 * not at all, in one round trip and without an interactive transaction.
 *
 * Parameters are numbered from `first`; their values come from the matching *Values function, in order.
 */

/** $first … $first+8: the audit event, inserted once for each row of `source` (zero or one row). */
export function auditInsert(first: number, source: string): string {
  const p = (n: number) => `$${first + n}`;
  return `INSERT INTO audit_events (id, principal_id, environment, operation, resource_type, resource_id, request_id, idempotency_key, changed_fields)
     SELECT ${p(0)}::uuid, ${p(1)}::varchar, ${p(2)}::varchar, ${p(3)}::varchar, ${p(4)}::varchar, ${p(5)}::uuid, ${p(6)}::varchar, ${p(7)}::varchar, ${p(8)}::text[]
     FROM ${source}`;
}

/**
 * $first … $first+8: the audit event of a call that may find nothing to change (a control, a holder already linked):
 * one row for each row of `found` (the addressed record as the call found it, its own conditions applied), so a
 * call that changed nothing is audited too, with empty changed fields; the changed fields are the event's own when
 * `changed` (the write's data-modifying query) wrote a row. The outbox event stays `FROM changed`: no change, no event.
 */
export function auditInsertOfCall(first: number, found: string, changed: string): string {
  const p = (n: number) => `$${first + n}`;
  return `INSERT INTO audit_events (id, principal_id, environment, operation, resource_type, resource_id, request_id, idempotency_key, changed_fields)
     SELECT ${p(0)}::uuid, ${p(1)}::varchar, ${p(2)}::varchar, ${p(3)}::varchar, ${p(4)}::varchar, ${p(5)}::uuid, ${p(6)}::varchar, ${p(7)}::varchar,
            CASE WHEN EXISTS (SELECT 1 FROM ${changed}) THEN ${p(8)}::text[] ELSE '{}'::text[] END
     FROM ${found}`;
}

export const auditValues = (event: NewAuditEvent): unknown[] => [
  event.eventId,
  event.principalId,
  event.environment,
  event.operation,
  event.resourceType,
  event.resourceId,
  event.requestId,
  event.idempotencyKey,
  event.changedFields,
];

/**
 * $first … $first+7: `setting` and `claimed`, which yields one row when this statement took the key
 * (absent, or held by an expired record, which is replaced) and none when an unexpired record holds it.
 * The change must be written only `FROM claimed`. A concurrent statement holding the key makes this one
 * wait for its commit; lock_timeout bounds that wait (for this statement only: set_config(…, true) in
 * the statement's own transaction), below the statement timeout, so the caller gets
 * IDEMPOTENCY_KEY_IN_PROGRESS instead of a cancelled statement. `condition`, if given, must hold for the
 * key to be taken (e.g. every referenced customer exists).
 */
export function claimQueries(first: number, condition = 'true'): string {
  const p = (n: number) => `$${first + n}`;
  return `setting AS MATERIALIZED (SELECT set_config('lock_timeout', ${p(7)}::text, true) AS applied),
     claimed AS (
       INSERT INTO idempotency_keys (principal_id, environment, key, operation, fingerprint, expires_at, result)
       SELECT ${p(0)}::varchar, ${p(1)}::varchar, ${p(2)}::varchar, ${p(3)}::varchar, ${p(4)}::bytea, ${p(5)}::timestamptz, ${p(6)}::jsonb
       FROM setting WHERE ${condition}
       ON CONFLICT (principal_id, environment, key) DO UPDATE
         SET operation = EXCLUDED.operation, fingerprint = EXCLUDED.fingerprint, result = EXCLUDED.result,
             created_at = CURRENT_TIMESTAMP, expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= CURRENT_TIMESTAMP
       RETURNING 1
     )`;
}

export const claimValues = ({ claim, result }: IdempotencyRecord, waitMs: number): unknown[] => [
  claim.principalId,
  claim.environment,
  claim.key,
  claim.operation,
  Buffer.from(claim.fingerprint),
  claim.expiresAt,
  jsonParameter(result),
  `${Math.trunc(waitMs)}ms`,
];

/** How long a creation waits for a concurrent request holding the same key before IDEMPOTENCY_KEY_IN_PROGRESS. */
export const DEFAULT_IDEMPOTENCY_WAIT_MS = 2000;

/**
 * The outbox: one event for each row of `source`, in the write's own statement, so an event exists
 * exactly when its change committed (no event without its change, no change without its event). The
 * payload is an SQL expression over the row (alias `x`), built from the reads' column lists: never an
 * SSN or document locator number. The sequencer numbers the event after commit (src/features/events/event.store.ts).
 */
export function eventInsert(
  environment: string,
  source: string,
  event: { type: string; resourceType: string; resourceId: string; payload: string; changedFields?: string },
): string {
  // The changed fields are the audit event's (its `$first+8`): a reader without the record's read scope
  // is told which fields changed instead of their values (src/features/events/event-visibility.ts).
  const changed =
    event.changedFields === undefined
      ? { column: '', value: '' }
      : { column: ', changed_fields', value: `, ${event.changedFields}` };
  return `INSERT INTO events (environment, type, resource_type, resource_id, payload${changed.column})
     SELECT ${environment}, ${event.type}, '${event.resourceType}', ${event.resourceId}, ${event.payload}${changed.value} FROM ${source} x`;
}

/** The audit event's changed fields, as an expression for eventInsert's `changedFields`. */
export const auditChangedFields = (first: number): string => `$${first + 8}::text[]`;
