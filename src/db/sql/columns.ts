import {
  type Account,
  type AccountCloseReason,
  type AccountRole,
  shownRelationships,
} from '../../features/accounts/account.js';
import type { Address, Customer, CustomerArchiveReason, Phone } from '../../features/customers/customer.js';
import type { Metadata } from '../../domain/metadata.js';
import { RECENT_TRANSACTIONS, type Transaction } from '../../features/ledger/transaction.js';
import type { AccountModel, CustomerModel } from '../generated/prisma/models.js';
import { idList } from './sql.js';

/**
 * What the raw reads select of a customer (alias `c`) and an account (alias `a`), named like the Prisma
 * model's fields so the rows are typed by the generated models. The encrypted SSN, document locator
 * number and blind index are deliberately absent: what is never selected can never be returned. Each
 * record's links come in the same statement (one round trip per read, or per batch of reads).
 */
const ACCOUNT_IDS_OF_CUSTOMER = `array_to_string(ARRAY(SELECT ac.account_id FROM account_customers ac
                        WHERE ac.customer_id = c.id AND ac.environment = c.environment
                        ORDER BY ac.created_at, ac.account_id), ',')`;
/** The account's customer ids in the order given at creation. */
const CUSTOMER_IDS_OF_ACCOUNT = `array_to_string(ARRAY(SELECT ac.customer_id FROM account_customers ac
                        WHERE ac.account_id = a.id AND ac.environment = a.environment
                        ORDER BY ac.position), ',')`;

/**
 * The account's customers' roles in the same order, or NULL while every one is an OWNER (most accounts: the
 * account then reads exactly as before roles existed; docs/adr/0091).
 */
const CUSTOMER_ROLES_OF_ACCOUNT = `(SELECT CASE WHEN bool_and(ac.role = 'OWNER') THEN NULL ELSE string_agg(ac.role, ',' ORDER BY ac.position) END
                        FROM account_customers ac WHERE ac.account_id = a.id AND ac.environment = a.environment)`;

/**
 * A customer's version (its ETag, GraphQL `version`): its row version plus its link counter, in 1..2147483647,
 * the rule of the database's `cas_customer_version(id, version)` written out in the statement. PostgreSQL cannot
 * inline a SQL function that holds a subquery: it ran that one through its function executor for every row,
 * about a third of a list page's database time (measured with EXPLAIN ANALYZE on 10,000 customers); written
 * here it is one index probe. The function stays for the release before this one; a test holds the two equal.
 */
export const customerVersionOf = (alias: string): string =>
  `((${alias}.version::bigint + coalesce((SELECT v.version FROM customer_link_versions v WHERE v.customer_id = ${alias}.id), 0) - 1) % 2147483647 + 1)::integer`;

/** An instant as ISO 8601 text in UTC with milliseconds, the form Date.toISOString() gives. */
export const isoInstant = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The customer's columns after its id, in this order (the link walk lines them up with NULL padding). */
const CUSTOMER_OWN_FIELDS = `to_char(c.date_of_birth, 'YYYY-MM-DD') AS "dateOfBirth", c.preferred_name AS "preferredName",
  c.first_name AS "firstName", c.middle_name AS "middleName", c.last_name AS "lastName", c.emails,
  c.phone_numbers AS "phoneNumbers", c.addresses, ${customerVersionOf('c')} AS "customerVersion", c.external_id AS "externalId", c.metadata,
  ${isoInstant('c.archived_at')} AS "archivedAt", c.archive_reason AS "archiveReason"`;
export const CUSTOMER_FIELDS = `${CUSTOMER_OWN_FIELDS}, ${ACCOUNT_IDS_OF_CUSTOMER} AS "accountIds"`;
export const CUSTOMER_COLUMNS = `c.id, ${CUSTOMER_FIELDS}`;
/**
 * A customer as the statement creating it returns it (its `customer.created` payload): no account can be
 * linked to it yet, so its link list is empty without the look-up (measured: about a fifth of what the outbox
 * costs PostgreSQL per creation; docs/performance.md, issue 16).
 */
