import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { statementName } from '../sql/sql.js';

export type { PrismaClient } from '../generated/prisma/client.js';
export { Prisma } from '../generated/prisma/client.js';

export interface PrismaClientOptions {
  /**
   * Prepare the declared raw statements under their names (src/db/sql/sql.ts). Off behind a connection
   * pooler in transaction mode that cannot keep prepared statements (pgbouncer before 1.21).
   */
  namedStatements?: boolean;
}

/** The protocol's unnamed statement: pg prepares a statement under a name only when it is non-empty. */
const UNNAMED = '';

/**
 * The one way the service reaches PostgreSQL: Prisma Client on the shared pg pool, through the driver
 * adapter (no Rust query engine). `pg` itself is only the pool under the adapter, the migration runner
 * and the embedded server's bootstrap.
 */
export function createPrismaClient(pool: pg.Pool, options: PrismaClientOptions = {}): PrismaClient {
  const named = options.namedStatements ?? true;
  return new PrismaClient({
    adapter: new PrismaPg(
      pool,
      named ? { statementNameGenerator: (query) => statementName(query.sql) ?? UNNAMED } : {},
    ),
  });
}
