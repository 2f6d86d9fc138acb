import { authorize } from '../authorization.js';
import type { Stores } from '../ports.js';
import type { Caller } from '../caller.js';
import { parseInput } from '../validation.js';
import type { AuditEvent } from './audit-event.js';

export interface AuditPage {
  events: AuditEvent[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}
import { auditQuerySchema } from './audit.schemas.js';

/** Reads the audit trail of the caller's environment; writes happen inside each domain write's transaction. */
export class AuditService {
  constructor(private readonly stores: Pick<Stores, 'audit'>) {}

  /**
   * Events oldest first, filtered by resource, operation and time range (`from` inclusive, `to` exclusive);
   * `after` continues from the last eventId of the previous page. Needs `audit:read`.
   */
  async list(caller: Caller, query: unknown = {}): Promise<AuditPage> {
    authorize(caller, 'audit:read');
    const valid = parseInput(auditQuerySchema, query);
    // One more than asked tells whether another page exists without a count query.
    const found = await this.stores.audit.list(caller.environment, {
      ...valid,
      first: valid.first + 1,
      resourceId: valid.resourceId?.toLowerCase(),
      after: valid.after?.toLowerCase(),
    });
    const events = found.slice(0, valid.first);
    return { events, nextCursor: found.length > valid.first ? events.at(-1)!.eventId : null };
  }
}