export const NEW_CUSTOMER_COLUMNS = `c.id, ${CUSTOMER_OWN_FIELDS}, ''::text AS "accountIds"`;
/** NULLs of CUSTOMER_FIELDS' types, for a row that is an account. */
export const NO_CUSTOMER_FIELDS =
  'NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text[], NULL::jsonb, NULL::jsonb, NULL::int, NULL::varchar, NULL::jsonb, NULL::text, NULL::varchar, NULL::text';

/**
 * A ledger entry (alias `e`) as a transaction. trim_scale gives every amount as the shortest exact
 * decimal ("0", "12.5"), never a float; the instants are text so that rows and JSON aggregates agree.
 */
export const TRANSACTION_COLUMNS = `e.id AS "transactionId", e.account_id AS "accountId", e.type,
  trim_scale(coalesce(e.posted_amount, e.amount))::text AS amount, trim_scale(e.amount)::text AS "authorizedAmount",
  e.currency, e.description, e.status, trim_scale(e.balance_after)::text AS "balanceAfter",
  ${isoInstant('e.created_at')} AS "createdAt", ${isoInstant('e.posted_at')} AS "postedAt", ${isoInstant('e.voided_at')} AS "voidedAt",
  ${isoInstant('e.expires_at')} AS "expiresAt", e.transfer_id AS "transferId", e.reverses_entry_id AS "reversesTransactionId",
  e.external_id AS "externalId", e.metadata`;

/**
 * The account's newest transactions as one JSON array. An account without entries (most reads) skips
 * the look-up; otherwise it is one probe of the (account_id, seq) index.
 */
const RECENT_TRANSACTIONS_OF_ACCOUNT = `CASE WHEN a.entry_count = 0 THEN '[]'::json ELSE (
  SELECT coalesce(json_agg(recent ORDER BY recent.seq DESC), '[]'::json) FROM (
    SELECT e.seq, ${TRANSACTION_COLUMNS} FROM ledger_entries e
    WHERE e.account_id = a.id AND NOT e.is_settlement ORDER BY e.seq DESC LIMIT ${RECENT_TRANSACTIONS}) recent) END`;

/** trim_scale gives the amount as the shortest exact decimal ("0", "12.5"), never a float. */
export const ACCOUNT_FIELDS = `a.type, a.name, a.currency, trim_scale(a.amount)::text AS amount, coalesce(a.flags, '{}') AS flags,
  ${CUSTOMER_IDS_OF_ACCOUNT} AS "customerIds", trim_scale(a.amount + a.pending_credits - a.pending_debits)::text AS pending,
  trim_scale(a.amount - a.pending_debits)::text AS available, trim_scale(a.overdraft_limit)::text AS "overdraftLimit",
  ${RECENT_TRANSACTIONS_OF_ACCOUNT} AS transactions, a.entry_count::int AS "transactionCount", a.version AS "accountVersion", a.external_id AS "externalId", a.metadata,
  ${CUSTOMER_ROLES_OF_ACCOUNT}::text AS "customerRoles", ${isoInstant('a.closed_at')} AS "closedAt", a.close_reason AS "closeReason",
  a.activity_status AS "activityStatus", ${isoInstant('a.activity_status_at')} AS "activityStatusAt", ${isoInstant('a.last_activity_at')} AS "lastActivityAt",
  a.product_code AS "productCode"`;
export const ACCOUNT_COLUMNS = `a.id, ${ACCOUNT_FIELDS}`;
/**
 * NULLs of ACCOUNT_FIELDS' types, for a row that is a customer. A union's columns are named by its first
 * branch (the customers'), whose own externalId and metadata come first: the account's are named apart
 * here, and walkAccountRow reads them back.
 */
