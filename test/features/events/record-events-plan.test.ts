import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../../src/db/connection/pool.js';
import { createPrismaClient, type PrismaClient } from '../../../src/db/connection/prisma-client.js';
import { EVENT_STATEMENTS, PrismaEventStore } from '../../../src/features/events/event.store.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { sequenceAll } from '../../support/events.js';
import { eventually } from '../../support/eventually.js';

/**
 * A record's recent events are an index range (migration 20261205010000_event_resource_index,
 * docs/adr/0073-a-records-recent-events.md): on 24,000 numbered events of 1,200 records in two environments,
 * with fresh statistics, the statement's generic plan (as a prepared statement may run it, for any record)
 * reads the (environment, resource_id, txid DESC, id DESC) index from its newest end: no sort, no walk of the
 * environment's outbox. It does so whether or not VACUUM has marked the outbox's pages all-visible (which makes
 * other reads cheaper and once tipped the plan to a sort, when `resource_type` had no statistics: migration
 * 20261206000000_event_resource_type_statistics). And it answers what the feed answers for that record, newest first.
 */
let database: TestDatabase;
let pool: pg.Pool;
let prisma: PrismaClient;
let store: PrismaEventStore;
const RECORDS = 600;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.url, max: 4, connectTimeoutMs: 60_000, statementTimeoutMs: 60_000 });
  prisma = createPrismaClient(pool);
  store = new PrismaEventStore(prisma);
  // Each visibility state below is set by this file alone, never by autovacuum in between.
  await database.pool.query(
    'ALTER TABLE events SET (autovacuum_enabled = false); ALTER TABLE event_rounds SET (autovacuum_enabled = false)',
  );
  // 20 writes (transactions) per environment, each appending one event for each of its records.
  for (let write = 0; write < 20; write++) {
    await database.pool.query(
      `INSERT INTO events (environment, type, resource_type, resource_id, payload, changed_fields)
       SELECT env, CASE WHEN $1::int = 0 THEN 'customer.created' ELSE 'customer.updated' END, 'customer',
              ('00000000-0000-7000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
              jsonb_build_object('id', ('00000000-0000-7000-8000-' || lpad(to_hex(n), 12, '0')), 'dateOfBirth', '1980-01-01', 'firstName', 'F', 'middleName', '',
                                 'lastName', 'L' || $1::int, 'preferredName', 'P', 'emails', '[]'::jsonb, 'phoneNumbers', '[]'::jsonb, 'addresses', '[]'::jsonb,
                                 'accountIds', '', 'version', $1::int + 1),
              ARRAY['lastName']
       FROM generate_series(1, $2::int) n CROSS JOIN (VALUES ('sandbox'), ('production')) v(env)`,
      [write, RECORDS],
    );
  }
  await sequenceAll(store, database.pool, 30_000);
  await database.pool.query('ANALYZE events; ANALYZE event_rounds');
});
afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.end();
  await database?.drop();
});

