import type pg from 'pg';
import type { Account, AccountLinks } from '../domain/accounts/account.js';
import type { Address, Customer, CustomerLinks, Phone } from '../domain/customers/customer.js';
import { customerAlreadyExists } from '../domain/errors.js';
import type { CustomerChanges, CustomerStore, LinkedIds, LinkedRecords, LinkRoots, NewCustomerRecord, PageRequest } from '../domain/ports.js';
import { ACCOUNT_FIELDS, type AccountRow, CUSTOMER_IDS_OF_ACCOUNT, toAccount } from './account.store.js';
import { isUniqueViolation } from './errors.js';
import { idList, jsonParameter, type Queryable, queryRows, runWrite, type Statement, statement } from './sql.js';

/**
 * The columns a customer read may touch. The encrypted SSN, document locator number and blind index
 * are deliberately absent: what is never selected can never be returned. The account ids come in the
 * same statement (one round trip per read, or per batch of reads).
 */
const ACCOUNT_IDS_OF_CUSTOMER = `array_to_string(ARRAY(SELECT ac.account_id FROM account_customers ac
                        WHERE ac.customer_id = c.id AND ac.environment = c.environment
                        ORDER BY ac.created_at, ac.account_id), ',')`;
const CUSTOMER_FIELDS = `to_char(c.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, c.preferred_name, c.first_name,
  c.middle_name, c.last_name, c.emails, c.phone_numbers, c.addresses, ${ACCOUNT_IDS_OF_CUSTOMER} AS account_ids`;
const CUSTOMER_COLUMNS = `c.id, ${CUSTOMER_FIELDS}`;

/** Padding so customer and account rows share one result (same count, order and types as the *_FIELDS). */
const NO_CUSTOMER_FIELDS = 'NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text[], NULL::jsonb, NULL::jsonb, NULL::text';
const NO_ACCOUNT_FIELDS =
  'NULL::varchar AS type, NULL::text AS name, NULL::bpchar AS currency, NULL::text AS amount, NULL::text[] AS flags, NULL::text AS customer_ids';

interface CustomerRow {
  id: string;
  date_of_birth: string;
  preferred_name: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  emails: string[];
  phone_numbers: unknown;
  addresses: unknown;
  /** Comma-separated (see idList). */
  account_ids: string;
}

const toCustomer = (row: CustomerRow): Customer => ({
  customerId: row.id,
  accountIds: idList(row.account_ids),
  preferredName: row.preferred_name,
  firstName: row.first_name,
  middleName: row.middle_name,
  lastName: row.last_name,
  dateOfBirth: row.date_of_birth,
  emails: row.emails,
  // Only this store writes these columns, from validated domain values.
  phoneNumbers: row.phone_numbers as Phone[],
  addresses: row.addresses as Address[],
});

/** The records reached from customer ids $2 and account ids $3 (environment $1) within $4 links: `walk(kind, id, depth)`. */
const LINK_WALK = `WITH RECURSIVE walk(kind, id, depth) AS (
         SELECT roots.kind, roots.id, 0
         FROM (SELECT 'c' AS kind, unnest($2::uuid[]) AS id UNION ALL SELECT 'a', unnest($3::uuid[])) AS roots
       UNION
         SELECT step.kind, step.id, walk.depth + 1
         FROM walk CROSS JOIN LATERAL (
             SELECT 'a' AS kind, ac.account_id AS id FROM account_customers ac
             WHERE walk.kind = 'c' AND ac.customer_id = walk.id AND ac.environment = $1
           UNION ALL
             SELECT 'c', ac.customer_id FROM account_customers ac
             WHERE walk.kind = 'a' AND ac.account_id = walk.id AND ac.environment = $1
         ) AS step
         WHERE walk.depth < $4
     )`;