export const NO_ACCOUNT_FIELDS =
  'NULL::varchar AS type, NULL::text AS name, NULL::bpchar AS currency, NULL::text AS amount, NULL::text[] AS flags, NULL::text AS "customerIds", ' +
  'NULL::text AS pending, NULL::text AS available, NULL::text AS "overdraftLimit", NULL::json AS transactions, NULL::int AS "transactionCount", NULL::int AS "accountVersion", ' +
  'NULL::varchar AS "accountExternalId", NULL::jsonb AS "accountMetadata", NULL::text AS "customerRoles", NULL::text AS "closedAt", NULL::varchar AS "closeReason", ' +
  'NULL::varchar AS "activityStatus", NULL::text AS "activityStatusAt", NULL::text AS "lastActivityAt", NULL::varchar AS "productCode"';

/** An account's row of a union with customers (NO_ACCOUNT_FIELDS): its externalId and metadata under their own names. */
export const walkAccountRow = (
  row: AccountRow & { accountExternalId: string | null; accountMetadata: Metadata | null },
): AccountRow => ({
  ...row,
  externalId: row.accountExternalId,
  metadata: row.accountMetadata,
});

export const ACCOUNT_IDS_OF = { customer: ACCOUNT_IDS_OF_CUSTOMER, account: CUSTOMER_IDS_OF_ACCOUNT } as const;

export type CustomerRow = Pick<
  CustomerModel,
  'id' | 'preferredName' | 'firstName' | 'middleName' | 'lastName' | 'emails'
> & {
  /** YYYY-MM-DD (to_char): a date, not an instant; NULL on a business. */
  dateOfBirth: string | null;
  // Only the customer store writes these jsonb columns, from validated domain values.
  phoneNumbers: Phone[];
  addresses: Address[];
  /** Comma-separated (see idList). */
  accountIds: string;
  /** The row version (absent from the payloads of events written before it existed). */
  customerVersion?: number;
  /** NULL when unset; absent from events written before migration 20261204000000. */
  externalId?: string | null;
  metadata?: Metadata | null;
  /** NULL while active; absent from events written before migration 20261212010000. */
  archivedAt?: string | null;
  archiveReason?: string | null;
};

export type AccountRow = Pick<AccountModel, 'id' | 'type' | 'name' | 'currency' | 'flags'> & {
  /** Exact decimal text (trim_scale), as are pending, available and overdraftLimit. */
  amount: string;
  pending: string;
  available: string;
  overdraftLimit: string;
  /** Comma-separated (see idList). */
  customerIds: string;
  /** The customers' roles, comma-separated in customerIds' order; NULL (or absent) while every one is an OWNER. */
  customerRoles?: string | null;
  /** TRANSACTION_COLUMNS of the newest entries, as JSON. */
  transactions: TransactionRow[];
  /** entry_count: the account's entries (its transactions) in all. */
  transactionCount: number;
  /** The row version (absent from the payloads of events written before it existed). */
  accountVersion?: number;
  /** NULL when unset; absent from events written before migration 20261204000000. */
  externalId?: string | null;
  metadata?: Metadata | null;
  /** NULL while open; absent from events written before migration 20261212010000. */
  closedAt?: string | null;
  closeReason?: string | null;
  /** NULL while active, INACTIVE or DORMANT (docs/adr/0109); absent from events written before migration 20261213010000. */
  activityStatus?: string | null;
  activityStatusAt?: string | null;
  lastActivityAt?: string | null;
  /** NULL without a product (docs/adr/0112); absent from events written before migration 20261215010000. */
  productCode?: string | null;
};

/**
 * TRANSACTION_COLUMNS answer the domain's own names and forms (exact decimal text, ISO 8601 instants), so a
 * row is a Transaction already; toTransaction still copies the fields one by one, so that no other column a
 * statement selects can leave with it.
 */
export type TransactionRow = Omit<Transaction, 'externalId' | 'metadata'> & {
  /** NULL when none was given (an event's payload leaves them out instead: src/features/ledger/ledger.store.ts). */
  externalId?: string | null;
  metadata?: Record<string, string> | null;
};