const recordId = (n: number) => `00000000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;

describe("a record's recent events", () => {
  for (const state of ['analysed, pages not yet all-visible', 'vacuumed, pages all-visible'] as const) {
    describe(state, () => {
      beforeAll(async () => {
        const allVisiblePages = async () =>
          (
            await database.pool.query<{ visible: number }>(
              `SELECT relallvisible AS visible FROM pg_class WHERE relname = 'events'`,
            )
          ).rows[0]!.visible;
        if (state.startsWith('vacuumed')) {
          // VACUUM marks a page all-visible only once the commits of its rows are flushed to the WAL (before that it
          // may not set their hint bits) and older than every snapshot still open in this database. The test servers
          // run synchronous_commit=off, so the last commits' WAL can wait for the WAL writer, longer on a loaded
          // machine (CI once saw no page marked). One synchronous commit that writes WAL flushes everything before it;
          // VACUUM is then repeated until it has marked the pages, which is the state this block is about.
          await database.pool.query(
            'BEGIN; SET LOCAL synchronous_commit = on; ANALYZE events; ANALYZE event_rounds; COMMIT',
          );
          const visible = await eventually(
            async () => {
              for (const table of ['events', 'event_rounds']) await database.pool.query(`VACUUM (ANALYZE) ${table}`);
              return allVisiblePages();
            },
            (pages) => pages > 0,
          );
          expect(visible).toBeGreaterThan(0);
        } else expect(await allVisiblePages()).toBe(0);
      });

      it("the generic plan reads the record's index range from its newest end, without a sort or a scan of the outbox", async () => {
        const client = await pool.connect();
        try {
          await client.query('SET plan_cache_mode = force_generic_plan');
          // PREPARE and EXPLAIN EXECUTE (PostgreSQL 12+; EXPLAIN (GENERIC_PLAN) needs 16): the plan for any value.
          await client.query(`PREPARE recent_probe AS ${EVENT_STATEMENTS.recent.text}`);
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN EXECUTE recent_probe('sandbox', 'customer', '${recordId(42)}', 10)`,
          );
          await client.query('DEALLOCATE recent_probe');
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          expect(plan).toMatch(/Index Scan using events_environment_resource_id_txid_id_idx on events e\s*\(/);
          expect(plan).toContain('Index Cond: (((environment)::text = $1) AND (resource_id = $3))');
          // Read in the index's order and cut by the limit: no sort of the record's events, no other read of the outbox's rows.
          expect(plan).not.toMatch(/Sort Key: e\./);
          expect(plan).not.toMatch(/Seq Scan on events/);
          // Each event's number: its round by that table's index (small tables here may be scanned), its rank by the outbox's walk index,
          // read from the index alone once the pages are all-visible.
          expect(plan).toMatch(
            /Index (?:Only )?Scan using events_environment_txid_id_idx|Bitmap Index Scan on events_environment_txid_id_idx/,
          );
        } finally {
          await client.query('RESET plan_cache_mode');
          client.release();
        }
      });

      it("several records' events in one statement: per id, the same index range from its newest end", async () => {
        const client = await pool.connect();
        try {
          await client.query('SET plan_cache_mode = force_generic_plan');
          await client.query(`PREPARE recent_many_probe AS ${EVENT_STATEMENTS.recentOfMany.text}`);
          const ids = [recordId(3), recordId(42), recordId(500)];
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN EXECUTE recent_many_probe('sandbox', 'customer', '{${ids.join(',')}}', 5)`,
          );
          await client.query('DEALLOCATE recent_many_probe');
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          // A loop over the ids, each a range of the record's index cut by the limit: no sort, no other read of the outbox's rows.
          expect(plan).toMatch(/Function Scan on unnest k/);
          expect(plan).toMatch(/Index Scan using events_environment_resource_id_txid_id_idx on events e\s*\(/);
          expect(plan).toContain('Index Cond: (((environment)::text = $1) AND (resource_id = k.resource_id))');
          expect(plan).not.toMatch(/Sort Key: e\./);
          expect(plan).not.toMatch(/Seq Scan on events/);
          expect(plan).not.toMatch(/Hash Join/);
        } finally {
          await client.query('RESET plan_cache_mode');
          client.release();
        }
      });
    });
  }

  it("several records' events answer what `recent` answers for each, and none for an id without events", async () => {
    const ids = [recordId(9), recordId(11), recordId(9), '0196f1e2-0000-7000-8000-000000000000'];
    const many = await store.recentOfMany('production', { resourceType: 'customer', resourceIds: ids, limit: 4 });
    expect([...many.keys()]).toEqual([recordId(9), recordId(11), '0196f1e2-0000-7000-8000-000000000000']);
    for (const id of [recordId(9), recordId(11)]) {
      const one = await store.recent('production', { resourceType: 'customer', resourceId: id, limit: 4 });
      expect(one).toHaveLength(4);
      expect(many.get(id)).toEqual(one);
    }
    expect(many.get('0196f1e2-0000-7000-8000-000000000000')).toEqual([]);
    expect(
      await store.recentOfMany('production', { resourceType: 'account', resourceIds: [recordId(9)], limit: 4 }),
    ).toEqual(new Map([[recordId(9), []]]));
  });

  it("answers the record's events newest first, with the numbers the feed gives them, only that environment's", async () => {
    const feed: [string, number][] = [];
    for (let after = 0; ;) {
      const page = await store.list('production', { after, limit: 100, types: undefined });
      if (page.length === 0) break;
      for (const event of page) if (event.resourceId === recordId(7)) feed.push([event.eventId, event.sequence]);
      after = page.at(-1)!.sequence;
      if (after > 2000) break; // record 7's events are spread over every write; read enough of the feed to compare a few
    }
    const recent = await store.recent('production', { resourceType: 'customer', resourceId: recordId(7), limit: 20 });
    expect(recent).toHaveLength(20);
    const sequences = recent.map((event) => event.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => b - a));
    const fromFeed = new Map(feed);
    for (const event of recent.filter((one) => fromFeed.has(one.eventId)))
      expect(event.sequence).toBe(fromFeed.get(event.eventId));
    expect(recent.filter((one) => fromFeed.has(one.eventId)).length).toBeGreaterThan(0);
    expect(recent.at(-1)!.type).toBe('customer.created');
    expect(recent[0]!.data).toMatchObject({ kind: 'customer', customer: { lastName: 'L19' } });
    expect(await store.recent('production', { resourceType: 'customer', resourceId: recordId(7), limit: 3 })).toEqual(
      recent.slice(0, 3),
    );
    expect(await store.recent('production', { resourceType: 'account', resourceId: recordId(7), limit: 3 })).toEqual(
      [],
    );
  });
});
