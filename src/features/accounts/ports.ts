import type { NewAccountNumberRow } from '../account-numbers/index.js';
import type { AccountFilter } from './account-search.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { CreationEffects, CreationOutcome, WriteEffects } from '../../domain/write-effects.js';
import type { Account, AccountFlag, AccountFlagDetail, AccountRole, FlagLift, FlagSetting } from './account.js';
import type { Metadata, MetadataChanges } from '../../domain/metadata.js';

/** What the account service needs from storage (src/features/accounts/account.store.ts implements it). */

export interface NewAccountRecord {
  id: string;
  environment: string;
  type: string;
  name: string;
  currency: string;
  customerIds: string[];
  /** One per customer of customerIds, in the same order; absent: every one an OWNER. */
  roles?: AccountRole[] | undefined;
  externalId?: string | undefined;
  metadata?: Metadata | undefined;
  /** Its first account number, sealed (docs/adr/0107), written by the same statement. */
  accountNumber: NewAccountNumberRow;
  /** The deposit product it opens on (docs/adr/0112), checked by the service; absent: none. */
  productCode?: string | undefined;
}

/** A product's terms an account must match (src/features/products); null when no product has the code. */
export interface ProductTerms {
  termsOf(environment: string, code: string): Promise<{ accountType: string; currency: string } | null>;
}

/** Issues a new account's first account number (src/features/account-numbers). */
export interface AccountNumberIssuer {
  issue(environment: string, accountId: string): NewAccountNumberRow;
}

/** An update: name and currency always; externalId null clears it; metadata as in CustomerChanges. */
export interface AccountChanges {
  name: string;
  currency: string;
  externalId?: string | null | undefined;
  metadata?: MetadataChanges | null | undefined;
}

export type AccountCreation =
  | { outcome: CreationOutcome }
  | { outcome: 'customers-missing'; missing: string[] }
  /** The account number drawn is one the environment has already: nothing was written; draw another. */
  | { outcome: 'account-number-taken' }
  /** These customers are BUSINESS customers given a role only a person may hold (INDIVIDUAL_ONLY_ROLES); nothing was written. */
  | { outcome: 'role-requires-individual'; customerIds: string[] }
  /** A customer already holds the most accounts a customer may (CUSTOMER_LIMITS.accounts); nothing was written. */
  | { outcome: 'customer-account-limit' }
  /** A customer is archived (docs/adr/0106): it opens no account; nothing was written. */
  | { outcome: 'customer-archived' };

/** What a change to an existing account's controls or customers found. */
export type AccountChange =
  | { outcome: 'changed'; account: Account }
  | { outcome: 'unchanged'; account: Account }
  | { outcome: 'account-not-found' }
  | { outcome: 'customer-not-found' }
  | { outcome: 'customer-limit' }
  | { outcome: 'customer-account-limit' }
  /** The customer to link is archived (docs/adr/0106); nothing written. */
  | { outcome: 'customer-archived' }
  | { outcome: 'last-customer' }
  /** The customer is the account's last OWNER: it can be neither removed nor given another role (nothing written). */
  | { outcome: 'last-owner' }
  /** A role only a person may hold (INDIVIDUAL_ONLY_ROLES), for a BUSINESS customer (nothing written). */
  | { outcome: 'role-requires-individual' }
  /** Linking a customer already linked with another role (nothing written; the role changes by setRole). */
  | { outcome: 'linked-with-another-role'; role: AccountRole }
  /** The account exists, but its version is none of the expected ones (nothing written). */
  | { outcome: 'stale' };

/** 'stale': the account exists, but its version is none of the expected ones (nothing written). */
export type AccountUpdate =
  | { outcome: 'updated'; account: Account }
  | { outcome: 'not-found' }
  | { outcome: 'stale' }
  | { outcome: 'currency-locked' };
export type AccountDeletion =
  { outcome: 'deleted' } | { outcome: 'not-found' } | { outcome: 'stale' } | { outcome: 'balance-not-zero' };

