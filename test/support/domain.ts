import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { createPool } from '../../src/db/connection/pool.js';
import { createPrismaClient, type PrismaClient } from '../../src/db/connection/prisma-client.js';
import { createStores } from '../../src/features/stores.js';
import { ACCESS_SCOPES, type Caller, type Principal } from '../../src/domain/caller.js';
import { createDomainServices, type DomainServices } from '../../src/features/services.js';
import { PiiCipher, type PiiKeyring } from '../../src/pii/pii-cipher.js';
import { sandboxProvider } from '../../src/features/verification/index.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface DomainHarness {
  services: DomainServices;
  cipher: PiiCipher;
  database: TestDatabase;
  pool: pg.Pool;
  prisma: PrismaClient;
  /** A caller with full access (like a static API_TOKENS token), or with the principal's fields given. */
  caller(environment?: string, principal?: Partial<Principal>): Caller;
  close(): Promise<void>;
}

export interface DomainHarnessOptions {
  /** PII keys (default: one random key `test-1`). */
  keyring?: PiiKeyring;
  idempotencyWaitMs?: number;
}

/** The domain services on a fresh database, without HTTP: for rule-level tests. */
export async function createDomainHarness(options: DomainHarnessOptions = {}): Promise<DomainHarness> {
  const database = await createTestDatabase();
  const pool = createPool({
    connectionString: database.url,
    max: 20,
    connectTimeoutMs: 60_000,
    statementTimeoutMs: 60_000,
  });
  const prisma = createPrismaClient(pool);
  const cipher = new PiiCipher(
    options.keyring ?? {
      keys: new Map([['test-1', randomBytes(32)]]),
      activeKeyId: 'test-1',
      blindIndexKey: randomBytes(32),
    },
  );
  const services = createDomainServices({
    stores: createStores(prisma, { idempotencyWaitMs: options.idempotencyWaitMs }),
    protector: cipher,
    // Results due at once: a test applies them with services.verification.completeDueChecks().
    verificationProvider: sandboxProvider(0),
  });
  let requests = 0;
  return {
    services,
    cipher,
    database,
    pool,
    prisma,
    caller: (environment = 'sandbox', principal = {}) => ({
      environment,
      principal: { id: 'test', kind: 'static-token', scopes: ACCESS_SCOPES, environments: '*', ...principal },
      requestId: `req-${++requests}`,
    }),
    async close() {
      await prisma.$disconnect();
      await pool.end();
      await database.drop();
    },
  };
}
