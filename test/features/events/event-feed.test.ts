import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PrismaEventStore } from '../../../src/features/events/event.store.js';
import { createPool } from '../../../src/db/connection/pool.js';
import { createPrismaClient, type PrismaClient } from '../../../src/db/connection/prisma-client.js';
import type { DomainEvent } from '../../../src/features/events/event.js';
import { type EventStream, isFeedOverflow } from '../../../src/features/events/event-feed.js';
import { type RunningEventFeed, startEventFeed } from '../../../src/features/events/event-feed.job.js';
import { createLogger } from '../../../src/logging/logger.js';
import { createCustomer, expectSuccess } from '../../rest/helpers.js';
import { eventually } from '../../support/eventually.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * The subscriptions' event feed (src/features/events/event-feed.job.ts) against the outbox of a running service: its own
 * pool and Prisma Client on the service's database, as a second process would have. The service writes
 * and numbers; the feed under test only reads.
 */
let service: TestService;
let pool: pg.Pool;
let prisma: PrismaClient;
const listStatements: string[] = [];
const feeds: RunningEventFeed[] = [];
const logger = createLogger({ level: 'silent', pretty: false });

beforeAll(async () => {
  service = await startTestService({ EVENT_SEQUENCER_INTERVAL_MS: '20' });
  pool = createPool({
    connectionString: service.databaseUrl,
    max: 2,
    connectTimeoutMs: 60_000,
    statementTimeoutMs: 60_000,
    onQuery: (_ms, name) => {
      if (name === 'cas_event_list') listStatements.push(name);
    },
  });
  prisma = createPrismaClient(pool);
});
afterEach(async () => {
  await Promise.all(feeds.splice(0).map((feed) => feed.stop()));
});
afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.end();
  await service?.stop();
});

const feed = (options: { bufferLimit?: number } = {}) => {
  const started = startEventFeed(new PrismaEventStore(prisma), { pollIntervalMs: 20, ...options }, logger);
  feeds.push(started);
  return started;
};

const everything = (event: DomainEvent) => ({ deliver: event });

/**
 * The customer's creation once numbered, as the events API shows it. A sequencer pass run on demand
 * (RunningService.jobs) numbers only the events of transactions older than every transaction running in the
 * cluster, which the other test files share: pass and read again until it is there (the deadline stops a hung test).
 */
async function numbered(customerId: string): Promise<number> {
  const creationIn = (page: { json: { data: { events: { resourceId: string; sequence: number }[] } } }) =>
    page.json.data.events.find((candidate) => candidate.resourceId === customerId);
  const page = await eventually(
    async () => {
      await service.jobs.eventOutbox.runOnce();
      return service.call('GET', '/sandbox/event?types=customer.created&limit=100');
    },
    (answer) => answer.status === 200 && creationIn(answer) !== undefined,
  );
  const event = creationIn(page);
  if (!event) throw new Error(`the creation of ${customerId} was not numbered by a sequencer pass`);
  return event.sequence;
}

async function take<T>(stream: EventStream<T>, count: number) {
  const values = [];
  for (let i = 0; i < count; i += 1) values.push((await stream.next()).value);
  return values;
}

describe('the event feed', () => {
  it('reads nothing while nobody follows', async () => {
    const idle = feed();
    listStatements.length = 0;
    await createCustomer(service);
    for (let i = 0; i < 5; i += 1) idle.wake();
    expect(listStatements).toEqual([]);
    expect(idle.followers()).toBe(0);
  });

  it('delivers the events numbered after the follow started, in sequence order, and none before', async () => {
    const before = await createCustomer(service);
    const beforeSequence = await numbered(before.customerId);
    const stream = await feed().follow('sandbox', everything);
    const after = [await createCustomer(service), await createCustomer(service)];
    const values = (await take(stream, 2)) as DomainEvent[];
    expect(values.map((event) => event.resourceId)).toEqual(after.map((created) => created.customerId));
    expect(values[0]!.sequence).toBeGreaterThan(beforeSequence);
    expect(values[1]!.sequence).toBe(values[0]!.sequence + 1);
    await stream.return();
  });

  it('ends a stream when its selection says so, and only its own', async () => {
    const running = feed();
    const { customerId } = await createCustomer(service);
    // A follow starts after the events numbered so far; the creation must be among them, or `watching` sees it.
    await numbered(customerId);
    const ending = await running.follow('sandbox', (event) =>
      event.resourceId === customerId && event.type === 'customer.deleted' ? 'end' : 'skip',
    );
    const watching = await running.follow('sandbox', everything);
    expectSuccess(await service.call('DELETE', `/sandbox/customer/${customerId}`), 'customer', 200);
    expect(await ending.next()).toEqual({ value: undefined, done: true });
    expect(((await watching.next()).value as DomainEvent).type).toBe('customer.deleted');
    expect(running.followers()).toBe(1);
  });

  it('gives up on a follower that leaves more than its buffer untaken: the values it kept, then an overflow, then done', async () => {
    const running = feed({ bufferLimit: 2 });
    const stream = await running.follow('sandbox', everything);
    for (let i = 0; i < 4; i += 1) await createCustomer(service);
    while (running.followers() > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const [first, second, third] = await take(stream, 3);
    expect(
      [first, second].every((value) => !isFeedOverflow(value) && (value as DomainEvent).type === 'customer.created'),
    ).toBe(true);
    expect(third).toEqual({ overflowed: true, buffered: 2 });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('return() ends a stream at once, also while a next() waits, and the feed forgets it', async () => {
    const running = feed();
    const stream = await running.follow('production-like', everything);
    const waiting = stream.next();
    expect(running.followers()).toBe(1);
    await stream.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(running.followers()).toBe(0);
  });

  it('stop() ends every stream and refuses new follows', async () => {
    const running = feed();
    const stream = await running.follow('sandbox', everything);
    const waiting = stream.next();
    await running.stop();
    expect(await waiting).toEqual({ value: undefined, done: true });
    await expect(running.follow('sandbox', everything)).rejects.toThrow('The event feed is stopped');
  });
});