const SQL = {
  insert: statement(
    'customer_insert',
    `INSERT INTO customers (id, environment, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id,
                            date_of_birth, preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses)
     VALUES ($1, $2, $3, $4, $5, $6, $7::date, $8, $9, $10, $11, $12::text[], $13::jsonb, $14::jsonb)`,
  ),
  findById: statement('customer_find_by_id', `SELECT ${CUSTOMER_COLUMNS} FROM customers c WHERE c.id = $1 AND c.environment = $2`),
  findByIds: statement('customer_find_by_ids', `SELECT ${CUSTOMER_COLUMNS} FROM customers c WHERE c.environment = $1 AND c.id = ANY($2::uuid[])`),
  // An absent change is NULL and keeps the stored value (the domain never sets these fields to null).
  update: statement(
    'customer_update',
    `UPDATE customers c SET preferred_name = coalesce($3, c.preferred_name), emails = coalesce($4::text[], c.emails),
            phone_numbers = coalesce($5::jsonb, c.phone_numbers), addresses = coalesce($6::jsonb, c.addresses),
            updated_at = CURRENT_TIMESTAMP
     WHERE c.id = $1 AND c.environment = $2
     RETURNING ${CUSTOMER_COLUMNS}`,
  ),
  lockForDeletion: statement('customer_lock_for_deletion', 'SELECT id FROM customers WHERE id = $1 AND environment = $2 FOR UPDATE'),
  countLinkedAccounts: statement(
    'customer_count_linked_accounts',
    'SELECT count(*)::int AS count FROM account_customers WHERE customer_id = $1 AND environment = $2',
  ),
  delete: statement('customer_delete', 'DELETE FROM customers WHERE id = $1 AND environment = $2'),
  // FOR KEY SHARE blocks deletion (FOR UPDATE) but not contact-field updates; sorted to avoid deadlocks.
  lockForLinking: statement(
    'customer_lock_for_linking',
    'SELECT id FROM customers WHERE environment = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR KEY SHARE',
  ),
  listFirst: statement('customer_list_first', `SELECT ${CUSTOMER_COLUMNS} FROM customers c WHERE c.environment = $1 ORDER BY c.id LIMIT $2`),
  /**
   * Walks the links breadth-first from the roots up to $4 links (each record once per depth), then reads
   * every record reached: customers and accounts in one result, told apart by `kind`.
   */
  linkedRecords: statement(
    'customer_linked_records',
    `${LINK_WALK}
     SELECT 'c' AS kind, ${CUSTOMER_COLUMNS}, ${NO_ACCOUNT_FIELDS}
     FROM customers c WHERE c.environment = $1 AND c.id IN (SELECT id FROM walk WHERE kind = 'c')
     UNION ALL
     SELECT 'a', a.id, ${NO_CUSTOMER_FIELDS}, ${ACCOUNT_FIELDS}
     FROM accounts a WHERE a.environment = $1 AND a.id IN (SELECT id FROM walk WHERE kind = 'a')`,
  ),
  /** The same walk and records, only their ids and links: nothing personal, and a fraction of the work. */
  linkedIds: statement(
    'customer_linked_ids',
    `${LINK_WALK}
     SELECT 'c' AS kind, c.id, ${ACCOUNT_IDS_OF_CUSTOMER} AS links
     FROM customers c WHERE c.environment = $1 AND c.id IN (SELECT id FROM walk WHERE kind = 'c')
     UNION ALL
     SELECT 'a', a.id, ${CUSTOMER_IDS_OF_ACCOUNT}
     FROM accounts a WHERE a.environment = $1 AND a.id IN (SELECT id FROM walk WHERE kind = 'a')`,
  ),
  listAfter: statement(
    'customer_list_after',
    `SELECT ${CUSTOMER_COLUMNS} FROM customers c WHERE c.environment = $1 AND c.id > $3 ORDER BY c.id LIMIT $2`,
  ),
};

export class PgCustomerStore implements CustomerStore {
  constructor(private readonly db: Queryable) {}

