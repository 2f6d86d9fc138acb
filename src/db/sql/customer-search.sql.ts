import type { CustomerFilter } from '../../domain/customers/customer-search.js';
import { CUSTOMER_COLUMNS } from './columns.js';

/**
 * The statement of one customer search: only the given filters' conditions, so that the planner sees each
 * one as the index it was built for (migration 20261203030000_customer_search) instead of an
 * `($n IS NULL OR …)` it cannot index. Parameters: $1 environment, $2 page size + 1, $3 after (NULL: from the
 * first), then one per filter in the order below.
 *
 * Order: with a name prefix, by that name's folded key, then id: the order of the prefix's own index, so a page
 * reads its rows and no more however many customers share the prefix (in id order it would sort every match:
 * a twelfth of the table for a three-letter prefix). `USING ~<~` is the operator class's order (byte order of
 * the folded text, whatever the database's collation). `after` is still the last customer's id: its key is
 * looked up in the same statement. Otherwise by id (creation order). `outerOrder` repeats the order over the
 * statement's output columns, for a statement that wraps this one.
 */
export function customerSearchSql(filter: CustomerFilter): { text: string; values: unknown[]; outerOrder: string } {
  const values: unknown[] = [];
  const conditions: string[] = [];
  const parameter = (value: unknown) => {
    values.push(value);
    return `$${values.length + 3}`;
  };
  if (filter.ssnBlindIndex !== undefined) conditions.push(`c.ssn_blind_index = ${parameter(Buffer.from(filter.ssnBlindIndex))}::bytea`);
  if (filter.lastNamePrefix !== undefined) conditions.push(`cas_search_key(c.last_name) LIKE cas_search_key(${parameter(likePrefix(filter.lastNamePrefix))}::text)`);
  if (filter.firstNamePrefix !== undefined) conditions.push(`cas_search_key(c.first_name) LIKE cas_search_key(${parameter(likePrefix(filter.firstNamePrefix))}::text)`);
  if (filter.email !== undefined) conditions.push(`cas_search_emails(c.emails) @> ARRAY[${parameter(filter.email)}::text]`);
  if (filter.phoneKey !== undefined) conditions.push(`c.phone_search_keys @> ARRAY[${parameter(filter.phoneKey)}::text]`);
  if (filter.externalId !== undefined) conditions.push(`c.external_id = ${parameter(filter.externalId)}::varchar`);
  if (filter.metadata !== undefined) conditions.push(`c.metadata @> ${parameter(JSON.stringify(filter.metadata))}::jsonb`);
  if (filter.dateOfBirth !== undefined) conditions.push(`c.date_of_birth = ${parameter(filter.dateOfBirth)}::date`);
  if (filter.createdFrom !== undefined) conditions.push(`c.created_at >= ${parameter(filter.createdFrom)}::timestamptz`);
  if (filter.createdTo !== undefined) conditions.push(`c.created_at < ${parameter(filter.createdTo)}::timestamptz`);
  const nameColumn = filter.lastNamePrefix !== undefined ? 'last_name' : filter.firstNamePrefix !== undefined ? 'first_name' : undefined;
  if (nameColumn === undefined) {
    const text = `SELECT ${CUSTOMER_COLUMNS} FROM customers c
    WHERE c.environment = $1 AND ($3::uuid IS NULL OR c.id > $3::uuid)${conditions.map((condition) => ` AND ${condition}`).join('')}
    ORDER BY c.id LIMIT $2`;
    return { text, values, outerOrder: 'ORDER BY id' };
  }
  const key = `cas_search_key(c.${nameColumn})`;
  const afterKey = `(SELECT cas_search_key(x.${nameColumn}) FROM customers x WHERE x.id = $3::uuid AND x.environment = $1)`;
  const text = `SELECT ${CUSTOMER_COLUMNS} FROM customers c
    WHERE c.environment = $1
      AND ($3::uuid IS NULL OR (${key} ~>=~ ${afterKey} AND (${key} ~>~ ${afterKey} OR c.id > $3::uuid)))${conditions.map((condition) => ` AND ${condition}`).join('')}
    ORDER BY ${key} USING ~<~, c.id LIMIT $2`;
  const outerName = nameColumn === 'last_name' ? '"lastName"' : '"firstName"';
  return { text, values, outerOrder: `ORDER BY cas_search_key(${outerName}) USING ~<~, id` };
}

/** A LIKE pattern matching values that start with `prefix` literally (its own % _ and \ escaped). */
const likePrefix = (prefix: string): string => `${prefix.replace(/[\\%_]/g, (special) => `\\${special}`)}%`;
