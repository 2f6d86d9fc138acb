import type { HistoryStore, LedgerExportRequest, StatementRequest } from '../../domain/history/ports.js';
import type { BalanceAsOf, BalancePoint, ExportSink, LedgerExportEntry, Statement } from '../../domain/history/statement.js';
import type { PrismaClient } from '../connection/prisma-client.js';
import { isoInstant } from '../sql/columns.js';
import { queryRows, statement } from '../sql/sql.js';

/**
 * The ledger's history (docs/adr/0059-balances-as-of-by-posting-order.md). An account's posted entries in
 * posting order, (posted_at, posting_seq), are the order their `balance_after` was computed in (a trigger
 * stamps both as each entry is written, under the statement's row locks: prisma/migrations/20261204040000_ledger_history),
 * so the balance at a moment is the `balance_after` of the last entry posted by then: one probe of
 * ledger_entries_account_posted_idx (which includes balance_after), O(log n) in the account's entries.
 */

/** The posted balance of account `account` (an SQL expression) just before, or at, the instant `at`. */
const postedBalance = (account: string, comparison: '<' | '<=', at: string) => `coalesce((
  SELECT e.balance_after FROM ledger_entries e
  WHERE e.account_id = ${account} AND e.status = 'POSTED' AND e.posted_at ${comparison} ${at}
  ORDER BY e.posted_at DESC, e.posting_seq DESC LIMIT 1), 0)`;

/** The columns of an exported entry (alias `e`); `cursor` is its posted_at in full, for the next batch. */
const EXPORT_COLUMNS = `e.posting_seq::text AS sequence, ${isoInstant('e.posted_at')} AS "postedAt", e.currency, e.type AS direction,
  trim_scale(e.posted_amount)::text AS amount, e.account_id AS "accountId",
  CASE WHEN e.is_settlement THEN 'SETTLEMENT' ELSE 'CUSTOMER' END AS "accountKind", e.id AS "transactionId", e.posting_id AS "postingId"`;

/**
 * A batch of the export: $1 environment, $2 from, $3 to, $4/$5 the last entry handed over (posted_at,
 * posting_seq), $6 the batch size; keyset order on the environment's (or the account's) posting-order index.
 */
const exportBatch = (accountFilter: string) => `SELECT ${EXPORT_COLUMNS} FROM ledger_entries e
   WHERE e.environment = $1::varchar AND e.status = 'POSTED' ${accountFilter}
     AND e.posted_at >= $2::timestamptz AND e.posted_at < $3::timestamptz
     AND (e.posted_at, e.posting_seq) > ($4::timestamptz, $5::bigint)
   ORDER BY e.posted_at, e.posting_seq LIMIT $6`;

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
  // $1 environment, $2 account, [$3, $4) the period, $5 most entries to read. The closing balance is read
  // from the index as the opening one is, never computed from the entries: that opening + credits − debits
  // equals it is what the tests check.
  statement: statement(
    'history_statement',
    `WITH account AS MATERIALIZED (SELECT a.id, a.currency FROM accounts a WHERE a.environment = $1::varchar AND a.id = $2::uuid),
     period AS MATERIALIZED (
       SELECT e.id, e.type, e.posted_amount, e.description, e.posted_at, e.balance_after, e.posting_seq, e.transfer_id, e.reverses_entry_id
       FROM ledger_entries e
       WHERE e.account_id = (SELECT account.id FROM account) AND e.status = 'POSTED' AND e.posted_at >= $3::timestamptz AND e.posted_at < $4::timestamptz
       ORDER BY e.posted_at, e.posting_seq LIMIT $5
     ),
     closing AS MATERIALIZED (
       SELECT c.balance_after, c.posting_seq FROM ledger_entries c
       WHERE c.account_id = (SELECT account.id FROM account) AND c.status = 'POSTED' AND c.posted_at < $4::timestamptz
       ORDER BY c.posted_at DESC, c.posting_seq DESC LIMIT 1
     )
     SELECT a.id AS "accountId", a.currency, ${isoInstant('$3::timestamptz')} AS "from", ${isoInstant('$4::timestamptz')} AS "to",
            coalesce((SELECT c.posting_seq FROM closing c), 0)::text AS "asOfSequence",
            trim_scale(${postedBalance('a.id', '<', '$3::timestamptz')})::text AS "openingBalance",
            trim_scale(coalesce((SELECT c.balance_after FROM closing c), 0))::text AS "closingBalance",
            (SELECT trim_scale(coalesce(sum(p.posted_amount) FILTER (WHERE p.type = 'CREDIT'), 0))::text FROM period p) AS "totalCredits",
            (SELECT trim_scale(coalesce(sum(p.posted_amount) FILTER (WHERE p.type = 'DEBIT'), 0))::text FROM period p) AS "totalDebits",
            (SELECT coalesce(json_agg(json_build_object(
                'transactionId', p.id, 'type', p.type, 'amount', trim_scale(p.posted_amount)::text, 'description', p.description,
                'postedAt', ${isoInstant('p.posted_at')}, 'balanceAfter', trim_scale(p.balance_after)::text, 'sequence', p.posting_seq::text,
                'transferId', p.transfer_id, 'reversesTransactionId', p.reverses_entry_id) ORDER BY p.posted_at, p.posting_seq), '[]'::json)
             FROM period p) AS entries
     FROM account a`,
  ),
  exportBatch: statement('history_export_batch', exportBatch('')),
  exportAccountBatch: statement('history_export_account_batch', exportBatch('AND e.account_id = $7::uuid')),
};

