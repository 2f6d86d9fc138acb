import type { AccountStore } from './accounts/ports.js';
import type { NewAuditEvent } from './audit/audit-event.js';
import type { AuditStore } from './audit/ports.js';
import type { CustomerStore } from './customers/ports.js';
import type { EventStore } from './events/ports.js';
import type { IdempotencyRecord, IdempotencyStore } from './idempotency/ports.js';
import type { LedgerStore } from './ledger/ports.js';
import type { LinkReadModel } from './links/ports.js';
import type { WebhookStore } from './webhooks/ports.js';

/**
 * What the domain needs from the outside world, in what every feature shares: the write effects, paging,
 * the personal-data protector and the set of stores. Each feature's own store interface is in its
 * `<feature>/ports.ts`. src/db implements the stores on PostgreSQL; src/pii implements the protector. No
 * Prisma, HTTP or GraphQL type crosses these interfaces.
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
  /** The HMAC blind index of a normalised SSN in an environment: how a search finds it without decrypting. */
  blindIndex(environment: string, normalisedSsn: string): Uint8Array;
}

export interface PageRequest {
  /** How many records, at most. */
  first: number;
  /** Return records whose id sorts after this one. */
  after?: string | undefined;
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
