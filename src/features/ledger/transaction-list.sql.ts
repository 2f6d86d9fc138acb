import type { TransactionFilter } from './ports.js';
import { TRANSACTION_COLUMNS } from '../../db/sql/columns.js';

/**
 * The statement of one page of an account's transactions, newest first, with only the given filters'
 * conditions (as customer-search.sql.ts), so that the planner sees each as the index it was built for
 * (migration 20261204010000_transaction_filters): status and type in the list's own order (account, value,
 * seq), the creation instant and the amount as ranges, the externalId exactly. Parameters: $1 environment,
 * $2 account, $3 after (NULL: from the newest), $4 page size + 1, then one per filter in the order below.
 */
export function transactionListSql(filter: TransactionFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const conditions: string[] = [];
  const parameter = (value: unknown) => {
    values.push(value);
    return `$${values.length + 4}`;
  };
  if (filter.status !== undefined) conditions.push(`e.status = ${parameter(filter.status)}::varchar`);
  if (filter.type !== undefined) conditions.push(`e.type = ${parameter(filter.type)}::varchar`);
  if (filter.from !== undefined) conditions.push(`e.created_at >= ${parameter(filter.from)}::timestamptz`);
  if (filter.to !== undefined) conditions.push(`e.created_at < ${parameter(filter.to)}::timestamptz`);
  // The amount a transaction answers (its posted amount once POSTED): the expression the index is built on.
  if (filter.minAmount !== undefined)
    conditions.push(`coalesce(e.posted_amount, e.amount) >= ${parameter(filter.minAmount)}::numeric`);
  if (filter.maxAmount !== undefined)
    conditions.push(`coalesce(e.posted_amount, e.amount) <= ${parameter(filter.maxAmount)}::numeric`);
  if (filter.externalId !== undefined) conditions.push(`e.external_id = ${parameter(filter.externalId)}::varchar`);
  const text = `SELECT ${TRANSACTION_COLUMNS} FROM ledger_entries e
     WHERE e.environment = $1 AND e.account_id = $2::uuid AND NOT e.is_settlement
       AND ($3::uuid IS NULL OR e.seq < (SELECT p.seq FROM ledger_entries p WHERE p.id = $3::uuid AND p.account_id = $2::uuid))${conditions.map((condition) => ` AND ${condition}`).join('')}
     ORDER BY e.seq DESC LIMIT $4`;
  return { text, values };
}
