import type { Stores } from './ports.js';
import { PrismaAccountStore } from './accounts/index.js';
import { PrismaAccountNumberStore } from './account-numbers/index.js';
import { PrismaAuditStore } from './audit/index.js';
import { PrismaClockStore, PrismaEndOfDayStore } from './clock/index.js';
import { PrismaCustomerStore } from './customers/index.js';
import { PrismaBeneficialOwnerStore, PrismaBusinessStore } from './businesses/index.js';
import {
  PrismaVerificationDocumentStore,
  PrismaVerificationHttpStore,
  PrismaVerificationStore,
} from './verification/index.js';
import { withTranslatedErrors } from '../db/sql/errors.js';
import { PrismaHistoryStore } from './history/index.js';
import { PrismaIdempotencyStore } from './idempotency/index.js';
import { PrismaEventStore } from './events/index.js';
import { PrismaLedgerStore } from './ledger/index.js';
import { PrismaLinkReadModel } from './links/index.js';
import { PrismaLifecycleStore } from './lifecycle/index.js';
import { PrismaDormancyStore } from './dormancy/index.js';
import { PrismaInterestStore } from './interest/index.js';
import { PrismaFeeStore } from './fees/index.js';
import { PrismaTaxFormStore } from './tax-forms/index.js';
import { PrismaNoteStore } from './notes/index.js';
import { PrismaProductStore } from './products/index.js';
import { PrismaTimelineStore } from './timeline/index.js';
import type { PrismaClient } from '../db/connection/prisma-client.js';
import { PrismaWebhookStore } from './webhooks/index.js';

export interface StoreOptions {
  /** How long a creation waits behind a concurrent one holding its idempotency key; default 2 s. */
  idempotencyWaitMs?: number | undefined;
}

/**
 * The domain's stores on one Prisma Client. Every write is one statement (its change and effects), so
 * there is no transaction to hand around; database failures reach the domain already translated.
 */
export function createStores(prisma: PrismaClient, options: StoreOptions = {}): Stores {
  const businesses = withTranslatedErrors(new PrismaBusinessStore(prisma, options.idempotencyWaitMs));
  const ledger = new PrismaLedgerStore(prisma, options.idempotencyWaitMs);
  const interest = new PrismaInterestStore(prisma, ledger);
  return {
    customers: withTranslatedErrors(new PrismaCustomerStore(prisma, options.idempotencyWaitMs)),
    businesses,
    businessProfiles: businesses,
    beneficialOwners: withTranslatedErrors(new PrismaBeneficialOwnerStore(prisma)),
    verification: withTranslatedErrors(new PrismaVerificationStore(prisma)),
    verificationHttp: withTranslatedErrors(new PrismaVerificationHttpStore(prisma)),
    verificationDocuments: withTranslatedErrors(new PrismaVerificationDocumentStore(prisma)),
    accounts: withTranslatedErrors(new PrismaAccountStore(prisma, options.idempotencyWaitMs)),
    accountNumbers: withTranslatedErrors(new PrismaAccountNumberStore(prisma)),
    links: withTranslatedErrors(new PrismaLinkReadModel(prisma)),
    notes: withTranslatedErrors(new PrismaNoteStore(prisma, options.idempotencyWaitMs)),
    products: withTranslatedErrors(new PrismaProductStore(prisma, options.idempotencyWaitMs)),
    timeline: withTranslatedErrors(new PrismaTimelineStore(prisma)),
    ledger: withTranslatedErrors(ledger),
    // A closing disbursement is the ledger's own posting statement, and its interest the interest store's posting, in
    // the lifecycle store's transaction.
    lifecycle: withTranslatedErrors(new PrismaLifecycleStore(prisma, ledger, interest)),
    dormancy: withTranslatedErrors(new PrismaDormancyStore(prisma)),
    // An interest posting is the ledger's own posting statement, in the interest store's transaction.
    interest: withTranslatedErrors(interest),
    // A fee's charge is the ledger's own posting statement, in the fee store's transaction.
    fees: withTranslatedErrors(new PrismaFeeStore(prisma, ledger)),
    taxForms: withTranslatedErrors(new PrismaTaxFormStore(prisma)),
    history: withTranslatedErrors(new PrismaHistoryStore(prisma)),
    events: withTranslatedErrors(new PrismaEventStore(prisma)),
    webhooks: withTranslatedErrors(new PrismaWebhookStore(prisma)),
    audit: withTranslatedErrors(new PrismaAuditStore(prisma)),
    idempotency: withTranslatedErrors(new PrismaIdempotencyStore(prisma)),
    clock: withTranslatedErrors(new PrismaClockStore(prisma)),
    endOfDay: withTranslatedErrors(new PrismaEndOfDayStore(prisma)),
  };
}
