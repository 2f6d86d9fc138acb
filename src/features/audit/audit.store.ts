import type { AuditEvent, AuditOperation, AuditResourceType } from '../../domain/audit-event.js';
import type { AuditQuery, AuditStore } from './ports.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';

/**
 * Reads of the audit trail (the writes append its events, src/db/sql/write-effects.ts). The typed API: an
 * operator read where only the filters given become conditions, planned for the values at hand.
 */
export class PrismaAuditStore implements AuditStore {
  constructor(private readonly prisma: PrismaClient) {}

  async list(environment: string, query: AuditQuery): Promise<AuditEvent[]> {
    const events = await this.prisma.auditEvent.findMany({
      where: {
        environment,
        id: query.after === undefined ? undefined : { gt: query.after },
        resourceId: query.resourceId,
        principalId: query.principalId,
        operation: query.operation,
        occurredAt: query.from === undefined && query.to === undefined ? undefined : { gte: query.from, lt: query.to },
      },
      orderBy: { id: 'asc' },
      take: query.first,
    });
    return events.map((event) => ({
      eventId: event.id,
      occurredAt: event.occurredAt.toISOString(),
      environmentOccurredAt: (event.environmentOccurredAt ?? event.occurredAt).toISOString(),
      principalId: event.principalId,
      environment: event.environment,
      // Only the domain writes these columns, with values from these unions.
      operation: event.operation as AuditOperation,
      resourceType: event.resourceType as AuditResourceType,
      resourceId: event.resourceId,
      requestId: event.requestId,
      idempotencyKey: event.idempotencyKey,
      changedFields: event.changedFields,
      ...(event.matchedCount !== null && { matchedCount: event.matchedCount }),
    }));
  }
}
