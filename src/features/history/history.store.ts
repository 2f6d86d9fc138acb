import type { HistoryStore, LedgerExportRequest, StatementRequest } from './ports.js';
import type {
  BalanceAsOf,
  BalancePoint,
  ExportSink,
  LedgerExportFormat,
  Statement,
  StatementEntry,
} from './statement.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { isoInstant } from '../../db/sql/columns.js';
import { queryRows, statement } from '../../db/sql/sql.js';

/**
 * The ledger's history (docs/adr/0059-balances-as-of-by-posting-order.md). An account's posted entries in
 * posting order, (posted_at, posting_seq), are the order their `balance_after` was computed in (a trigger
 * stamps both as each entry is written, under the statement's row locks: prisma/migrations/20261204040000_ledger_history),
 * so the balance at a moment is the `balance_after` of the last entry posted by then: one probe of
 * ledger_entries_account_posted_idx (which includes balance_after), O(log n) in the account's entries.
 */

/** The days of the statement's period [$3, $4): a part of a day counts as one. */
const DAYS_IN_PERIOD = `ceil(extract(epoch FROM ($4::timestamptz - $3::timestamptz)) / 86400)::int`;

/**
 * How many of the period's day ends come at or before instant `at` (in [$3, $4)): the day ends are $3 + n days for n
 * from 1 to the period's days, the last one cut at $4 (which comes after every entry of the period).
 */
const dayEndsBy = (at: string) =>
  `least(${DAYS_IN_PERIOD} - 1, floor(extract(epoch FROM (${at} - $3::timestamptz)) / 86400))::int`;

/** The posted balance of account `account` (an SQL expression) just before, or at, the instant `at`. */

const postedBalance = (account: string, comparison: '<' | '<=', at: string) => `coalesce((
  SELECT e.balance_after FROM ledger_entries e
  WHERE e.account_id = ${account} AND e.status = 'POSTED' AND e.posted_at ${comparison} ${at}
  ORDER BY e.posted_at DESC, e.posting_seq DESC LIMIT 1), 0)`;

/**
 * The fields of an exported entry (alias `e`), in the order of the presenter's LEDGER_EXPORT_COLUMNS, as SQL
 * text. None needs escaping in either format, so each is written as it is: the sequence is an integer, postedAt
 * an ISO 8601 instant, the currency an account's ISO 4217 code (three capitals, validated when the account is
 * opened), the direction and the kind enums, the amount a plain decimal, the ids UUIDs; none holds a quote, a
 * backslash, a comma, a control character or a line break, so JSON.stringify would only add the quotes and
 * RFC 4180 (the presenter's csvField) would leave it unquoted. None is NULL for an entry the batch selects
 * (posted_at and posted_amount: the table's check for a posted entry; posting_seq: the keyset comparison is
 * never true for a NULL), so `||` never loses a line. test/features/history/export-lines.test.ts compares the lines with
 * their plain definitions over random entries.
 */
const EXPORT_FIELDS: readonly (readonly [name: string, sql: string])[] = [
  ['sequence', 'e.posting_seq::text'],
  ['postedAt', isoInstant('e.posted_at')],
  ['currency', 'e.currency::text'],
  ['direction', 'e.type::text'],
  ['amount', 'trim_scale(e.posted_amount)::text'],
  ['accountId', 'e.account_id::text'],
  // An internal account's entry names its purpose (INTEREST_EXPENSE, FEE_INCOME: enum-checked capitals, no escaping);
  // one probe of that table's primary key per entry on the bank's side, a table of a few rows per environment.
  [
    'accountKind',
    "CASE WHEN NOT e.is_settlement THEN 'CUSTOMER' ELSE coalesce((SELECT i.purpose FROM ledger_internal_accounts i WHERE i.id = e.account_id), 'SETTLEMENT') END",
  ],
  ['transactionId', 'e.id::text'],
  ['postingId', 'e.posting_id::text'],
];

/** An exported entry as a line of each format: a JSON object (keys in order, no spaces) and LF; a CSV row and CRLF. */
const EXPORT_LINE: Readonly<Record<LedgerExportFormat, string>> = {
  ndjson: `'{' || ${EXPORT_FIELDS.map(([name, sql]) => `'"${name}":"' || ${sql} || '"'`).join(" || ',' || ")} || E'}\\n'`,
  csv: `${EXPORT_FIELDS.map(([, sql]) => sql).join(" || ',' || ")} || E'\\r\\n'`,
};

/**
 * A batch of the export as ONE row: its entries' lines as one text, their number, and the last entry's
 * (posted_at, posting_seq) for the next batch. $1 environment, $2 from, $3 to, $4/$5 the last entry handed over,
 * $6 the batch size; keyset order on the environment's (or the account's) posting-order index. PostgreSQL
 * writes the text, so no object per entry or per value is ever built here (docs/adr/0069-ledger-export-memory-and-concurrency.md).
 */
