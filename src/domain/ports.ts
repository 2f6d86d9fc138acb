import type { Account, AccountLinks } from './accounts/account.js';
import type { AuditStore } from './audit/audit-event.js';
import type { IdempotencyStore } from './idempotency/idempotency-store.js';
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

/** Customers and accounts read together (see CustomerStore.findLinkedRecords). */
export interface LinkedRecords {
  customers: Customer[];
  accounts: Account[];
}

/** The same walk, ids and links only (see CustomerStore.findLinkedIds). */
export interface LinkedIds {
  customers: CustomerLinks[];
  accounts: AccountLinks[];
}

export interface CustomerStore {
  /**
   * Throws CUSTOMER_ALREADY_EXISTS when the SSN's blind index is taken in the environment. Inside a
   * transaction the row may be written with the transaction's other writes, up to its commit; the error
   * then comes from there, and nothing is committed either way.
   */
  insert(record: NewCustomerRecord): Promise<void>;
  findById(environment: string, id: string): Promise<Customer | null>;
  /** The customers that exist among `ids`, in any order. */
  findByIds(environment: string, ids: readonly string[]): Promise<Customer[]>;
  /** Applies the changes atomically; null when the customer does not exist. */
  update(environment: string, id: string, changes: CustomerChanges): Promise<Customer | null>;
  /** Locks the customer row against concurrent linking until the transaction ends; false when absent. */
  lockForDeletion(environment: string, id: string): Promise<boolean>;
  countLinkedAccounts(environment: string, id: string): Promise<number>;
  delete(environment: string, id: string): Promise<void>;
  /** Locks the rows so they cannot be deleted until the transaction ends; returns the ids that exist. */
  lockForLinking(environment: string, ids: readonly string[]): Promise<string[]>;
  list(environment: string, page: PageRequest): Promise<Customer[]>;
  /**
   * The customers and accounts named in `roots` and every record linked to them within `depth` links
   * (customer → account is one link, account → customer the next), in one round trip; absent ids are skipped.
   */
  findLinkedRecords(environment: string, roots: LinkRoots, depth: number): Promise<LinkedRecords>;
  /** As findLinkedRecords, reading only each record's id and links: no personal data, far less to read. */
  findLinkedIds(environment: string, roots: LinkRoots, depth: number): Promise<LinkedIds>;
}

export interface NewAccountRecord {
  id: string;
  environment: string;
  type: string;
  name: string;
  currency: string;
  customerIds: string[];
}

export interface AccountStore {
  insert(record: NewAccountRecord): Promise<Account>;
  findById(environment: string, id: string): Promise<Account | null>;
  findByIds(environment: string, ids: readonly string[]): Promise<Account[]>;
  update(environment: string, id: string, changes: { name: string; currency: string }): Promise<Account | null>;
  /** Deletes the account and its links; false when it did not exist. */
  delete(environment: string, id: string): Promise<boolean>;
  list(environment: string, page: PageRequest): Promise<Account[]>;
}

export interface Stores {
  customers: CustomerStore;
  accounts: AccountStore;
  audit: AuditStore;
  idempotency: IdempotencyStore;
}

/** Stores outside a transaction, and a way to run work atomically on stores bound to one. */
export interface Database {
  stores: Stores;
  transaction<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
}
