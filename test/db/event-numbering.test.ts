import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_STATEMENTS, PrismaEventStore } from '../../src/db/event.store.js';
import { migrate, readMigrations } from '../../src/db/migrations.js';
import { createPool } from '../../src/db/pool.js';
import { createPrismaClient, type PrismaClient } from '../../src/db/prisma-client.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { sequenceAll, UNNUMBERED } from '../support/events.js';

/**
 * The outbox's numbering since migration 20261130000000_events_numbered_by_rounds (docs/decisions.md,
 * "Events", "Numbered by rounds"): a sequencer round appends one row per environment, an event's number is
 * read from its round, retention deletes whole rounds, and the previous release's statements (an expand
 * step: they keep working on this schema during a rolling deploy) number the same events the same way.
 */

const ROUNDS_MIGRATION = '20261130000000_events_numbered_by_rounds';

/** The previous release's outbox statements (commit 79f5644, src/db/event.store.ts and src/db/webhook.store.ts), verbatim. */
const PREVIOUS = {
  list: `SELECT e.id AS "eventId", e.type, e.sequence::text AS sequence FROM events e
     WHERE e.environment = $1 AND e.sequence > $2::bigint AND ($3::text[] IS NULL OR e.type = ANY($3::text[]))
     ORDER BY e.sequence LIMIT $4`,
  sequence: `WITH sequencer AS MATERIALIZED (SELECT pg_try_advisory_xact_lock(hashtext('cas_event_sequencer')) AS held),
     ready AS MATERIALIZED (
       SELECT e.id, e.environment, e.txid FROM events e
       WHERE (SELECT held FROM sequencer) AND e.sequence IS NULL
         AND e.txid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
       ORDER BY e.txid, e.id LIMIT $1
     ),
     numbered AS (SELECT r.id, r.environment, row_number() OVER (PARTITION BY r.environment ORDER BY r.txid, r.id) AS n FROM ready r),
     counts AS (SELECT r.environment, count(*) AS n FROM ready r GROUP BY r.environment),
     bumped AS (
       INSERT INTO event_sequences AS s (environment, last) SELECT c.environment, c.n FROM counts c
       ON CONFLICT (environment) DO UPDATE SET last = s.last + EXCLUDED.last
       RETURNING s.environment, s.last
     ),
     numbered_events AS (
       UPDATE events e SET sequence = b.last - c.n + nb.n
       FROM numbered nb JOIN counts c ON c.environment = nb.environment JOIN bumped b ON b.environment = nb.environment
       WHERE e.id = nb.id
       RETURNING e.id
     )
     SELECT count(*)::int AS sequenced,
       (SELECT count(pg_notify('cas_events_numbered', b.environment)) FROM bumped b)::int AS notified
     FROM numbered_events`,
  prune: `WITH doomed AS (
       SELECT h.id FROM event_sequences s
       CROSS JOIN LATERAL (
         SELECT e.id, e.occurred_at FROM events e WHERE e.environment = s.environment AND e.sequence IS NOT NULL ORDER BY e.sequence LIMIT $2
       ) h
       WHERE h.occurred_at < $1::timestamptz
       LIMIT $2
     ),
     pruned AS (DELETE FROM events e USING doomed d WHERE e.id = d.id RETURNING e.id)
     SELECT count(*)::int AS pruned FROM pruned`,
};

/** A customer-sized payload, as the creation writes it. */
const payload = (i: number) =>
  JSON.stringify({
    id: randomUUID(),
    dateOfBirth: '1984-03-07',
    firstName: `Samantha${i}`,
    lastName: 'Okonkwo-Lindqvist',
    emails: [`samantha.${i}@example.com`],
    phoneNumbers: [{ type: 'mobile', number: '+15555550100' }],
    addresses: [{ type: 'home', line1: '1234 Elm Street', city: 'Springfield', state: 'IL', postalCode: '62704', country: 'US' }],
    accountIds: '',
  });

const DAY_MS = 24 * 60 * 60 * 1000;
const retention = () => new Date(Date.now() - 30 * DAY_MS);

let database: TestDatabase;
let pool: pg.Pool;
let prisma: PrismaClient;
let store: PrismaEventStore;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.url, max: 4, connectTimeoutMs: 5000, statementTimeoutMs: 10_000 });
  prisma = createPrismaClient(pool);
  store = new PrismaEventStore(prisma);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.end();
  await database?.drop();
});
beforeEach(async () => {
  await database.pool.query('TRUNCATE events, event_sequences, event_rounds CASCADE');
});

