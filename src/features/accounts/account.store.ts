import {
  type Account,
  type AccountFlag,
  type AccountFlagDetail,
  type AccountRole,
  type FlagLift,
  type FlagSetting,
  INDIVIDUAL_ONLY_ROLES,
} from './account.js';
import { externalIdTaken, idempotencyKeyInProgress, productMismatch, validationFailed } from '../../domain/errors.js';
import type {
  AccountChange,
  AccountChanges,
  AccountCreation,
  AccountDeletion,
  AccountStore,
  AccountUpdate,
  ExpiredFlag,
  NewAccountRecord,
} from './ports.js';
import { TOO_MANY_METADATA_KEYS } from '../../domain/metadata.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { CreationEffects, WriteEffects } from '../../domain/write-effects.js';
import { ACCOUNT_COLUMNS, type AccountRow, toAccount } from '../../db/sql/columns.js';
import {
  isAccountCustomerLimit,
  isCustomerAccountLimit,
  isLockTimeout,
  violatedCheck,
  violatedUniqueIndex,
} from '../../db/sql/errors.js';
import { CoalescedReads } from '../../db/sql/coalesced-reads.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { idList, jsonParameter, queryRows, statement, uuidAfter } from '../../db/sql/sql.js';
import {
  auditChangedFields,
  auditInsert,
  auditInsertOfCall,
  auditValues,
  claimQueries,
  claimValues,
  DEFAULT_IDEMPOTENCY_WAIT_MS,
  eventInsert,
} from '../../db/sql/write-effects.js';
import { accountSearchSql } from './account-search.sql.js';
import { ACCOUNT_NUMBER_UNIQUE_INDEX, accountNumberInsert, accountNumberValues } from '../account-numbers/index.js';
import type { AccountFilter } from './account-search.js';

/**
 * The account (its externalId $7 and metadata $8), its links, its first account number (docs/adr/0107), its audit
 * event ($9…) and, with a key, the key's record ($18…), in one statement, written only when every customer ($6, in
 * order) exists in the environment. The customers are locked FOR KEY SHARE until the statement commits (deletion
 * needs FOR UPDATE), and the links' foreign keys are checked when the statement ends, as is the limit of accounts
 * per customer (the links' trigger, migration 20261203010000_customer_account_cap: SQLSTATE LC001 undoes the whole
 * statement). Raw SQL: the typed API cannot make this one statement.
 */
/** The client's own id, unique per environment (migration 20261204000000_external_ids_and_metadata). */
const EXTERNAL_ID_UNIQUE_INDEX = 'accounts_environment_external_id_key';
/** At most METADATA_LIMITS.keys metadata keys, counted by the database on what an update's merge leaves. */
const METADATA_KEYS_CHECK = 'accounts_metadata_keys';
/** An account on a product keeps its type and currency (migration 20261215010000: a trigger, docs/adr/0112). */
const PRODUCT_MATCH_CHECK = 'accounts_match_their_product';
/** A new account as the reads select it (ACCOUNT_COLUMNS): its links are written by the same statement, so not yet readable in it. */
const newAccountPayload = (
  productParameter: string,
) => `jsonb_build_object('id', x.id, 'type', $3::varchar, 'name', $4::text, 'currency', $5::bpchar, 'amount', '0', 'flags', '[]'::jsonb,
  'customerIds', array_to_string($6::uuid[], ','), 'pending', '0', 'available', '0', 'overdraftLimit', '0', 'transactions', '[]'::jsonb, 'transactionCount', 0,
  'accountVersion', 1, 'externalId', $7::varchar, 'metadata', $8::jsonb, 'productCode', ${productParameter},
  'customerRoles', CASE WHEN 'OWNER' = ALL($9::varchar[]) THEN NULL ELSE array_to_string($9::varchar[], ',') END)`;

/**
 * Every customer exists, may hold its role, and is not archived (docs/adr/0106): an archived customer opens no account.
 * Its row is held FOR KEY SHARE, which an archive's FOR UPDATE waits for (and the other way round).
 */
const OPENABLE =
  'NOT EXISTS (SELECT 1 FROM missing) AND NOT EXISTS (SELECT 1 FROM ineligible) AND NOT EXISTS (SELECT 1 FROM archived)';

/**
 * The roles ($9, one per customer of $6, in the same order) are written with the links; a role only a person may
 * hold, given to a BUSINESS customer, writes nothing (`ineligible`), as a missing customer does.
 */
/**
 * The product's code (docs/adr/0112, NULL: none) is the statement's last parameter: after the audit row's, the key's
 * ($19…$26) and the number's (six).
 */
const productParameterOf = (withKey: boolean) => `$${19 + (withKey ? 8 : 0) + 6}::varchar`;

