import type { Account, AccountLinks } from './accounts/account.js';
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

export interface AccountStore {
  /**
   * Writes the account, its links and its effects, unless a customer is missing from the environment
   * (then nothing is written). The customers cannot be deleted while the links are being written.
   */
  insert(record: NewAccountRecord, effects: CreationEffects): Promise<AccountCreation>;
  findById(environment: string, id: string): Promise<Account | null>;
  findByIds(environment: string, ids: readonly string[]): Promise<Account[]>;
  /** Applies the changes with their effects; null (and nothing written) when the account does not exist. */
  update(environment: string, id: string, changes: { name: string; currency: string }, effects: WriteEffects): Promise<Account | null>;
  /** Deletes the account, its links and writes its effects; false (nothing written) when it did not exist. */
  delete(environment: string, id: string, effects: WriteEffects): Promise<boolean>;
  list(environment: string, page: PageRequest): Promise<Account[]>;
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
  audit: AuditStore;
  idempotency: IdempotencyStore;
}
