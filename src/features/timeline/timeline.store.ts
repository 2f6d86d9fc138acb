import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { queryRows, statement } from '../../db/sql/sql.js';
import type { TimelineEntry, TimelineQuery, TimelineStore } from './ports.js';
import { AUDITED_OPERATIONS_OF, type TimelineKind } from './timeline.js';

/**
 * One page of a customer's timeline in one statement: each source read newest first through its index, at most a
 * page of it (after the cursor), then merged. Sources: the audit trail's writes on the customer, its accounts and
 * its verification documents; the flags its accounts carry and their lifts; the ledger entries of its accounts (one
 * index walk per account); the notes on it and on its accounts. The accounts are those it holds now. Who did it is
 * named as the record kept it (flags, notes), else by a managed token's name now (`token:<id>`, its primary key).
 * $1 environment, $2 customer, $3 audited operations, $4 flags?, $5 money?, $6 notes?, $7/$8 cursor (time, id), $9 page.
 */
const TIMELINE = statement(
  'timeline_page',
  `WITH customer AS (SELECT c.id FROM customers c WHERE c.id = $2::uuid AND c.environment = $1),
   held AS (SELECT l.account_id AS id FROM account_customers l JOIN customer c ON l.customer_id = c.id),
   subjects AS (
     SELECT id FROM customer UNION ALL SELECT id FROM held
     UNION ALL SELECT d.id FROM verification_documents d JOIN customer c ON d.customer_id = c.id
   ),
   audited AS (
     SELECT a.id::text AS id, coalesce(a.environment_occurred_at, a.occurred_at) AS at, a.operation, a.principal_id AS actor_id,
            NULL::varchar AS actor_name, a.resource_type AS record_type, a.resource_id::text AS record_id,
            CASE WHEN a.resource_type = 'account' THEN a.resource_id::text END AS account_id, a.changed_fields,
            NULL::text AS flag, NULL::text AS reason, NULL::text AS text, NULL::numeric AS amount, NULL::text AS currency,
            NULL::text AS direction, NULL::text AS status
     FROM audit_events a
     WHERE a.environment = $1 AND a.resource_id IN (SELECT id FROM subjects) AND a.operation = ANY($3::text[])
       AND cardinality(a.changed_fields) > 0
       AND ($7::timestamptz IS NULL OR (coalesce(a.environment_occurred_at, a.occurred_at), a.id::text) < ($7::timestamptz, $8::text))
     ORDER BY at DESC, id DESC LIMIT $9
   ),
   flag_events AS (
     SELECT * FROM (
       SELECT 'flag-set:' || f.account_id || ':' || f.flag AS id, f.set_at AS at, 'account.flag.set' AS operation, f.set_by AS actor_id,
              f.set_by_name AS actor_name, f.flag, f.reason, f.account_id
       FROM account_flags f WHERE f.account_id IN (SELECT id FROM held) AND f.set_at IS NOT NULL
       UNION ALL
       SELECT 'flag-set:' || l.id, l.set_at, 'account.flag.set', l.set_by, l.set_by_name, l.flag, l.set_reason, l.account_id
       FROM account_flag_lifts l WHERE l.account_id IN (SELECT id FROM held) AND l.set_at IS NOT NULL
       UNION ALL
       SELECT l.id::text, l.lifted_at, CASE WHEN l.lifted_by LIKE 'system:%' THEN 'account.flag.expire' ELSE 'account.flag.clear' END,
              l.lifted_by, l.lifted_by_name, l.flag, l.lift_reason, l.account_id
       FROM account_flag_lifts l WHERE l.account_id IN (SELECT id FROM held)
     ) f
     WHERE $4::boolean AND ($7::timestamptz IS NULL OR (f.at, f.id) < ($7::timestamptz, $8::text))
     ORDER BY f.at DESC, f.id DESC LIMIT $9
   ),
   money AS (
     SELECT e.* FROM held h CROSS JOIN LATERAL (
       SELECT x.id::text AS id, x.created_at AS at, x.account_id, x.type, coalesce(x.posted_amount, x.amount) AS amount, x.status
       FROM ledger_entries x
       WHERE $5::boolean AND x.account_id = h.id AND ($7::timestamptz IS NULL OR (x.created_at, x.id::text) < ($7::timestamptz, $8::text))
       ORDER BY x.created_at DESC, x.id DESC LIMIT $9
     ) e
   ),
   notes_of AS (
     SELECT n.id::text AS id, n.created_at AS at, n.customer_id, n.account_id, n.author_id, n.author_name, n.text
     FROM notes n
     WHERE $6::boolean AND n.environment = $1
       AND (n.customer_id IN (SELECT id FROM customer) OR n.account_id IN (SELECT id FROM held))
       AND ($7::timestamptz IS NULL OR (n.created_at, n.id::text) < ($7::timestamptz, $8::text))
     ORDER BY n.created_at DESC, n.id DESC LIMIT $9
   ),
   entries AS (
     SELECT * FROM audited
     UNION ALL
     SELECT f.id, f.at, f.operation, f.actor_id, f.actor_name, 'account', f.account_id::text, f.account_id::text, '{}'::text[],
            f.flag, f.reason, NULL, NULL, NULL, NULL, NULL
     FROM flag_events f
     UNION ALL
     SELECT m.id, m.at, 'transaction.' || lower(m.status), NULL, NULL, 'transaction', m.id, m.account_id::text, '{}'::text[],
            NULL, NULL, NULL, m.amount, a.currency, CASE WHEN m.type = 'CREDIT' THEN 'IN' ELSE 'OUT' END, m.status
     FROM money m JOIN accounts a ON a.id = m.account_id
     UNION ALL
     SELECT n.id, n.at, CASE WHEN n.customer_id IS NULL THEN 'account.note.add' ELSE 'customer.note.add' END, n.author_id,
            n.author_name, 'note', n.id, n.account_id::text, '{}'::text[], NULL, NULL, n.text, NULL, NULL, NULL, NULL
     FROM notes_of n
   )
   SELECT (SELECT count(*)::int FROM customer) AS found, e.id, e.at, e.operation, e.actor_id AS "actorId",
          coalesce(e.actor_name, t.name) AS "actorName",
          e.record_type AS "recordType", e.record_id AS "recordId", e.account_id AS "accountId", e.changed_fields AS "changedFields",
          e.flag, e.reason, e.text, trim_scale(e.amount)::text AS amount, e.currency, e.direction, e.status
   FROM (SELECT 1) one LEFT JOIN (SELECT * FROM entries ORDER BY at DESC, id DESC LIMIT $9) e ON true
     LEFT JOIN api_tokens t ON e.actor_id LIKE 'token:%' AND t.id = substr(e.actor_id, 7)
   ORDER BY e.at DESC, e.id DESC`,
);