const insertSql = (withKey: boolean) =>
  `WITH wanted AS (SELECT linked.id, linked.role, linked.ordinality FROM unnest($6::uuid[], $9::varchar[]) WITH ORDINALITY AS linked(id, role, ordinality)),
     found AS (SELECT c.id, c.customer_type, c.archived_at FROM customers c WHERE c.environment = $2::varchar AND c.id = ANY($6::uuid[]) ORDER BY c.id FOR KEY SHARE),
     archived AS (SELECT found.id FROM found WHERE found.archived_at IS NOT NULL),
     missing AS (SELECT wanted.id, wanted.ordinality FROM wanted WHERE wanted.id NOT IN (SELECT found.id FROM found)),
     ineligible AS (
       SELECT wanted.id, wanted.ordinality FROM wanted JOIN found ON found.id = wanted.id
       WHERE wanted.role = ANY(${INDIVIDUAL_ONLY}) AND found.customer_type <> 'INDIVIDUAL'
     ),
     ${withKey ? `${claimQueries(19, `${OPENABLE}`)},` : ''}
     account AS (
       INSERT INTO accounts (id, environment, type, name, currency, external_id, metadata, product_code)
       SELECT $1::uuid, $2::varchar, $3::varchar, $4::text, $5::bpchar, $7::varchar, $8::jsonb, ${productParameterOf(withKey)} ${withKey ? 'FROM claimed' : `WHERE ${OPENABLE}`}
       RETURNING id
     ), links AS (
       INSERT INTO account_customers (account_id, customer_id, environment, position, role)
       SELECT account.id, wanted.id, $2::varchar, wanted.ordinality - 1, wanted.role FROM account CROSS JOIN wanted
     ), number AS (${accountNumberInsert(withKey ? 27 : 19, '$2::varchar', 'account')}),
     audit AS (${auditInsert(10, 'account')}),
     event AS (${eventInsert('$2::varchar', 'account', { type: "'account.created'", resourceType: 'account', resourceId: 'x.id', payload: newAccountPayload(productParameterOf(withKey)), changedFields: auditChangedFields(10) })})
   SELECT (SELECT count(*)::int FROM account) AS created, array_to_string(ARRAY(SELECT id FROM missing ORDER BY ordinality), ',') AS missing,
          array_to_string(ARRAY(SELECT id FROM ineligible ORDER BY ordinality), ',') AS ineligible,
          (SELECT count(*)::int FROM archived) AS archived`;

/** An account changed in place (name, currency, flags, overdraft limit): the account as it is now. */
const accountUpdated = (auditFirst: number) => ({
  type: "'account.updated'",
  resourceType: 'account',
  resourceId: 'x.id',
  payload: 'to_jsonb(x)',
  changedFields: auditChangedFields(auditFirst),
});
const HOLDER_PAYLOAD = "jsonb_build_object('accountId', x.account_id, 'customerId', x.customer_id)";
/** A role change's event: the link with its new role (docs/events.md). */
const RELATIONSHIP_PAYLOAD =
  "jsonb_build_object('accountId', x.account_id, 'customerId', x.customer_id, 'role', x.role)";
/** The roles only a person may hold, as a SQL array. */
const INDIVIDUAL_ONLY = `ARRAY[${INDIVIDUAL_ONLY_ROLES.map((role) => `'${role}'`).join(', ')}]::varchar[]`;

