import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_STATEMENTS, PrismaEventStore } from '../../../src/features/events/event.store.js';
import { migrate, readMigrations } from '../../../src/db/migrations/migrations.js';
import { createPool } from '../../../src/db/connection/pool.js';
import { createPrismaClient, type PrismaClient } from '../../../src/db/connection/prisma-client.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { sequenceAll, UNNUMBERED } from '../../support/events.js';
import { HUNG_TEST_DEADLINE_MS } from '../../support/eventually.js';

/**
 * The outbox's numbering since migrations 20261130000000_events_numbered_by_rounds (expand) and
 * 20261201000000_events_numbers_not_stored (contract; docs/adr/0033-events-numbered-by-rounds.md): a
 * sequencer round appends one row per environment, an event is inserted once and never updated, its number
 * is read from its round, retention deletes whole rounds. The previous release's sequencer (which still
 * writes `events.sequence`) takes turns with this one during a rollout; a database the releases before the
 * rounds numbered reads the same numbers after both migrations.
 */

const ROUNDS_MIGRATION = '20261130000000_events_numbered_by_rounds';
/** The last contract step: `events.sequence` and its row trigger dropped. */
const COLUMN_DROPPED_MIGRATION = '20261202000000_events_sequence_column_dropped';

/** The previous release's sequencer (commit 3f59bf8, src/features/events/event.store.ts), verbatim: after its lock, in its transaction. */
const PREVIOUS_SEQUENCE = `WITH RECURSIVE environments(environment) AS (
       (SELECT e.environment FROM events e ORDER BY e.environment LIMIT 1)
       UNION ALL
       SELECT (SELECT e.environment FROM events e WHERE e.environment > v.environment ORDER BY e.environment LIMIT 1)
       FROM environments v WHERE v.environment IS NOT NULL
     ),
     heads AS MATERIALIZED (
       SELECT v.environment, coalesce(h.last_sequence, 0) AS last_sequence,
              coalesce(h.last_txid, -1) AS last_txid, coalesce(h.last_id, '00000000-0000-0000-0000-000000000000'::uuid) AS last_id
       FROM environments v
       LEFT JOIN LATERAL (SELECT r.last_sequence, r.last_txid, r.last_id FROM event_rounds r WHERE r.environment = v.environment
                          ORDER BY r.last_sequence DESC LIMIT 1) h ON true
       WHERE v.environment IS NOT NULL
     ),
     ready AS MATERIALIZED (
       SELECT h.environment, h.last_sequence + row_number() OVER (PARTITION BY h.environment ORDER BY x.txid, x.id) AS sequence, x.txid, x.id
       FROM heads h
       CROSS JOIN LATERAL (
         SELECT e.txid, e.id FROM events e
         WHERE e.environment = h.environment AND (e.txid, e.id) > (h.last_txid, h.last_id)
           AND e.txid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
         ORDER BY e.txid, e.id LIMIT $1
       ) x
     ),
     rounds AS (
       INSERT INTO event_rounds (environment, first_sequence, last_sequence, first_txid, first_id, last_txid, last_id)
       SELECT r.environment, min(r.sequence), max(r.sequence),
              (array_agg(r.txid ORDER BY r.sequence))[1], (array_agg(r.id ORDER BY r.sequence))[1],
              (array_agg(r.txid ORDER BY r.sequence DESC))[1], (array_agg(r.id ORDER BY r.sequence DESC))[1]
       FROM ready r GROUP BY r.environment
       RETURNING environment, last_sequence
     ),
     bumped AS (
       INSERT INTO event_sequences AS s (environment, last) SELECT r.environment, r.last_sequence FROM rounds r
       ON CONFLICT (environment) DO UPDATE SET last = greatest(s.last, EXCLUDED.last)
     ),
     numbered_events AS (
       UPDATE events e SET sequence = r.sequence FROM ready r WHERE e.id = r.id AND e.sequence IS NULL
     )
     SELECT (SELECT count(*) FROM ready)::int AS sequenced,
       (SELECT count(pg_notify('cas_events_numbered', r.environment)) FROM rounds r)::int AS notified`;

/** The outbox statements of the last release before the rounds (commit 79f5644, src/features/events/event.store.ts), verbatim. */
const BEFORE_ROUNDS = {
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
    addresses: [
      { type: 'home', line1: '1234 Elm Street', city: 'Springfield', state: 'IL', postalCode: '62704', country: 'US' },
    ],
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
  pool = createPool({ connectionString: database.url, max: 4, connectTimeoutMs: 60_000, statementTimeoutMs: 60_000 });
  prisma = createPrismaClient(pool);
  store = new PrismaEventStore(prisma);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.end();
  await database?.drop();
});
beforeEach(async () => {
  await database.pool.query('TRUNCATE events, event_sequences, event_rounds, webhook_endpoints CASCADE');
});

