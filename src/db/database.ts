import type { Database, Stores } from '../domain/ports.js';
import { PrismaAccountStore } from './account.store.js';
import { PrismaCustomerStore } from './customer.store.js';
import { translateDatabaseError, withTranslatedErrors } from './errors.js';
import type { Prisma, PrismaClient } from './prisma-client.js';

function storesOn(client: PrismaClient | Prisma.TransactionClient): Stores {
  return {
    customers: withTranslatedErrors(new PrismaCustomerStore(client)),
    accounts: withTranslatedErrors(new PrismaAccountStore(client)),
  };
}


export interface TransactionLimits {
  /** How long to wait for a connection to start the transaction. */
  maxWaitMs: number;
  /** How long the whole transaction may take before it is rolled back. */
  timeoutMs: number;
}

/** The domain's Database port on Prisma: plain stores, or stores bound to one READ COMMITTED transaction. */
export function createPrismaDatabase(prisma: PrismaClient, limits: TransactionLimits): Database {
  return {
    stores: storesOn(prisma),
    async transaction(work) {
      try {
        return await prisma.$transaction((tx) => work(storesOn(tx)), {
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
