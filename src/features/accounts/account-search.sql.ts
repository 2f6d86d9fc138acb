import type { AccountFilter } from './account-search.js';
import { ACCOUNT_COLUMNS } from '../../db/sql/columns.js';
import { uuidAfter } from '../../db/sql/sql.js';

/**
 * The statement of one account search, with only the given filters' conditions (as customer-search.sql.ts).
 * Parameters: $1 environment, $2 page size + 1, $3 after (NULL: from the first), then one per filter.
 */
export function accountSearchSql(filter: AccountFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const conditions: string[] = [];
  const parameter = (value: unknown) => {
    values.push(value);
    return `$${values.length + 3}`;
  };
  if (filter.customerId !== undefined) {
    conditions.push(
      `a.id IN (SELECT l.account_id FROM account_customers l WHERE l.customer_id = ${parameter(filter.customerId)}::uuid AND l.environment = $1)`,
    );
  }
  if (filter.type !== undefined) conditions.push(`a.type = ${parameter(filter.type)}::varchar`);
  if (filter.currency !== undefined) conditions.push(`a.currency = ${parameter(filter.currency)}::bpchar`);
  if (filter.flag !== undefined) conditions.push(`a.flags @> ARRAY[${parameter(filter.flag)}::text]`);
  if (filter.externalId !== undefined) conditions.push(`a.external_id = ${parameter(filter.externalId)}::varchar`);
  if (filter.accountNumberLast4 !== undefined) {
    // A canceled number no longer receives money, so it no longer names the account (docs/account-numbers.md).
    conditions.push(
      `a.id IN (SELECT n.account_id FROM account_numbers n WHERE n.environment = $1 AND n.last4 = ${parameter(filter.accountNumberLast4)}::bpchar AND n.status <> 'CANCELED')`,
    );
  }
  if (filter.metadata !== undefined)
    conditions.push(`a.metadata @> ${parameter(JSON.stringify(filter.metadata))}::jsonb`);
  const text = `SELECT ${ACCOUNT_COLUMNS} FROM accounts a
    WHERE a.environment = $1 AND ${uuidAfter('a.id', '$3')}${conditions.map((condition) => ` AND ${condition}`).join('')}
    ORDER BY a.id LIMIT $2`;
  return { text, values };
}
