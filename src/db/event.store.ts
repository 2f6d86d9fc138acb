import type { DomainEvent, EventData, EventType } from '../domain/events/event.js';
import type { EventQuery, EventStore } from '../domain/events/ports.js';
import { type AccountRow, type CustomerRow, toAccount, toCustomer, toTransaction, type TransactionRow } from './columns.js';
import { WAKE_CHANNELS } from './notifications.js';
import type { PrismaClient } from './prisma-client.js';
import { queryRows, statement } from './sql.js';

export const EVENT_COLUMNS = `e.id AS "eventId", e.type, e.sequence::text AS sequence, to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt",
  e.resource_type AS "resourceType", e.resource_id AS "resourceId", e.payload`;

const SQL = {
  list: statement(
    'event_list',
    `SELECT ${EVENT_COLUMNS} FROM events e
     WHERE e.environment = $1 AND e.sequence > $2::bigint AND ($3::text[] IS NULL OR e.type = ANY($3::text[]))
     ORDER BY e.sequence LIMIT $4`,
  ),
  find: statement('event_find', `SELECT ${EVENT_COLUMNS} FROM events e WHERE e.environment = $1 AND e.id = $2::uuid AND e.sequence IS NOT NULL`),
  /**
   * Numbers committed events, per environment, gapless, in (txid, id) order, and only those of
   * transactions older than every transaction still running (txid below the snapshot's xmin): any event
   * that could still commit has a larger txid, so no number is ever followed by a smaller one. One
   * sequencer at a time across the fleet (a transaction-scoped advisory lock; the others skip). It NOTIFYs,
   * like the webhook fan-out (and two rare management requests), but no write of a customer, account or
   * posting does: PostgreSQL serialises the commits of notifying transactions (a cluster-wide lock held
   * through commit), which one-at-a-time jobs do not feel and every write of the fleet would.
   */
  sequence: statement(
    'event_sequence',
    `WITH sequencer AS MATERIALIZED (SELECT pg_try_advisory_xact_lock(hashtext('cas_event_sequencer')) AS held),
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
       -- Wakes every instance's event feed (src/db/notifications.ts), one notification per environment
       -- numbered; PostgreSQL delivers it at this statement's commit, once the numbers are visible.
       (SELECT count(pg_notify('${WAKE_CHANNELS.eventsNumbered}', b.environment)) FROM bumped b)::int AS notified
     FROM numbered_events`,
  ),
  lastSequence: statement('event_last_sequence', `SELECT s.last::text AS last FROM event_sequences s WHERE s.environment = $1`),
  /**
   * Retention: numbered events older than `$1`, taken from the head of each environment's numbering (the
   * `(environment, sequence)` index; no index by age on the write path). Numbering follows transaction
   * start, so age and sequence agree but for transactions that overlapped: an event is never pruned
   * younger than the retention, and one a little older may wait behind a younger head for the next round.
   * Unnumbered events are never pruned.
   */
  prune: statement(
    'event_prune',
    `WITH doomed AS (
       SELECT h.id FROM event_sequences s
       CROSS JOIN LATERAL (
         SELECT e.id, e.occurred_at FROM events e WHERE e.environment = s.environment AND e.sequence IS NOT NULL ORDER BY e.sequence LIMIT $2
       ) h
       WHERE h.occurred_at < $1::timestamptz
       LIMIT $2
     ),
     pruned AS (DELETE FROM events e USING doomed d WHERE e.id = d.id RETURNING e.id)
     SELECT count(*)::int AS pruned FROM pruned`,
  ),
};

export interface EventRow {
  eventId: string;
  type: EventType;
  sequence: string;
  occurredAt: string;
  resourceType: DomainEvent['resourceType'];
  resourceId: string;
  payload: Record<string, unknown>;
}

/** The payload is the row the reads select (src/db/columns.ts), so the reads' mappers make it a domain value. */
function dataOf(row: EventRow): EventData {
  if (row.type.endsWith('.deleted')) return { kind: 'deleted', id: row.resourceId };
  if (row.type === 'account.customer_added' || row.type === 'account.customer_removed') {
    return { kind: 'holder', accountId: String(row.payload.accountId), customerId: String(row.payload.customerId) };
  }
  if (row.resourceType === 'customer') return { kind: 'customer', customer: toCustomer(row.payload as unknown as CustomerRow) };
  if (row.resourceType === 'account') return { kind: 'account', account: toAccount(row.payload as unknown as AccountRow) };
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
});

/** The outbox on PostgreSQL, through Prisma Client. The writes append to it themselves (src/db/write-effects.ts). */
export class PrismaEventStore implements EventStore {
  constructor(private readonly prisma: PrismaClient) {}

  async list(environment: string, query: EventQuery): Promise<DomainEvent[]> {
    const types = query.types && query.types.length > 0 ? [...query.types] : null;
    const rows = await queryRows<EventRow>(this.prisma, SQL.list, [environment, query.after, types, query.limit]);
    return rows.map(toEvent);
  }

  async find(environment: string, eventId: string): Promise<DomainEvent | null> {
    const [row] = await queryRows<EventRow>(this.prisma, SQL.find, [environment, eventId]);
    return row ? toEvent(row) : null;
  }

  async sequence(limit: number): Promise<number> {
    const [row] = await queryRows<{ sequenced: number }>(this.prisma, SQL.sequence, [limit]);
    return row!.sequenced;
  }

  async lastSequence(environment: string): Promise<number> {
    const [row] = await queryRows<{ last: string }>(this.prisma, SQL.lastSequence, [environment]);
    return row ? Number(row.last) : 0;
  }

  async prune(before: Date, limit: number): Promise<number> {
    const [row] = await queryRows<{ pruned: number }>(this.prisma, SQL.prune, [before, limit]);
    return row!.pruned;
  }
}