const SQL = {
  // Every account with its first number (docs/adr/0107: $19… without a key, $27… with one), in the same statement.
  // Named as when the number was optional: test/db/prisma-stores.test.ts and docs/adr/0107 name them.
  insertWithNumber: statement('account_insert_with_number', insertSql(false)),
  insertWithKeyAndNumber: statement('account_insert_with_key_and_number', insertSql(true)),
  // Hot reads (every GET, coalesced across concurrent requests, and every GraphQL loader batch): one statement with the customer ids, named.
  findByIds: statement(
    'account_find_by_ids',
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.environment = $1 AND a.id = ANY($2::uuid[])`,
  ),
  // The currency stays once the account has ledger entries (docs/adr/0027-double-entry-ledger.md): checked on the
  // locked row, so a posting running at the same time cannot slip between the check and the change. So are the
  // expected versions ($18, NULL: unconditional; src/domain/versions.ts). The external id changes when $5 says
  // so ($6; NULL clears it); metadata as the customer update's ($7 merged, $8 clears).
  update: statement(
    'account_update',
    `WITH target AS MATERIALIZED (
       SELECT a.id, (a.currency = $4::bpchar OR a.entry_count = 0) AS allowed, ($18::int[] IS NULL OR a.version = ANY($18::int[])) AS current
       FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2 FOR NO KEY UPDATE
     ), updated AS (
       UPDATE accounts a SET name = $3::text, currency = $4::bpchar,
              external_id = CASE WHEN $5::boolean THEN $6::varchar ELSE a.external_id END,
              metadata = CASE WHEN $8::boolean THEN NULL WHEN $7::jsonb IS NULL THEN a.metadata
                              ELSE nullif(jsonb_strip_nulls(coalesce(a.metadata, '{}'::jsonb) || $7::jsonb), '{}'::jsonb) END,
              updated_at = CURRENT_TIMESTAMP
       FROM target t WHERE a.id = t.id AND t.allowed AND t.current
       RETURNING ${ACCOUNT_COLUMNS}
     ), audit AS (${auditInsert(9, 'updated')}),
     event AS (${eventInsert('$2::varchar', 'updated', accountUpdated(9))})
     SELECT (SELECT count(*)::int FROM target) AS found, (SELECT count(*)::int FROM target WHERE NOT current) AS stale, updated.*
     FROM (SELECT 1) one LEFT JOIN updated ON true`,
  ),
  // Only an empty account goes: zero posted balance, no hold either way. Its links go with it (ON DELETE
  // CASCADE); its ledger entries stay (no foreign key), as the audit trail does.
  delete: statement(
    'account_delete',
    `WITH target AS MATERIALIZED (
       SELECT a.id, (a.amount = 0 AND a.pending_debits = 0 AND a.pending_credits = 0) AS empty,
              ($12::int[] IS NULL OR a.version = ANY($12::int[])) AS current
       FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2 FOR UPDATE
     ), deleted AS (DELETE FROM accounts a USING target t WHERE a.id = t.id AND t.empty AND t.current RETURNING a.id),
          audit AS (${auditInsert(3, 'deleted')}),
          event AS (${eventInsert('$2::varchar', 'deleted', { type: "'account.deleted'", resourceType: 'account', resourceId: 'x.id', payload: "jsonb_build_object('id', x.id)" })})
     SELECT (SELECT count(*)::int FROM target) AS found, (SELECT count(*)::int FROM target WHERE NOT current) AS stale,
            (SELECT count(*)::int FROM deleted) AS deleted`,
  ),
  list: statement(
    'account_list',
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.environment = $1 AND ${uuidAfter('a.id', '$2')} ORDER BY a.id LIMIT $3`,
  ),
  // The account is locked first (as a posting does), so two changes of its customers run one after the other.
  // The role ($14) is written with the link; a customer already linked with another role is left as it is (the
  // role changes by setRole), and a role only a person may hold is refused to a BUSINESS customer.
  addCustomer: statement(
    'account_add_customer',
    `WITH target AS MATERIALIZED (SELECT a.id FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2 FOR NO KEY UPDATE),
     customer AS MATERIALIZED (
       SELECT c.id, NOT ($14::varchar = ANY(${INDIVIDUAL_ONLY}) AND c.customer_type <> 'INDIVIDUAL') AS eligible, c.archived_at IS NOT NULL AS archived
       FROM customers c WHERE c.id = $3::uuid AND c.environment = $2 FOR KEY SHARE
     ),
     current AS MATERIALIZED (
       SELECT count(ac.customer_id)::int AS linked, coalesce(bool_or(ac.customer_id = $3::uuid), false) AS present,
              coalesce(max(ac.position), -1) AS last, max(ac.role) FILTER (WHERE ac.customer_id = $3::uuid) AS role
       FROM target t LEFT JOIN account_customers ac ON ac.account_id = t.id
     ), changed AS (
       INSERT INTO account_customers (account_id, customer_id, environment, position, role)
       SELECT t.id, c.id, $2, cur.last + 1, $14::varchar FROM target t, customer c, current cur
       WHERE NOT cur.present AND cur.linked < $4::int AND c.eligible AND NOT c.archived
       RETURNING account_id, customer_id
     ), audit AS (${auditInsertOfCall(5, 'target t, customer c, current cur WHERE (cur.present AND cur.role = $14::varchar) OR EXISTS (SELECT 1 FROM changed)', 'changed')}),
     event AS (${eventInsert('$2::varchar', 'changed', { type: "'account.customer_added'", resourceType: 'account', resourceId: 'x.account_id', payload: HOLDER_PAYLOAD })})
     SELECT (SELECT count(*)::int FROM target) AS account, (SELECT count(*)::int FROM customer) AS customer,
            coalesce((SELECT eligible FROM customer), true) AS eligible, coalesce((SELECT archived FROM customer), false) AS archived,
            cur.linked, cur.present, cur.role,
            (SELECT count(*)::int FROM changed) AS changed
     FROM current cur`,
  ),
  // The links are locked after the account (FOR NO KEY UPDATE, which a link's foreign key check does not wait
  // for): a statement that waited for the account's lock then counts the links and owners as the change before it
  // left them, not as its snapshot saw them, so two removals of two owners cannot both pass the owners' count.
  removeCustomer: statement(
    'account_remove_customer',
    `WITH target AS MATERIALIZED (
       SELECT a.id, ($13::int[] IS NULL OR a.version = ANY($13::int[])) AS current FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2 FOR NO KEY UPDATE
     ),
     links AS MATERIALIZED (
       SELECT ac.customer_id, ac.role FROM target t JOIN account_customers ac ON ac.account_id = t.id FOR NO KEY UPDATE OF ac
     ),
     current AS MATERIALIZED (
       SELECT count(l.customer_id)::int AS linked, coalesce(bool_or(l.customer_id = $3::uuid), false) AS present,
              count(*) FILTER (WHERE l.role = 'OWNER')::int AS owners,
              coalesce(bool_or(l.customer_id = $3::uuid AND l.role = 'OWNER'), false) AS owner
       FROM links l
     ), changed AS (
       DELETE FROM account_customers ac USING target t, current cur
       WHERE ac.account_id = t.id AND t.current AND ac.customer_id = $3::uuid AND cur.linked > 1 AND (NOT cur.owner OR cur.owners > 1)
       RETURNING ac.account_id, ac.customer_id
     ), audit AS (${auditInsert(4, 'changed')}),
     event AS (${eventInsert('$2::varchar', 'changed', { type: "'account.customer_removed'", resourceType: 'account', resourceId: 'x.account_id', payload: HOLDER_PAYLOAD })})
     SELECT (SELECT count(*)::int FROM target) AS account, (SELECT count(*)::int FROM target WHERE NOT current) AS stale,
            cur.linked, cur.present, cur.owners, cur.owner, (SELECT count(*)::int FROM changed) AS changed
     FROM current cur`,
  ),
  // A role change ($4), locked as a removal: the last OWNER keeps its role, a role only a person may hold is
  // refused to a BUSINESS customer, and the same role changes nothing (audited with empty changed fields, no
  // event). The account's version moves by the links' trigger (migration 20261209020000).
  setRole: statement(
    'account_set_customer_role',
    `WITH target AS MATERIALIZED (
       SELECT a.id, ($14::int[] IS NULL OR a.version = ANY($14::int[])) AS current FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2 FOR NO KEY UPDATE
     ),
     links AS MATERIALIZED (
       SELECT ac.customer_id, ac.role FROM target t JOIN account_customers ac ON ac.account_id = t.id FOR NO KEY UPDATE OF ac
     ),
     current AS MATERIALIZED (
       SELECT max(l.role) FILTER (WHERE l.customer_id = $3::uuid) AS role, count(*) FILTER (WHERE l.role = 'OWNER')::int AS owners,
              coalesce((SELECT c.customer_type FROM customers c WHERE c.id = $3::uuid AND c.environment = $2), 'INDIVIDUAL') AS "customerType"
       FROM links l
     ),
     allowed AS MATERIALIZED (
       SELECT t.id FROM target t, current cur
       WHERE t.current AND cur.role IS NOT NULL AND cur.role <> $4::varchar AND NOT (cur.role = 'OWNER' AND cur.owners <= 1)
         AND NOT ($4::varchar = ANY(${INDIVIDUAL_ONLY}) AND cur."customerType" <> 'INDIVIDUAL')
     ), changed AS (
       UPDATE account_customers ac SET role = $4::varchar FROM allowed w WHERE ac.account_id = w.id AND ac.customer_id = $3::uuid
       RETURNING ac.account_id, ac.customer_id, ac.role
     ), audit AS (${auditInsertOfCall(5, 'target t, current cur WHERE t.current AND (cur.role = $4::varchar OR EXISTS (SELECT 1 FROM changed))', 'changed')}),
     event AS (${eventInsert('$2::varchar', 'changed', { type: "'account.relationship_changed'", resourceType: 'account', resourceId: 'x.account_id', payload: RELATIONSHIP_PAYLOAD, changedFields: auditChangedFields(5) })})
     SELECT (SELECT count(*)::int FROM target) AS account, (SELECT count(*)::int FROM target WHERE NOT current) AS stale,
            cur.role, cur.owners, cur."customerType", (SELECT count(*)::int FROM changed) AS changed
     FROM current cur`,
  ),
  // The account is locked first (as a posting does), then its flag's row: the array the ledger enforces and the
  // flag's details change together. A set flag changes only when $7 (replace) and its reason or until differ.
  setFlag: statement(
    'account_set_flag',
    `WITH target AS MATERIALIZED (
       SELECT a.id, ($3::text = ANY(a.flags)) AS present, ($17::int[] IS NULL OR a.version = ANY($17::int[])) AS current
       FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2 FOR NO KEY UPDATE
     ), current AS MATERIALIZED (
       SELECT f.reason, f.until FROM account_flags f JOIN target t ON f.account_id = t.id WHERE f.flag = $3::text FOR UPDATE OF f
     ), wanted AS MATERIALIZED (
       SELECT t.id, NOT t.present AS adds,
              (t.present AND $7::boolean AND NOT EXISTS (
                SELECT 1 FROM current c WHERE c.reason IS NOT DISTINCT FROM $4::text AND c.until IS NOT DISTINCT FROM $5::timestamptz)) AS replaces
       FROM target t WHERE t.current
     ), changed AS (
       UPDATE accounts a SET flags = CASE WHEN w.adds THEN array_append(a.flags, $3::text) ELSE a.flags END, updated_at = CURRENT_TIMESTAMP
       FROM wanted w WHERE a.id = w.id AND (w.adds OR w.replaces)
       RETURNING ${ACCOUNT_COLUMNS}
     ), detail AS (
       INSERT INTO account_flags (account_id, environment, flag, reason, set_at, set_by, set_by_name, until)
       SELECT w.id, $2, $3::text, $4::text, env_now($2::varchar), $6::varchar, $18::varchar, $5::timestamptz FROM wanted w WHERE w.adds OR w.replaces
       ON CONFLICT (account_id, flag) DO UPDATE
         SET reason = EXCLUDED.reason, set_at = EXCLUDED.set_at, set_by = EXCLUDED.set_by, set_by_name = EXCLUDED.set_by_name, until = EXCLUDED.until
     ), audit AS (${auditInsertOfCall(8, 'target t WHERE t.current', 'changed')}),
     event AS (${eventInsert('$2::varchar', 'changed', accountUpdated(8))})
     SELECT (SELECT count(*)::int FROM target) AS account, (SELECT count(*)::int FROM target WHERE NOT current) AS stale, (SELECT count(*)::int FROM changed) AS changed`,
  ),
  // With $4 (expiredBy), only a flag whose until is at or before it: the flag's row is locked after the account, so
  // a flag extended (its row updated) or set again since this statement's snapshot is re-checked as it is now.
  clearFlag: statement(
    'account_clear_flag',
    `WITH target AS MATERIALIZED (
       SELECT a.id, ($3::text = ANY(a.flags)) AS present, ($14::int[] IS NULL OR a.version = ANY($14::int[])) AS current
       FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2 FOR NO KEY UPDATE
     ), expired AS MATERIALIZED (
       SELECT f.account_id FROM account_flags f JOIN target t ON f.account_id = t.id
       WHERE $4::timestamptz IS NOT NULL AND f.flag = $3::text AND f.until <= $4::timestamptz FOR UPDATE OF f
     ), lifted AS MATERIALIZED (
       SELECT t.id FROM target t WHERE t.present AND t.current AND ($4::timestamptz IS NULL OR EXISTS (SELECT 1 FROM expired))
     ), changed AS (
       UPDATE accounts a SET flags = array_remove(a.flags, $3::text), updated_at = CURRENT_TIMESTAMP
       FROM lifted l WHERE a.id = l.id
       RETURNING ${ACCOUNT_COLUMNS}
     ), detail AS (DELETE FROM account_flags f USING lifted l WHERE f.account_id = l.id AND f.flag = $3::text RETURNING f.*),
     -- The lift is kept under the audit event's id, with the details the flag had (docs/adr/0111).
     lift AS (
       INSERT INTO account_flag_lifts (id, account_id, environment, flag, set_reason, set_at, set_by, set_by_name, lifted_at, lifted_by, lifted_by_name, lift_reason)
       SELECT $5::uuid, l.id, $2, $3::text, d.reason, d.set_at, d.set_by, d.set_by_name, env_now($2), $6::varchar, $15::varchar, $16::text
       FROM lifted l LEFT JOIN detail d ON true
     ),
     audit AS (${auditInsertOfCall(5, 'target t WHERE t.current AND ($4::timestamptz IS NULL OR EXISTS (SELECT 1 FROM changed))', 'changed')}),
     event AS (${eventInsert('$2::varchar', 'changed', accountUpdated(5))})
     SELECT (SELECT count(*)::int FROM target) AS account, (SELECT count(*)::int FROM target WHERE NOT current) AS stale, (SELECT count(*)::int FROM changed) AS changed`,
  ),
  // Ordered like the flags' list (ACCOUNT_FLAGS); the account row tells an account without flags from none at all.
  flagDetails: statement(
    'account_flag_details',
    `SELECT a.id, x.flag, f.reason, to_char(f.set_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "setAt", f.set_by AS "setBy", f.set_by_name AS "setByName",
            to_char(f.until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS until
     FROM accounts a LEFT JOIN LATERAL unnest(a.flags) AS x(flag) ON true
       LEFT JOIN account_flags f ON f.account_id = a.id AND f.flag = x.flag
     WHERE a.id = ANY($1::uuid[]) AND a.environment = $2
     ORDER BY a.id, array_position(ARRAY['FROZEN', 'DEBITS_BLOCKED', 'CREDITS_BLOCKED']::text[], x.flag), x.flag`,
  ),
  // The partial index on until: the soonest first, each flag against its own environment's clock; the bound (the real
  // time plus the largest offset) keeps the walk to the flags some environment may have seen end.
  expiredFlags: statement(
    'account_expired_flags',
    `SELECT f.environment, f.account_id AS "accountId", f.flag, env_now(f.environment) AS "dueBy" FROM account_flags f
     WHERE f.until IS NOT NULL AND f.until <= env_now(f.environment)
       AND f.until <= (SELECT CURRENT_TIMESTAMP + coalesce(max(c.offset_ms), 0) * interval '1 millisecond' FROM environment_clocks c)
     ORDER BY f.until LIMIT $1`,
  ),
  expiredFlagsOf: statement(
    'account_expired_flags_of',
    `SELECT f.environment, f.account_id AS "accountId", f.flag, $2::timestamptz AS "dueBy" FROM account_flags f
     WHERE f.until IS NOT NULL AND f.until <= $2::timestamptz AND f.environment = $1::varchar ORDER BY f.until LIMIT $3`,
  ),
  setOverdraftLimit: statement(
    'account_set_overdraft_limit',
    `WITH target AS MATERIALIZED (
       SELECT a.id, a.overdraft_limit <> $3::numeric AS differs, ($13::int[] IS NULL OR a.version = ANY($13::int[])) AS current
       FROM accounts a WHERE a.id = $1::uuid AND a.environment = $2 FOR NO KEY UPDATE
     ), changed AS (
       UPDATE accounts a SET overdraft_limit = $3::numeric, updated_at = CURRENT_TIMESTAMP
       FROM target t WHERE a.id = t.id AND t.differs AND t.current
       RETURNING ${ACCOUNT_COLUMNS}
     ), audit AS (${auditInsertOfCall(4, 'target t WHERE t.current', 'changed')}),
     event AS (${eventInsert('$2::varchar', 'changed', accountUpdated(4))})
     SELECT (SELECT count(*)::int FROM target) AS account, (SELECT count(*)::int FROM target WHERE NOT current) AS stale, (SELECT count(*)::int FROM changed) AS changed`,
  ),
};

