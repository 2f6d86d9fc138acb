import { authorize } from '../authorization.js';
import type { Database } from '../ports.js';
import type { RequestScope } from '../scope.js';
import { parseInput } from '../validation.js';
import type { AuditEvent } from './audit-event.js';
import { auditQuerySchema } from './audit.schemas.js';

/** Reads the audit trail of the scope's environment; writes happen inside each domain write's transaction. */
export class AuditService {
  constructor(private readonly db: Database) {}

  /**
   * Events oldest first, filtered by resource, operation and time range (`from` inclusive, `to` exclusive);
   * `after` continues from the last eventId of the previous page. Needs `audit:read`.
   */
  async list(scope: RequestScope, query: unknown = {}): Promise<AuditEvent[]> {
    authorize(scope, 'audit:read');
    const valid = parseInput(auditQuerySchema, query);
    return this.db.stores.audit.list(scope.environment, {
      ...valid,
      resourceId: valid.resourceId?.toLowerCase(),
      after: valid.after?.toLowerCase(),
    });
  }
}