/** `count` events, each in its own transaction (as writes append them), optionally `ageDays` old. */
async function insertEvents(count: number, options: { environment?: string; ageDays?: number; on?: pg.Pool } = {}): Promise<void> {
  for (let i = 0; i < count; i++) {
    await (options.on ?? database.pool).query(
      `INSERT INTO events (environment, type, resource_type, resource_id, payload, occurred_at)
       VALUES ($1, 'customer.created', 'customer', gen_random_uuid(), $2::jsonb, CURRENT_TIMESTAMP - make_interval(days => $3::int))`,
      [options.environment ?? 'sandbox', payload(i), options.ageDays ?? 0],
    );
  }
}

/** Every event of the environment as this release reads it, page by page: [id, number]. */
async function readAll(environment: string): Promise<[string, number][]> {
  const read: [string, number][] = [];
  for (let after = 0; ; ) {
    const page = await store.list(environment, { after, limit: 7 });
    if (page.length === 0) return read;
    for (const event of page) read.push([event.eventId, event.sequence]);
    after = page.at(-1)!.sequence;
  }
}

/** The numbers the previous release reads (events.sequence), in numbering order. */
const storedNumbers = async (environment: string, on: pg.Pool = database.pool) =>
  (
    await on.query<{ id: string; sequence: string | null }>('SELECT id, sequence::text FROM events WHERE environment = $1 ORDER BY txid, id', [environment])
  ).rows.map((r): [string, number | null] => [r.id, r.sequence === null ? null : Number(r.sequence)]);

const oneTo = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from);

