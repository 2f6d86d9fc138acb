import type { DomainEvent, EventData, EventType } from './event.js';
import type { AccountRole } from '../accounts/index.js';
import type { BusinessProfile } from '../customers/index.js';
import type {
  EventQuery,
  EventStore,
  PruneOutcome,
  RecordEventsQuery,
  RecordsEventsQuery,
  SequencerRound,
} from './ports.js';
import {
  type AccountRow,
  type CustomerRow,
  toAccount,
  toCustomer,
  toTransaction,
  type TransactionRow,
} from '../../db/sql/columns.js';
import { WAKE_CHANNELS } from '../../db/connection/notifications.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { ENVIRONMENTS_WITH_EVENTS, HEADS, numberedEventsAfter, numberOf, roundOf } from './event-round-fragments.js';
import { queryRows, statement } from '../../db/sql/sql.js';

/** An event's columns but its number, which every statement computes (src/features/events/event-round-fragments.ts). */
export const EVENT_FIELDS = `e.id AS "eventId", e.type, to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt",
  e.resource_type AS "resourceType", e.resource_id AS "resourceId", e.payload, e.changed_fields AS "changedFields"`;

/**
 * One record's numbered events (environment `$1`, resource type `$2`, resource id `resourceId`), newest first,
 * at most `$4`: the statement of `recent`, and of `recentOfMany` for each of its ids.
 */
const recordEvents = (resourceId: string) =>
  `SELECT ${EVENT_FIELDS}, (${numberOf('e', 'r')})::text AS sequence
     FROM events e CROSS JOIN LATERAL ${roundOf('e')} r
     WHERE e.environment = $1 AND e.resource_id = ${resourceId} AND e.resource_type = $2 AND (r.first_txid, r.first_id) <= (e.txid, e.id)
     ORDER BY e.txid DESC, e.id DESC LIMIT $4`;

/** The sequencer's lock: one sequencer at a time across the fleet (the previous releases take the same one). */
const SEQUENCER_LOCK = `pg_try_advisory_xact_lock(hashtext('cas_event_sequencer'))`;

/**
 * The events a round may take after `head` (an alias with environment, last_txid, last_id): those of
 * transactions older than every transaction still running, which no event can come before any more.
 */
