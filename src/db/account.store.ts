import type { Account } from '../domain/accounts/account.js';
import { idempotencyKeyInProgress } from '../domain/errors.js';
import type { AccountCreation, AccountStore, CreationEffects, NewAccountRecord, PageRequest, WriteEffects } from '../domain/ports.js';
import { ACCOUNT_COLUMNS, type AccountRow, toAccount } from './columns.js';
import { isLockTimeout } from './errors.js';
import { CoalescedReads } from './coalesced-reads.js';
import type { PrismaClient } from './prisma-client.js';
import { idList, queryRows, statement } from './sql.js';
import { auditInsert, auditValues, claimQueries, claimValues, DEFAULT_IDEMPOTENCY_WAIT_MS } from './write-effects.js';

/**
 * The account, its links, its audit event ($7…) and, with a key, the key's record ($16…), in one
 * statement, written only when every customer ($6, in order) exists in the environment. The customers
 * are locked FOR KEY SHARE until the statement commits (deletion needs FOR UPDATE), and the links'
 * foreign keys are checked when the statement ends. Raw SQL: the typed API cannot make this one statement.
 */
const insertSql = (withKey: boolean) =>
  `WITH wanted AS (SELECT linked.id, linked.ordinality FROM unnest($6::uuid[]) WITH ORDINALITY AS linked(id, ordinality)),
     found AS (SELECT c.id FROM customers c WHERE c.environment = $2::varchar AND c.id = ANY($6::uuid[]) ORDER BY c.id FOR KEY SHARE),
     missing AS (SELECT wanted.id, wanted.ordinality FROM wanted WHERE wanted.id NOT IN (SELECT found.id FROM found)),
     ${withKey ? `${claimQueries(16, 'NOT EXISTS (SELECT 1 FROM missing)')},` : ''}
     account AS (
       INSERT INTO accounts (id, environment, type, name, currency)
       SELECT $1::uuid, $2::varchar, $3::varchar, $4::text, $5::bpchar ${withKey ? 'FROM claimed' : 'WHERE NOT EXISTS (SELECT 1 FROM missing)'}
       RETURNING id
     ), links AS (
       INSERT INTO account_customers (account_id, customer_id, environment, position)
       SELECT account.id, wanted.id, $2::varchar, wanted.ordinality - 1 FROM account CROSS JOIN wanted
     ), audit AS (${auditInsert(7, 'account')})
   SELECT (SELECT count(*)::int FROM account) AS created, array_to_string(ARRAY(SELECT id FROM missing ORDER BY ordinality), ',') AS missing`;

const SQL = {
  insert: statement('account_insert', insertSql(false)),
  insertWithKey: statement('account_insert_with_key', insertSql(true)),
  // Hot reads (every GET, coalesced across concurrent requests, and every GraphQL loader batch): one statement with the customer ids, named.
  findByIds: statement('account_find_by_ids', `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.environment = $1 AND a.id = ANY($2::uuid[])`),
  update: statement(
    'account_update',
    `WITH updated AS (
       UPDATE accounts a SET name = $3::text, currency = $4::bpchar, updated_at = CURRENT_TIMESTAMP
       WHERE a.id = $1::uuid AND a.environment = $2
       RETURNING ${ACCOUNT_COLUMNS}
     ), audit AS (${auditInsert(5, 'updated')})
     SELECT * FROM updated`,
  ),
  // Links go with the account (ON DELETE CASCADE), in the same statement.
  delete: statement(
    'account_delete',
    `WITH deleted AS (DELETE FROM accounts WHERE id = $1::uuid AND environment = $2 RETURNING id),
          audit AS (${auditInsert(3, 'deleted')})
     SELECT count(*)::int AS deleted FROM deleted`,
  ),
};

/** Accounts on PostgreSQL, through Prisma Client. */
export class PrismaAccountStore implements AccountStore {
  private readonly byId = new CoalescedReads<Account>((environment, ids) => this.findByIds(environment, ids), (account) => account.accountId);

  constructor(
    private readonly prisma: PrismaClient,
    private readonly idempotencyWaitMs = DEFAULT_IDEMPOTENCY_WAIT_MS,
  ) {}

  async insert(record: NewAccountRecord, effects: CreationEffects): Promise<AccountCreation> {
    const values = [record.id, record.environment, record.type, record.name, record.currency, record.customerIds, ...auditValues(effects.audit)];
    let row: { created: number; missing: string } | undefined;
    try {
      [row] = effects.idempotency
        ? await queryRows<{ created: number; missing: string }>(this.prisma, SQL.insertWithKey, [...values, ...claimValues(effects.idempotency, this.idempotencyWaitMs)])
        : await queryRows<{ created: number; missing: string }>(this.prisma, SQL.insert, values);
    } catch (error) {
      if (effects.idempotency && isLockTimeout(error)) throw idempotencyKeyInProgress();
      throw error;
    }
    const missing = idList(row!.missing);
    if (missing.length > 0) return { outcome: 'customers-missing', missing };
    return { outcome: row!.created > 0 ? 'created' : 'key-taken' };
  }

  /** Coalesced with concurrent look-ups into one findByIds statement (src/db/coalesced-reads.ts). */
  findById(environment: string, id: string): Promise<Account | null> {
    return this.byId.load(environment, id.toLowerCase());
  }

  async findByIds(environment: string, ids: readonly string[]): Promise<Account[]> {
    const rows = await queryRows<AccountRow>(this.prisma, SQL.findByIds, [environment, ids]);
    return rows.map(toAccount);
  }

  async update(environment: string, id: string, changes: { name: string; currency: string }, effects: WriteEffects): Promise<Account | null> {
    const [row] = await queryRows<AccountRow>(this.prisma, SQL.update, [id, environment, changes.name, changes.currency, ...auditValues(effects.audit)]);
    return row ? toAccount(row) : null;
  }

  async delete(environment: string, id: string, effects: WriteEffects): Promise<boolean> {
    const [row] = await queryRows<{ deleted: number }>(this.prisma, SQL.delete, [id, environment, ...auditValues(effects.audit)]);
    return row!.deleted > 0;
  }

  /** A page in id order: the typed API (two statements: accounts, then their links), rare enough not to matter. */
  async list(environment: string, page: PageRequest): Promise<Account[]> {
    const accounts = await this.prisma.account.findMany({
      where: { environment, ...(page.after === undefined ? {} : { id: { gt: page.after } }) },
      orderBy: { id: 'asc' },
      take: page.first,
      select: { id: true, type: true, name: true, currency: true, amount: true, flags: true, customerLinks: { select: { customerId: true }, orderBy: { position: 'asc' } } },
    });
    return accounts.map((account) => ({
      accountId: account.id,
      type: account.type,
      name: account.name,
      // Prisma's Decimal prints the exact value in its shortest form ("0", "12.5"), as trim_scale does.
      amount: account.amount.toFixed(),
      currency: account.currency,
      customerIds: account.customerLinks.map((link) => link.customerId),
      transactions: [],
      flags: account.flags,
    }));
  }
}
