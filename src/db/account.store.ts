import type { Account } from '../domain/accounts/account.js';
import type { AccountStore, NewAccountRecord, PageRequest } from '../domain/ports.js';
import { idList, type Queryable, queryRows, statement } from './sql.js';

/**
 * An account with its customer ids, in one statement. trim_scale gives the amount as the shortest exact
 * decimal ("0", "12.5"), never a float. ACCOUNT_FIELDS are the columns after the id, in this order
 * (customer.store.ts's linked-records query lines them up with customer columns).
 */
/** The account's customer ids, comma-separated, in the order given at creation (see idList). */
export const CUSTOMER_IDS_OF_ACCOUNT = `array_to_string(ARRAY(SELECT ac.customer_id FROM account_customers ac
                        WHERE ac.account_id = a.id AND ac.environment = a.environment
                        ORDER BY ac.position), ',')`;
export const ACCOUNT_FIELDS = `a.type, a.name, a.currency, trim_scale(a.amount)::text AS amount, coalesce(a.flags, '{}') AS flags,
  ${CUSTOMER_IDS_OF_ACCOUNT} AS customer_ids`;
const ACCOUNT_COLUMNS = `a.id, ${ACCOUNT_FIELDS}`;

export interface AccountRow {
  id: string;
  type: string;
  name: string;
  currency: string;
  amount: string;
  flags: string[];
  /** Comma-separated (see idList). */
  customer_ids: string;
}

export const toAccount = (row: AccountRow): Account => ({
  accountId: row.id,
  type: row.type,
  name: row.name,
  amount: row.amount,
  currency: row.currency,
  customerIds: idList(row.customer_ids),
  transactions: [],
  flags: row.flags,
});

const SQL = {
  // Account and links in one statement (a data-modifying WITH always runs to completion); the links'
  // foreign keys are checked at the statement's end, when the account exists.
  insert: statement(
    'account_insert',
    `WITH account AS (
       INSERT INTO accounts (id, environment, type, name, currency) VALUES ($1, $2, $3, $4, $5)
       RETURNING id, type, name, currency, trim_scale(amount)::text AS amount, coalesce(flags, '{}') AS flags
     ), links AS (
       INSERT INTO account_customers (account_id, customer_id, environment, position)
       SELECT $1, linked.customer_id, $2, linked.ordinality - 1 FROM unnest($6::uuid[]) WITH ORDINALITY AS linked(customer_id, ordinality)
     )
     SELECT account.*, array_to_string($6::uuid[], ',') AS customer_ids FROM account`,
  ),
  findById: statement('account_find_by_id', `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = $1 AND a.environment = $2`),
  findByIds: statement('account_find_by_ids', `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.environment = $1 AND a.id = ANY($2::uuid[])`),
  update: statement(
    'account_update',
    `UPDATE accounts a SET name = $3, currency = $4, updated_at = CURRENT_TIMESTAMP
     WHERE a.id = $1 AND a.environment = $2
     RETURNING ${ACCOUNT_COLUMNS}`,
  ),
  // Links go with the account (ON DELETE CASCADE), in the same statement.
  delete: statement('account_delete', 'DELETE FROM accounts WHERE id = $1 AND environment = $2'),
  listFirst: statement('account_list_first', `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.environment = $1 ORDER BY a.id LIMIT $2`),
  listAfter: statement(
    'account_list_after',
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.environment = $1 AND a.id > $3 ORDER BY a.id LIMIT $2`,
  ),
};

export class PgAccountStore implements AccountStore {
  constructor(private readonly db: Queryable) {}

  /** Must run inside a transaction that has locked the customers (see AccountService.create). */
  async insert(record: NewAccountRecord): Promise<Account> {
    const [row] = await queryRows<AccountRow>(this.db, SQL.insert, [
      record.id,
      record.environment,
      record.type,
      record.name,
      record.currency,
      record.customerIds,
    ]);
    return toAccount(row!);
  }

  async findById(environment: string, id: string): Promise<Account | null> {
    const [row] = await queryRows<AccountRow>(this.db, SQL.findById, [id, environment]);
    return row ? toAccount(row) : null;
  }

  async findByIds(environment: string, ids: readonly string[]): Promise<Account[]> {
    const rows = await queryRows<AccountRow>(this.db, SQL.findByIds, [environment, ids]);
    return rows.map(toAccount);
  }

  async update(environment: string, id: string, changes: { name: string; currency: string }): Promise<Account | null> {
    const [row] = await queryRows<AccountRow>(this.db, SQL.update, [id, environment, changes.name, changes.currency]);
    return row ? toAccount(row) : null;
  }

  async delete(environment: string, id: string): Promise<boolean> {
    const result = await this.db.query({ name: SQL.delete.name, text: SQL.delete.text, values: [id, environment] });
    return (result.rowCount ?? 0) > 0;
  }

  async list(environment: string, page: PageRequest): Promise<Account[]> {
    const rows =
      page.after === undefined
        ? await queryRows<AccountRow>(this.db, SQL.listFirst, [environment, page.first])
        : await queryRows<AccountRow>(this.db, SQL.listAfter, [environment, page.first, page.after]);
    return rows.map(toAccount);
  }
}