const afterHead = (head: string) =>
  `e.environment = ${head}.environment AND (e.txid, e.id) > (${head}.last_txid, ${head}.last_id) AND e.txid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

const SQL = {
  list: statement(
    'event_list',
    `SELECT l."eventId", l.type, l.sequence::text AS sequence, l."occurredAt", l."resourceType", l."resourceId", l.payload, l."changedFields" FROM (
       ${numberedEventsAfter({ environment: '$1', after: '$2::bigint', columns: EVENT_FIELDS, where: '($3::text[] IS NULL OR n.type = ANY($3::text[]))', limit: '$4' })}
     ) l`,
  ),
  /**
   * A record's numbered events, newest first: a range of the (environment, resource_id, txid DESC, id DESC) index
   * read from its newest end (migration 20261205010000_event_resource_index), each event's number from its round
   * as `find` computes it. Sequence order is (txid, id) order within an environment (rounds follow each other in
   * it), so this is newest-by-sequence; events not numbered yet (the newest, if any) have no round and are skipped.
   */
  recent: statement('event_recent', recordEvents('$3::uuid')),
  /**
   * Several records' numbered events, newest first, at most `$4` each (GraphQL's `recentEvents` under a list):
   * `recent` for each id of `$3`, in one statement, each a range of the same index read from its newest end.
   */
  recentOfMany: statement(
    'event_recent_of_many',
    `SELECT l.* FROM unnest($3::uuid[]) AS k(resource_id) CROSS JOIN LATERAL (${recordEvents('k.resource_id')}) l`,
  ),
  find: statement(
    'event_find',
    `SELECT ${EVENT_FIELDS}, (${numberOf('e', 'r')})::text AS sequence
     FROM events e CROSS JOIN LATERAL ${roundOf('e')} r
     WHERE e.environment = $1 AND e.id = $2::uuid AND (r.first_txid, r.first_id) <= (e.txid, e.id)`,
  ),
  /**
   * Numbers committed events, per environment, gapless, in (txid, id) order, and only those of
   * transactions older than every transaction still running (txid below the snapshot's xmin): any event
   * that could still commit has a larger txid, so no number is ever followed by a smaller one. It appends
   * one round per environment (src/features/events/event-round-fragments.ts); events are not updated. One sequencer at a time
   * across the fleet (a transaction-scoped advisory lock; the others skip). The statement's snapshot is taken
   * before it takes the lock, so it may miss a round the previous holder committed in between: its round
   * would then start at the same number as that one, which the unique index on (environment,
   * first_sequence) turns into nothing (ON CONFLICT DO NOTHING); the next tick numbers them afresh.
   *
   * Nothing here writes `events.sequence` (read by no release since the rounds came). The previous release
   * (20261130000000_events_numbered_by_rounds) still writes it for the one before; during a rollout its
   * sequencer and this one take turns under the same lock, appending rounds alike. Both keep
   * `event_sequences` as the last number given.
   *
   * It NOTIFYs, like the webhook fan-out (and two rare management requests), but no write of a customer,
   * account or posting does: PostgreSQL serialises the commits of notifying transactions (a cluster-wide
   * lock held through commit), which one-at-a-time jobs do not feel and every write of the fleet would.
   */
  sequence: statement(
    'event_sequence',
    `WITH RECURSIVE sequencer AS MATERIALIZED (SELECT ${SEQUENCER_LOCK} AS held),
     ${ENVIRONMENTS_WITH_EVENTS},
     ${HEADS},
     -- What each environment's round would take: how many events follow its head, at most $1, all of
     -- transactions older than every one still running. Counted on the index, not numbered one by one.
     batches AS MATERIALIZED (
       SELECT h.environment, h.last_sequence, h.last_txid, h.last_id, b.n
       FROM heads h
       CROSS JOIN LATERAL (
         SELECT count(*) AS n FROM (
           SELECT 1 FROM events e
           WHERE ${afterHead('h')}
           ORDER BY e.txid, e.id LIMIT $1
         ) w
       ) b
       WHERE (SELECT held FROM sequencer) AND b.n > 0
     ),
     rounds AS (
       INSERT INTO event_rounds (environment, first_sequence, last_sequence, first_txid, first_id, last_txid, last_id)
       SELECT b.environment, b.last_sequence + 1, b.last_sequence + b.n, f.txid, f.id, l.txid, l.id
       FROM batches b
       CROSS JOIN LATERAL (
         SELECT e.txid, e.id FROM events e
         WHERE ${afterHead('b')}
         ORDER BY e.txid, e.id LIMIT 1
       ) f
       -- The round's last event: the newest one it may take when that is all of them (one probe from the
       -- index's other end), else the $1-th (a full batch: a backlog being caught up).
       CROSS JOIN LATERAL (
         (SELECT e.txid, e.id FROM events e
          WHERE b.n < $1 AND ${afterHead('b')}
          ORDER BY e.txid DESC, e.id DESC LIMIT 1)
         UNION ALL
         (SELECT e.txid, e.id FROM events e
          WHERE b.n = $1 AND ${afterHead('b')}
          ORDER BY e.txid, e.id OFFSET $1 - 1 LIMIT 1)
       ) l
       ON CONFLICT (environment, first_sequence) WHERE first_sequence <= last_sequence DO NOTHING
       RETURNING environment, first_sequence, last_sequence
     ),
     bumped AS (
       INSERT INTO event_sequences AS s (environment, last) SELECT r.environment, r.last_sequence FROM rounds r
       ON CONFLICT (environment) DO UPDATE SET last = greatest(s.last, EXCLUDED.last)
     )
     SELECT (SELECT coalesce(sum(r.last_sequence - r.first_sequence + 1), 0) FROM rounds r)::int AS sequenced,
       -- Whether the fan-out has work: woken for environments without endpoints, it ran its two
       -- statements each round for nothing (docs/performance.md, issue 16, "Side by side").
       EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.environment IN (SELECT r.environment FROM rounds r)) AS "forWebhooks",
       -- Wakes every instance's event feed (src/db/connection/notifications.ts), one notification per environment
       -- numbered; PostgreSQL delivers it at this statement's commit, once the numbers are visible.
       (SELECT count(pg_notify('${WAKE_CHANNELS.eventsNumbered}', r.environment)) FROM rounds r)::int AS notified`,
  ),
  lastSequence: statement(
    'event_last_sequence',
    `SELECT r.last_sequence::text AS last FROM event_rounds r WHERE r.environment = $1 ORDER BY r.last_sequence DESC LIMIT 1`,
  ),
  /**
   * Retention: per environment, its oldest rounds (at most `$2` a call, by the primary key) up to the first
   * one holding an event younger than `$1`: their events are deleted. Numbers are counted within a round,
   * so deleting a round changes no other event's number. The newest round of an environment keeps its row,
   * emptied (first_sequence past last_sequence): the next round continues from its number.
   */
  prune: statement(
    'event_prune',
    `WITH candidates AS MATERIALIZED (
       SELECT c.environment, c.last_sequence, c.first_txid, c.first_id, c.last_txid, c.last_id,
              c.last_sequence = s.head AS newest,
              EXISTS (SELECT 1 FROM events e WHERE e.environment = c.environment
                        AND (e.txid, e.id) >= (c.first_txid, c.first_id) AND (e.txid, e.id) <= (c.last_txid, c.last_id)
                        AND e.occurred_at >= $1::timestamptz) AS young
       FROM (
         -- Each environment's newest round: one probe of the primary key per environment (every environment
         -- with rounds has its counter row).
         SELECT q.environment, (SELECT max(r.last_sequence) FROM event_rounds r WHERE r.environment = q.environment) AS head FROM event_sequences q
       ) s
       CROSS JOIN LATERAL (
         SELECT r.* FROM event_rounds r WHERE r.environment = s.environment AND r.last_sequence >= r.first_sequence
         ORDER BY r.last_sequence LIMIT $2
       ) c
     ),
     doomed AS MATERIALIZED (
       SELECT c.* FROM candidates c
       WHERE NOT c.young AND NOT EXISTS (SELECT 1 FROM candidates y WHERE y.environment = c.environment AND y.young AND y.last_sequence < c.last_sequence)
     ),
     pruned AS (
       DELETE FROM events e USING doomed d
       WHERE e.environment = d.environment AND (e.txid, e.id) >= (d.first_txid, d.first_id) AND (e.txid, e.id) <= (d.last_txid, d.last_id)
       RETURNING e.id
     ),
     emptied AS (
       UPDATE event_rounds r SET first_sequence = r.last_sequence + 1 FROM doomed d
       WHERE d.newest AND r.environment = d.environment AND r.last_sequence = d.last_sequence
     ),
     dropped AS (
       DELETE FROM event_rounds r USING doomed d
       WHERE NOT d.newest AND r.environment = d.environment AND r.last_sequence = d.last_sequence
     )
     SELECT (SELECT count(*) FROM doomed)::int AS rounds, (SELECT count(*) FROM pruned)::int AS events`,
  ),
};

/** For the tests that read their plans. */
export const EVENT_STATEMENTS = SQL;

export interface EventRow {
  eventId: string;
  type: EventType;
  sequence: string;
  occurredAt: string;
  resourceType: DomainEvent['resourceType'];
  resourceId: string;
  payload: Record<string, unknown>;
  changedFields: string[];
}

/** The payload is the row the reads select (src/db/sql/columns.ts), so the reads' mappers make it a domain value. */
function dataOf(row: EventRow): EventData {
  if (row.type.endsWith('.deleted')) return { kind: 'deleted', id: row.resourceId };
  if (row.type === 'account.customer_added' || row.type === 'account.customer_removed') {
    return { kind: 'holder', accountId: String(row.payload.accountId), customerId: String(row.payload.customerId) };
  }
  if (row.type === 'account.relationship_changed') {
    return {
      kind: 'holder',
      accountId: String(row.payload.accountId),
      customerId: String(row.payload.customerId),
      role: row.payload.role as AccountRole,
    };
  }
  if (row.type === 'customer.beneficial_owner_added' || row.type === 'customer.beneficial_owner_removed') {
    const payload = row.payload as Record<string, unknown>;
    return {
      kind: 'beneficial-owner',
      customerId: row.resourceId,
      ownerCustomerId: String(payload.ownerCustomerId),
      prongs: (payload.prongs as string[] | undefined) ?? [],
      ownershipPercentage: (payload.ownershipPercentage as string | null | undefined) ?? null,
      title: (payload.title as string | null | undefined) ?? null,
    };
  }
  if (row.resourceType === 'product') {
    return {
      kind: 'product',
      productId: row.resourceId,
      code: String(row.payload.code),
      effectiveFrom: typeof row.payload.effectiveFrom === 'string' ? row.payload.effectiveFrom : null,
    };
  }
  if (row.type === 'customer.verification_updated') {
    return {
      kind: 'verification',
      customerId: row.resourceId,
      status: String(row.payload.status),
      previousStatus: String(row.payload.previousStatus),
    };
  }
  // A business's events carry its profile (never its tax id); those written before they did, its id only.
  if (row.resourceType === 'customer' && row.payload.customerType === 'BUSINESS') {
    if (row.payload.business === undefined) return { kind: 'deleted', id: row.resourceId };
    const customer = toCustomer(row.payload as unknown as CustomerRow);
    return {
      kind: 'customer',
      customer: { ...customer, business: row.payload.business as unknown as BusinessProfile },
    };
  }
  if (row.resourceType === 'customer')
    return { kind: 'customer', customer: toCustomer(row.payload as unknown as CustomerRow) };
  if (row.resourceType === 'account')
    return { kind: 'account', account: toAccount(row.payload as unknown as AccountRow) };
  return { kind: 'transaction', transaction: toTransaction(row.payload as unknown as TransactionRow) };
}

export const toEvent = (row: EventRow): DomainEvent => ({
  eventId: row.eventId,
  type: row.type,
  sequence: Number(row.sequence),
  occurredAt: row.occurredAt,
  resourceType: row.resourceType,
  resourceId: row.resourceId,
  data: dataOf(row),
  changedFields: row.changedFields,
});

/** The outbox on PostgreSQL, through Prisma Client. The writes append to it themselves (src/db/sql/write-effects.ts). */
export class PrismaEventStore implements EventStore {
  constructor(private readonly prisma: PrismaClient) {}

  async list(environment: string, query: EventQuery): Promise<DomainEvent[]> {
    const types = query.types && query.types.length > 0 ? [...query.types] : null;
    const rows = await queryRows<EventRow>(this.prisma, SQL.list, [environment, query.after, types, query.limit]);
    return rows.map(toEvent);
  }

  async recent(environment: string, query: RecordEventsQuery): Promise<DomainEvent[]> {
    const rows = await queryRows<EventRow>(this.prisma, SQL.recent, [
      environment,
      query.resourceType,
      query.resourceId,
      query.limit,
    ]);
    return rows.map(toEvent);
  }

  async recentOfMany(environment: string, query: RecordsEventsQuery): Promise<Map<string, DomainEvent[]>> {
    const ids = [...new Set(query.resourceIds)];
    const byRecord = new Map<string, DomainEvent[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return byRecord;
    const rows = await queryRows<EventRow>(this.prisma, SQL.recentOfMany, [
      environment,
      query.resourceType,
      ids,
      query.limit,
    ]);
    for (const row of rows) byRecord.get(row.resourceId)?.push(toEvent(row));
    // Each record's rows come in its index range's order; the statement has no outer ORDER BY, so say it here.
    for (const events of byRecord.values()) events.sort((a, b) => b.sequence - a.sequence);
    return byRecord;
  }

  async find(environment: string, eventId: string): Promise<DomainEvent | null> {
    const [row] = await queryRows<EventRow>(this.prisma, SQL.find, [environment, eventId]);
    return row ? toEvent(row) : null;
  }

  async sequence(limit: number): Promise<SequencerRound> {
    const [row] = await queryRows<{ sequenced: number; forWebhooks: boolean }>(this.prisma, SQL.sequence, [limit]);
    return { numbered: row!.sequenced, forWebhooks: row!.forWebhooks };
  }

  async lastSequence(environment: string): Promise<number> {
    const [row] = await queryRows<{ last: string }>(this.prisma, SQL.lastSequence, [environment]);
    return row ? Number(row.last) : 0;
  }

  async prune(before: Date, maxRounds: number): Promise<PruneOutcome> {
    const [row] = await queryRows<PruneOutcome>(this.prisma, SQL.prune, [before, maxRounds]);
    return row!;
  }
}
