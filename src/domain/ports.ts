import type { Account, AccountLinks } from './accounts/account.js';
import type { EventStore } from './events/event.js';
import type { WebhookStore } from './webhooks/webhook.js';
import type { AccountFlag, EntryType, Transaction } from './ledger/transaction.js';
import type { AuditStore, NewAuditEvent } from './audit/audit-event.js';
import type { IdempotencyClaim, IdempotencyStore } from './idempotency/idempotency-store.js';
import type { Address, Customer, CustomerLinks, Phone } from './customers/customer.js';

/**
 * What the domain needs from the outside world. src/db implements the stores on PostgreSQL;
 * src/pii implements the protector. No Prisma, HTTP or GraphQL type crosses these interfaces.
 */

/** SSN and document locator number after encryption: the only form in which they are stored. */
export interface SealedPersonalData {
  keyId: string;
  ssnBlindIndex: Uint8Array;
  ssnCiphertext: Uint8Array;
  documentLocatorNumberCiphertext: Uint8Array;
}

export interface PersonalDataProtector {
  seal(
    binding: { environment: string; customerId: string },
    data: { socialSecurityNumber: string; documentLocatorNumber: number },
  ): SealedPersonalData;
  /**
   * Keyed digest (HMAC) of a request that may contain personal data, for idempotency fingerprints:
   * a plain hash of a body holding an SSN could be reversed by trying every SSN.
   */
  fingerprint(material: string): Uint8Array;
}

export interface NewCustomerRecord {
  id: string;
  environment: string;
  sealed: SealedPersonalData;
  dateOfBirth: string;
  preferredName: string;
  firstName: string;
  middleName: string;
  lastName: string;
  emails: string[];
  phoneNumbers: Phone[];
  addresses: Address[];
}

export interface CustomerChanges {
  preferredName?: string | undefined;
  emails?: string[] | undefined;
  phoneNumbers?: Phone[] | undefined;
  addresses?: Address[] | undefined;
}

export interface PageRequest {
  /** How many records, at most. */
  first: number;
  /** Return records whose id sorts after this one. */
  after?: string | undefined;
}

/** Where a walk along the links starts. */
export interface LinkRoots {
  customerIds: readonly string[];
  accountIds: readonly string[];
}

/** Customers and accounts read together (see LinkReadModel.findLinkedRecords). */
export interface LinkedRecords {
  customers: Customer[];
  accounts: Account[];
}

/** The same walk, ids and links only (see LinkReadModel.findLinkedIds). */
export interface LinkedIds {
  customers: CustomerLinks[];
  accounts: AccountLinks[];
}

/**
 * A creation's idempotency key, with the result a retry will replay. The store writes it in the same
 * statement as the record, and writes neither when another unexpired record holds the key.
 */
export interface IdempotencyRecord {
  claim: IdempotencyClaim;
  result: unknown;
}

/** What a write commits together with its change, atomically (one statement: all or nothing). */
export interface WriteEffects {
  audit: NewAuditEvent;
}

export interface CreationEffects extends WriteEffects {
  idempotency?: IdempotencyRecord | undefined;
}

/** A creation made, or not made because another request's record holds its idempotency key. */
export type CreationOutcome = 'created' | 'key-taken';

export type CustomerDeletion = { outcome: 'deleted' } | { outcome: 'not-found' } | { outcome: 'has-accounts'; linkedAccounts: number };

export interface CustomerStore {
  /**
   * Writes the customer with its effects. Throws CUSTOMER_ALREADY_EXISTS when the SSN's blind index is
   * taken in the environment; nothing is written then.
   */
  insert(record: NewCustomerRecord, effects: CreationEffects): Promise<CreationOutcome>;
  findById(environment: string, id: string): Promise<Customer | null>;
  /** The customers that exist among `ids`, in any order. */
  findByIds(environment: string, ids: readonly string[]): Promise<Customer[]>;
  /** Applies the changes with their effects; null (and nothing written) when the customer does not exist. */
  update(environment: string, id: string, changes: CustomerChanges, effects: WriteEffects): Promise<Customer | null>;
  /** Deletes the customer with its effects, unless an account is linked to it (then nothing is written). */
  delete(environment: string, id: string, effects: WriteEffects): Promise<CustomerDeletion>;
  list(environment: string, page: PageRequest): Promise<Customer[]>;
}

export interface NewAccountRecord {
  id: string;
  environment: string;
  type: string;
  name: string;
  currency: string;
  customerIds: string[];
}

export type AccountCreation = { outcome: CreationOutcome } | { outcome: 'customers-missing'; missing: string[] };

/** What a change to an existing account's controls or customers found. */
export type AccountChange =
  | { outcome: 'changed'; account: Account }
  | { outcome: 'unchanged'; account: Account }
  | { outcome: 'account-not-found' }
  | { outcome: 'customer-not-found' }
  | { outcome: 'customer-limit' }
  | { outcome: 'last-customer' };

export type AccountUpdate = { outcome: 'updated'; account: Account } | { outcome: 'not-found' } | { outcome: 'currency-locked' };
export type AccountDeletion = { outcome: 'deleted' } | { outcome: 'not-found' } | { outcome: 'balance-not-zero' };