const exportBatch = (format: LedgerExportFormat, accountFilter: string) => `WITH batch AS MATERIALIZED (
     SELECT e.posted_at, e.posting_seq, ${EXPORT_LINE[format]} AS line FROM ledger_entries e
     WHERE e.environment = $1::varchar AND e.status = 'POSTED' ${accountFilter}
       AND e.posted_at >= $2::timestamptz AND e.posted_at < $3::timestamptz
       AND (e.posted_at, e.posting_seq) > ($4::timestamptz, $5::bigint)
     ORDER BY e.posted_at, e.posting_seq LIMIT $6)
   SELECT b.count, b.lines, ${isoInstant('l.posted_at')} AS "lastPostedAt", l.posting_seq::text AS "lastSequence"
   FROM (SELECT count(*)::int AS count, coalesce(string_agg(x.line, '' ORDER BY x.posted_at, x.posting_seq), '') AS lines FROM batch x) b
   LEFT JOIN LATERAL (SELECT x.posted_at, x.posting_seq FROM batch x ORDER BY x.posted_at DESC, x.posting_seq DESC LIMIT 1) l ON true`;

/** What a batch of the export answers. */
interface ExportBatchRow {
  count: number;
  lines: string;
  lastPostedAt: string | null;
  lastSequence: string | null;
}

const ACCOUNT_FILTER = 'AND e.account_id = $7::uuid';

