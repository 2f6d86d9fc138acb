import { authorize, isAuthorized } from '../../domain/authorization.js';
import { customerNotFound } from '../../domain/errors.js';
import { isRecordId } from '../../domain/ids.js';
import { pageSize } from '../../domain/pagination.js';
import type { AccessScope, Caller } from '../../domain/caller.js';
import type { TimelineStore } from './ports.js';
import { timelineCursorOf, timelinePositionOf } from './timeline.schemas.js';
import { TIMELINE_KINDS, type TimelineKind, type TimelinePage } from './timeline.js';

/**
 * What each kind shows, and so the scope that reads it directly: an entry is in the timeline only for a reader who
 * could read it anyway (the audit trail with audit:read; amounts with accounts:read, as statements; note text with notes:read).
 */
const SCOPE_OF_KIND: Record<TimelineKind, AccessScope> = {
  PROFILE: 'customers:read',
  ACCOUNT: 'accounts:read',
  FLAG: 'accounts:read',
  MONEY: 'accounts:read',
  VERIFICATION: 'verification:read',
  NOTE: 'notes:read',
};

/**
 * A customer's timeline (docs/adr/0111): its story from its records, newest first, a page at a time. Needs
 * `audit:read` (it tells who did what and when, as the audit trail does); each kind besides needs the scope that
 * reads its records, and the kinds a reader lacks are left out and named in `omittedKinds`, never refused.
 */
export class TimelineService {
  constructor(
    private readonly stores: { timeline: TimelineStore },
    /** The names of the static tokens' principals (API_TOKENS), which live in configuration, not in a table. */
    private readonly staticPrincipalNames: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** Refusals: FORBIDDEN, VALIDATION_FAILED (`first` outside 1 to 100, an `after` this service did not make), CUSTOMER_NOT_FOUND. */
  async page(
    caller: Caller,
    customerId: string,
    options: {
      first?: number | undefined;
      after?: string | undefined;
      kinds?: readonly TimelineKind[] | undefined;
    } = {},
  ): Promise<TimelinePage> {
    authorize(caller, 'audit:read');
    const first = pageSize(options.first);
    const after = options.after === undefined ? null : timelinePositionOf(options.after);
    if (!isRecordId(customerId)) throw customerNotFound();
    const asked = new Set(options.kinds ?? TIMELINE_KINDS);
    const readable = TIMELINE_KINDS.filter((kind) => isAuthorized(caller, SCOPE_OF_KIND[kind]));
    const kinds = readable.filter((kind) => asked.has(kind));
    const entries = await this.stores.timeline.read({
      environment: caller.environment,
      customerId: customerId.toLowerCase(),
      kinds,
      after,
      first: first + 1,
    });
    if (entries === null) throw customerNotFound();
    const page = entries
      .slice(0, first)
      .map((entry) =>
        entry.actorName === null && entry.actorId !== null && this.staticPrincipalNames.has(entry.actorId)
          ? { ...entry, actorName: this.staticPrincipalNames.get(entry.actorId)! }
          : entry,
      );
    return {
      entries: page,
      nextAfter: entries.length > first ? timelineCursorOf(page.at(-1)!) : null,
      omittedKinds: TIMELINE_KINDS.filter((kind) => asked.has(kind) && !readable.includes(kind)),
    };
  }
}
