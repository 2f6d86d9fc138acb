import type { Stores } from './ports.js';
import { PrismaAccountStore } from './accounts/account.store.js';
import { PrismaAuditStore } from './audit/audit.store.js';
import { PrismaCustomerStore } from './customers/customer.store.js';
import { withTranslatedErrors } from '../db/sql/errors.js';
import { PrismaHistoryStore } from './history/history.store.js';
import { PrismaIdempotencyStore } from './idempotency/idempotency.store.js';
import { PrismaEventStore } from './events/event.store.js';
import { PrismaLedgerStore } from './ledger/ledger.store.js';
import { PrismaLinkReadModel } from './links/link.read-model.js';
import type { PrismaClient } from '../db/connection/prisma-client.js';
import { PrismaWebhookStore } from './webhooks/webhook.store.js';

export interface StoreOptions {
  /** How long a creation waits behind a concurrent one holding its idempotency key; default 2 s. */
  idempotencyWaitMs?: number | undefined;
}

/**
 * The domain's stores on one Prisma Client. Every write is one statement (its change and effects), so
 * there is no transaction to hand around; database failures reach the domain already translated.
 */
export function createStores(prisma: PrismaClient, options: StoreOptions = {}): Stores {
  return {
    customers: withTranslatedErrors(new PrismaCustomerStore(prisma, options.idempotencyWaitMs)),
    accounts: withTranslatedErrors(new PrismaAccountStore(prisma, options.idempotencyWaitMs)),
    links: withTranslatedErrors(new PrismaLinkReadModel(prisma)),
    ledger: withTranslatedErrors(new PrismaLedgerStore(prisma, options.idempotencyWaitMs)),
    history: withTranslatedErrors(new PrismaHistoryStore(prisma)),
    events: withTranslatedErrors(new PrismaEventStore(prisma)),
    webhooks: withTranslatedErrors(new PrismaWebhookStore(prisma)),
    audit: withTranslatedErrors(new PrismaAuditStore(prisma)),
    idempotency: withTranslatedErrors(new PrismaIdempotencyStore(prisma)),
  };
}