type Row = Omit<TimelineEntry, 'kind' | 'at'> & { found: number; at: Date | null };

const KIND_OF_OPERATION = new Map<string, TimelineKind>(
  Object.entries(AUDITED_OPERATIONS_OF).flatMap(([kind, operations]) =>
    operations.map((operation) => [operation, kind as TimelineKind] as const),
  ),
);

function kindOf(row: Omit<Row, 'found'>): TimelineKind {
  if (row.recordType === 'transaction') return 'MONEY';
  if (row.recordType === 'note') return 'NOTE';
  if (row.flag !== null) return 'FLAG';
  return KIND_OF_OPERATION.get(row.operation)!;
}

export class PrismaTimelineStore implements TimelineStore {
  constructor(private readonly prisma: PrismaClient) {}

  async read(query: TimelineQuery): Promise<TimelineEntry[] | null> {
    const kinds = new Set(query.kinds);
    const operations = (['PROFILE', 'ACCOUNT', 'VERIFICATION'] as const).flatMap((kind) =>
      kinds.has(kind) ? [...AUDITED_OPERATIONS_OF[kind]] : [],
    );
    const rows = await queryRows<Row>(this.prisma, TIMELINE, [
      query.environment,
      query.customerId,
      operations,
      kinds.has('FLAG'),
      kinds.has('MONEY'),
      kinds.has('NOTE'),
      query.after?.at ?? null,
      query.after?.id ?? null,
      query.first,
    ]);
    if (rows[0]!.found === 0) return null;
    return rows
      .filter((row) => row.at !== null)
      .map(({ found: _found, ...row }) => ({ ...row, at: row.at!, kind: kindOf(row) }));
  }
}