const SQL = {
  // Pending as of a moment: the holds created by then and not yet posted or voided then (their index is by
  // the moment they stopped pending, so only those still open then, or settled since, are read).
  balanceAsOf: statement(
    'history_balance_as_of',
    `SELECT a.id AS "accountId", a.currency, trim_scale(b.posted)::text AS posted,
            trim_scale(b.posted + h.credits - h.debits)::text AS pending, trim_scale(b.posted - h.debits)::text AS available
     FROM accounts a
     CROSS JOIN LATERAL (SELECT ${postedBalance('a.id', '<=', '$3::timestamptz')} AS posted) b
     CROSS JOIN LATERAL (
       SELECT coalesce(sum(x.amount) FILTER (WHERE x.type = 'CREDIT'), 0) AS credits, coalesce(sum(x.amount) FILTER (WHERE x.type = 'DEBIT'), 0) AS debits
       FROM ledger_entries x
       WHERE x.account_id = a.id AND x.was_hold AND coalesce(x.posted_at, x.voided_at, 'infinity'::timestamptz) > $3::timestamptz
         AND x.created_at <= $3::timestamptz) h
     WHERE a.environment = $1::varchar AND a.id = $2::uuid`,
  ),
  // One statement for every point: a probe of the index per instant.
  balancesBefore: statement(
    'history_balances_before',
    `SELECT ${isoInstant('p.at')} AS at, trim_scale(${postedBalance('$1::uuid', '<', 'p.at')})::text AS posted
     FROM unnest($2::text[]::timestamptz[]) WITH ORDINALITY AS p(at, n) ORDER BY p.n`,
  ),
  // $1 environment, $2 account, [$3, $4) the period, $5 one more than the entries a statement may hold, $6 entries
  // per piece. One row per piece of the entries' JSON (in posting order), the statement's own fields on each, or one
  // row with "entries" NULL when the period has none, or holds $5 or more ("fits" false: a refusal, which builds no JSON
  // of thousands of entries for Node to parse and drop). The closing balance is read from the index as the opening one
  // is, never computed from the entries: that opening + credits − debits equals it is what the tests check. Pieces,
  // not one text: a text over 128 KB is one of V8's large objects, allocated straight into the old generation, and a
  // busy account's statements kept the heap, and RSS, some 40 MB higher under load.
  statement: statement(
    'history_statement',
    `WITH account AS MATERIALIZED (SELECT a.id, a.currency, a.product_code FROM accounts a WHERE a.environment = $1::varchar AND a.id = $2::uuid),
     period AS MATERIALIZED (
       SELECT e.id, e.type, e.posted_amount, e.description, e.posted_at, e.balance_after, e.posting_seq, e.transfer_id, e.reverses_entry_id,
              row_number() OVER (ORDER BY e.posted_at, e.posting_seq) AS n
       FROM ledger_entries e
       WHERE e.account_id = (SELECT account.id FROM account) AND e.status = 'POSTED' AND e.posted_at >= $3::timestamptz AND e.posted_at < $4::timestamptz
       ORDER BY e.posted_at, e.posting_seq LIMIT $5
     ),
     closing AS MATERIALIZED (
       SELECT c.balance_after, c.posting_seq FROM ledger_entries c
       WHERE c.account_id = (SELECT account.id FROM account) AND c.status = 'POSTED' AND c.posted_at < $4::timestamptz
       ORDER BY c.posted_at DESC, c.posting_seq DESC LIMIT 1
     ),
     header AS MATERIALIZED (
       SELECT a.id AS "accountId", a.currency, ${isoInstant('$3::timestamptz')} AS "from", ${isoInstant('$4::timestamptz')} AS "to",
              coalesce((SELECT c.posting_seq FROM closing c), 0)::text AS "asOfSequence",
              trim_scale(${postedBalance('a.id', '<', '$3::timestamptz')})::text AS "openingBalance",
              trim_scale(coalesce((SELECT c.balance_after FROM closing c), 0))::text AS "closingBalance",
              (SELECT trim_scale(coalesce(sum(p.posted_amount) FILTER (WHERE p.type = 'CREDIT'), 0))::text FROM period p) AS "totalCredits",
              (SELECT trim_scale(coalesce(sum(p.posted_amount) FILTER (WHERE p.type = 'DEBIT'), 0))::text FROM period p) AS "totalDebits",
              (SELECT count(*) FROM period p) < $5 AS fits,
              -- An account on a product (Reg DD §1030.7(c)): the interest credited in the period (its entries that are
              -- interest postings) and the average of the balances at the end of each of its days (the last one cut at $4), in
              -- the currency's minor unit.
              a.product_code IS NOT NULL AS "onProduct",
              CASE WHEN a.product_code IS NOT NULL THEN (SELECT trim_scale(coalesce(sum(p.posted_amount), 0))::text FROM period p
                WHERE EXISTS (SELECT 1 FROM interest_postings x WHERE x.transaction_id = p.id)) END AS "interestEarned",
              -- The period's maintenance-fee debits (an assessment's transaction) less the reversals of fees posted in it.
              CASE WHEN a.product_code IS NOT NULL THEN (SELECT trim_scale(coalesce(sum(CASE WHEN p.reverses_entry_id IS NULL
                  THEN p.posted_amount ELSE -p.posted_amount END), 0))::text FROM period p
                WHERE EXISTS (SELECT 1 FROM maintenance_fee_assessments f WHERE f.transaction_id = coalesce(p.reverses_entry_id, p.id))) END AS "feesCharged",
              -- The average reads the period's entries, never a look-up per day (a period of years costs what its entries
              -- do): each day end sees the balance after the last entry posted before it, so an entry's balance counts
              -- for the day ends after it and up to the next entry, the opening balance for those before the first.
              CASE WHEN a.product_code IS NOT NULL THEN (
                WITH spans AS (
                  SELECT p.n, p.balance_after, ${dayEndsBy('p.posted_at')} AS seen_after,
                         CASE WHEN p.n = (SELECT max(q.n) FROM period q) THEN ${DAYS_IN_PERIOD}
                              ELSE ${dayEndsBy('lead(p.posted_at) OVER (ORDER BY p.n)')} END AS seen_until
                  FROM period p
                )
                SELECT trim_scale(round((${postedBalance('a.id', '<', '$3::timestamptz')} * coalesce((SELECT s.seen_after FROM spans s WHERE s.n = 1), ${DAYS_IN_PERIOD})
                         + coalesce((SELECT sum(s.balance_after * (s.seen_until - s.seen_after)) FROM spans s), 0)) / ${DAYS_IN_PERIOD},
                       currency_minor_digits(a.currency)))::text) END AS "averageDailyBalance",
              ${DAYS_IN_PERIOD} AS "daysInPeriod"
       FROM account a
     ),
     pieces AS (
       SELECT (p.n - 1) / $6 AS piece, json_agg(json_build_object(
                'transactionId', p.id, 'type', p.type, 'amount', trim_scale(p.posted_amount)::text, 'description', p.description,
                'postedAt', ${isoInstant('p.posted_at')}, 'balanceAfter', trim_scale(p.balance_after)::text, 'sequence', p.posting_seq::text,
                'transferId', p.transfer_id, 'reversesTransactionId', p.reverses_entry_id) ORDER BY p.n)::text AS entries
       FROM period p
       WHERE (SELECT h.fits FROM header h)
       GROUP BY 1
     )
     SELECT h.*, s.entries FROM header h LEFT JOIN pieces s ON true ORDER BY s.piece`,
  ),
  exportBatch: {
    ndjson: statement('history_export_batch_ndjson', exportBatch('ndjson', '')),
    csv: statement('history_export_batch_csv', exportBatch('csv', '')),
  },
  exportAccountBatch: {
    ndjson: statement('history_export_account_batch_ndjson', exportBatch('ndjson', ACCOUNT_FILTER)),
    csv: statement('history_export_account_batch_csv', exportBatch('csv', ACCOUNT_FILTER)),
  },
};

