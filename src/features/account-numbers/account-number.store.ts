import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { violatedUniqueIndex } from '../../db/sql/errors.js';
import { queryRows, statement } from '../../db/sql/sql.js';
import { auditInsert, auditValues } from '../../db/sql/write-effects.js';
import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { AccountNumberStatus, InboundAchDebits } from './account-number.js';
import type {
  AccountNumberInsertion,
  AccountNumberStore,
  AccountNumberUpdate,
  NewAccountNumberRow,
  SealedAccountNumberRecord,
} from './ports.js';

/** Unique per environment (migration 20261213030000_account_numbers): a number drawn twice is drawn again. */
export const ACCOUNT_NUMBER_UNIQUE_INDEX = 'account_numbers_environment_number_blind_index_key';

/** An account number as it is read (alias `n`): its sealed digits and key id, its last four, its controls. */
const COLUMNS = `n.id::text AS "accountNumberId", n.account_id::text AS "accountId", n.last4, n.status, n.inbound_ach_debits AS "inboundAchDebits",
  n.pii_key_id AS "keyId", n.number_ciphertext AS "ciphertext",
  to_char(n.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  to_char(n.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"`;

/**
 * The INSERT of an account's number as a WITH query over `source` (a query yielding the account's `id`), its values
 * from $first: id, key id, ciphertext, blind index, last four, inbound ACH debits. Account creation puts it in its own statement
 * (src/features/accounts/account.store.ts), so an account never exists without its number.
 */
export const accountNumberInsert = (first: number, environment: string, source: string): string => {
  const p = (n: number) => `$${first + n}`;
  return `INSERT INTO account_numbers (id, environment, account_id, pii_key_id, number_ciphertext, number_blind_index, last4, inbound_ach_debits)
       SELECT ${p(0)}::uuid, ${environment}, ${source}.id, ${p(1)}::varchar, ${p(2)}::bytea, ${p(3)}::bytea, ${p(4)}::bpchar, ${p(5)}::varchar FROM ${source}
       RETURNING *`;
};

/** accountNumberInsert's values, in order. */
export const accountNumberValues = (row: NewAccountNumberRow): unknown[] => [
  row.id,
  row.keyId,
  Buffer.from(row.ciphertext),
  Buffer.from(row.blindIndex),
  row.last4,
  row.inboundAchDebits ?? 'ALLOWED',
];

const SQL = {
  // The account held FOR KEY SHARE (its deletion waits), the number ($3…$8), its audit row ($9…). No event (docs/adr/0107).
  insert: statement(
    'account_number_insert',
    `WITH account AS (SELECT a.id FROM accounts a WHERE a.id = $2::uuid AND a.environment = $1::varchar FOR KEY SHARE),
     number AS (${accountNumberInsert(3, '$1::varchar', 'account')}),
     audit AS (${auditInsert(9, 'number')})
   SELECT (SELECT count(*)::int FROM account) AS found, ${COLUMNS} FROM (SELECT 1) one LEFT JOIN number n ON true`,
  ),
  // The row locked; changed ($4 status, $5 inbound ACH debits; NULL keeps) unless CANCELED (final); audited ($6…).
  update: statement(
    'account_number_update',
    `WITH target AS MATERIALIZED (
       SELECT n.id, n.status, n.inbound_ach_debits FROM account_numbers n
        WHERE n.id = $3::uuid AND n.account_id = $2::uuid AND n.environment = $1 FOR NO KEY UPDATE
     ), changed AS (
       UPDATE account_numbers n SET status = coalesce($4::varchar, n.status),
              inbound_ach_debits = coalesce($5::varchar, n.inbound_ach_debits), updated_at = CURRENT_TIMESTAMP
         FROM target t WHERE n.id = t.id AND t.status <> 'CANCELED'
       RETURNING n.*
     ), audit AS (${auditInsert(6, 'changed')})
   SELECT (SELECT count(*)::int FROM target) AS found, (SELECT t.status FROM target t) AS "previousStatus",
          (SELECT t.inbound_ach_debits FROM target t) AS "previousInboundAchDebits", ${COLUMNS}
     FROM (SELECT 1) one LEFT JOIN changed n ON true`,
  ),
  list: statement(
    'account_number_list',
    `SELECT EXISTS (SELECT 1 FROM accounts a WHERE a.id = $2::uuid AND a.environment = $1) AS found, ${COLUMNS}
       FROM (SELECT 1) one
       LEFT JOIN LATERAL (
         SELECT * FROM account_numbers k WHERE k.environment = $1 AND k.account_id = $2::uuid
       ) n ON true
      ORDER BY n.created_at, n.id`,
  ),
  listOfMany: statement(
    'account_number_list_of_many',
    `SELECT ${COLUMNS} FROM account_numbers n WHERE n.environment = $1 AND n.account_id = ANY($2::uuid[])
      ORDER BY n.account_id, n.created_at, n.id`,
  ),
  findByBlindIndex: statement(
    'account_number_find_by_blind_index',
    `SELECT ${COLUMNS} FROM account_numbers n WHERE n.environment = $1 AND n.number_blind_index = $2::bytea`,
  ),
  audit: statement('account_number_audit', auditInsert(1, '(SELECT 1) AS audited')),
};

