import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { createPrismaDatabase } from '../../src/db/database.js';
import { createPool } from '../../src/db/pool.js';
import { createPrismaClient } from '../../src/db/prisma-client.js';
import type { RequestScope } from '../../src/domain/scope.js';
import { createDomainServices, type DomainServices } from '../../src/domain/services.js';
import { PiiCipher } from '../../src/pii/pii-cipher.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface DomainHarness {
  services: DomainServices;
  cipher: PiiCipher;
  database: TestDatabase;
  pool: pg.Pool;
  scope(environment?: string): RequestScope;
  close(): Promise<void>;
}

/** The domain services on a fresh database, without HTTP: for rule-level tests. */
export async function createDomainHarness(): Promise<DomainHarness> {
  const database = await createTestDatabase();
  const pool = createPool({ connectionString: database.url, max: 20, connectTimeoutMs: 5000, statementTimeoutMs: 10_000 });
  const prisma = createPrismaClient(pool);
  const cipher = new PiiCipher({
    keys: new Map([['test-1', randomBytes(32)]]),
    activeKeyId: 'test-1',
    blindIndexKey: randomBytes(32),
  });
  const services = createDomainServices({ db: createPrismaDatabase(prisma, { maxWaitMs: 5000, timeoutMs: 10_000 }), protector: cipher });
  let requests = 0;
  return {
    services,
    cipher,
    database,
    pool,
    scope: (environment = 'sandbox') => ({ environment, principal: { id: 'test', kind: 'static-token' }, requestId: `req-${++requests}` }),
    async close() {
      await prisma.$disconnect();
      await pool.end();
      await database.drop();
    },
  };
}
