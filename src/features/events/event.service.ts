import type { Account } from '../accounts/index.js';
import { authorize, isAuthorized } from '../../domain/authorization.js';
import { accountNotFound, eventNotFound, validationFailed } from '../../domain/errors.js';
import { isRecordId } from '../../domain/ids.js';
import type { Transaction } from '../ledger/index.js';
import { type Page, pageOf, type PageQuery, pageSize } from '../../domain/pagination.js';
import type { AccountStore } from '../accounts/index.js';
import type { Caller } from '../../domain/caller.js';
import { parseInput } from '../../domain/validation.js';
import type { DomainEvent } from './event.js';
import type { EventStream } from './event-feed.js';
import { eventAsSeenBy } from './event-visibility.js';
import type { EventFeed, EventStore } from './ports.js';
import { AFTER_SEQUENCE_RULE, type EventFilter, eventFilterSchema, RECENT_EVENTS } from './event.schemas.js';

/** A page of events, by sequence: `nextAfter` is never null, but equal to `after` when there was nothing newer (poll again later). */
export interface EventPage extends Page<DomainEvent, number> {
  nextAfter: number;
}

/**
 * The events API: the outbox, read in sequence order, and followed live (GraphQL subscriptions) through the
 * feed. A follow checks what the equivalent read checks (scope, existence in the environment) when it
 * starts; from then on it receives the events numbered after it started, and nothing before.
 */
export class EventService {
  constructor(
    private readonly stores: { events: EventStore; accounts: AccountStore },
    private readonly feed?: EventFeed,
  ) {}

  /**
   * The environment's events in sequence order, of the given types (absent or empty: every type), a page at a
   * time after the sequence `after` (absent: 0): REST `GET /{environment}/event` (its query string parsed by
   * event.rest.ts) and GraphQL `events(types, first, after)`. VALIDATION_FAILED for an unknown type, a page
   * outside 1–100 (`first`) or an `after` that is no sequence.
   */
  async find(caller: Caller, filter: EventFilter = {}, page: PageQuery<number> = {}): Promise<EventPage> {
    authorize(caller, 'events:read');
    const { types } = parseInput(eventFilterSchema, filter);
    const { first, after = 0 } = pageOf(page);
    if (!Number.isSafeInteger(after) || after < 0)
      throw validationFailed([{ field: 'after', code: 'OUT_OF_RANGE', message: AFTER_SEQUENCE_RULE }]);
    const events = await this.stores.events.list(caller.environment, { after, types, limit: first });
    return { items: events.map((event) => seenBy(caller, event)), nextAfter: events.at(-1)?.sequence ?? after };
  }

  /**
   * A record's recent events (a customer's, an account's), newest first, at most `first` (RECENT_EVENTS): the
   * same numbered events, sequences and visibility as `list`, only that record's (docs/adr/0073-a-records-recent-events.md).
   * A filter of the feed, not a read of the record: a deleted record's events are still answered, an unknown
   * id answers none. VALIDATION_FAILED for a malformed id or a `first` outside 1–RECENT_EVENTS.max.
   */
  async recent(
    caller: Caller,
    record: { resourceType: RecordType; resourceId: string },
    page: RecentPage = {},
  ): Promise<DomainEvent[]> {
    const limit = recentLimit(caller, page);
    const resourceId = record.resourceId.toLowerCase();
    if (!isRecordId(resourceId))
      throw validationFailed([
        { field: `${record.resourceType}Id`, code: 'INVALID_FORMAT', message: 'Must be a UUID.' },
      ]);
    const events = await this.stores.events.recent(caller.environment, {
      resourceType: record.resourceType,
      resourceId,
      limit,
    });
    return events.map((event) => seenBy(caller, event));
  }

