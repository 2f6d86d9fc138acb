import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PrismaEventStore } from '../../src/db/event.store.js';
import { createPool } from '../../src/db/pool.js';
import { createPrismaClient, type PrismaClient } from '../../src/db/prisma-client.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { sequenceAll } from '../support/events.js';

/**
 * The outbox's storage after migration 20261126000000_events_cheaper_numbering (docs/decisions.md,
 * "Events"): the sequencer numbers each event on its own page, indexes hold numbered events only,
 * retention prunes by sequence, and the previous release's statements (an expand step: it must keep
 * working on this schema during a rolling deploy) still work and still find their indexes.
 */

/** The previous release's outbox statements (commit 55a13ed, src/db/event.store.ts), verbatim. */
const PREVIOUS = {
  list: `SELECT e.id AS "eventId", e.type, e.sequence::text AS sequence, e.payload FROM events e
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
     SELECT count(*)::int AS sequenced FROM numbered_events`,
  prune: `WITH doomed AS (SELECT e.id FROM events e WHERE e.occurred_at < $1::timestamptz AND e.sequence IS NOT NULL ORDER BY e.occurred_at LIMIT $2),
          pruned AS (DELETE FROM events e USING doomed d WHERE e.id = d.id RETURNING e.id)
     SELECT count(*)::int AS pruned FROM pruned`,
  fanOutEvents: `SELECT e.id, e.sequence, e.type FROM events e WHERE e.environment = $1 AND e.sequence > $2::bigint ORDER BY e.sequence LIMIT $3`,
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
  await database.pool.query('TRUNCATE events, event_sequences CASCADE');
});

/** `count` events, each in its own transaction (as writes append them), optionally `ageDays` old. */
async function insertEvents(count: number, options: { environment?: string; ageDays?: number } = {}): Promise<void> {
  for (let i = 0; i < count; i++) {
    await database.pool.query(
      `INSERT INTO events (environment, type, resource_type, resource_id, payload, occurred_at)
       VALUES ($1, 'customer.created', 'customer', gen_random_uuid(), $2::jsonb, CURRENT_TIMESTAMP - make_interval(days => $3::int))`,
      [options.environment ?? 'sandbox', payload(i), options.ageDays ?? 0],
    );
  }
}

const sequencesOf = async (environment: string) =>
  (await database.pool.query<{ sequence: string }>('SELECT sequence::text FROM events WHERE environment = $1 ORDER BY txid, id', [environment])).rows.map((r) =>
    Number(r.sequence),
  );

describe('numbering an event', () => {
  it('writes its numbered version on the same page (no copy of the row elsewhere) and refuses any other change', async () => {
    await insertEvents(120);
    const pageOf = async () =>
      new Map(
        (await database.pool.query<{ id: string; page: string }>("SELECT id, (ctid::text::point)[0]::text AS page FROM events")).rows.map((r) => [r.id, r.page]),
      );
    const before = await pageOf();
    // Until all are numbered: another file's open transaction can hold the horizon back (test/support/events.ts).
    expect(await sequenceAll(store, database.pool)).toBe(120);
    const after = await pageOf();
    expect(after).toEqual(before);
    expect(await sequencesOf('sandbox')).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));

    // The guard moved into the trigger's WHEN condition: every other update is still refused.
    await expect(database.pool.query("UPDATE events SET payload = '{}' WHERE sequence = 1")).rejects.toThrow(/an event never changes/);
    await expect(database.pool.query('UPDATE events SET sequence = 999 WHERE sequence = 2')).rejects.toThrow(/an event never changes/);
    await insertEvents(1);
    await expect(database.pool.query("UPDATE events SET sequence = 500, type = 'customer.deleted' WHERE sequence IS NULL")).rejects.toThrow(/an event never changes/);
    await expect(database.pool.query('UPDATE events SET sequence = NULL WHERE sequence IS NULL')).rejects.toThrow(/an event never changes/);
  });

  it('keeps unnumbered events out of the index by sequence, which reads numbered events only; the index by age is gone', async () => {
    const { rows } = await database.pool.query<{ name: string; definition: string }>(
      "SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS definition FROM pg_index WHERE indrelid = 'events'::regclass",
    );
    const definitions = Object.fromEntries(rows.map((r) => [r.name, r.definition]));
    expect(definitions.events_environment_sequence_key).toMatch(/UNIQUE INDEX .* \(environment, sequence\) WHERE \(sequence IS NOT NULL\)/);
    // Dropped by the contract step (20261127000000_events_drop_age_index): only the releases before the
    // cheaper numbering pruned by age; they still prune correctly on this schema (above), without that index.
    expect(definitions.events_occurred_at_idx).toBeUndefined();
    expect(definitions.events_txid_idx).toMatch(/\(txid\) WHERE \(sequence IS NULL\)/);
    const { rows: options } = await database.pool.query<{ reloptions: string[] }>("SELECT reloptions FROM pg_class WHERE oid = 'events'::regclass");
    expect(options[0]!.reloptions).toContain('fillfactor=50');
  });
});