/** Accounts on PostgreSQL, through Prisma Client. */
export class PrismaAccountStore implements AccountStore {
  private readonly byId = new CoalescedReads<Account>(
    (environment, ids) => this.findByIds(environment, ids),
    (account) => account.accountId,
  );

  constructor(
    private readonly prisma: PrismaClient,
    private readonly idempotencyWaitMs = DEFAULT_IDEMPOTENCY_WAIT_MS,
  ) {}

  async insert(record: NewAccountRecord, effects: CreationEffects): Promise<AccountCreation> {
    const values = [
      record.id,
      record.environment,
      record.type,
      record.name,
      record.currency,
      record.customerIds,
      record.externalId ?? null,
      record.metadata === undefined ? null : jsonParameter(record.metadata),
      record.customerIds.map((_, index) => record.roles?.[index] ?? 'OWNER'),
      ...auditValues(effects.audit),
    ];
    type Row = { created: number; missing: string; ineligible: string; archived: number };
    let row: Row | undefined;
    try {
      const number = accountNumberValues(record.accountNumber);
      [row] = effects.idempotency
        ? await queryRows<Row>(this.prisma, SQL.insertWithKeyAndNumber, [
            ...values,
            ...claimValues(effects.idempotency, this.idempotencyWaitMs),
            ...number,
            record.productCode ?? null,
          ])
        : await queryRows<Row>(this.prisma, SQL.insertWithNumber, [...values, ...number, record.productCode ?? null]);
    } catch (error) {
      if (effects.idempotency && isLockTimeout(error)) throw idempotencyKeyInProgress();
      if (violatedUniqueIndex(error) === ACCOUNT_NUMBER_UNIQUE_INDEX) return { outcome: 'account-number-taken' };
      // The links' trigger refused the statement: nothing of it was written.
      if (isCustomerAccountLimit(error)) return { outcome: 'customer-account-limit' };
      if (violatedUniqueIndex(error) === EXTERNAL_ID_UNIQUE_INDEX) throw externalIdTaken('account');
      throw error;
    }
    const missing = idList(row!.missing);
    if (missing.length > 0) return { outcome: 'customers-missing', missing };
    const ineligible = idList(row!.ineligible);
    if (ineligible.length > 0) return { outcome: 'role-requires-individual', customerIds: ineligible };
    if (row!.archived > 0) return { outcome: 'customer-archived' };
    return { outcome: row!.created > 0 ? 'created' : 'key-taken' };
  }

