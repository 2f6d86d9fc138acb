import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { PrismaClient } from './generated/prisma/client.js';

export type { PrismaClient } from './generated/prisma/client.js';
export { Prisma } from './generated/prisma/client.js';

/** Prisma on the shared pg pool, through the driver adapter (no Rust query engine). */
export function createPrismaClient(pool: pg.Pool): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}
