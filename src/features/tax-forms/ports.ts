import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { TaxFormAddress } from './tax-form.js';

/** What the tax forms need from storage (src/features/tax-forms/tax-form.store.ts implements it). */

/** A customer as a tax form's recipient, its TIN still sealed (the service opens it for its last four alone). */
export interface RecipientRow {
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  name: string;
  address: TaxFormAddress | null;
  /** The sealed SSN (a person) or tax id (a business), with the id of the key that sealed it. */
  sealedTin: { keyId: string; ciphertext: Uint8Array };
  /** A business's entity type and formation country; null for a person. */
  entityType: string | null;
  formationCountry: string | null;
}

/** The interest posted in a year to one account the customer is the first owner of. */
export interface AccountInterestRow {
  accountId: string;
  currency: string;
  /** Exact decimal text. */
  interestPaid: string;
}

export interface TaxFormStore {
  /** The customer of the environment, or null when there is none. */
  recipient(environment: string, customerId: string): Promise<RecipientRow | null>;
  /**
   * The interest posted in calendar year `year` (by each posting's period end: its business date) to every account
   * whose first OWNER (ADR 0091: the lowest position among its OWNER links) is the customer, those with any, by id.
   */
  interestByAccount(environment: string, customerId: string, year: number): Promise<AccountInterestRow[]>;
  /** Writes an audit row on its own (the form's read). */
  audit(audit: NewAuditEvent): Promise<void>;
}