type Row = Omit<SealedAccountNumberRecord, 'accountNumberId'> & { accountNumberId: string | null };

const toRecord = (row: Row): SealedAccountNumberRecord => ({
  accountNumberId: row.accountNumberId!,
  accountId: row.accountId,
  last4: row.last4,
  status: row.status,
  inboundAchDebits: row.inboundAchDebits,
  keyId: row.keyId,
  ciphertext: row.ciphertext,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** Account numbers on PostgreSQL (docs/adr/0107): one statement per write, its audit row in it. */
export class PrismaAccountNumberStore implements AccountNumberStore {
  constructor(private readonly prisma: PrismaClient) {}

  async listSealed(environment: string, accountId: string): Promise<SealedAccountNumberRecord[] | null> {
    const rows = await queryRows<Row & { found: boolean }>(this.prisma, SQL.list, [environment, accountId]);
    if (!rows[0]!.found) return null;
    return rows.filter((row) => row.accountNumberId !== null).map(toRecord);
  }

  async listOfMany(environment: string, accountIds: readonly string[]): Promise<SealedAccountNumberRecord[][]> {
    const rows = await queryRows<Row>(this.prisma, SQL.listOfMany, [environment, [...accountIds]]);
    const byAccount = new Map<string, SealedAccountNumberRecord[]>();
    for (const row of rows) {
      const list = byAccount.get(row.accountId);
      if (list) list.push(toRecord(row));
      else byAccount.set(row.accountId, [toRecord(row)]);
    }
    return accountIds.map((id) => byAccount.get(id) ?? []);
  }

  async insert(
    environment: string,
    accountId: string,
    row: NewAccountNumberRow,
    audit: NewAuditEvent,
  ): Promise<AccountNumberInsertion> {
    let result: (Row & { found: number }) | undefined;
    try {
      [result] = await queryRows<Row & { found: number }>(this.prisma, SQL.insert, [
        environment,
        accountId,
        ...accountNumberValues(row),
        ...auditValues(audit),
      ]);
    } catch (error) {
      if (violatedUniqueIndex(error) === ACCOUNT_NUMBER_UNIQUE_INDEX) return { outcome: 'number-taken' };
      throw error;
    }
    if (result!.found === 0) return { outcome: 'account-not-found' };
    return { outcome: 'created', accountNumber: toRecord(result!) };
  }

  async update(
    environment: string,
    accountId: string,
    accountNumberId: string,
    changes: { status?: AccountNumberStatus; inboundAchDebits?: InboundAchDebits },
    audit: NewAuditEvent,
  ): Promise<AccountNumberUpdate> {
    const [row] = await queryRows<
      Row & { found: number; previousStatus: string | null; previousInboundAchDebits: string | null }
    >(this.prisma, SQL.update, [
      environment,
      accountId,
      accountNumberId,
      changes.status ?? null,
      changes.inboundAchDebits ?? null,
      ...auditValues(audit),
    ]);
    if (row!.found === 0) return { outcome: 'not-found' };
    if (row!.accountNumberId === null) return { outcome: 'canceled' };
    const changed = row!.status !== row!.previousStatus || row!.inboundAchDebits !== row!.previousInboundAchDebits;
    return { outcome: 'updated', accountNumber: toRecord(row!), changed };
  }

  async findByBlindIndex(environment: string, blindIndex: Uint8Array): Promise<SealedAccountNumberRecord | null> {
    const [row] = await queryRows<Row>(this.prisma, SQL.findByBlindIndex, [environment, Buffer.from(blindIndex)]);
    return row ? toRecord(row) : null;
  }

  async audit(audit: NewAuditEvent): Promise<void> {
    await queryRows(this.prisma, SQL.audit, auditValues(audit));
  }
}
