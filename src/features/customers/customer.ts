import type { Metadata } from '../../domain/metadata.js';

/** Why a customer was archived (docs/account-lifecycle.md). */
export const CUSTOMER_ARCHIVE_REASONS = [
  'CUSTOMER_REQUEST',
  'BANK_DECISION',
  'FRAUD',
  'DECEASED',
  'DUPLICATE',
  'OTHER',
] as const;
export type CustomerArchiveReason = (typeof CUSTOMER_ARCHIVE_REASONS)[number];

/** A customer as it leaves the domain: never a social security or document locator number. */
export interface Customer {
  customerId: string;
  accountIds: string[];
  preferredName: string;
  firstName: string;
  middleName: string;
  lastName: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  emails: string[];
  phoneNumbers: Phone[];
  addresses: Address[];
  /** Moves with every change of the above (src/domain/versions.ts); never part of the contract's JSON. */
  version: number;
  /** The client's own id for the customer; absent when unset. */
  externalId?: string;
  /** The client's key-value pairs; absent when there are none. */
  metadata?: Metadata;
  /**
   * Only on an entity (docs/adr/0090): 'BUSINESS', and its profile once read (src/features/businesses). A
   * business has none of a person's fields: they are empty strings here and never presented.
   */
  customerType?: 'BUSINESS';
  business?: BusinessProfile;
  /** Only on an archived customer (docs/adr/0106): absent while active, so an active one has exactly the contract's fields. */
  status?: 'ARCHIVED';
  /** ISO 8601, UTC, by the environment's clock; only on an archived customer. */
  archivedAt?: string;
  archiveReason?: CustomerArchiveReason;
}

/** An entity's own fields, as it reads them (never its tax id). */
export interface BusinessProfile {
  legalName: string;
  doingBusinessAs: string | null;
  entityType: string;
  /** YYYY-MM-DD */
  formationDate: string;
  formationState: string | null;
  formationCountry: string;
  industry: string | null;
  website: string | null;
  /** Its beneficial owners' customer ids, ordered as their list (docs/adr/0094); read with the profile. */
  beneficialOwnerIds?: string[];
}

/** A customer's identity and links only; every Customer is one. */
export type CustomerLinks = Pick<Customer, 'customerId' | 'accountIds'>;

export interface Phone {
  type: string;
  number: string;
}

export interface Address {
  type: string;
  street: string;
  city: string;
  state: string;
  zip: string;
}
