import type { DomainEvent, EventType } from './event.js';
import type { EventStream, FeedSelection } from './event-feed.js';

/**
 * What the event service and the jobs need from outside the domain: the outbox's store
 * (src/features/events/event.store.ts), the live feed (src/features/events/event-feed.job.ts) and the wake-ups other instances send
 * (src/db/connection/notifications.ts).
 */

export interface EventQuery {
  /** Events with a greater sequence; 0 from the start. */
  after: number;
  types?: readonly EventType[] | undefined;
  limit: number;
}

/** One record's events: those whose `resourceType` and `resourceId` are these. */
export interface RecordEventsQuery {
  resourceType: DomainEvent['resourceType'];
  resourceId: string;
  limit: number;
}

/** Several records' events, each as `RecordEventsQuery` asks (lower-case ids). */
export interface RecordsEventsQuery {
  resourceType: DomainEvent['resourceType'];
  resourceIds: readonly string[];
  limit: number;
}

export interface EventStore {
  list(environment: string, query: EventQuery): Promise<DomainEvent[]>;
  /** The record's numbered events, newest first (greatest sequence first), at most `limit`. */
  recent(environment: string, query: RecordEventsQuery): Promise<DomainEvent[]>;
  /** `recent` of each id, in one read: every id asked is a key (its events, or none). */
  recentOfMany(environment: string, query: RecordsEventsQuery): Promise<Map<string, DomainEvent[]>>;
  /** Only sequenced events: an event becomes readable once numbered (within a moment of its commit). */
  find(environment: string, eventId: string): Promise<DomainEvent | null>;
  /** Numbers the committed events not numbered yet, at most `limit`. */
  sequence(limit: number): Promise<SequencerRound>;
  /**
   * Deletes numbered events older than `before`, a sequencer round at a time (each environment's oldest
   * first, at most `maxRounds` per environment): a round goes when every event in it is older.
   */
  prune(before: Date, maxRounds: number): Promise<PruneOutcome>;
  /** The last sequence number given in the environment; 0 before its first event. */
  lastSequence(environment: string): Promise<number>;
}

export interface SequencerRound {
  /** Events numbered by this call. */
  numbered: number;
  /**
   * Whether an environment it numbered events of has a webhook endpoint: only then has the fan-out work
   * (an endpoint created later starts after the events numbered before it).
   */
  forWebhooks: boolean;
}

export interface PruneOutcome {
  /** Rounds whose events were deleted: fewer than `maxRounds` in every environment means nothing more is due. */
  rounds: number;
  events: number;
}

export interface EventFeed {
  /**
   * Follows the environment's events: the stream receives, through `select`, every event whose sequence is
   * greater than the environment's last sequence number at the moment this call resolves, in sequence
   * order, nothing twice and nothing skipped (except what `select` skips). No event before that: no replay.
   */
  follow<T>(environment: string, select: (event: DomainEvent) => FeedSelection<T>): Promise<EventStream<T>>;
}

/**
 * What other instances did that this one's background work can act on at once, instead of at its next poll
 * (docs/adr/0046-listen-notify-wake-ups.md). The database tells it (src/db/connection/notifications.ts: LISTEN on one
 * dedicated connection, NOTIFY sent by the sequencer's and the fan-out's own statements); polling stays the
 * fallback, so a lost wake-up only costs latency. Each subscription answers a function that ends it.
 */
export interface WakeUps {
  /**
   * Events of `environment` were numbered (by any instance's sequencer): the event feed can read them.
   * `undefined`: maybe any environment (the connection was just (re)established, and what was sent while it
   * was down is lost).
   */
  onEventsNumbered(listener: (environment: string | undefined) => void): () => void;
  /** Webhook deliveries became due (a fan-out created them, a redelivery scheduled one): dispatchers can claim them. */
  onDeliveriesDue(listener: () => void): () => void;
}