  async insert(record: NewCustomerRecord): Promise<void> {
    await runWrite(this.db, {
      statement: SQL.insert,
      values: [
        record.id,
        record.environment,
        Buffer.from(record.sealed.ssnBlindIndex),
        Buffer.from(record.sealed.ssnCiphertext),
        Buffer.from(record.sealed.documentLocatorNumberCiphertext),
        record.sealed.keyId,
        record.dateOfBirth,
        record.preferredName,
        record.firstName,
        record.middleName,
        record.lastName,
        record.emails,
        jsonParameter(record.phoneNumbers),
        jsonParameter(record.addresses),
      ],
      // The only unique key a new row can clash on is (environment, ssn_blind_index): ids are fresh UUIDs.
      translate: (error) => (isUniqueViolation(error) && (error as { table?: unknown }).table === 'customers' ? customerAlreadyExists() : undefined),
    });
  }

  async findById(environment: string, id: string): Promise<Customer | null> {
    const [row] = await queryRows<CustomerRow>(this.db, SQL.findById, [id, environment]);
    return row ? toCustomer(row) : null;
  }

  async findByIds(environment: string, ids: readonly string[]): Promise<Customer[]> {
    const rows = await queryRows<CustomerRow>(this.db, SQL.findByIds, [environment, ids]);
    return rows.map(toCustomer);
  }

  async update(environment: string, id: string, changes: CustomerChanges): Promise<Customer | null> {
    const [row] = await queryRows<CustomerRow>(this.db, SQL.update, [
      id,
      environment,
      changes.preferredName ?? null,
      changes.emails ?? null,
      changes.phoneNumbers === undefined ? null : jsonParameter(changes.phoneNumbers),
      changes.addresses === undefined ? null : jsonParameter(changes.addresses),
    ]);
    return row ? toCustomer(row) : null;
  }

  async lockForDeletion(environment: string, id: string): Promise<boolean> {
    const rows = await queryRows(this.db, SQL.lockForDeletion, [id, environment]);
    return rows.length > 0;
  }

  async countLinkedAccounts(environment: string, id: string): Promise<number> {
    const [row] = await queryRows<{ count: number }>(this.db, SQL.countLinkedAccounts, [id, environment]);
    return row!.count;
  }

  async delete(environment: string, id: string): Promise<void> {
    await queryRows(this.db, SQL.delete, [id, environment]);
  }

  async lockForLinking(environment: string, ids: readonly string[]): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(this.db, SQL.lockForLinking, [environment, ids]);
    return rows.map((row) => row.id);
  }

  async findLinkedRecords(environment: string, roots: LinkRoots, depth: number): Promise<LinkedRecords> {
    return this.walkLinks<CustomerRow & AccountRow, Customer, Account>(SQL.linkedRecords, environment, roots, depth, toCustomer, toAccount);
  }

  async findLinkedIds(environment: string, roots: LinkRoots, depth: number): Promise<LinkedIds> {
    return this.walkLinks<{ id: string; links: string }, CustomerLinks, AccountLinks>(
      SQL.linkedIds,
      environment,
      roots,
      depth,
      (row) => ({ customerId: row.id, accountIds: idList(row.links) }),
      (row) => ({ accountId: row.id, customerIds: idList(row.links) }),
    );
  }

  /** Runs one of the two link walks (their rows say `kind` 'c' or 'a') and sorts what it found by kind. */
  private async walkLinks<R extends pg.QueryResultRow, C, A>(
    walk: Statement,
    environment: string,
    roots: LinkRoots,
    depth: number,
    toCustomerResult: (row: R) => C,
    toAccountResult: (row: R) => A,
  ): Promise<{ customers: C[]; accounts: A[] }> {
    const rows = await queryRows<{ kind: 'c' | 'a' } & R>(this.db, walk, [environment, roots.customerIds, roots.accountIds, depth]);
    const linked: { customers: C[]; accounts: A[] } = { customers: [], accounts: [] };
    for (const row of rows) {
      if (row.kind === 'c') linked.customers.push(toCustomerResult(row));
      else linked.accounts.push(toAccountResult(row));
    }
    return linked;
  }

  async list(environment: string, page: PageRequest): Promise<Customer[]> {
    const rows =
      page.after === undefined
        ? await queryRows<CustomerRow>(this.db, SQL.listFirst, [environment, page.first])
        : await queryRows<CustomerRow>(this.db, SQL.listAfter, [environment, page.first, page.after]);
    return rows.map(toCustomer);
  }
}