export interface AccountStore {
  /**
   * Writes the account, its links and its effects, unless a customer is missing from the environment or
   * already holds CUSTOMER_LIMITS.accounts accounts (then nothing is written; the database enforces the
   * limit, also against concurrent links). The customers cannot be deleted while the links are being written.
   * Throws EXTERNAL_ID_TAKEN when the environment has an account with its externalId (nothing written).
   */
  insert(record: NewAccountRecord, effects: CreationEffects): Promise<AccountCreation>;
  findById(environment: string, id: string): Promise<Account | null>;
  findByIds(environment: string, ids: readonly string[]): Promise<Account[]>;
  /**
   * Applies the changes with their effects. Nothing is written when the account does not exist, or when
   * the currency would change on an account that has ledger entries, or, with `expectedVersions` (null:
   * unconditional), when its version is none of them: compared on the locked row. Throws EXTERNAL_ID_TAKEN, or
   * VALIDATION_FAILED when the merged metadata would exceed its keys (nothing written).
   */
  update(
    environment: string,
    id: string,
    changes: AccountChanges,
    effects: WriteEffects,
    expectedVersions?: readonly number[] | null,
  ): Promise<AccountUpdate>;
  /**
   * Deletes the account and its links with its effects, only at a zero posted balance with no pending
   * hold and, with `expectedVersions`, at one of them; its ledger entries stay.
   */
  delete(
    environment: string,
    id: string,
    effects: WriteEffects,
    expectedVersions?: readonly number[] | null,
  ): Promise<AccountDeletion>;
  list(environment: string, page: PageRequest): Promise<Account[]>;
  /** The accounts matching every given filter, in id order, at most `page.first` after `page.after`. */
  search(environment: string, filter: AccountFilter, page: PageRequest): Promise<Account[]>;
  /**
   * Links one more customer of the environment (after the others); 'unchanged' when already linked (audited all the
   * same, with empty changed fields: every call that finds its account and customer is). Refused
   * past `limit` customers on the account, or when the customer holds CUSTOMER_LIMITS.accounts accounts.
   */
  addCustomer(
    environment: string,
    id: string,
    customerId: string,
    limit: number,
    effects: WriteEffects,
    role?: AccountRole,
  ): Promise<AccountChange>;
  /**
   * Unlinks a customer, never the last one nor the last OWNER ('last-owner'). The links are counted as they are once
   * the account is locked, so concurrent removals and role changes cannot leave the account without an owner.
   */
  removeCustomer(
    environment: string,
    id: string,
    customerId: string,
    effects: WriteEffects,
    expectedVersions?: readonly number[] | null,
  ): Promise<AccountChange>;
  /**
   * Gives a linked customer another role ('customer-not-found' when it is not linked), never taking the last OWNER's
   * role away ('last-owner') nor giving a BUSINESS customer a role only a person may hold. The same role is
   * 'unchanged' (only its audit event written, with empty changed fields). Locked as removeCustomer.
   */
  setRole(
    environment: string,
    id: string,
    customerId: string,
    role: AccountRole,
    effects: WriteEffects,
    expectedVersions?: readonly number[] | null,
  ): Promise<AccountChange>;
  /**
   * Sets a flag with its details. A set flag is 'unchanged' (only its audit event written, with empty changed fields) unless `replace`, when its
   * details are replaced if they differ (reason, until; setAt and setBy then become this setting's).
   */
  setFlag(
    environment: string,
    id: string,
    flag: AccountFlag,
    setting: FlagSetting & { replace: boolean },
    effects: WriteEffects,
    expectedVersions?: readonly number[] | null,
  ): Promise<AccountChange>;
  /**
   * Clears a flag and its details; 'unchanged' (only its audit event written, with empty changed fields) when it is
   * not set. With `expiredBy` (the expiry job), only a flag whose `until` is at or before that instant (checked on the
   * locked rows), else 'unchanged' with nothing written: the job audits the flags it lifts, not the ones it found extended.
   * A lift is kept (account_flag_lifts, docs/adr/0111) with the flag's details, the lifter's name and `lift.reason`.
   */
  clearFlag(
    environment: string,
    id: string,
    flag: AccountFlag,
    effects: WriteEffects,
    lift: FlagLift,
    expiredBy?: Date,
    expectedVersions?: readonly number[] | null,
  ): Promise<AccountChange>;
  /** The flags each existing account of `ids` carries, with their details, in flag order; absent ids: no such account. */
  flagDetails(environment: string, ids: readonly string[]): Promise<Map<string, AccountFlagDetail[]>>;
  /**
   * Flags whose `until` has passed by their environment's clock, soonest first, at most `limit`, every environment (the
   * intra-day sweep); `dueBy` is that environment's time, the `expiredBy` to lift it with.
   */
  expiredFlags(limit: number): Promise<ExpiredFlag[]>;
  /** The environment's flags whose `until` is at or before `by`, soonest first (the end of day's step). */
  expiredFlagsOf(environment: string, by: Date, limit: number): Promise<ExpiredFlag[]>;
  /** 'unchanged' when the account already has this limit (only its audit event written, with empty changed fields). */
  setOverdraftLimit(
    environment: string,
    id: string,
    limit: string,
    effects: WriteEffects,
    expectedVersions?: readonly number[] | null,
  ): Promise<AccountChange>;
}

export interface ExpiredFlag {
  environment: string;
  accountId: string;
  flag: AccountFlag;
  dueBy: Date;
}