/** `count` events, each in its own transaction (as writes append them), optionally `ageDays` old. */
async function insertEvents(
  count: number,
  options: { environment?: string; ageDays?: number; on?: pg.Pool } = {},
): Promise<void> {
  for (let i = 0; i < count; i++) {
    await (options.on ?? database.pool).query(
      `INSERT INTO events (environment, type, resource_type, resource_id, payload, occurred_at)
       VALUES ($1, 'customer.created', 'customer', gen_random_uuid(), $2::jsonb, CURRENT_TIMESTAMP - make_interval(days => $3::int))`,
      [options.environment ?? 'sandbox', payload(i), options.ageDays ?? 0],
    );
  }
}

/** Every event of the environment as this release reads it (through `from`), page by page: [id, number]. */
async function readAll(environment: string, from: PrismaEventStore = store): Promise<[string, number][]> {
  const read: [string, number][] = [];
  for (let after = 0; ;) {
    const page = await from.list(environment, { after, limit: 7 });
    if (page.length === 0) return read;
    for (const event of page) read.push([event.eventId, event.sequence]);
    after = page.at(-1)!.sequence;
  }
}

/** The numbers the releases before the rounds read (events.sequence, until 20261202000000), in numbering order. */
const storedNumbers = async (environment: string, on: pg.Pool = database.pool) =>
  (
    await on.query<{ id: string; sequence: string | null }>(
      'SELECT id, sequence::text FROM events WHERE environment = $1 ORDER BY txid, id',
      [environment],
    )
  ).rows.map((r): [string, number | null] => [r.id, r.sequence === null ? null : Number(r.sequence)]);

const oneTo = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from);

