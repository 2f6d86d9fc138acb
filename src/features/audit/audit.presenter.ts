import { z } from 'zod';
import { AUDIT_OPERATIONS, AUDIT_RESOURCE_TYPES, type AuditEvent } from '../../domain/audit-event.js';
import type { Page } from '../../domain/pagination.js';
import { recordId } from '../../presenters/record-id.js';

/**
 * What leaves the service for the audit trail: the response schemas (the OpenAPI document is generated
 * from them; strict objects) and the presenters mapping domain values onto them field by field, so a field added to
 * the domain never reaches a client by accident. Shared by REST (inside its envelope), webhook delivery and the CLI.
 */

export const auditEventDataSchema = z
  .strictObject({
    eventId: recordId,
    occurredAt: z.iso.datetime({ offset: true }).describe('When the write committed, ISO 8601 UTC (the real time).'),
    environmentOccurredAt: z.iso
      .datetime({ offset: true })
      .describe(
        "When the write committed by the environment's clock, ISO 8601 UTC: the same as `occurredAt`, except in a sandbox moved forward (docs/clock.md).",
      ),
    principalId: z
      .string()
      .describe(
        'Who wrote: static:<keyed label>, token:<id>, jwt:<subject>, or an operator command (cli:token, cli:webhook, cli:pii-rotate). Never a secret, nor anything a secret can be checked against.',
      ),
    operation: z.enum(AUDIT_OPERATIONS),
    resourceType: z.enum(AUDIT_RESOURCE_TYPES),
    resourceId: recordId,
    requestId: z.string().describe('The requestId of the write.'),
    idempotencyKey: z.string().nullable().describe('The Idempotency-Key the create was sent with, if any.'),
    changedFields: z
      .array(z.string())
      .describe(
        'Names (never values) of the fields the write set (none for a control or holder call that changed nothing); for a search, the filters it used.',
      ),
    matchedCount: z
      .number()
      .int()
      .optional()
      .describe('Only on `customer.search` (a search by social security number): how many customers it found.'),
  })
  .describe('One successful write.');

export const auditPageDataSchema = z
  .strictObject({
    events: z.array(auditEventDataSchema).describe('Oldest first.'),
    nextAfter: recordId.nullable().describe('Pass as `after` for the next page; null on the last page.'),
    // Every other list answers `nextAfter`; the audit trail answered `nextCursor` first, kept one release.
    nextCursor: recordId.nullable().meta({
      deprecated: true,
      description: 'Deprecated: the same value as `nextAfter`, which every list answers; removed in the next release.',
    }),
  })
  .describe('A page of the audit trail.');

export type AuditPageData = z.infer<typeof auditPageDataSchema>;

export const presentAuditPage = (page: Page<AuditEvent>): AuditPageData => ({
  events: page.items.map((event) => ({
    eventId: event.eventId,
    occurredAt: event.occurredAt,
    environmentOccurredAt: event.environmentOccurredAt,
    principalId: event.principalId,
    operation: event.operation,
    resourceType: event.resourceType,
    resourceId: event.resourceId,
    requestId: event.requestId,
    idempotencyKey: event.idempotencyKey,
    changedFields: [...event.changedFields],
    ...(event.matchedCount !== undefined && { matchedCount: event.matchedCount }),
  })),
  nextAfter: page.nextAfter,
  nextCursor: page.nextAfter,
});