export interface AccountStore {
  /**
   * Writes the account, its links and its effects, unless a customer is missing from the environment
   * (then nothing is written). The customers cannot be deleted while the links are being written.
   */
  insert(record: NewAccountRecord, effects: CreationEffects): Promise<AccountCreation>;
  findById(environment: string, id: string): Promise<Account | null>;
  findByIds(environment: string, ids: readonly string[]): Promise<Account[]>;
  /**
   * Applies the changes with their effects. Nothing is written when the account does not exist, or when
   * the currency would change on an account that has ledger entries.
   */
  update(environment: string, id: string, changes: { name: string; currency: string }, effects: WriteEffects): Promise<AccountUpdate>;
  /**
   * Deletes the account and its links with its effects, only at a zero posted balance with no pending
   * hold; its ledger entries stay.
   */
  delete(environment: string, id: string, effects: WriteEffects): Promise<AccountDeletion>;
  list(environment: string, page: PageRequest): Promise<Account[]>;
  /** Links one more customer of the environment (after the others); 'unchanged' when already linked. */
  addCustomer(environment: string, id: string, customerId: string, limit: number, effects: WriteEffects): Promise<AccountChange>;
  /** Unlinks a customer, never the last one. */
  removeCustomer(environment: string, id: string, customerId: string, effects: WriteEffects): Promise<AccountChange>;
  /** Sets or clears a flag; 'unchanged' (nothing written) when it already was so. */
  setFlag(environment: string, id: string, flag: AccountFlag, on: boolean, effects: WriteEffects): Promise<AccountChange>;
  setOverdraftLimit(environment: string, id: string, limit: string, effects: WriteEffects): Promise<AccountChange>;
}

/** One side of a posting. accountId null: the environment's settlement account of the currency. */
export interface PostingLeg {
  entryId: string;
  accountId: string | null;
  type: EntryType;
}

/** A balanced posting of `amount`: one DEBIT leg and one CREDIT leg. */
export interface NewPosting {
  environment: string;
  postingId: string;
  transferId: string | null;
  legs: readonly [PostingLeg, PostingLeg];
  amount: string;
  /**
   * Every account of the posting must be in this currency (CURRENCY_MISMATCH otherwise); null: the first
   * account's, as the statement locked it, so a posting needs no read before its write.
   */
  currency: string | null;
  description: string;
  /** true: a hold (pending), which only reserves the amount. */
  hold: boolean;
  expiresAt: Date | null;
}

/** Why the ledger refused a write; nothing was written. */
export type LedgerRefusal =
  | 'ACCOUNT_NOT_FOUND'
  | 'CURRENCY_MISMATCH'
  | 'ACCOUNT_FROZEN'
  | 'DEBITS_BLOCKED'
  | 'CREDITS_BLOCKED'
  | 'INSUFFICIENT_FUNDS'
  | 'TRANSACTION_NOT_FOUND'
  | 'TRANSACTION_NOT_PENDING'
  | 'TRANSACTION_NOT_POSTED'
  | 'TRANSACTION_ALREADY_REVERSED'
  | 'REVERSAL_NOT_REVERSIBLE'
  | 'HOLD_EXPIRED'
  | 'AMOUNT_EXCEEDS_HOLD'
  /** More decimals than the posting currency's minor unit. */
  | 'AMOUNT_TOO_PRECISE';

export type LedgerWrite =
  | { outcome: 'written'; transactions: Transaction[] }
  | { outcome: 'key-taken' }
  | { outcome: 'refused'; refusal: LedgerRefusal; accountId: string | null; currency?: string | null };

export type HoldSettlement = { action: 'post'; amount: string | null } | { action: 'void' };

export interface NewReversal {
  postingId: string;
  /** Ids of the reversal's two entries. */
  entryIds: readonly [string, string];
  description: string;
}

export interface TransactionPage {
  first: number;
  /** A transactionId of the same account: the page starts after it (older). */
  after?: string | undefined;
}

/**
 * The double-entry ledger. Each write is one statement: it locks the accounts it moves money on (in id
 * order, then the settlement account), checks every rule against what it locked, and writes the entries,
 * the balances and its effects, or nothing.
 */
export interface LedgerStore {
  post(posting: NewPosting, effects: CreationEffects): Promise<LedgerWrite>;
  /** Posts (all or part of) or voids the hold `transactionId` of `accountId`, both sides of it. */
  settleHold(environment: string, accountId: string, transactionId: string, settlement: HoldSettlement, effects: CreationEffects): Promise<LedgerWrite>;
  /** Reverses the posted posting of `transactionId` (both sides), at most once. */
  reverse(environment: string, accountId: string, transactionId: string, reversal: NewReversal, effects: CreationEffects): Promise<LedgerWrite>;
  findTransactions(environment: string, transactionIds: readonly string[]): Promise<Transaction[]>;
  /** Newest first. */
  listTransactions(environment: string, accountId: string, page: TransactionPage): Promise<Transaction[]>;
  /** Pending holds whose expiry has passed, oldest first. */
  expiredHolds(now: Date, limit: number): Promise<{ environment: string; accountId: string; transactionId: string }[]>;
}

/** Reads across the customer–account links (GraphQL's nested reads). */
export interface LinkReadModel {
  /**
   * The customers and accounts named in `roots` and every record linked to them within `depth` links
   * (customer → account is one link, account → customer the next), in one round trip; absent ids are skipped.
   */
  findLinkedRecords(environment: string, roots: LinkRoots, depth: number): Promise<LinkedRecords>;
  /** As findLinkedRecords, reading only each record's id and links: no personal data, far less to read. */
  findLinkedIds(environment: string, roots: LinkRoots, depth: number): Promise<LinkedIds>;
}

/**
 * Everything the domain reads and writes. Each write method is atomic on its own (the change and its
 * effects in one statement), so the domain needs no transaction object.
 */
export interface Stores {
  customers: CustomerStore;
  accounts: AccountStore;
  links: LinkReadModel;
  ledger: LedgerStore;
  events: EventStore;
  webhooks: WebhookStore;
  audit: AuditStore;
  idempotency: IdempotencyStore;
}
