import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, UnreplicatedCommitError } from '../../src/db/connection/pool.js';
import { createPrismaClient } from '../../src/db/connection/prisma-client.js';
import { type RunningPostgres, startEmbeddedPostgres } from '../../src/db/postgres/embedded-postgres.js';
import { isDatabaseUnavailable, translateDatabaseError } from '../../src/db/sql/errors.js';
import { eventually } from '../support/eventually.js';

/**
 * A primary whose synchronous standby never answers (synchronous_standby_names names a standby that does not
 * exist): every commit waits for it, as a Patroni leader's commits wait while its synchronous standby is cut off.
 * What the service must never do there is acknowledge a write that is on the primary alone.
 */
const STATEMENT_TIMEOUT_MS = 300;
let dataDir: string;
let server: RunningPostgres;
let admin: pg.Pool;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-sync-commit-'));
  server = await startEmbeddedPostgres({ dataDir, settings: { fsync: 'off' } });
  admin = new pg.Pool({ connectionString: server.url, max: 2 });
  admin.on('error', () => undefined);
  await admin.query('CREATE TABLE acknowledged (id int PRIMARY KEY)');
  await admin.query("ALTER SYSTEM SET synchronous_standby_names = 'absent_standby'");
  await admin.query('SELECT pg_reload_conf()');
  const setting = await eventually(
    async () =>
      (await admin.query<{ value: string }>(`SELECT current_setting('synchronous_standby_names') AS value`)).rows[0]!
        .value,
    (value) => value === 'absent_standby',
  );
  expect(setting).toBe('absent_standby');
});

afterAll(async () => {
  await admin?.end();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The service's pool; the cancel tests' timeout is long enough for the test to find and cancel the waiting backend. */
const servicePool = (statementTimeoutMs = 30_000) =>
  createPool({ connectionString: server.url, max: 2, connectTimeoutMs: 5000, statementTimeoutMs });

/** The backend waiting for the synchronous standby, once it waits. */
async function waitingBackend(): Promise<number> {
  const rows = await eventually(
    async () =>
      (
        await admin.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND application_name = 'customer-account-service'`,
        )
      ).rows,
    (found) => found.length === 1,
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.pid;
}

/** The row is on the primary once the waiting backend has gone (its commit record was written before it waited). */
async function endBackend(pid: number): Promise<void> {
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  const left = await eventually(
    async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount,
    (count) => count === 0,
  );
  expect(left).toBe(0);
}

describe('a commit its synchronous standby never confirms', () => {
  it('is not acknowledged when the statement timeout passes: the timeout does not cut the wait, the driver gives up', async () => {
    const pool = servicePool(STATEMENT_TIMEOUT_MS);
    pool.on('error', () => undefined);
    const started = performance.now();
    const outcome = await pool.query('INSERT INTO acknowledged VALUES (1)').then(
      () => 'acknowledged',
      (error: Error) => error,
    );
    const waitedMs = performance.now() - started;
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toBe('Query read timeout');
    expect(isDatabaseUnavailable(outcome)).toBe(true);
    // Past statement_timeout: PostgreSQL let the commit wait on (a cancel would have answered at 300 ms, as a success).
    expect(waitedMs).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS + 1000 - 50);
    await endBackend(await waitingBackend());
    const { rows } = await admin.query('SELECT id FROM acknowledged WHERE id = 1');
    expect(rows).toHaveLength(1); // committed on the primary alone: the outcome was unknown, and was reported so
    await pool.end();
  });

  it('fails with 08007 when the wait is cancelled, where PostgreSQL reports the commit a success', async () => {
    const pool = servicePool();
    pool.on('error', () => undefined);
    const notices: string[] = [];
    pool.on('connect', (client) => client.on('notice', (notice) => notices.push(notice.message ?? '')));
    const pending = pool.query('INSERT INTO acknowledged VALUES (2)').then(
      () => 'acknowledged',
      (error: Error) => error,
    );
    await admin.query('SELECT pg_cancel_backend($1)', [await waitingBackend()]);
    const outcome = await pending;
    expect(notices.some((message) => /canceling wait for synchronous replication/.test(message))).toBe(true);
    expect(outcome).toBeInstanceOf(UnreplicatedCommitError);
    expect(translateDatabaseError(outcome)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', kind: 'unavailable' });
    const { rows } = await admin.query('SELECT id FROM acknowledged WHERE id = 2');
    expect(rows).toHaveLength(1); // PostgreSQL kept it: only the acknowledgement was withheld
    // The client is healthy afterwards: its next statement (a read, no commit to wait for) succeeds.
    await expect(pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    await pool.end();
  });

  it('fails through Prisma Client, inside an interactive transaction as in a single statement', async () => {
    const pool = servicePool();
    pool.on('error', () => undefined);
    const prisma = createPrismaClient(pool, { namedStatements: false });
    const single = prisma.$executeRawUnsafe('INSERT INTO acknowledged VALUES (3)').then(
      () => 'acknowledged',
      (error: unknown) => error,
    );
    await admin.query('SELECT pg_cancel_backend($1)', [await waitingBackend()]);
    const singleOutcome = await single;
    expect(singleOutcome).not.toBe('acknowledged');
    expect(translateDatabaseError(singleOutcome)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });

    const transaction = prisma
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe('INSERT INTO acknowledged VALUES (4)');
        await tx.$executeRawUnsafe('INSERT INTO acknowledged VALUES (5)');
      })
      .then(
        () => 'acknowledged',
        (error: unknown) => error,
      );
    await admin.query('SELECT pg_cancel_backend($1)', [await waitingBackend()]);
    const transactionOutcome = await transaction;
    expect(transactionOutcome).not.toBe('acknowledged');
    expect(translateDatabaseError(transactionOutcome)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const { rows } = await admin.query<{ id: number }>('SELECT id FROM acknowledged WHERE id >= 3 ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual([3, 4, 5]);
    await prisma.$disconnect();
    await pool.end();
  });

  it('is acknowledged as before once no synchronous standby is named (the guard refuses only the warned commit)', async () => {
    await admin.query('ALTER SYSTEM RESET synchronous_standby_names');
    await admin.query('SELECT pg_reload_conf()');
    const pool = servicePool();
    const setting = await eventually(
      async () =>
        (await pool.query<{ value: string }>(`SELECT current_setting('synchronous_standby_names') AS value`)).rows[0]!
          .value,
      (value) => value === '',
    );
    expect(setting).toBe('');
    await expect(pool.query('INSERT INTO acknowledged VALUES (6)')).resolves.toMatchObject({ rowCount: 1 });
    await pool.end();
  });
});