describe('planner statistics', () => {
  it('are gathered for every column an event is found by, and not for its payload, which nothing filters on', async () => {
    await insertEvents(50);
    await sequenceAll(store, database.pool);
    await database.pool.query('ANALYZE events');
    const { rows } = await database.pool.query<{ attname: string }>("SELECT attname FROM pg_stats WHERE schemaname = 'public' AND tablename = 'events' ORDER BY attname");
    const analysed = rows.map((row) => row.attname);
    expect(analysed).toEqual(expect.arrayContaining(['environment', 'id', 'sequence', 'txid', 'type']));
    expect(analysed).not.toContain('payload');
  });
});

describe('retention', () => {
  it('prunes numbered events older than the retention from the head of each environment, never younger or unnumbered ones', async () => {
    await insertEvents(30, { ageDays: 40 });
    await insertEvents(5, { environment: 'production', ageDays: 40 });
    await insertEvents(10, { ageDays: 1 });
    await sequenceAll(store, database.pool);
    await insertEvents(3, { ageDays: 40 }); // unnumbered (not sequenced yet)
    const before = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);

    expect(await store.prune(before, 20)).toBe(20);
    expect(await store.prune(before, 20)).toBe(15);
    expect(await store.prune(before, 20)).toBe(0);
    const { rows } = await database.pool.query<{ environment: string; sequence: string | null; old: boolean }>(
      "SELECT environment, sequence::text, occurred_at < now() - interval '30 days' AS old FROM events ORDER BY environment, sequence",
    );
    expect(rows.filter((r) => r.sequence !== null).map((r) => [r.environment, Number(r.sequence), r.old])).toEqual(
      Array.from({ length: 10 }, (_, i) => ['sandbox', 31 + i, false]),
    );
    expect(rows.filter((r) => r.sequence === null)).toHaveLength(3);
  });

  it("takes nothing from the numbering's head while that head is younger than the retention", async () => {
    await insertEvents(5, { ageDays: 1 });
    await insertEvents(5, { ageDays: 40 }); // older by occurred_at, numbered after (a transaction that started long before)
    await sequenceAll(store, database.pool);
    expect(await store.prune(new Date(Date.now() - 30 * 24 * 60 * 60 * 1000), 3)).toBe(0);
    expect(await store.prune(new Date(Date.now() - 30 * 24 * 60 * 60 * 1000), 100)).toBe(5);
  });
});

describe("the previous release's statements on this schema (expand step)", () => {
  it('number, read and prune as before, interleaved with this release: gapless, and nothing numbered twice', async () => {
    for (let round = 0; round < 6; round++) {
      await insertEvents(7, { ageDays: round < 2 ? 40 : 0 });
      await insertEvents(2, { environment: 'production' });
      if (round % 2 === 0) await database.pool.query(PREVIOUS.sequence, [1000]);
      else await sequenceAll(store, database.pool);
    }
    expect(await sequencesOf('sandbox')).toEqual(Array.from({ length: 42 }, (_, i) => i + 1));
    expect(await sequencesOf('production')).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const { rows: last } = await database.pool.query('SELECT environment, last::int FROM event_sequences ORDER BY environment');
    expect(last).toEqual([
      { environment: 'production', last: 12 },
      { environment: 'sandbox', last: 42 },
    ]);

    const { rows: page } = await database.pool.query(PREVIOUS.list, ['sandbox', 40, null, 10]);
    expect(page.map((r) => Number(r.sequence))).toEqual([41, 42]);
    expect((await store.list('sandbox', { after: 40, limit: 10 })).map((e) => e.sequence)).toEqual([41, 42]);

    const { rows: pruned } = await database.pool.query(PREVIOUS.prune, [new Date(Date.now() - 30 * 24 * 60 * 60 * 1000), 1000]);
    expect(pruned[0].pruned).toBe(14);
    expect((await store.list('sandbox', { after: 0, limit: 1 }))[0]!.sequence).toBe(15);
  });

  it('still find their indexes (generic plans, as prepared statements run them)', async () => {
    const client = await database.pool.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query('SET enable_seqscan = off'); // the tables are tiny: ask whether an index CAN serve them
      const plan = async (name: string, text: string, values: unknown[]) => {
        await client.query(`PREPARE ${name} AS ${text}`);
        const { rows } = await client.query(`EXPLAIN EXECUTE ${name}(${values.map((v) => (v === null ? 'NULL' : `'${String(v)}'`)).join(', ')})`);
        return rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
      };
      expect(await plan('previous_list', PREVIOUS.list, ['sandbox', 0, null, 10])).toMatch(/Index Scan using events_environment_sequence_key/);
      expect(await plan('previous_fan_out', PREVIOUS.fanOutEvents, ['sandbox', 0, 10])).toMatch(/Index Scan using events_environment_sequence_key/);
      expect(await plan('previous_sequence', PREVIOUS.sequence, [10])).toMatch(/Index Scan using events_txid_idx/);
    } finally {
      await client.query('DEALLOCATE ALL; RESET ALL');
      client.release();
    }
  });
});