describe('numbering by rounds', () => {
  it('numbers each environment gapless in commit order, one round row per environment and round; reads, finds and the stored column agree', async () => {
    await insertEvents(25);
    await insertEvents(4, { environment: 'production' });
    expect(await sequenceAll(store, database.pool)).toBe(29);
    await insertEvents(10);
    expect(await sequenceAll(store, database.pool)).toBe(10);

    const sandbox = await readAll('sandbox');
    expect(sandbox.map(([, n]) => n)).toEqual(oneTo(35));
    expect((await readAll('production')).map(([, n]) => n)).toEqual(oneTo(4));
    // The previous release reads the same numbers from the column this release still writes for it.
    expect(await storedNumbers('sandbox')).toEqual(sandbox);

    const { rows: rounds } = await database.pool.query<{ environment: string; first: number; last: number }>(
      'SELECT environment, first_sequence::int AS first, last_sequence::int AS last FROM event_rounds ORDER BY environment, last_sequence',
    );
    // Normally one round per environment per call; another file's open transaction may hold some events for a later one.
    expect(rounds.filter((r) => r.environment === 'sandbox').flatMap((r) => oneTo(r.last - r.first + 1, r.first))).toEqual(oneTo(35));
    expect(rounds.length).toBeLessThanOrEqual(10);

    for (const [id, n] of [sandbox[0]!, sandbox[17]!, sandbox[34]!]) expect((await store.find('sandbox', id))?.sequence).toBe(n);
    expect(await store.find('production', sandbox[0]![0])).toBeNull();
    expect(await store.lastSequence('sandbox')).toBe(35);
    expect(await store.lastSequence('nowhere')).toBe(0);

    // A page stops at its limit and filters by type without losing its place.
    expect((await store.list('sandbox', { after: 30, limit: 3 })).map((e) => e.sequence)).toEqual([31, 32, 33]);
    expect(await store.list('sandbox', { after: 0, limit: 5, types: ['customer.deleted'] })).toEqual([]);
  });

  it('leaves an event unreadable until its round: no number is read before it is final', async () => {
    await insertEvents(3);
    const { rows } = await database.pool.query<{ id: string }>('SELECT id FROM events');
    expect(await store.list('sandbox', { after: 0, limit: 10 })).toEqual([]);
    expect(await store.find('sandbox', rows[0]!.id)).toBeNull();
    expect((await database.pool.query(UNNUMBERED)).rows[0].n).toBe(3);
    await sequenceAll(store, database.pool);
    expect((await database.pool.query(UNNUMBERED)).rows[0].n).toBe(0);
  });

  it('takes one sequencer at a time: concurrent calls give every event one number', async () => {
    await insertEvents(60);
    await Promise.all([1, 2, 3, 4].map(() => store.sequence(7)));
    await sequenceAll(store, database.pool);
    expect((await readAll('sandbox')).map(([, n]) => n)).toEqual(oneTo(60));
    const { rows } = await database.pool.query<{ overlaps: number }>(
      `SELECT count(*)::int AS overlaps FROM event_rounds a JOIN event_rounds b ON a.environment = b.environment AND a.last_sequence < b.last_sequence
       WHERE b.first_sequence <= a.last_sequence OR (b.first_txid, b.first_id) <= (a.last_txid, a.last_id)`,
    );
    expect(rows[0]!.overlaps).toBe(0);
  });

  it('refuses any change to an event but its first numbering', async () => {
    await insertEvents(2);
    await sequenceAll(store, database.pool);
    await expect(database.pool.query("UPDATE events SET payload = '{}' WHERE sequence = 1")).rejects.toThrow(/an event never changes/);
    await expect(database.pool.query('UPDATE events SET sequence = 999 WHERE sequence = 2')).rejects.toThrow(/an event never changes/);
  });

  it('reads a page from the rounds it needs only, not from every round before or after it', async () => {
    for (let round = 0; round < 40; round++) {
      await insertEvents(5);
      await sequenceAll(store, database.pool);
    }
    await database.pool.query('ANALYZE events; ANALYZE event_rounds');
    const client = await pool.connect();
    try {
      // The statement as the store sends it, planned generically (as a prepared statement runs).
      await client.query('SET plan_cache_mode = force_generic_plan');
      const page = await store.list('sandbox', { after: 150, limit: 5 });
      expect(page.map((e) => e.sequence)).toEqual(oneTo(5, 151));
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${EVENT_STATEMENTS.list.text}`,
        ['sandbox', 150, null, 5],
      );
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      // The rounds are read in order from the one holding number 151, and the walk stops with the page.
      expect(plan).toMatch(/Index Scan using event_rounds_pkey on event_rounds r \(actual rows=[1-3](\.00)? loops=1\)/);
      expect(plan).toMatch(/Index Scan using events_environment_txid_id_idx/);
    } finally {
      await client.query('RESET ALL');
      client.release();
    }
  });
});

describe('retention', () => {
  it('deletes whole rounds older than the retention, oldest first, never a younger or unnumbered event; numbering goes on from the last number', async () => {
    await insertEvents(30, { ageDays: 40 });
    await insertEvents(5, { environment: 'production', ageDays: 40 });
    await sequenceAll(store, database.pool);
    await insertEvents(10, { ageDays: 1 });
    await sequenceAll(store, database.pool);
    await insertEvents(3, { ageDays: 40 }); // not numbered yet

    let rounds = 0;
    for (let outcome = await store.prune(retention(), 1); outcome.rounds > 0; outcome = await store.prune(retention(), 1)) rounds += outcome.rounds;
    expect(rounds).toBeGreaterThanOrEqual(2);
    expect((await readAll('sandbox')).map(([, n]) => n)).toEqual(oneTo(10, 31));
    expect(await readAll('production')).toEqual([]);
    expect((await database.pool.query(UNNUMBERED)).rows[0].n).toBe(3);

    // production's newest round lost its events but keeps its place: the next event there is number 6.
    await insertEvents(1, { environment: 'production' });
    await sequenceAll(store, database.pool);
    expect((await readAll('production')).map(([, n]) => n)).toEqual([6]);
    expect((await readAll('sandbox')).map(([, n]) => n)).toEqual(oneTo(13, 31));
  });

  it('keeps a round while any event in it is younger than the retention, and every round after it', async () => {
    await insertEvents(5, { ageDays: 1 });
    await insertEvents(5, { ageDays: 40 }); // older by occurred_at, numbered after (a transaction that started long before)
    await sequenceAll(store, database.pool);
    expect(await store.prune(retention(), 10)).toEqual({ rounds: 0, events: 0 });
    expect((await readAll('sandbox')).map(([, n]) => n)).toEqual(oneTo(10));
  });
});

describe("the previous release's statements on this schema (expand step)", () => {
  it('number, read and prune interleaved with this release: the same numbers both ways, gapless, nothing numbered twice', async () => {
    for (let round = 0; round < 6; round++) {
      await insertEvents(7, { ageDays: round < 2 ? 40 : 0 });
      await insertEvents(2, { environment: 'production' });
      if (round % 2 === 0) await database.pool.query(PREVIOUS.sequence, [1000]);
      else await sequenceAll(store, database.pool);
    }
    await database.pool.query(PREVIOUS.sequence, [1000]);
    await insertEvents(3);
    await sequenceAll(store, database.pool);
    const sandbox = await readAll('sandbox');
    expect(sandbox.map(([, n]) => n)).toEqual(oneTo(45));
    expect(await storedNumbers('sandbox')).toEqual(sandbox);
    expect((await readAll('production')).map(([, n]) => n)).toEqual(oneTo(12));
    const { rows: last } = await database.pool.query('SELECT environment, last::int FROM event_sequences ORDER BY environment');
    expect(last).toEqual([
      { environment: 'production', last: 12 },
      { environment: 'sandbox', last: 45 },
    ]);

    const { rows: page } = await database.pool.query(PREVIOUS.list, ['sandbox', 40, null, 10]);
    expect(page.map((r) => Number(r.sequence))).toEqual(oneTo(5, 41));

    // The previous release prunes event by event from the head: this release's numbers of the rest do not move.
    const { rows: pruned } = await database.pool.query(PREVIOUS.prune, [retention(), 1000]);
    expect(pruned[0].pruned).toBe(14);
    expect(await readAll('sandbox')).toEqual(sandbox.slice(14));
  });

  it("number from where the migration left them: a database the previous release numbered (and pruned, leaving holes) reads the same numbers after it", async () => {
    const old = await createTestDatabase({ migrated: false, prefix: 'cas_rounds' });
    const oldPool = createPool({ connectionString: old.url, max: 2, connectTimeoutMs: 5000, statementTimeoutMs: 10_000 });
    const oldPrisma = createPrismaClient(oldPool);
    try {
      await migrate(old.pool, readMigrations().filter((m) => m.name < ROUNDS_MIGRATION));
      await insertEvents(5, { ageDays: 40, on: old.pool });
      await insertEvents(1, { ageDays: 1, on: old.pool });
      await insertEvents(5, { ageDays: 40, on: old.pool });
      await insertEvents(1200, { on: old.pool });
      await insertEvents(3, { environment: 'production', ageDays: 40, on: old.pool });
      for (let n = 1; n > 0; ) n = (await old.pool.query(PREVIOUS.sequence, [1000])).rows[0]?.sequenced ?? 0;
      // The previous release's prune takes 1–5 and 7–11, leaving 6 (younger): a hole; production is emptied.
      await old.pool.query(PREVIOUS.prune, [retention(), 1000]);
      await insertEvents(2, { on: old.pool }); // committed, not numbered yet
      const before = (await storedNumbers('sandbox', old.pool)).filter(([, n]) => n !== null);
      expect(before.map(([, n]) => n)).toEqual([6, ...oneTo(1200, 12)]);

      const report = await migrate(old.pool, readMigrations());
      expect(report.applied).toContain(ROUNDS_MIGRATION);
      const oldStore = new PrismaEventStore(oldPrisma);
      const read = async (environment: string) => {
        const all: [string, number][] = [];
        for (let after = 0; ; ) {
          const page = await oldStore.list(environment, { after, limit: 500 });
          if (page.length === 0) return all;
          all.push(...page.map((e): [string, number] => [e.eventId, e.sequence]));
          after = page.at(-1)!.sequence;
        }
      };
      expect(await read('sandbox')).toEqual(before);
      const { rows: rounds } = await old.pool.query<{ size: number }>("SELECT (last_sequence - first_sequence + 1)::int AS size FROM event_rounds WHERE environment = 'sandbox'");
      expect(Math.max(...rounds.map((r) => r.size))).toBeLessThanOrEqual(1000);
      expect((await oldStore.find('sandbox', before[700]![0]))?.sequence).toBe(before[700]![1]);

      await sequenceAll(oldStore, old.pool);
      expect((await read('sandbox')).map(([, n]) => n)).toEqual([6, ...oneTo(1202, 12)]);
      // production's numbered events were all pruned: its numbering continues, it does not restart.
      await insertEvents(1, { environment: 'production', on: old.pool });
      await sequenceAll(oldStore, old.pool);
      expect((await read('production')).map(([, n]) => n)).toEqual([4]);
    } finally {
      await oldPrisma.$disconnect();
      await oldPool.end();
      await old.drop();
    }
  });
});
