import type { BusinessProfile } from '../customers/index.js';
import type { CreationEffects, CreationOutcome, WriteEffects } from '../../domain/write-effects.js';
import type { SealedTaxId } from '../../domain/personal-data.js';
import type { Metadata, MetadataChanges } from '../../domain/metadata.js';
import type { Address, Phone } from '../customers/index.js';

/** A new business customer: its customers row (no person fields) and its profile, written together. */
export interface NewBusinessRecord {
  id: string;
  environment: string;
  sealed: SealedTaxId;
  profile: BusinessProfile;
  emails: string[];
  phoneNumbers: Phone[];
  addresses: Address[];
  phoneSearchKeys: string[];
  externalId?: string | undefined;
  metadata?: Metadata | undefined;
}

/** undefined keeps a field; null clears an optional one. */
export interface BusinessProfileChanges {
  doingBusinessAs?: string | null | undefined;
  website?: string | null | undefined;
  industry?: string | null | undefined;
  emails?: string[] | undefined;
  phoneNumbers?: Phone[] | undefined;
  phoneSearchKeys?: string[] | undefined;
  addresses?: Address[] | undefined;
  externalId?: string | null | undefined;
  metadata?: MetadataChanges | null | undefined;
}

export type BusinessUpdate = { outcome: 'updated' } | { outcome: 'not-found' } | { outcome: 'stale' };

export interface BusinessStore {
  /**
   * Writes the customer row, its profile and effects in one statement. Throws EXTERNAL_ID_TAKEN (whatever the
   * tax id), else TAX_ID_ALREADY_EXISTS with only `taxIdRefusalAudit` written.
   */
  insert(
    record: NewBusinessRecord,
    effects: CreationEffects & { taxIdRefusalAudit: WriteEffects['audit'] },
  ): Promise<CreationOutcome>;
  /** Changes a BUSINESS customer's row and profile with its effects, in one statement (nothing when not found or stale). */
  update(
    environment: string,
    id: string,
    changes: BusinessProfileChanges,
    effects: WriteEffects,
    expectedVersions: readonly number[] | null,
  ): Promise<BusinessUpdate>;
}

/** A business's beneficial owner (docs/adr/0094), as it is listed. */
export interface BeneficialOwner {
  customerId: string;
  prongs: string[];
  /** Two decimal places, e.g. "25.00"; null without the OWNERSHIP prong. */
  ownershipPercentage: string | null;
  title: string | null;
  addedAt: string;
}

/** A business an individual owns or controls (docs/adr/0097): the owner's row seen from the owner's side. */
export interface BusinessOwnership {
  businessCustomerId: string;
  prongs: string[];
  ownershipPercentage: string | null;
  title: string | null;
  addedAt: string;
}

export interface NewBeneficialOwner {
  ownerCustomerId: string;
  /** In their stored order: OWNERSHIP before CONTROL. */
  prongs: string[];
  ownershipPercentage: string | null;
  title: string | null;
}

export type BeneficialOwnerAddition =
  | { outcome: 'added'; owner: BeneficialOwner }
  | { outcome: 'business-not-found' }
  | { outcome: 'not-a-business' }
  | { outcome: 'owner-not-found' }
  | { outcome: 'owner-not-an-individual' }
  | { outcome: 'exists' }
  | { outcome: 'limit' }
  | { outcome: 'over-100'; owned: string };

export type BeneficialOwnerRemoval =
  { outcome: 'removed' } | { outcome: 'business-not-found' } | { outcome: 'not-a-business' } | { outcome: 'not-found' };

export interface BeneficialOwnerStore {
  /** The business's owners by addedAt, then customer id; null when the customer does not exist, 'INDIVIDUAL' for a person. */
  list(environment: string, businessId: string): Promise<BeneficialOwner[] | null | 'INDIVIDUAL'>;
  /** The owners of each business, in `businessIds` order, each list as `list` orders it; [] for an id with none. One statement. */
  listOfMany(environment: string, businessIds: readonly string[]): Promise<BeneficialOwner[][]>;
  /**
   * The businesses each individual owns or controls, in `ownerIds` order, oldest first (then business id), at
   * most `limit` each; [] for an id with none. One statement.
   */
  ownershipsOfMany(environment: string, ownerIds: readonly string[], limit: number): Promise<BusinessOwnership[][]>;
  /**
   * In one transaction holding the business's profile row (FOR UPDATE): its rules (types, duplicate, the limit,
   * the sum of percentages) and, when they hold, the row with its audit event and outbox event.
   */
  add(
    environment: string,
    businessId: string,
    owner: NewBeneficialOwner,
    limit: number,
    effects: WriteEffects,
  ): Promise<BeneficialOwnerAddition>;
  /** Deletes the row with its audit event and outbox event (the event carries the row as it was). */
  remove(
    environment: string,
    businessId: string,
    ownerId: string,
    effects: WriteEffects,
  ): Promise<BeneficialOwnerRemoval>;
}