/** Entries per row of a statement's answer: some 70 KB of JSON each, under V8's large-object size (see SQL.statement). */
const STATEMENT_ENTRIES_PER_PIECE = 200;

type StatementRow = Omit<Statement, 'entries' | 'interest'> & {
  fits: boolean;
  entries: string | null;
  onProduct: boolean;
  interestEarned: string | null;
  feesCharged: string | null;
  averageDailyBalance: string | null;
  daysInPeriod: number;
};

/** How long one export may hold its snapshot (Prisma's interactive transactions end after 5 s by default). */
const EXPORT_TRANSACTION_TIMEOUT_MS = 60 * 60 * 1000;

/** The ledger's history on PostgreSQL, through Prisma Client's raw-SQL path. */
export class PrismaHistoryStore implements HistoryStore {
  constructor(private readonly prisma: PrismaClient) {}

  async balanceAsOf(environment: string, accountId: string, asOf: Date): Promise<BalanceAsOf | null> {
    const [row] = await queryRows<Omit<BalanceAsOf, 'asOf'>>(this.prisma, SQL.balanceAsOf, [
      environment,
      accountId,
      asOf.toISOString(),
    ]);
    return row
      ? {
          accountId: row.accountId,
          currency: row.currency,
          asOf: asOf.toISOString(),
          posted: row.posted,
          pending: row.pending,
          available: row.available,
        }
      : null;
  }

  async balancesBefore(_environment: string, accountId: string, at: readonly Date[]): Promise<BalancePoint[]> {
    if (at.length === 0) return [];
    const rows = await queryRows<BalancePoint>(this.prisma, SQL.balancesBefore, [
      accountId,
      at.map((instant) => instant.toISOString()),
    ]);
    return rows.map((row) => ({ at: row.at, posted: row.posted }));
  }

  async statement(request: StatementRequest): Promise<Statement | 'too-large' | null> {
    const rows = await queryRows<StatementRow>(this.prisma, SQL.statement, [
      request.environment,
      request.accountId,
      request.from.toISOString(),
      request.to.toISOString(),
      request.maxEntries + 1,
      STATEMENT_ENTRIES_PER_PIECE,
    ]);
    const [row] = rows;
    if (!row) return null;
    if (!row.fits) return 'too-large';
    return {
      accountId: row.accountId,
      currency: row.currency,
      from: row.from,
      to: row.to,
      asOfSequence: row.asOfSequence,
      openingBalance: row.openingBalance,
      closingBalance: row.closingBalance,
      totalCredits: row.totalCredits,
      totalDebits: row.totalDebits,
      // Objects json_build_object above made, with exactly StatementEntry's fields: taken as they are.
      entries: rows.flatMap((piece) => (piece.entries === null ? [] : (JSON.parse(piece.entries) as StatementEntry[]))),
      ...(row.onProduct && {
        interest: {
          interestEarned: row.interestEarned!,
          feesCharged: row.feesCharged!,
          averageDailyBalance: row.averageDailyBalance!,
          daysInPeriod: row.daysInPeriod,
          // The service computes it (HistoryService.statement).
          annualPercentageYieldEarned: null,
        },
      }),
    };
  }

  /**
   * Keyset batches in one REPEATABLE READ, READ ONLY transaction: every batch reads the same snapshot, and
   * only one batch is in memory at a time, whatever the number of entries (docs/adr/0060-ledger-export-keyset-batches.md),
   * as one text PostgreSQL wrote in the request's format (docs/adr/0069-ledger-export-memory-and-concurrency.md).
   */
  exportEntries(request: LedgerExportRequest, sink: ExportSink): Promise<number> {
    return this.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe('SET TRANSACTION READ ONLY');
        const from = request.from?.toISOString() ?? '-infinity';
        const to = request.to.toISOString();
        let after: [string, string] = ['-infinity', '0'];
        let handed = 0;
        for (;;) {
          const values = [request.environment, from, to, after[0], after[1], request.batchSize];
          const [batch] =
            request.accountId === null
              ? await queryRows<ExportBatchRow>(tx, SQL.exportBatch[request.format], values)
              : await queryRows<ExportBatchRow>(tx, SQL.exportAccountBatch[request.format], [
                  ...values,
                  request.accountId,
                ]);
          if (!batch || batch.count === 0) return handed;
          handed += batch.count;
          after = [batch.lastPostedAt!, batch.lastSequence!];
          if (!(await sink(batch.lines))) return handed;
          if (batch.count < request.batchSize) return handed;
        }
      },
      { isolationLevel: 'RepeatableRead', timeout: EXPORT_TRANSACTION_TIMEOUT_MS, maxWait: 5000 },
    );
  }
}
