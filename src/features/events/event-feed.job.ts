import type { DomainEvent } from './event.js';
import type { EventStream, FeedOverflow, FeedSelection } from './event-feed.js';
import type { EventFeed, EventStore } from './ports.js';
import { subscriptionsFull } from '../../domain/errors.js';
import type { Logger } from '../../logging/logger.js';
import { startWakeableJob } from '../../jobs/interval-job.js';

export interface EventFeedOptions {
  /** How often the environments with followers are read besides the wake-ups (GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  /** Values a follower may leave untaken before the feed gives up on it (FeedOverflow). */
  bufferLimit?: number;
  /** Followers at once, all environments together (GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS); each holds a buffer of up to `bufferLimit` events. */
  maxFollowers?: number;
  /** Told about each follow refused because the feed was full (the quota metrics). */
  onFull?: () => void;
}

export interface RunningEventFeed extends EventFeed {
  /** Read now: this instance's sequencer, or another's (a notification), numbered events. */
  wake(): void;
  /** Ends every stream (done) and stops reading; later follows fail. */
  stop(): Promise<void>;
  /** Streams following with their start fixed, all environments together (diagnostics, tests). */
  followers(): number;
}

const READ_BATCH = 500;
export const DEFAULT_FOLLOWER_BUFFER = 1000;
export const DEFAULT_MAX_FOLLOWERS = 1000;

/**
 * The process's one reader of newly sequenced events (docs/adr/0042-graphql-subscriptions.md): for
 * each environment that has at least one follower, it reads the events after its cursor from the outbox
 * (the same statement as the events API), in sequence order, and hands each to every follower of the
 * environment, in process. Woken by this instance's sequencer and, through the WakeUps port (LISTEN/NOTIFY), by
 * any instance's; every `pollIntervalMs` too, the fallback while the listener is down. Nothing is read while
 * nobody follows.
 */
export function startEventFeed(
  events: Pick<EventStore, 'list' | 'lastSequence'>,
  options: EventFeedOptions,
  logger: Logger,
): RunningEventFeed {
  const bufferLimit = options.bufferLimit ?? DEFAULT_FOLLOWER_BUFFER;
  const maxFollowers = options.maxFollowers ?? DEFAULT_MAX_FOLLOWERS;
  /** Followers joined and not done yet, started or not: what the limit counts, so concurrent follows cannot overshoot it. */
  let joined = 0;
  /** Per environment: the sequence read up to (undefined until its first follower's start is known) and its followers. */
  const environments = new Map<string, { cursor: number | undefined; followers: Set<Follower<unknown>> }>();
  let stopped = false;
  let failing = false;

  const leave = (environment: string, follower: Follower<unknown>) => {
    const feed = environments.get(environment);
    if (!feed) return;
    if (feed.followers.delete(follower)) joined -= 1;
    if (feed.followers.size === 0) environments.delete(environment);
  };

  const readEnvironment = async (environment: string) => {
    for (;;) {
      const feed = environments.get(environment);
      if (!feed || feed.cursor === undefined || stopped) return;
      const from = feed.cursor;
      const batch = await events.list(environment, { after: from, limit: READ_BATCH });
      for (const event of batch) for (const follower of [...feed.followers]) follower.offer(event);
      // A follower that started meanwhile may have moved the cursor back to its own start: read from there
      // (followers that had those events drop them, by sequence).
      if (feed.cursor === from) feed.cursor = batch.at(-1)?.sequence ?? from;
      else continue;
      if (batch.length < READ_BATCH) return;
    }
  };

  const tick = async () => {
    try {
      for (const environment of [...environments.keys()]) await readEnvironment(environment);
      if (failing) logger.info('the event feed reads events again');
      failing = false;
    } catch (error) {
      // Followers keep waiting; the next wake-up or poll reads from the same cursor, so nothing is lost.
      if (!failing)
        logger.warn({ err: { message: (error as Error).message } }, 'the event feed could not read events; retrying');
      failing = true;
    }
  };

  const job = startWakeableJob(tick, options.pollIntervalMs, () => stopped || environments.size === 0);

  return {
    async follow<T>(environment: string, select: (event: DomainEvent) => FeedSelection<T>): Promise<EventStream<T>> {
      if (stopped) throw new Error('The event feed is stopped');
      // Each follower may buffer up to bufferLimit events: the limit bounds the memory all of them can hold.
      if (joined >= maxFollowers) {
        options.onFull?.();
        throw subscriptionsFull(maxFollowers);
      }
      const follower = new Follower<T>(select, bufferLimit, () => leave(environment, follower as Follower<unknown>));
      let feed = environments.get(environment);
      if (!feed) environments.set(environment, (feed = { cursor: undefined, followers: new Set() }));
      // Joined before its start is read: whatever the feed reads from now on is offered to it, and what it
      // read before then was numbered before the start, so the start drops it. No gap either way.
      feed.followers.add(follower as Follower<unknown>);
      joined += 1;
      try {
        const start = await events.lastSequence(environment);
        follower.startAfter(start);
        const current = environments.get(environment);
        if (current) current.cursor = Math.min(current.cursor ?? start, start);
      } catch (error) {
        leave(environment, follower as Follower<unknown>);
        throw error;
      }
      return follower;
    },
    wake: job.wake,
    followers: () =>
      [...environments.values()].reduce(
        (sum, feed) => sum + [...feed.followers].filter((follower) => follower.started).length,
        0,
      ),
    async stop() {
      stopped = true;
      await job.stop();
      for (const feed of [...environments.values()]) for (const follower of [...feed.followers]) follower.finish();
      environments.clear();
      joined = 0;
    },
  };
}

/**
 * One follower's stream: a queue between the feed (which offers every event of the environment) and the
 * consumer (which pulls values). `after` is the last sequence it was offered, so an event offered twice
 * (the feed re-read after a rewind) counts once.
 */
class Follower<T> implements EventStream<T> {
  private after: number | undefined;
  private readonly queue: (T | FeedOverflow)[] = [];
  private waiting: ((result: IteratorResult<T | FeedOverflow>) => void) | undefined;
  private finished = false;

  constructor(
    private readonly select: (event: DomainEvent) => FeedSelection<T>,
    private readonly limit: number,
    private readonly onDone: () => void,
  ) {}

  get started(): boolean {
    return this.after !== undefined;
  }

  startAfter(sequence: number): void {
    this.after = sequence;
  }

  offer(event: DomainEvent): void {
    if (this.finished || this.after === undefined || event.sequence <= this.after) return;
    this.after = event.sequence;
    const selection = this.select(event);
    if (selection === 'skip') return;
    if (selection === 'end') this.finish();
    else if (this.queue.length >= this.limit) {
      // The consumer stopped taking values; keeping more would let one slow client hold unbounded memory.
      this.queue.push({ overflowed: true, buffered: this.queue.length });
      this.finish();
    } else this.push(selection.deliver);
  }

  /** No more values: the queue drains, then the stream is done. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.onDone();
    if (this.queue.length === 0) this.settle({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T | FeedOverflow>> {
    const value = this.queue.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<T | FeedOverflow>> {
    this.queue.length = 0;
    this.finish();
    this.settle({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(): Promise<IteratorResult<T | FeedOverflow>> {
    return this.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private push(value: T | FeedOverflow): void {
    if (this.waiting) this.settle({ value, done: false });
    else this.queue.push(value);
  }

  private settle(result: IteratorResult<T | FeedOverflow>): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(result);
  }
}
