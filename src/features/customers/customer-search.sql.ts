import type { CustomerFilter } from './customer-search.js';
import { CUSTOMER_COLUMNS } from '../../db/sql/columns.js';
import { uuidAfter } from '../../db/sql/sql.js';

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
  if (filter.ssnBlindIndex !== undefined)
    conditions.push(`c.ssn_blind_index = ${parameter(Buffer.from(filter.ssnBlindIndex))}::bytea`);
  // A business's own fields are in its profile (docs/adr/0090): a semi-join on the profile's own indexes.
  if (filter.taxIdBlindIndex !== undefined)
    conditions.push(
      `c.id IN (SELECT b.customer_id FROM business_profiles b WHERE b.environment = $1 AND b.tax_id_blind_index = ${parameter(Buffer.from(filter.taxIdBlindIndex))}::bytea)`,
    );
  if (filter.legalNamePrefix)
    conditions.push(
      `c.id IN (SELECT b.customer_id FROM business_profiles b WHERE b.environment = $1 AND ${prefixRange('b.legal_name', parameter(filter.legalNamePrefix))})`,
    );
  // A verification's status is in its own table (docs/adr/0101): a semi-join on its status index, the review queue's
  // read. A customer without a row there is UNVERIFIED (nothing leads back to it), so that one is the anti-join.
  if (filter.verificationStatus === 'UNVERIFIED')
    conditions.push(
      `NOT EXISTS (SELECT 1 FROM customer_verifications v WHERE v.customer_id = c.id AND v.environment = $1 AND v.status <> 'UNVERIFIED')`,
    );
  else if (filter.verificationStatus !== undefined)
    conditions.push(
      `c.id IN (SELECT v.customer_id FROM customer_verifications v WHERE v.environment = $1 AND v.status = ${parameter(filter.verificationStatus)}::varchar)`,
    );
  if (filter.customerType !== undefined)
    conditions.push(`c.customer_type = ${parameter(filter.customerType)}::varchar`);
  // Archived customers only when asked for; a search by a blind index finds the number's customer whatever its status.
  if (filter.status === 'ARCHIVED') conditions.push('c.archived_at IS NOT NULL');
  else if (filter.status === 'ACTIVE' || (filter.ssnBlindIndex === undefined && filter.taxIdBlindIndex === undefined))
    conditions.push('c.archived_at IS NULL');
  if (filter.lastNamePrefix) conditions.push(prefixRange('c.last_name', parameter(filter.lastNamePrefix)));
  if (filter.firstNamePrefix) conditions.push(prefixRange('c.first_name', parameter(filter.firstNamePrefix)));
  if (filter.email !== undefined)
    conditions.push(`cas_search_emails(c.emails) @> ARRAY[${parameter(filter.email)}::text]`);
  if (filter.phoneKey !== undefined)
    conditions.push(`c.phone_search_keys @> ARRAY[${parameter(filter.phoneKey)}::text]`);
  if (filter.externalId !== undefined) conditions.push(`c.external_id = ${parameter(filter.externalId)}::varchar`);
  if (filter.metadata !== undefined)
    conditions.push(`c.metadata @> ${parameter(JSON.stringify(filter.metadata))}::jsonb`);
  if (filter.dateOfBirth !== undefined) conditions.push(`c.date_of_birth = ${parameter(filter.dateOfBirth)}::date`);
  if (filter.createdFrom !== undefined)
    conditions.push(`c.created_at >= ${parameter(filter.createdFrom)}::timestamptz`);
  if (filter.createdTo !== undefined) conditions.push(`c.created_at < ${parameter(filter.createdTo)}::timestamptz`);
  const nameColumn =
    filter.lastNamePrefix !== undefined ? 'last_name' : filter.firstNamePrefix !== undefined ? 'first_name' : undefined;
  if (nameColumn === undefined) {
    const text = `SELECT ${CUSTOMER_COLUMNS} FROM customers c
    WHERE c.environment = $1 AND ${uuidAfter('c.id', '$3')}${conditions.map((condition) => ` AND ${condition}`).join('')}
    ORDER BY c.id LIMIT $2`;
    return { text, values, outerOrder: 'ORDER BY id' };
  }
  const key = `cas_search_key(c.${nameColumn})`;
  const afterKey = `(SELECT cas_search_key(x.${nameColumn}) FROM customers x WHERE x.id = $3::uuid AND x.environment = $1)`;
  // The cursor's key is a lower bound of the index range too, in any plan: a later page starts where the last one
  // ended instead of filtering from the prefix's first name. A cursor whose customer is gone ends the list.
  const fromKey = `CASE WHEN $3::uuid IS NULL THEN '' ELSE coalesce(${afterKey}, U&'\\+10FFFF') END`;
  // The key comes out as "sortKey" (no reader copies it): a wrapping statement orders by it without folding again.
  const text = `SELECT ${CUSTOMER_COLUMNS}, ${key} AS "sortKey" FROM customers c
    WHERE c.environment = $1 AND ${key} ~>=~ ${fromKey}
      AND ($3::uuid IS NULL OR ${key} ~>~ ${afterKey} OR c.id > $3::uuid)${conditions.map((condition) => ` AND ${condition}`).join('')}
    ORDER BY ${key} USING ~<~, c.id LIMIT $2`;
  return { text, values, outerOrder: 'ORDER BY "sortKey" USING ~<~, id' };
}

/**
 * Names whose folded key starts with the folded prefix, as a range of the name's index in its byte order
 * (migration 20261204050000_name_prefix_ranges): its bounds are index conditions in any plan, generic ones
 * included, where `LIKE $n` is not. Every character of the prefix is literal.
 */
const prefixRange = (column: string, prefix: string): string => {
  const key = `cas_search_key(${column})`;
  const folded = `cas_search_key(${prefix}::text)`;
  return `${key} ~>=~ ${folded} AND ${key} ~<~ cas_prefix_successor(${folded})`;
};
