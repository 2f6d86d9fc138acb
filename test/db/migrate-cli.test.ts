import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const TSX = path.resolve('node_modules/.bin/tsx');

/** `npm run db:migrate` as a migration job runs it (deploy/k8s/migration-job.yaml): the built image, only the database's settings. */
function migrateCli(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['src/db/migrations/migrate-cli.ts'],
      { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run db:migrate', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.drop());

  it('runs in production with DATABASE_URL alone: a migration job holds no tokens or PII keys', async () => {
    const run = await migrateCli({ NODE_ENV: 'production', DATABASE_URL: database.url });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Applied 0 migration\(s\); \d+ already applied\.\n$/);
  });

  it('refuses a transaction-mode pooler, saying where migrations must go', async () => {
    const runs = await Promise.all(
      (
        [
          { DATABASE_URL: `${database.url}?pgbouncer=true` },
          { DATABASE_URL: database.url, DATABASE_PREPARED_STATEMENTS: 'false' },
        ] as Record<string, string>[]
      ).map((env) => migrateCli({ NODE_ENV: 'production', ...env })),
    );
    for (const run of runs) {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^Migrations cannot run through a transaction-mode connection pooler .*Point DATABASE_URL at the PostgreSQL primary directly/,
      );
      expect(run.stderr).not.toContain(new URL(database.url).password);
    }
  });
});
