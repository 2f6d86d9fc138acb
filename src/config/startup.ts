import { booleanFlag, integer, type Settings } from './settings.js';

/** What happens when the process starts: migrations (MIGRATE_ON_START, MIGRATION_*) and V8's heap growth. */
export const startupEnv = {
  MIGRATE_ON_START: booleanFlag('MIGRATE_ON_START').default(true),
  MIGRATION_LOCK_TIMEOUT_MS: integer('MIGRATION_LOCK_TIMEOUT_MS', 100, 600_000).default(5000),
  MIGRATION_ATTEMPTS: integer('MIGRATION_ATTEMPTS', 1, 100).default(8),
  HEAP_GROWING_PERCENT: integer('HEAP_GROWING_PERCENT', 0, 1000).default(50),
};

export const startupConfig = (raw: Settings<typeof startupEnv>) => ({
  runMigrationsOnStart: raw.MIGRATE_ON_START,
  /** How a migration behaves beside a serving fleet: src/db/migrations/migrations.ts. */
  migrations: { lockTimeoutMs: raw.MIGRATION_LOCK_TIMEOUT_MS, attempts: raw.MIGRATION_ATTEMPTS },
  /** V8's old-generation growth factor, in percent over what survived (src/config/heap-growth.ts); 0: V8's own. */
  heapGrowingPercent: raw.HEAP_GROWING_PERCENT,
});