/** How long one export may hold its snapshot (Prisma's interactive transactions end after 5 s by default). */
const EXPORT_TRANSACTION_TIMEOUT_MS = 60 * 60 * 1000;

/** The ledger's history on PostgreSQL, through Prisma Client's raw-SQL path. */
export class PrismaHistoryStore implements HistoryStore {
  constructor(private readonly prisma: PrismaClient) {}

  async balanceAsOf(environment: string, accountId: string, asOf: Date): Promise<BalanceAsOf | null> {
    const [row] = await queryRows<Omit<BalanceAsOf, 'asOf'>>(this.prisma, SQL.balanceAsOf, [environment, accountId, asOf.toISOString()]);
    return row ? { accountId: row.accountId, currency: row.currency, asOf: asOf.toISOString(), posted: row.posted, pending: row.pending, available: row.available } : null;
  }

  async balancesBefore(_environment: string, accountId: string, at: readonly Date[]): Promise<BalancePoint[]> {
    if (at.length === 0) return [];
    const rows = await queryRows<BalancePoint>(this.prisma, SQL.balancesBefore, [accountId, at.map((instant) => instant.toISOString())]);
    return rows.map((row) => ({ at: row.at, posted: row.posted }));
  }

  async statement(request: StatementRequest): Promise<Statement | null> {
    const [row] = await queryRows<Statement>(this.prisma, SQL.statement, [
      request.environment,
      request.accountId,
      request.from.toISOString(),
      request.to.toISOString(),
      request.maxEntries + 1,
    ]);
    if (!row) return null;
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
      entries: row.entries.map((entry) => ({
        transactionId: entry.transactionId,
        type: entry.type,
        amount: entry.amount,
        description: entry.description,
        postedAt: entry.postedAt,
        balanceAfter: entry.balanceAfter,
        sequence: entry.sequence,
        transferId: entry.transferId,
        reversesTransactionId: entry.reversesTransactionId,
      })),
    };
  }

  /**
   * Keyset batches in one REPEATABLE READ, READ ONLY transaction: every batch reads the same snapshot, and
   * only one batch is in memory at a time, whatever the number of entries (docs/adr/0060-ledger-export-keyset-batches.md).
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
          const rows = request.accountId === null
            ? await queryRows<LedgerExportEntry>(tx, SQL.exportBatch, values)
            : await queryRows<LedgerExportEntry>(tx, SQL.exportAccountBatch, [...values, request.accountId]);
          if (rows.length === 0) return handed;
          handed += rows.length;
          const last = rows[rows.length - 1]!;
          after = [last.postedAt, last.sequence];
          if (!(await sink(rows))) return handed;
          if (rows.length < request.batchSize) return handed;
        }
      },
      { isolationLevel: 'RepeatableRead', timeout: EXPORT_TRANSACTION_TIMEOUT_MS, maxWait: 5000 },
    );
  }
}
