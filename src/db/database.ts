import type { Database, Stores } from '../domain/ports.js';
import { PrismaAccountStore } from './account.store.js';
import { PrismaAuditStore } from './audit.store.js';
import { PrismaCustomerStore } from './customer.store.js';
import { translateDatabaseError, withTranslatedErrors } from './errors.js';
import { PrismaIdempotencyStore } from './idempotency.store.js';
import type { Prisma, PrismaClient } from './prisma-client.js';

function storesOn(client: PrismaClient | Prisma.TransactionClient, limits: TransactionLimits): Stores {
  return {
    customers: withTranslatedErrors(new PrismaCustomerStore(client)),
    accounts: withTranslatedErrors(new PrismaAccountStore(client)),
    audit: withTranslatedErrors(new PrismaAuditStore(client)),
    idempotency: withTranslatedErrors(new PrismaIdempotencyStore(client, limits.idempotencyWaitMs)),
  };
}


export interface TransactionLimits {
  /** How long to wait for a connection to start the transaction. */
  maxWaitMs: number;
  /** How long the whole transaction may take before it is rolled back. */
  timeoutMs: number;
  /** How long a creation waits behind a concurrent one holding its idempotency key; default 2 s. */
  idempotencyWaitMs?: number;
}

/** The domain's Database port on Prisma: plain stores, or stores bound to one READ COMMITTED transaction. */
export function createPrismaDatabase(prisma: PrismaClient, limits: TransactionLimits): Database {
  return {
    stores: storesOn(prisma, limits),
    async transaction(work) {
      try {
        return await prisma.$transaction((tx) => work(storesOn(tx, limits)), {
          isolationLevel: 'ReadCommitted',
          maxWait: limits.maxWaitMs,
          timeout: limits.timeoutMs,
        });
      } catch (error) {
        throw translateDatabaseError(error);
      }
    },
  };
}