export const toTransaction = (row: TransactionRow): Transaction => ({
  transactionId: row.transactionId,
  accountId: row.accountId,
  type: row.type,
  amount: row.amount,
  authorizedAmount: row.authorizedAmount,
  currency: row.currency,
  description: row.description,
  status: row.status,
  balanceAfter: row.balanceAfter,
  createdAt: row.createdAt,
  postedAt: row.postedAt,
  voidedAt: row.voidedAt,
  expiresAt: row.expiresAt,
  transferId: row.transferId,
  reversesTransactionId: row.reversesTransactionId,
  // Only when set: a transaction without them keeps exactly the contract's fields.
  ...(row.externalId !== null && row.externalId !== undefined && { externalId: row.externalId }),
  ...(row.metadata !== null && row.metadata !== undefined && { metadata: row.metadata }),
});

/**
 * A BUSINESS row has none of a person's columns (its check constraint, migration 20261209010000): a NULL last
 * name is how a read tells it, without selecting anything more on the person's path (docs/adr/0090).
 */
export const toCustomer = (row: CustomerRow): Customer => ({
  customerId: row.id,
  accountIds: idList(row.accountIds),
  preferredName: row.preferredName ?? '',
  firstName: row.firstName ?? '',
  middleName: row.middleName ?? '',
  lastName: row.lastName ?? '',
  dateOfBirth: row.dateOfBirth ?? '',
  emails: row.emails,
  phoneNumbers: row.phoneNumbers,
  addresses: row.addresses,
  version: row.customerVersion ?? 1,
  ...withClientFields(row),
  ...(row.lastName === null && { customerType: 'BUSINESS' as const }),
  // Only once archived: an active customer keeps exactly the contract's fields (docs/adr/0106).
  ...(row.archivedAt !== null &&
    row.archivedAt !== undefined && {
      status: 'ARCHIVED' as const,
      archivedAt: row.archivedAt,
      archiveReason: row.archiveReason as CustomerArchiveReason,
    }),
});

/** externalId and metadata only when set: a record that uses neither has exactly the contract's fields. */
const withClientFields = (row: {
  externalId?: string | null;
  metadata?: Metadata | null;
}): { externalId?: string; metadata?: Metadata } => ({
  ...(row.externalId !== null && row.externalId !== undefined && { externalId: row.externalId }),
  ...(row.metadata !== null && row.metadata !== undefined && { metadata: row.metadata }),
});

/** `relationships` only when some customer is not an OWNER (customerRoles then lists every customer's role). */
const relationshipsOf = (row: AccountRow): Pick<Account, 'relationships'> => {
  if (row.customerRoles === null || row.customerRoles === undefined || row.customerRoles === '') return {};
  const relationships = shownRelationships(idList(row.customerIds), row.customerRoles.split(',') as AccountRole[]);
  return relationships ? { relationships } : {};
};

export const toAccount = (row: AccountRow): Account => ({
  accountId: row.id,
  type: row.type,
  name: row.name,
  amount: row.amount,
  currency: row.currency,
  customerIds: idList(row.customerIds),
  ...relationshipsOf(row),
  transactions: row.transactions.map(toTransaction),
  transactionCount: row.transactionCount,
  flags: row.flags,
  balance: { posted: row.amount, pending: row.pending, available: row.available },
  overdraftLimit: row.overdraftLimit,
  version: row.accountVersion ?? 1,
  ...withClientFields(row),
  // Only on a product (docs/adr/0112): an account without one keeps exactly the contract's fields.
  ...(row.productCode !== null && row.productCode !== undefined && { productCode: row.productCode }),
  // Only once closed: an open account keeps exactly the contract's fields (docs/adr/0106).
  ...(row.closedAt !== null &&
    row.closedAt !== undefined && {
      status: 'CLOSED' as const,
      closedAt: row.closedAt,
      closeReason: row.closeReason as AccountCloseReason,
    }),
  // Only while open and not active (docs/adr/0109): an ordinary account keeps exactly the contract's fields.
  ...((row.closedAt === null || row.closedAt === undefined) &&
    (row.activityStatus === 'INACTIVE' || row.activityStatus === 'DORMANT') && {
      status: row.activityStatus,
      statusSince: row.activityStatusAt!,
      lastActivityAt: row.lastActivityAt!,
    }),
});
