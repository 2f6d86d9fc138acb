/**
 * Live events (docs/adr/0042-graphql-subscriptions.md): what a follower of an environment's events
 * receives from the moment it starts. The source is the outbox itself (the sequenced events, whichever
 * instance wrote them); src/features/events/event-feed.job.ts implements it for this process. This file holds what a
 * stream carries; the port itself, `EventFeed`, is in ports.ts.
 */

/** What a follower makes of one event: a value to deliver, nothing (`skip`), or the end of its stream (`end`). */
export type FeedSelection<T> = { deliver: T } | 'skip' | 'end';

/**
 * The follower fell so far behind (its consumer did not take the values it was given) that the feed stopped
 * keeping values for it. It is the stream's last item.
 */
export interface FeedOverflow {
  overflowed: true;
  /** How many values the stream held when it gave up. */
  buffered: number;
}

export const isFeedOverflow = (value: unknown): value is FeedOverflow =>
  typeof value === 'object' && value !== null && (value as { overflowed?: unknown }).overflowed === true;

/**
 * Values in the environment's sequence order. `return()` ends it at once (also while a `next()` waits),
 * and the feed forgets the follower.
 */
export interface EventStream<T> extends AsyncIterableIterator<T | FeedOverflow> {
  return(): Promise<IteratorResult<T | FeedOverflow>>;
}