  /** Coalesced with concurrent look-ups into one findByIds statement (src/db/sql/coalesced-reads.ts). */
  findById(environment: string, id: string): Promise<Account | null> {
    return this.byId.load(environment, id.toLowerCase());
  }

  async findByIds(environment: string, ids: readonly string[]): Promise<Account[]> {
    const rows = await queryRows<AccountRow>(this.prisma, SQL.findByIds, [environment, ids]);
    return rows.map(toAccount);
  }

  async update(
    environment: string,
    id: string,
    changes: AccountChanges,
    effects: WriteEffects,
    expectedVersions: readonly number[] | null = null,
  ): Promise<AccountUpdate> {
    let row: ({ found: number; stale: number } & Partial<AccountRow>) | undefined;
    try {
      [row] = await queryRows<{ found: number; stale: number } & Partial<AccountRow>>(this.prisma, SQL.update, [
        id,
        environment,
        changes.name,
        changes.currency,
        changes.externalId !== undefined,
        changes.externalId ?? null,
        changes.metadata === undefined || changes.metadata === null ? null : jsonParameter(changes.metadata),
        changes.metadata === null,
        ...auditValues(effects.audit),
        expectedVersions,
      ]);
    } catch (error) {
      if (violatedUniqueIndex(error) === EXTERNAL_ID_UNIQUE_INDEX) throw externalIdTaken('account');
      if (violatedCheck(error) === METADATA_KEYS_CHECK) throw validationFailed([{ ...TOO_MANY_METADATA_KEYS }]);
      if (violatedCheck(error) === PRODUCT_MATCH_CHECK)
        throw productMismatch([
          { field: 'currency', code: 'PRODUCT_MISMATCH', message: "Must be the product's currency." },
        ]);
      throw error;
    }
    if (row!.found === 0) return { outcome: 'not-found' };
    if (row!.stale > 0) return { outcome: 'stale' };
    if (row!.id === null || row!.id === undefined) return { outcome: 'currency-locked' };
    return { outcome: 'updated', account: toAccount(row as AccountRow) };
  }

