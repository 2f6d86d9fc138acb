import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { ENVIRONMENTS_WITH_EVENTS, HEADS } from './event-round-fragments.js';
import { queryRows, statement } from '../../db/sql/sql.js';

/** Counts stop here: a scrape reads at most this many index entries per count, however large a backlog grows. */
export const BACKLOG_COUNT_CAP = 10_000;

/**
 * The outbox's backlog as one cheap statement reads it at scrape time, for the gauges of src/http/metrics.ts:
 * counts capped at the statement's cap (a capped count means "at least"), ages in seconds (0 when nothing
 * waits).
 */
export interface OutboxBacklog {
  unsequencedEvents: number;
  oldestUnsequencedSeconds: number;
  /** Of at most BACKLOG_COUNT_CAP deliveries not finished: those waiting for (or in) their first attempt, and the others. */
  pendingFirstAttempts: number;
  pendingRetries: number;
  oldestPendingFirstAttemptSeconds: number;
  enabledEndpoints: number;
  disabledEndpoints: number;
}

/**
 * The outbox's backlog for /metrics (docs/reference/metrics.md), in one statement whose cost does not
 * grow with the backlog: counts read at most BACKLOG_COUNT_CAP index entries (the unnumbered events, those after
 * each environment's newest round in the `(environment, txid, id)` index; the deliveries not finished, of any
 * endpoint: the two states split that sample), the oldest unsequenced event is the oldest of that sample (events
 * are numbered in txid order, which follows time but for overlapping transactions), and the oldest delivery waiting
 * for its first attempt is read per enabled endpoint from the first-attempt index (by sequence). So the work
 * is bounded by the cap and the number of endpoints; disabled endpoints, which wait for nobody, are left
 * out of the age.
 */
const SQL = statement(
  'outbox_backlog',
  `WITH RECURSIVE ${ENVIRONMENTS_WITH_EVENTS},
   ${HEADS},
   unsequenced AS MATERIALIZED (
     SELECT x.occurred_at FROM heads h
     CROSS JOIN LATERAL (
       SELECT e.occurred_at FROM events e WHERE e.environment = h.environment AND (e.txid, e.id) > (h.last_txid, h.last_id)
       ORDER BY e.txid, e.id LIMIT $1
     ) x
     LIMIT $1
   )
   SELECT
     (SELECT count(*) FROM unsequenced)::int AS "unsequencedEvents",
     coalesce((SELECT extract(epoch FROM CURRENT_TIMESTAMP - min(u.occurred_at)) FROM unsequenced u), 0)::float8 AS "oldestUnsequencedSeconds",
     pending."pendingFirstAttempts", pending."pendingRetries",
     coalesce((SELECT max(extract(epoch FROM CURRENT_TIMESTAMP - e.occurred_at)) FROM webhook_endpoints w
        CROSS JOIN LATERAL (SELECT d.event_id FROM webhook_deliveries d WHERE d.endpoint_id = w.id AND d.attempts = 0 ORDER BY d.sequence LIMIT 1) first
        JOIN events e ON e.id = first.event_id
        WHERE w.enabled), 0)::float8 AS "oldestPendingFirstAttemptSeconds",
     (SELECT count(*) FROM webhook_endpoints w WHERE w.enabled)::int AS "enabledEndpoints",
     (SELECT count(*) FROM webhook_endpoints w WHERE NOT w.enabled)::int AS "disabledEndpoints"
   FROM (SELECT count(*) FILTER (WHERE d.attempts = 0)::int AS "pendingFirstAttempts", count(*) FILTER (WHERE d.attempts > 0)::int AS "pendingRetries"
         FROM (SELECT d.attempts FROM webhook_deliveries d WHERE d.next_attempt_at IS NOT NULL LIMIT $1) d) pending`,
);

export async function readOutboxBacklog(prisma: PrismaClient, countCap = BACKLOG_COUNT_CAP): Promise<OutboxBacklog> {
  const [row] = await queryRows<OutboxBacklog>(prisma, SQL, [countCap]);
  return row!;
}
