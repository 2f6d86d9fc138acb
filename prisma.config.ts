import { defineConfig } from 'prisma/config';

// Prisma 7 reads the datasource URL from here, not from schema.prisma. Only the stock
// `prisma migrate status/deploy` commands need it; the service passes its URL to the driver adapter.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/postgres' },
});
