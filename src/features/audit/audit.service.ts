import type { AuditStore } from './ports.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import { validationFailed } from '../../domain/errors.js';
import { type Page, pageOf, type PageQuery, readPage } from '../../domain/pagination.js';
import { parseInput, toErrorDetails } from '../../domain/validation.js';
import type { AuditEvent } from '../../domain/audit-event.js';

import { auditCursorSchema, type AuditFilter, auditFilterSchema } from './audit.schemas.js';

/** Reads the audit trail of the caller's environment; writes happen inside each domain write's transaction. */
export class AuditService {
  constructor(private readonly stores: { audit: AuditStore }) {}

  /**
   * Events oldest first, filtered by resource, principal, operation and time range (`from` inclusive, `to` exclusive);
   * `after` continues from the last eventId of the previous page: REST `GET /{environment}/audit-events` (its query
   * string parsed by audit.rest.ts) and GraphQL `auditEvents`. Needs `audit:read`; VALIDATION_FAILED for a bad
   * filter, a page outside 1–100 (`first`) or a cursor that is no eventId (`after`).
   */
  async find(caller: Caller, filter: AuditFilter = {}, page: PageQuery = {}): Promise<Page<AuditEvent>> {
    authorize(caller, 'audit:read');
    const valid = parseInput(auditFilterSchema, filter);
    const request = pageOf(page);
    if (request.after !== undefined) {
      const cursor = auditCursorSchema.safeParse(request.after, { reportInput: true });
      if (!cursor.success)
        throw validationFailed(toErrorDetails(cursor.error).map((detail) => ({ ...detail, field: 'after' })));
    }
    const filters = {
      ...(valid.principalId !== undefined && { principalId: valid.principalId }),
      ...(valid.operation !== undefined && { operation: valid.operation }),
      resourceId: valid.resourceId?.toLowerCase(),
      from: valid.from === undefined ? undefined : new Date(valid.from),
      to: valid.to === undefined ? undefined : new Date(valid.to),
    };
    return readPage(
      { first: request.first, after: request.after?.toLowerCase() },
      (paged) => this.stores.audit.list(caller.environment, { ...filters, ...paged }),
      (event) => event.eventId,
    );
  }
}
