import type { AccountStore } from './accounts/index.js';
import type { AccountNumberStore } from './account-numbers/index.js';
import type { AuditStore } from './audit/index.js';
import type { ClockStore, EndOfDayStore } from './clock/index.js';
import type { BusinessProfileReader, CustomerStore } from './customers/index.js';
import type { BeneficialOwnerStore, BusinessStore } from './businesses/index.js';
import type { VerificationDocumentStore, VerificationHttpStore, VerificationStore } from './verification/index.js';
import type { EventStore } from './events/index.js';
import type { HistoryStore } from './history/index.js';
import type { IdempotencyStore } from './idempotency/index.js';
import type { LedgerStore } from './ledger/index.js';
import type { LinkReadModel } from './links/index.js';
import type { LifecycleStore } from './lifecycle/index.js';
import type { DormancyStore } from './dormancy/index.js';
import type { InterestStore } from './interest/index.js';
import type { FeeStore } from './fees/index.js';
import type { TaxFormStore } from './tax-forms/index.js';
import type { NoteStore } from './notes/index.js';
import type { ProductStore } from './products/index.js';
import type { TimelineStore } from './timeline/index.js';
import type { WebhookStore } from './webhooks/index.js';

/**
 * What the domain needs from the outside world, all together: the set of stores, aggregated from each
 * feature's `<feature>/ports.ts`, and (re-exported from their own modules) what the features share: the
 * write effects (write-effects.ts), paging (pagination.ts) and the personal-data protector
 * (personal-data.ts). The feature ports import those modules, never this one, so the dependency runs one
 * way. src/db implements the stores on PostgreSQL; src/pii implements the protector. No Prisma, HTTP or
 * GraphQL type crosses these interfaces.
 */

export type { CreationEffects, CreationOutcome, WriteEffects } from '../domain/write-effects.js';
export type { PageRequest } from '../domain/pagination.js';
export type { PersonalDataProtector, SealedPersonalData, SealedTaxId } from '../domain/personal-data.js';

/**
 * Everything the domain reads and writes. Each write method is atomic on its own (the change and its
 * effects in one statement), so the domain needs no transaction object.
 */
export interface Stores {
  customers: CustomerStore;
  /** Business customers' writes and profiles (docs/adr/0090): one store, both faces. */
  businesses: BusinessStore;
  businessProfiles: BusinessProfileReader;
  /** A business's beneficial owners (docs/adr/0094). */
  beneficialOwners: BeneficialOwnerStore;
  /** A customer's verification: its status, checks and decision (docs/adr/0101). */
  verification: VerificationStore;
  /** The `http` verification provider's submissions and callbacks, and the gates' reads (docs/adr/0104). */
  verificationHttp: VerificationHttpStore;
  /** A customer's verification documents: metadata, sealed chunks, reviews (docs/adr/0103). */
  verificationDocuments: VerificationDocumentStore;
  accounts: AccountStore;
  /** Account numbers, sealed (docs/adr/0107). */
  accountNumbers: AccountNumberStore;
  /** Case notes on customers and accounts (docs/adr/0105). */
  notes: NoteStore;
  /** Deposit products and their rates (docs/adr/0112). */
  products: ProductStore;
  /** A customer's timeline, read from the records of the other features (docs/adr/0111). */
  timeline: TimelineStore;
  /** Accounts close and reopen, customers archive (docs/adr/0106). */
  lifecycle: LifecycleStore;
  /** Dormancy and escheatment (docs/adr/0109). */
  dormancy: DormancyStore;
  /** Interest accruals and postings (docs/adr/0113). */
  interest: InterestStore;
  /** Monthly maintenance fee assessments (docs/adr/0115). */
  fees: FeeStore;
  /** A customer's tax forms' reads and their audit (docs/adr/0116). */
  taxForms: TaxFormStore;
  links: LinkReadModel;
  ledger: LedgerStore;
  history: HistoryStore;
  events: EventStore;
  webhooks: WebhookStore;
  audit: AuditStore;
  idempotency: IdempotencyStore;
  /** Each environment's clock (docs/adr/0102). */
  clock: ClockStore;
  /** The end of day's record and its lease. */
  endOfDay: EndOfDayStore;
}