  async delete(
    environment: string,
    id: string,
    effects: WriteEffects,
    expectedVersions: readonly number[] | null = null,
  ): Promise<AccountDeletion> {
    const [row] = await queryRows<{ found: number; stale: number; deleted: number }>(this.prisma, SQL.delete, [
      id,
      environment,
      ...auditValues(effects.audit),
      expectedVersions,
    ]);
    if (row!.found === 0) return { outcome: 'not-found' };
    if (row!.stale > 0) return { outcome: 'stale' };
    return { outcome: row!.deleted > 0 ? 'deleted' : 'balance-not-zero' };
  }

  async addCustomer(
    environment: string,
    id: string,
    customerId: string,
    limit: number,
    effects: WriteEffects,
    role: AccountRole = 'OWNER',
  ): Promise<AccountChange> {
    type Row = {
      account: number;
      customer: number;
      eligible: boolean;
      archived: boolean;
      linked: number;
      present: boolean;
      role: AccountRole | null;
      changed: number;
    };
    let row: Row | undefined;
    try {
      [row] = await queryRows<Row>(this.prisma, SQL.addCustomer, [
        id,
        environment,
        customerId,
        limit,
        ...auditValues(effects.audit),
        role,
      ]);
    } catch (error) {
      // The links' trigger refused the statement (nothing written). The account's own count comes first (below);
      // the trigger's recount catches an addition that committed while this one waited for the account's lock.
      if (isCustomerAccountLimit(error)) return { outcome: 'customer-account-limit' };
      if (isAccountCustomerLimit(error)) return { outcome: 'customer-limit' };
      throw error;
    }
    if (row!.account === 0) return { outcome: 'account-not-found' };
    if (row!.customer === 0) return { outcome: 'customer-not-found' };
    if (row!.present && row!.role !== role) return { outcome: 'linked-with-another-role', role: row!.role! };
    if (!row!.present && !row!.eligible) return { outcome: 'role-requires-individual' };
    if (!row!.present && row!.archived) return { outcome: 'customer-archived' };
    if (!row!.present && row!.changed === 0) return { outcome: 'customer-limit' };
    return this.changed(environment, id, row!.changed > 0);
  }

