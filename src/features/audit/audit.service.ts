import type { AuditStore } from './ports.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import { type Page, readPage } from '../../domain/pagination.js';
import { parseInput } from '../../domain/validation.js';
import type { AuditEvent } from '../../domain/audit-event.js';

import { auditQuerySchema } from './audit.schemas.js';

/** Reads the audit trail of the caller's environment; writes happen inside each domain write's transaction. */
export class AuditService {
  constructor(private readonly stores: { audit: AuditStore }) {}

  /**
   * Events oldest first, filtered by resource, principal, operation and time range (`from` inclusive, `to` exclusive);
   * `after` continues from the last eventId of the previous page. Needs `audit:read`.
   */
  async list(caller: Caller, query: unknown = {}): Promise<Page<AuditEvent>> {
    authorize(caller, 'audit:read');
    const valid = parseInput(auditQuerySchema, query);
    const filters = { ...valid, resourceId: valid.resourceId?.toLowerCase() };
    return readPage(
      { first: valid.first, after: valid.after?.toLowerCase() },
      (page) => this.stores.audit.list(caller.environment, { ...filters, ...page }),
      (event) => event.eventId,
    );
  }
}