describe('numbering by rounds', () => {
  it('numbers each environment gapless in commit order, one round row per environment and round; reads and finds agree', async () => {
    await insertEvents(25);
    await insertEvents(4, { environment: 'production' });
    const versions = async () =>
      (
        await database.pool.query<{ v: string }>('SELECT ctid::text || xmin::text AS v FROM events ORDER BY id')
      ).rows.map((r) => r.v);
    const inserted = await versions();
    expect(await sequenceAll(store, database.pool)).toBe(29);
    // Numbering wrote no new version of any event (same place, same writing transaction).
    expect(await versions()).toEqual(inserted);
    await insertEvents(10);
    expect(await sequenceAll(store, database.pool)).toBe(10);

    const sandbox = await readAll('sandbox');
    expect(sandbox.map(([, n]) => n)).toEqual(oneTo(35));
    expect((await readAll('production')).map(([, n]) => n)).toEqual(oneTo(4));
    expect(
      (
        await database.pool.query(
          "SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'events' AND column_name = 'sequence'",
        )
      ).rows[0].n,
    ).toBe(0);

    const { rows: rounds } = await database.pool.query<{ environment: string; first: number; last: number }>(
      'SELECT environment, first_sequence::int AS first, last_sequence::int AS last FROM event_rounds ORDER BY environment, last_sequence',
    );
    // Normally one round per environment per call; another file's open transaction may hold some events for a later one.
    expect(
      rounds.filter((r) => r.environment === 'sandbox').flatMap((r) => oneTo(r.last - r.first + 1, r.first)),
    ).toEqual(oneTo(35));
    expect(rounds.length).toBeLessThanOrEqual(10);

    for (const [id, n] of [sandbox[0]!, sandbox[17]!, sandbox[34]!])
      expect((await store.find('sandbox', id))?.sequence).toBe(n);
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

  it('tells whether it numbered events of an environment with a webhook endpoint: only then is the fan-out woken', async () => {
    /** Numbers every event inserted so far (over several calls if another file's transaction holds some back). */
    const numberAll = async () => {
      const seen = { numbered: 0, forWebhooks: false };
      while ((await database.pool.query(UNNUMBERED)).rows[0].n > 0) {
        const round = await store.sequence(1000);
        seen.numbered += round.numbered;
        seen.forWebhooks ||= round.forWebhooks;
        if (round.numbered === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return seen;
    };
    await insertEvents(3);
    expect(await numberAll()).toEqual({ numbered: 3, forWebhooks: false });
    await database.pool.query(
      `INSERT INTO webhook_endpoints (id, environment, url, secret_key_id, secret_ciphertext)
       VALUES (gen_random_uuid(), 'production', 'https://hooks.example.com/numbering', 'test-key', '\\x00'::bytea)`,
    );
    await insertEvents(2);
    expect(await numberAll()).toEqual({ numbered: 2, forWebhooks: false });
    await insertEvents(1, { environment: 'production' });
    await insertEvents(1);
    expect(await numberAll()).toEqual({ numbered: 2, forWebhooks: true });
    expect(await store.sequence(1000)).toEqual({ numbered: 0, forWebhooks: false });
  });

  it('refuses any change to an event', async () => {
    await insertEvents(2);
    await sequenceAll(store, database.pool);
    await expect(database.pool.query("UPDATE events SET payload = '{}'")).rejects.toThrow(/an event never changes/);
    await expect(database.pool.query("UPDATE events SET type = 'customer.deleted' WHERE false")).rejects.toThrow(
      /an event never changes/,
    );
    // Retention deletes; nothing else may.
    expect((await database.pool.query('DELETE FROM events')).rowCount).toBe(2);
  });

  it('keeps no index only the releases before the rounds read, and fills its pages (events are never updated)', async () => {
    const { rows } = await database.pool.query<{ name: string }>(
      "SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = 'events'::regclass ORDER BY 1",
    );
    // (environment, resource_id, txid DESC, id DESC): a record's recent events (20261205010000_event_resource_index).
    expect(rows.map((r) => r.name)).toEqual([
      'events_environment_resource_id_txid_id_idx',
      'events_environment_txid_id_idx',
      'events_pkey',
    ]);
    const { rows: options } = await database.pool.query<{ reloptions: string[] }>(
      "SELECT reloptions FROM pg_class WHERE oid = 'events'::regclass",
    );
    expect(options[0]!.reloptions).toContain('fillfactor=100');
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
      await client.query('SET enable_seqscan = off'); // 200 events fit in a few pages: ask whether the indexes CAN serve it
      const page = await store.list('sandbox', { after: 150, limit: 5 });
      expect(page.map((e) => e.sequence)).toEqual(oneTo(5, 151));
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${EVENT_STATEMENTS.list.text}`,
        ['sandbox', 150, null, 5],
      );
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      // The rounds are read in order from the one holding number 151, and the walk stops with the page.
      expect(plan).toMatch(/Index Scan using event_rounds_pkey on event_rounds r \(actual rows=[1-3](\.00)? loops=1\)/);
      expect(plan).toMatch(/(Index Scan using|Bitmap Index Scan on) events_environment_txid_id_idx/);
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
    for (
      let outcome = await store.prune(retention(), 1);
      outcome.rounds > 0;
      outcome = await store.prune(retention(), 1)
    )
      rounds += outcome.rounds;
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

/**
 * A database of its own migrated up to (not including) `before`, and this release's event store on it, for
 * `use`; dropped afterwards. The schema a rollout step ran on.
 */
const READ_BY_THIS_RELEASE = ['20261203000100_events_changed_fields'];

async function withDatabaseBefore(
  before: string,
  prefix: string,
  use: (db: TestDatabase, events: PrismaEventStore) => Promise<void>,
): Promise<void> {
  const db = await createTestDatabase({ migrated: false, prefix });
  const dbPool = createPool({ connectionString: db.url, max: 2, connectTimeoutMs: 60_000, statementTimeoutMs: 60_000 });
  const dbPrisma = createPrismaClient(dbPool);
  try {
    // This release's event store also reads what later expand-only migrations added (events.changed_fields),
    // as a deploy applies them before this release runs; nothing of the numbering depends on them.
    await migrate(
      db.pool,
      readMigrations().filter((m) => m.name < before || READ_BY_THIS_RELEASE.includes(m.name)),
    );
    await use(db, new PrismaEventStore(dbPrisma));
  } finally {
    await dbPrisma.$disconnect();
    await dbPool.end();
    await db.drop();
  }
}

describe("the previous releases' statements on this schema", () => {
  it("the expand release's sequencer takes turns with the first contract release: one numbering, gapless, nothing numbered twice; dropping the column then changes no number", async () => {
    // That rollout's schema: every migration before the column was dropped.
    await withDatabaseBefore(COLUMN_DROPPED_MIGRATION, 'cas_turns', async (step, stepStore) => {
      const previousSequencer = async () => {
        const client = await step.pool.connect();
        try {
          await client.query('BEGIN');
          const { rows } = await client.query(
            "SELECT pg_try_advisory_xact_lock(hashtext('cas_event_sequencer')) AS held",
          );
          if (rows[0].held) await client.query(PREVIOUS_SEQUENCE, [1000]);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      };
      for (let round = 0; round < 6; round++) {
        await insertEvents(7, { on: step.pool });
        await insertEvents(2, { environment: 'production', on: step.pool });
        if (round % 2 === 0) await previousSequencer();
        else await sequenceAll(stepStore, step.pool);
      }
      await sequenceAll(stepStore, step.pool);
      const sandbox = await readAll('sandbox', stepStore);
      expect(sandbox.map(([, n]) => n)).toEqual(oneTo(42));
      expect((await readAll('production', stepStore)).map(([, n]) => n)).toEqual(oneTo(12));
      // What the expand release wrote into the old column, for the release before it, agrees.
      const stored = new Map(await storedNumbers('sandbox', step.pool));
      const written = sandbox.filter(([id]) => stored.get(id) !== null);
      expect(written.length).toBeGreaterThan(0);
      for (const [id, n] of written) expect(stored.get(id)).toBe(n);
      const { rows: last } = await step.pool.query(
        'SELECT environment, last::int FROM event_sequences ORDER BY environment',
      );
      expect(last).toEqual([
        { environment: 'production', last: 12 },
        { environment: 'sandbox', last: 42 },
      ]);

      // The last contract step on that database: the column goes, every number stays.
      const report = await migrate(step.pool, readMigrations());
      expect(report.applied).toContain(COLUMN_DROPPED_MIGRATION);
      expect(await readAll('sandbox', stepStore)).toEqual(sandbox);
      await insertEvents(3, { on: step.pool });
      await sequenceAll(stepStore, step.pool);
      expect((await readAll('sandbox', stepStore)).map(([, n]) => n)).toEqual(oneTo(45));
    });
  });

  it('number from where the migration left them: a database the previous release numbered (and pruned, leaving holes) reads the same numbers after it', async () => {
    await withDatabaseBefore(ROUNDS_MIGRATION, 'cas_rounds', async (old, oldStore) => {
      await insertEvents(5, { ageDays: 40, on: old.pool });
      await insertEvents(1, { ageDays: 1, on: old.pool });
      await insertEvents(5, { ageDays: 40, on: old.pool });
      await insertEvents(1200, { on: old.pool });
      await insertEvents(3, { environment: 'production', ageDays: 40, on: old.pool });
      // Until every event is numbered: a transaction another test file holds open keeps newer events back for a while.
      for (
        const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
        (await old.pool.query('SELECT 1 FROM events WHERE sequence IS NULL LIMIT 1')).rowCount! > 0;
      ) {
        if (Date.now() > deadline)
          throw new Error(`the previous release left events unnumbered for ${HUNG_TEST_DEADLINE_MS / 1000} s`);
        if (((await old.pool.query(BEFORE_ROUNDS.sequence, [1000])).rows[0]?.sequenced ?? 0) === 0)
          await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The previous release's prune takes 1–5 and 7–11, leaving 6 (younger): a hole; production is emptied.
      await old.pool.query(BEFORE_ROUNDS.prune, [retention(), 1000]);
      await insertEvents(2, { on: old.pool }); // committed, not numbered yet
      const before = (await storedNumbers('sandbox', old.pool)).filter(([, n]) => n !== null);
      expect(before.map(([, n]) => n)).toEqual([6, ...oneTo(1200, 12)]);

      const report = await migrate(old.pool, readMigrations());
      expect(report.applied).toContain(ROUNDS_MIGRATION);
      const read = async (environment: string) => {
        const all: [string, number][] = [];
        for (let after = 0; ;) {
          const page = await oldStore.list(environment, { after, limit: 500 });
          if (page.length === 0) return all;
          all.push(...page.map((e): [string, number] => [e.eventId, e.sequence]));
          after = page.at(-1)!.sequence;
        }
      };
      expect(await read('sandbox')).toEqual(before);
      const { rows: rounds } = await old.pool.query<{ size: number }>(
        "SELECT (last_sequence - first_sequence + 1)::int AS size FROM event_rounds WHERE environment = 'sandbox'",
      );
      expect(Math.max(...rounds.map((r) => r.size))).toBeLessThanOrEqual(1000);
      expect((await oldStore.find('sandbox', before[700]![0]))?.sequence).toBe(before[700]![1]);

      await sequenceAll(oldStore, old.pool);
      expect((await read('sandbox')).map(([, n]) => n)).toEqual([6, ...oneTo(1202, 12)]);
      // production's numbered events were all pruned: its numbering continues, it does not restart.
      await insertEvents(1, { environment: 'production', on: old.pool });
      await sequenceAll(oldStore, old.pool);
      expect((await read('production')).map(([, n]) => n)).toEqual([4]);
    });
  });
});
