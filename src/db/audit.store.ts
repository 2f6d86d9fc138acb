import type { AuditEvent, AuditOperation, AuditQuery, AuditResourceType, AuditStore, NewAuditEvent } from '../domain/audit/audit-event.js';
import type { Prisma, PrismaClient } from './prisma-client.js';

type Client = PrismaClient | Prisma.TransactionClient;

const AUDIT_COLUMNS = {
  id: true,
  occurredAt: true,
  principalId: true,
  environment: true,
  operation: true,
  resourceType: true,
  resourceId: true,
  requestId: true,
  idempotencyKey: true,
  changedFields: true,
} satisfies Prisma.AuditEventSelect;

type AuditRow = Prisma.AuditEventGetPayload<{ select: typeof AUDIT_COLUMNS }>;

const toAuditEvent = (row: AuditRow): AuditEvent => ({
  eventId: row.id,
  occurredAt: row.occurredAt.toISOString(),
  principalId: row.principalId,
  environment: row.environment,
  // Only the domain writes these columns, with values from these unions.
  operation: row.operation as AuditOperation,
  resourceType: row.resourceType as AuditResourceType,
  resourceId: row.resourceId,
  requestId: row.requestId,
  idempotencyKey: row.idempotencyKey,
  changedFields: row.changedFields,
});

/** The audit trail on PostgreSQL: INSERT and SELECT only (the table refuses anything else). */
export class PrismaAuditStore implements AuditStore {
  constructor(private readonly client: Client) {}

  async append(event: NewAuditEvent): Promise<void> {
    await this.client.auditEvent.create({
      data: {
        id: event.eventId,
        principalId: event.principalId,
        environment: event.environment,
        operation: event.operation,
        resourceType: event.resourceType,
        resourceId: event.resourceId,
        requestId: event.requestId,
        idempotencyKey: event.idempotencyKey,
        changedFields: event.changedFields,
      },
      select: { id: true },
    });
  }

  async list(environment: string, query: AuditQuery): Promise<AuditEvent[]> {
    const rows = await this.client.auditEvent.findMany({
      where: {
        environment,
        ...(query.after !== undefined && { id: { gt: query.after } }),
        ...(query.resourceId !== undefined && { resourceId: query.resourceId }),
        ...(query.operation !== undefined && { operation: query.operation }),
        ...((query.from !== undefined || query.to !== undefined) && {
          occurredAt: { ...(query.from !== undefined && { gte: query.from }), ...(query.to !== undefined && { lt: query.to }) },
        }),
      },
      orderBy: { id: 'asc' },
      take: query.first,
      select: AUDIT_COLUMNS,
    });
    return rows.map(toAuditEvent);
  }
}
