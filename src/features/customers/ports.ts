import type { CustomerFilter } from './customer-search.js';
import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { SealedPersonalData } from '../../domain/personal-data.js';
import type { CreationEffects, CreationOutcome, WriteEffects } from '../../domain/write-effects.js';
import type { Address, BusinessProfile, Customer, Phone } from './customer.js';
import type { Caller } from '../../domain/caller.js';
import type { CreateOptions, Creation } from '../idempotency/index.js';
import type { VersionCondition } from '../../domain/versions.js';
import type { Metadata, MetadataChanges } from '../../domain/metadata.js';

/** What the customer service needs from storage (src/features/customers/customer.store.ts implements it). */

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
  /** E.164 keys of the phone numbers (phone-numbers.ts), what the phone filter matches. */
  phoneSearchKeys: string[];
  externalId?: string | undefined;
  metadata?: Metadata | undefined;
}

export interface CustomerChanges {
  preferredName?: string | undefined;
  emails?: string[] | undefined;
  phoneNumbers?: Phone[] | undefined;
  /** Given with phoneNumbers, and only then. */
  phoneSearchKeys?: string[] | undefined;
  addresses?: Address[] | undefined;
  /** null clears it; undefined keeps it. */
  externalId?: string | null | undefined;
  /** Merged into the stored pairs (null values remove keys); null removes them all; undefined keeps them. */
  metadata?: MetadataChanges | null | undefined;
}

/** A new customer's effects (its audit event, its idempotency key's record), and the audit event of its refusal. */
export interface CustomerCreationEffects extends CreationEffects {
  /**
   * Written alone, and only, when the customer is refused because its SSN is on file (CUSTOMER_ALREADY_EXISTS):
   * the refusal tells the caller that a customer has this number, so it is audited as a search by SSN is.
   * Never written when the externalId is taken (EXTERNAL_ID_TAKEN, which wins whatever the SSN) or on success.
   */
  ssnRefusalAudit: NewAuditEvent;
}

/** Business profiles by customer id (src/features/businesses implements it): read only for BUSINESS rows. */
export interface BusinessProfileReader {
  profilesByIds(environment: string, ids: readonly string[]): Promise<Map<string, BusinessProfile>>;
}

/**
 * The business customers' writes (src/features/businesses, docs/adr/0090), handed to the customer service by the
 * composition root: a creation with `customerType: BUSINESS` and an update of a BUSINESS customer go there.
 */
export interface BusinessCustomers {
  create(caller: Caller, input: unknown, options?: CreateOptions): Promise<Creation<Customer>>;
  update(caller: Caller, customerId: string, input: unknown, condition?: VersionCondition): Promise<Customer>;
}

/** 'stale': the customer exists, but its version is none of the expected ones (nothing written). */
/** 'business': the customer is a BUSINESS, which this update does not write (nothing written). */
export type CustomerUpdate =
  | { outcome: 'updated'; customer: Customer }
  | { outcome: 'not-found' }
  | { outcome: 'stale' }
  | { outcome: 'business' };
export type CustomerDeletion =
  | { outcome: 'deleted' }
  | { outcome: 'not-found' }
  | { outcome: 'stale' }
  | { outcome: 'has-accounts'; linkedAccounts: number }
  | { outcome: 'is-beneficial-owner'; businesses: number };

export interface CustomerStore {
  /**
   * Writes the customer with its effects. Throws EXTERNAL_ID_TAKEN when its externalId is taken in the
   * environment, whatever the SSN (nothing is written then); otherwise CUSTOMER_ALREADY_EXISTS when the SSN's
   * blind index is taken, with only `effects.ssnRefusalAudit` written.
   */
  insert(record: NewCustomerRecord, effects: CustomerCreationEffects): Promise<CreationOutcome>;
  findById(environment: string, id: string): Promise<Customer | null>;
  /** The customer's type, or null when it does not exist (only read on a refusal's path). */
  typeOf(environment: string, id: string): Promise<'INDIVIDUAL' | 'BUSINESS' | null>;
  /** The customers that exist among `ids`, in any order. */
  findByIds(environment: string, ids: readonly string[]): Promise<Customer[]>;
  /**
   * Applies the changes with their effects; nothing is written when the customer does not exist or, with
   * `expectedVersions` (null: unconditional), when its version is none of them: compared in the same statement.
   * Throws EXTERNAL_ID_TAKEN, or VALIDATION_FAILED when the merged metadata would exceed its keys (nothing written).
   */
  update(
    environment: string,
    id: string,
    changes: CustomerChanges,
    effects: WriteEffects,
    expectedVersions?: readonly number[] | null,
  ): Promise<CustomerUpdate>;
  /** Deletes the customer with its effects, unless an account is linked to it or its version is not expected (then nothing is written). */
  delete(
    environment: string,
    id: string,
    effects: WriteEffects,
    expectedVersions?: readonly number[] | null,
  ): Promise<CustomerDeletion>;
  list(environment: string, page: PageRequest): Promise<Customer[]>;
  /** The customers matching every given filter, in id order, at most `page.first` after `page.after`. A read: a replica may answer. */
  search(environment: string, filter: CustomerFilter, page: PageRequest): Promise<Customer[]>;
  /** search(), and the search's audit event (its `matchedCount` the rows found) written by the same statement: the primary answers. */
  auditedSearch(
    environment: string,
    filter: CustomerFilter,
    page: PageRequest,
    audit: NewAuditEvent,
  ): Promise<Customer[]>;
}
