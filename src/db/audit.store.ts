import type { AuditEvent, AuditOperation, AuditQuery, AuditResourceType, AuditStore, NewAuditEvent } from '../domain/audit/audit-event.js';
import { type Queryable, runWrite, statement } from './sql.js';

interface AuditRow {
  id: string;
  occurred_at: Date;
  principal_id: string;
  environment: string;
  operation: string;
  resource_type: string;
  resource_id: string;
  request_id: string;
  idempotency_key: string | null;
  changed_fields: string[];
}

const toAuditEvent = (row: AuditRow): AuditEvent => ({
  eventId: row.id,
  occurredAt: row.occurred_at.toISOString(),
  principalId: row.principal_id,
  environment: row.environment,
  // Only the domain writes these columns, with values from these unions.
  operation: row.operation as AuditOperation,
  resourceType: row.resource_type as AuditResourceType,
  resourceId: row.resource_id,
  requestId: row.request_id,
  idempotencyKey: row.idempotency_key,
  changedFields: row.changed_fields,
});

const APPEND = statement(
  'audit_append',
  `INSERT INTO audit_events (id, principal_id, environment, operation, resource_type, resource_id, request_id, idempotency_key, changed_fields)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[])`,
);

const AUDIT_COLUMNS = 'id, occurred_at, principal_id, environment, operation, resource_type, resource_id, request_id, idempotency_key, changed_fields';

/** The audit trail on PostgreSQL: INSERT and SELECT only (the table refuses anything else). */
export class PgAuditStore implements AuditStore {
  constructor(private readonly db: Queryable) {}

  /** Inside a transaction, sent with the transaction's other writes (sql.ts, DeferredWrite). */
  async append(event: NewAuditEvent): Promise<void> {
    await runWrite(this.db, {
      statement: APPEND,
      values: [
        event.eventId,
        event.principalId,
        event.environment,
        event.operation,
        event.resourceType,
        event.resourceId,
        event.requestId,
        event.idempotencyKey,
        event.changedFields,
      ],
    });
  }

  /**
   * Only the filters given become conditions (an unnamed statement, planned for the values at hand:
   * a rare operator read, where a generic plan for every combination of filters would serve badly).
   */
  async list(environment: string, query: AuditQuery): Promise<AuditEvent[]> {
    const values: unknown[] = [environment];
    const conditions = ['environment = $1'];
    const where = (condition: (placeholder: string) => string, value: unknown) => {
      values.push(value);
      conditions.push(condition(`$${values.length}`));
    };
    if (query.after !== undefined) where((p) => `id > ${p}::uuid`, query.after);
    if (query.resourceId !== undefined) where((p) => `resource_id = ${p}::uuid`, query.resourceId);
    if (query.operation !== undefined) where((p) => `operation = ${p}`, query.operation);
    if (query.from !== undefined) where((p) => `occurred_at >= ${p}`, query.from);
    if (query.to !== undefined) where((p) => `occurred_at < ${p}`, query.to);
    values.push(query.first);
    const result = await this.db.query<AuditRow>({
      text: `SELECT ${AUDIT_COLUMNS} FROM audit_events WHERE ${conditions.join(' AND ')} ORDER BY id LIMIT $${values.length}`,
      values,
    });
    return result.rows.map(toAuditEvent);
  }
}