  async removeCustomer(
    environment: string,
    id: string,
    customerId: string,
    effects: WriteEffects,
    expectedVersions: readonly number[] | null = null,
  ): Promise<AccountChange> {
    const [row] = await queryRows<{
      account: number;
      stale: number;
      linked: number;
      present: boolean;
      owners: number;
      owner: boolean;
      changed: number;
    }>(this.prisma, SQL.removeCustomer, [id, environment, customerId, ...auditValues(effects.audit), expectedVersions]);
    if (row!.account === 0) return { outcome: 'account-not-found' };
    if (row!.stale > 0) return { outcome: 'stale' };
    if (!row!.present) return { outcome: 'customer-not-found' };
    if (row!.linked <= 1) return { outcome: 'last-customer' };
    if (row!.changed === 0) return { outcome: 'last-owner' };
    return this.changed(environment, id, true);
  }

  async setRole(
    environment: string,
    id: string,
    customerId: string,
    role: AccountRole,
    effects: WriteEffects,
    expectedVersions: readonly number[] | null = null,
  ): Promise<AccountChange> {
    const [row] = await queryRows<{
      account: number;
      stale: number;
      role: AccountRole | null;
      owners: number;
      customerType: string;
      changed: number;
    }>(this.prisma, SQL.setRole, [id, environment, customerId, role, ...auditValues(effects.audit), expectedVersions]);
    if (row!.account === 0) return { outcome: 'account-not-found' };
    if (row!.stale > 0) return { outcome: 'stale' };
    if (row!.role === null) return { outcome: 'customer-not-found' };
    if (row!.role === role) return this.changed(environment, id, false);
    if (row!.changed > 0) return this.changed(environment, id, true);
    if (row!.role === 'OWNER' && row!.owners <= 1) return { outcome: 'last-owner' };
    return { outcome: 'role-requires-individual' };
  }