  /**
   * `recent` for several records of one type at once, in one read (GraphQL's `recentEvents` under a list):
   * each id's answer, in the order asked, is what `recent` answers for it. The same scope, limit and
   * visibility; an id that is no UUID answers none (it names no record: the parents are records read before).
   */
  async recentOfMany(
    caller: Caller,
    records: { resourceType: RecordType; resourceIds: readonly string[] },
    page: RecentPage = {},
  ): Promise<DomainEvent[][]> {
    const limit = recentLimit(caller, page);
    const ids = records.resourceIds.map((id) => id.toLowerCase());
    const valid = ids.filter(isRecordId);
    const found =
      valid.length > 0
        ? await this.stores.events.recentOfMany(caller.environment, {
            resourceType: records.resourceType,
            resourceIds: valid,
            limit,
          })
        : new Map<string, DomainEvent[]>();
    return ids.map((id) => (found.get(id) ?? []).map((event) => seenBy(caller, event)));
  }

  async get(caller: Caller, eventId: string): Promise<DomainEvent> {
    authorize(caller, 'events:read');
    const event = isRecordId(eventId) ? await this.stores.events.find(caller.environment, eventId.toLowerCase()) : null;
    if (!event) throw eventNotFound();
    return seenBy(caller, event);
  }

  /** The environment's events from now on, of the given types (the same `types` rules as `find`); needs `events:read`. */
  async follow(caller: Caller, filter: EventFilter = {}): Promise<EventStream<DomainEvent>> {
    authorize(caller, 'events:read');
    const valid = parseInput(eventFilterSchema, filter);
    const types = valid.types && valid.types.length > 0 ? new Set<string>(valid.types) : undefined;
    return this.liveFeed().follow(caller.environment, (event) =>
      types === undefined || types.has(event.type) ? { deliver: seenBy(caller, event) } : 'skip',
    );
  }

  /**
   * The account after each of its changes from now on (account.updated: name, currency, flags, overdraft
   * limit); ends when the account is deleted. Needs `accounts:read`, as reading the account does;
   * ACCOUNT_NOT_FOUND when it does not exist in this environment.
   */
  async followAccount(caller: Caller, accountId: string): Promise<EventStream<Account>> {
    const id = await this.existingAccount(caller, accountId);
    return this.liveFeed().follow(caller.environment, (event) => {
      if (event.resourceId !== id) return 'skip';
      if (event.type === 'account.deleted') return 'end';
      return event.type === 'account.updated' && event.data.kind === 'account'
        ? { deliver: event.data.account }
        : 'skip';
    });
  }

  /**
   * The account's transactions as they post from now on (transaction.posted: a deposit, a withdrawal, a
   * transfer's side, a hold's posting, a reversal); ends when the account is deleted. As `followAccount`.
   */
  async followPostedTransactions(caller: Caller, accountId: string): Promise<EventStream<Transaction>> {
    const id = await this.existingAccount(caller, accountId);
    return this.liveFeed().follow(caller.environment, (event) => {
      if (event.type === 'account.deleted' && event.resourceId === id) return 'end';
      return event.type === 'transaction.posted' &&
        event.data.kind === 'transaction' &&
        event.data.transaction.accountId === id
        ? { deliver: event.data.transaction }
        : 'skip';
    });
  }

  private async existingAccount(caller: Caller, accountId: string): Promise<string> {
    authorize(caller, 'accounts:read');
    const id = accountId.toLowerCase();
    if (!isRecordId(id) || !(await this.stores.accounts.findById(caller.environment, id))) throw accountNotFound();
    return id;
  }

  private liveFeed(): EventFeed {
    // Only the runtime (src/runtime.ts) has a feed; a CLI building the services follows nothing.
    if (!this.feed) throw new Error('No event feed is configured in this process');
    return this.feed;
  }
}

/** The records whose recent events are read. */
type RecordType = 'customer' | 'account';

/** How many of a record's recent events to read: `first` (absent: RECENT_EVENTS.default), within RECENT_EVENTS. */
export interface RecentPage {
  first?: number | undefined;
}

/** A recent-events read's scope and size (RECENT_EVENTS), checked before anything is read. */
function recentLimit(caller: Caller, page: RecentPage): number {
  authorize(caller, 'events:read');
  return pageSize(page.first, RECENT_EVENTS);
}

/** What the caller could read directly (event-visibility.ts). */
const seenBy = (caller: Caller, event: DomainEvent): DomainEvent =>
  eventAsSeenBy(event, (scope) => isAuthorized(caller, scope));
