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