  async setFlag(
    environment: string,
    id: string,
    flag: AccountFlag,
    setting: FlagSetting & { replace: boolean },
    effects: WriteEffects,
    expectedVersions: readonly number[] | null = null,
  ): Promise<AccountChange> {
    const [row] = await queryRows<{ account: number; stale: number; changed: number }>(this.prisma, SQL.setFlag, [
      id,
      environment,
      flag,
      setting.reason,
      setting.until,
      setting.setBy,
      setting.replace,
      ...auditValues(effects.audit),
      expectedVersions,
      setting.setByName,
    ]);
    return this.changedOrNot(environment, id, row!);
  }

  async clearFlag(
    environment: string,
    id: string,
    flag: AccountFlag,
    effects: WriteEffects,
    lift: FlagLift,
    expiredBy?: Date,
    expectedVersions: readonly number[] | null = null,
  ): Promise<AccountChange> {
    const [row] = await queryRows<{ account: number; stale: number; changed: number }>(this.prisma, SQL.clearFlag, [
      id,
      environment,
      flag,
      expiredBy ?? null,
      ...auditValues(effects.audit),
      expectedVersions,
      lift.liftedByName,
      lift.reason,
    ]);
    return this.changedOrNot(environment, id, row!);
  }

  /** One statement for every account asked for (GraphQL's loader batches a page's `flagDetails`). */
  async flagDetails(environment: string, ids: readonly string[]): Promise<Map<string, AccountFlagDetail[]>> {
    type Row = {
      id: string;
      flag: AccountFlag | null;
      reason: string | null;
      setAt: string | null;
      setBy: string | null;
      setByName: string | null;
      until: string | null;
    };
    const rows = await queryRows<Row>(this.prisma, SQL.flagDetails, [ids, environment]);
    const byAccount = new Map<string, AccountFlagDetail[]>();
    for (const row of rows) {
      const details = byAccount.get(row.id) ?? [];
      byAccount.set(row.id, details);
      if (row.flag !== null)
        details.push({
          flag: row.flag,
          reason: row.reason,
          setAt: row.setAt,
          setBy: row.setBy,
          setByName: row.setByName,
          until: row.until,
        });
    }
    return byAccount;
  }

  expiredFlags(limit: number): Promise<ExpiredFlag[]> {
    return queryRows(this.prisma, SQL.expiredFlags, [limit]);
  }

  expiredFlagsOf(environment: string, by: Date, limit: number): Promise<ExpiredFlag[]> {
    return queryRows(this.prisma, SQL.expiredFlagsOf, [environment, by, limit]);
  }

  async setOverdraftLimit(
    environment: string,
    id: string,
    limit: string,
    effects: WriteEffects,
    expectedVersions: readonly number[] | null = null,
  ): Promise<AccountChange> {
    const [row] = await queryRows<{ account: number; stale: number; changed: number }>(
      this.prisma,
      SQL.setOverdraftLimit,
      [id, environment, limit, ...auditValues(effects.audit), expectedVersions],
    );
    return this.changedOrNot(environment, id, row!);
  }

  /** What a control's statement found: no account, a stale version (nothing written), or the account now. */
  private changedOrNot(
    environment: string,
    id: string,
    row: { account: number; stale: number; changed: number },
  ): Promise<AccountChange> {
    if (row.account === 0) return Promise.resolve({ outcome: 'account-not-found' });
    if (row.stale > 0) return Promise.resolve({ outcome: 'stale' });
    return this.changed(environment, id, row.changed > 0);
  }

  /** The account as it is after a change (a second statement: these changes are rare). */
  private async changed(environment: string, id: string, changed: boolean): Promise<AccountChange> {
    const [account] = await this.findByIds(environment, [id]);
    // Deleted between the change and this read: as if the change had found no account.
    if (!account) return { outcome: 'account-not-found' };
    return { outcome: changed ? 'changed' : 'unchanged', account };
  }

  /** A page in id order. */
  /** One unnamed statement with the given filters only (account-search.sql.ts), planned for the values at hand. */
  async search(environment: string, filter: AccountFilter, page: PageRequest): Promise<Account[]> {
    const { text, values } = accountSearchSql(filter);
    return (
      await this.prisma.$queryRawUnsafe<AccountRow[]>(text, environment, page.first, page.after ?? null, ...values)
    ).map(toAccount);
  }

  async list(environment: string, page: PageRequest): Promise<Account[]> {
    const rows = await queryRows<AccountRow>(this.prisma, SQL.list, [environment, page.after ?? null, page.first]);
    return rows.map(toAccount);
  }
}
