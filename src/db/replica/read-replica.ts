import type { Registry } from 'prom-client';
import type { ReplicaConfig } from '../../config/config.js';
import type { Stores } from '../../features/ports.js';
import type { Logger } from '../../logging/logger.js';
import { createPool, type PoolOptions } from '../connection/pool.js';
import { createPrismaClient, type PrismaClient } from '../connection/prisma-client.js';
import { ReadRouter } from './read-router.js';
import { ReplicaMonitor, type ReplicaUsability } from './replica-monitor.js';

export interface ReadReplica {
  /** Implements the HTTP surfaces' ReadConsistency port. */
  router: ReadRouter;
  /** The domain's stores with their lag-tolerant reads routed: `build` makes one set on a Prisma Client. */
  stores(primary: PrismaClient, build: (prisma: PrismaClient) => Stores): Stores;
  /** Whether lag-tolerant reads may go to the replica now (reported by /readyz). */
  usability(): ReplicaUsability;
  stop(): Promise<void>;
}

export interface ReadReplicaOptions {
  config: ReplicaConfig;
  /** The primary's pool settings; the replica's pool takes the same, on its own URL. */
  pool: Omit<PoolOptions, 'connectionString'>;
  primary: PrismaClient;
  /** As the primary's client: false behind a transaction-mode pooler (DATABASE_PREPARED_STATEMENTS). */
  namedStatements: boolean;
  logger: Logger;
  registry: Registry;
}

/**
 * DATABASE_REPLICA_URL: a second pool and Prisma Client, made exactly as the primary's, its health monitor
 * and the router that sends lag-tolerant reads to it. Starting never fails on the replica's account: an
 * unreachable replica leaves every read on the primary until a check finds it.
 */
export async function startReadReplica(options: ReadReplicaOptions): Promise<ReadReplica> {
  const pool = createPool({ ...options.pool, connectionString: options.config.url });
  const replica = createPrismaClient(pool, { namedStatements: options.namedStatements });
  const logger = options.logger.child({ database: 'replica' });
  const monitor = new ReplicaMonitor({
    replica,
    primary: options.primary,
    maxLagMs: options.config.maxLagMs,
    checkIntervalMs: options.config.checkIntervalMs,
    logger,
    registry: options.registry,
  });
  const router = new ReadRouter({
    primary: options.primary,
    monitor,
    maxWaitMs: options.config.maxWaitMs,
    logger,
    registry: options.registry,
  });
  await monitor.start();
  return {
    router,
    stores: (primary, build) => router.route(build(primary), build(replica)),
    usability: () => monitor.usability(),
    async stop() {
      await monitor.stop();
      await replica.$disconnect();
      await pool.end();
    },
  };
}
