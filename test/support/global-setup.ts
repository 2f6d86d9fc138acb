import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/postgres/embedded-postgres.js';
import { migrate } from '../../src/db/migrations/migrations.js';
import { createPool } from '../../src/db/connection/pool.js';
import { withDatabase } from './urls.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL with the right to CREATE DATABASE; its database name is replaced per test file. */
    adminDatabaseUrl: string;
    /** The migrated template every test database is cloned from. */
    templateDatabase: string;
  }
}

/**
 * Starts the PostgreSQL for the whole run: TEST_DATABASE_URL when given (e.g. Debian's PostgreSQL 15 in
 * CI), else a throw-away embedded server tuned for speed (fsync off: nothing here must survive a crash), with
 * TEST_PG_SHARED_BUFFERS as its shared_buffers when set (the load check's small cache; PostgreSQL's default otherwise).
 * Migrates one template database once; each test file clones it in milliseconds. Builds the console first
 * when it is stale (scripts/build-console.mjs).
 */
export default async function setup(project: TestProject) {
  // The console the service serves at /console (test/console/), built when its sources changed (a few seconds).
  const consoleBuild = spawnSync(process.execPath, ['scripts/build-console.mjs'], { stdio: 'inherit' });
  if (consoleBuild.status !== 0) throw new Error('building the console failed (node scripts/build-console.mjs)');
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  if (!adminUrl) {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-test-pg-'));
    const embedded = await startEmbeddedPostgres({
      dataDir,
      settings: {
        fsync: 'off',
        synchronous_commit: 'off',
        full_page_writes: 'off',
        max_connections: '300',
        // The load check (npm run test:under-load) shrinks the server's cache: plans and waits must not depend on it.
        ...(process.env.TEST_PG_SHARED_BUFFERS ? { shared_buffers: process.env.TEST_PG_SHARED_BUFFERS } : {}),
      },
    });
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }

  const template = `cas_template_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  const templatePool = createPool({
    connectionString: withDatabase(adminUrl, template),
    max: 1,
    connectTimeoutMs: 60_000,
    statementTimeoutMs: 60_000,
  });
  await migrate(templatePool);
  await templatePool.end();

  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    if (stopEmbedded) {
      await stopEmbedded();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    } else {
      // An external server outlives the run: leave it as we found it.
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      const { rows } = await cleanup.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE 'cas_test_%'",
        [`${template}%`],
      );
      for (const { datname } of rows)
        await cleanup.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
      await cleanup.end();
    }
  };
}
