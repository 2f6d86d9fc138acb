/**
 * How an event's number is read (docs/adr/0033-events-numbered-by-rounds.md). Events are never
 * updated: each sequencer round appends one `event_rounds` row per environment, naming the first and last
 * event it numbered in (txid, id) order and the numbers they take. The events of a round are exactly the
 * environment's events between those bounds (any event committed later has a larger txid), so an event's
 * number is the round's last number minus the events of its round after it. Counting from the end keeps
 * the numbers right when retention has deleted the round's first events (the previous release's pruning
 * deletes from the head of the numbering, event by event).
 *
 * These fragments are SQL text for the statements of src/features/events/event.store.ts and src/features/webhooks/webhook.store.ts; every
 * one reads the `(environment, txid, id)` index of `events` and the primary key of `event_rounds`.
 */

/** The events of round `r` (alias given), with their numbers as `sequence`, in numbering order. */
export function roundEvents(round: string, columns: string): string {
  return `SELECT ${columns}, ${round}.last_sequence - count(*) OVER () + row_number() OVER (ORDER BY e.txid, e.id) AS sequence
    FROM events e
    WHERE e.environment = ${round}.environment
      AND (e.txid, e.id) >= (${round}.first_txid, ${round}.first_id) AND (e.txid, e.id) <= (${round}.last_txid, ${round}.last_id)`;
}

/**
 * The environment's numbered events after number `after`, in order (at most `limit`; `where` filters them
 * further): the rounds from the one holding `after + 1`, each walked in order. Order by round and then number,
 * so that PostgreSQL can stop after `limit` rows (an incremental sort over the rounds' order).
 */
export function numberedEventsAfter(options: {
  environment: string;
  after: string;
  columns: string;
  where?: string;
  limit: string;
}): string {
  return `SELECT n.* FROM event_rounds r
    CROSS JOIN LATERAL (${roundEvents('r', options.columns)}) n
    WHERE r.environment = ${options.environment} AND r.last_sequence > ${options.after} AND n.sequence > ${options.after}${options.where ? ` AND ${options.where}` : ''}
    ORDER BY r.last_sequence, n.sequence LIMIT ${options.limit}`;
}

/** The number of event `e` (alias), given `r`, the round holding it (`roundOf`). */
export const numberOf = (event: string, round: string): string =>
  `${round}.last_sequence - (SELECT count(*) FROM events x WHERE x.environment = ${event}.environment
      AND (x.txid, x.id) > (${event}.txid, ${event}.id) AND (x.txid, x.id) <= (${round}.last_txid, ${round}.last_id))`;

/** The round holding event `e` (alias), as a LATERAL subquery: none while the event is not numbered. */
export const roundOf = (event: string): string =>
  `(SELECT r.* FROM event_rounds r WHERE r.environment = ${event}.environment AND (r.last_txid, r.last_id) >= (${event}.txid, ${event}.id)
      AND r.last_sequence >= r.first_sequence ORDER BY r.last_txid, r.last_id LIMIT 1)`;

/**
 * Every environment that has events, one index probe each (a skip scan of the `(environment, txid, id)`
 * index), as a recursive WITH query named `environments` (the statement's WITH must be RECURSIVE).
 */
export const ENVIRONMENTS_WITH_EVENTS = `environments(environment) AS (
       (SELECT e.environment FROM events e ORDER BY e.environment LIMIT 1)
       UNION ALL
       SELECT (SELECT e.environment FROM events e WHERE e.environment > v.environment ORDER BY e.environment LIMIT 1)
       FROM environments v WHERE v.environment IS NOT NULL
     )`;

/**
 * For each environment of `environments`, its newest round (`heads`): the number and the (txid, id) the next
 * round starts after; 0 and the lowest bound when it has none yet.
 */
export const HEADS = `heads AS MATERIALIZED (
       SELECT v.environment, coalesce(h.last_sequence, 0) AS last_sequence,
              coalesce(h.last_txid, -1) AS last_txid, coalesce(h.last_id, '00000000-0000-0000-0000-000000000000'::uuid) AS last_id
       FROM environments v
       LEFT JOIN LATERAL (SELECT r.last_sequence, r.last_txid, r.last_id FROM event_rounds r WHERE r.environment = v.environment
                          ORDER BY r.last_sequence DESC LIMIT 1) h ON true
       WHERE v.environment IS NOT NULL
     )`;

/**
 * Whether event `e` (alias) is not numbered yet: no round reaches it. For checks from outside the statements
 * above (the tests, the benchmark, the fault scripts), which count what the sequencer still has to do.
 */
export const notNumbered = (event: string): string =>
  `NOT EXISTS (SELECT 1 FROM event_rounds r WHERE r.environment = ${event}.environment AND (r.last_txid, r.last_id) >= (${event}.txid, ${event}.id))`;
