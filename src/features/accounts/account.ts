import type { AccountBalance, Transaction } from '../ledger/index.js';
import type { Metadata } from '../../domain/metadata.js';

/**
 * Flags of an account (the spec's `flags`), which the ledger enforces. FROZEN: nothing posts on the account, not even a credit
 * or a hold's posting; a hold can still be voided. DEBITS_BLOCKED / CREDITS_BLOCKED: no debit (no credit)
 * posts or is held.
 */
export const ACCOUNT_FLAGS = ['FROZEN', 'DEBITS_BLOCKED', 'CREDITS_BLOCKED'] as const;
export type AccountFlag = (typeof ACCOUNT_FLAGS)[number];

/** Why an account was closed (docs/account-lifecycle.md). */
export const ACCOUNT_CLOSE_REASONS = [
  'CUSTOMER_REQUEST',
  'BANK_DECISION',
  'FRAUD',
  'DORMANCY',
  'DECEASED',
  'OTHER',
] as const;
export type AccountCloseReason = (typeof ACCOUNT_CLOSE_REASONS)[number];

/** A flag the account carries, with why, when, by whom it was set and when it lifts itself. */
export interface AccountFlagDetail {
  flag: AccountFlag;
  /** Why it was set, as the setter wrote it; null when none was given. */
  reason: string | null;
  /** ISO 8601, UTC; null for a flag set before flags had details. */
  setAt: string | null;
  /** The principal that set it, as the audit trail names it (`token:<id>`, `jwt:<subject>`, ...); never a secret. */
  setBy: string | null;
  /** The setter's name when it set the flag (Principal.name); null for a flag set before names were kept. */
  setByName: string | null;
  /** ISO 8601, UTC: when it lifts itself; null: until cleared. */
  until: string | null;
}

/** What a set flag records beside itself: an optional reason and end. */
export interface FlagSetting {
  reason: string | null;
  until: Date | null;
  /** The principal setting it (Principal.id). */
  setBy: string;
  /** Its name, as people read it (Principal.name); null for the service's own jobs. */
  setByName: string | null;
}

/** What a lifted flag records (docs/adr/0111): who lifted it, as people read it, and why (none: it reached its end). */
export interface FlagLift {
  reason: string | null;
  /** The lifter's name (Principal.name); null for the service's own jobs. The id is the audit event's principal. */
  liftedByName: string | null;
}

/**
 * What a customer is to an account (docs/adr/0091-account-relationship-roles.md). OWNER: a holder, as every
 * linked customer was before roles existed; an account always keeps at least one. AUTHORIZED_SIGNER and
 * AUTHORIZED_USER act for the owners and must be people (INDIVIDUAL customers); a BUSINESS may be an OWNER,
 * a BENEFICIARY (payable on death) or a CUSTODIAN.
 */
export const ACCOUNT_ROLES = ['OWNER', 'AUTHORIZED_SIGNER', 'AUTHORIZED_USER', 'BENEFICIARY', 'CUSTODIAN'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
/** The roles only a person (an INDIVIDUAL customer) may hold. */
export const INDIVIDUAL_ONLY_ROLES: readonly AccountRole[] = ['AUTHORIZED_SIGNER', 'AUTHORIZED_USER'];

/** One customer of an account, with its role. */
export interface AccountRelationship {
  customerId: string;
  role: AccountRole;
}

/** The relationships an account shows: none while every customer is an OWNER (the contract's account, unchanged). */
export const shownRelationships = (
  customerIds: readonly string[],
  roles: readonly AccountRole[],
): AccountRelationship[] | undefined =>
  roles.every((role) => role === 'OWNER')
    ? undefined
    : customerIds.map((customerId, index) => ({ customerId, role: roles[index] ?? 'OWNER' }));

/**
 * Every customer of an account with its role, OWNER included, in `customerIds` order: what a surface that lets
 * its client select the field (GraphQL's `Account.relationships`) answers whatever the roles.
 */
export const everyRelationship = (account: Pick<Account, 'customerIds' | 'relationships'>): AccountRelationship[] =>
  account.relationships ?? account.customerIds.map((customerId) => ({ customerId, role: 'OWNER' }));

/** An account as it leaves the domain. */
export interface Account {
  accountId: string;
  type: string;
  name: string;
  /** The posted balance, exact decimal text (e.g. "0", "-12.5"); each surface decides how to render it. */
  amount: string;
  currency: string;
  /** Ids of the associated customers, in the order they were linked. */
  customerIds: string[];
  /** Every customer with its role, in `customerIds` order; absent while every customer is an OWNER. */
  relationships?: AccountRelationship[];
  /** The newest transactions (at most RECENT_TRANSACTIONS), newest first; the full history is paged. */
  transactions: Transaction[];
  /** How many transactions the account has in all (every status): tells whether `transactions` is the whole history. */
  transactionCount: number;
  flags: string[];
  balance: AccountBalance;
  /** How far below zero the available balance may go; "0" by default. */
  overdraftLimit: string;
  /** Moves with every change of the above, postings included (src/domain/versions.ts); never part of the contract's JSON. */
  version: number;
  /** The client's own id for the account; absent when unset. */
  externalId?: string;
  /** The client's key-value pairs; absent when there are none. */
  metadata?: Metadata;
  /** The deposit product it was opened on (docs/adr/0112); absent when none, so the contract's shape is unchanged. */
  productCode?: string;
  /**
   * Only on a closed account (docs/adr/0106), or an open one the end of day found INACTIVE or DORMANT (docs/adr/0109):
   * absent while plainly open, so an ordinary account has exactly the contract's fields.
   */
  status?: 'CLOSED' | 'INACTIVE' | 'DORMANT';
  /** ISO 8601, UTC, by the environment's clock: since when it is INACTIVE or DORMANT; only then. */
  statusSince?: string;
  /** ISO 8601, UTC, by the environment's clock: its last customer-initiated activity; only when INACTIVE or DORMANT. */
  lastActivityAt?: string;
  /** ISO 8601, UTC, by the environment's clock; only on a closed account. */
  closedAt?: string;
  closeReason?: AccountCloseReason;
}

/** An account's identity and links only; every Account is one. */
export type AccountLinks = Pick<Account, 'accountId' | 'customerIds'>;

/** A new account: no money, no transactions, no flags yet. */
export const newAccount = (
  fields: Pick<
    Account,
    | 'accountId'
    | 'type'
    | 'name'
    | 'currency'
    | 'customerIds'
    | 'relationships'
    | 'externalId'
    | 'metadata'
    | 'productCode'
  >,
): Account => ({
  ...fields,
  amount: '0',
  transactions: [],
  transactionCount: 0,
  flags: [],
  balance: { posted: '0', pending: '0', available: '0' },
  overdraftLimit: '0',
  version: 1,
});
