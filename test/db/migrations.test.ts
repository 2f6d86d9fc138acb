import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createPool } from '../../src/db/connection/pool.js';
import { DEFAULT_MIGRATIONS_DIR, migrate, MigrationError, readMigrations } from '../../src/db/migrations/migrations.js';
import { createEmptyDatabase, type EmptyDatabase } from './empty-database.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emptyDatabase(): Promise<EmptyDatabase> {
  const db = await createEmptyDatabase();
  cleanups.push(() => db.drop());
  return db;
}

/** A copy of the real migrations that a test may extend or damage. */
function migrationsCopy(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-migrations-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

function addMigration(dir: string, name: string, sql: string): void {
  mkdirSync(path.join(dir, name));
  writeFileSync(path.join(dir, name, 'migration.sql'), sql);
}

interface BookkeepingRow {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
}

const bookkeeping = async (pool: pg.Pool) =>
  (await pool.query<BookkeepingRow>('SELECT * FROM "_prisma_migrations" ORDER BY migration_name, started_at')).rows;

const tableExists = async (pool: pg.Pool, table: string) =>
  (await pool.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [`public.${table}`])).rows[0]!
    .found;

/** The names on disk, and the sha256 of each migration.sql computed here, independently of the runner. */
function migrationsOnDisk(dir = DEFAULT_MIGRATIONS_DIR) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({
      name: entry.name,
      checksum: createHash('sha256')
        .update(readFileSync(path.join(dir, entry.name, 'migration.sql')))
        .digest('hex'),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

describe('migrations', () => {
  it('are laid out as Prisma expects', () => {
    expect(readFileSync(path.join(DEFAULT_MIGRATIONS_DIR, 'migration_lock.toml'), 'utf8')).toMatch(
      /^provider = "postgresql"$/m,
    );
    const onDisk = migrationsOnDisk();
    expect(onDisk.length).toBeGreaterThan(0);
    for (const { name } of onDisk) expect(name).toMatch(/^\d{14}_[a-z0-9_]+$/);
    expect(readMigrations().map(({ name, checksum }) => ({ name, checksum }))).toEqual(onDisk);
  });

  it('apply everything to an empty database with Prisma-compatible bookkeeping, then nothing the second time', async () => {
    const pool = (await emptyDatabase()).pool();
    const onDisk = migrationsOnDisk();

    const first = await migrate(pool);
    expect(first).toEqual({ applied: onDisk.map((m) => m.name), retried: [], alreadyApplied: [], unknown: [] });
    const rows = await bookkeeping(pool);
    expect(rows.map(({ migration_name, checksum }) => ({ name: migration_name, checksum }))).toEqual(onDisk);
    for (const row of rows) {
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    for (const table of ['customers', 'accounts', 'account_customers'])
      expect(await tableExists(pool, table)).toBe(true);

    const second = await migrate(pool);
    expect(second).toEqual({ applied: [], retried: [], alreadyApplied: onDisk.map((m) => m.name), unknown: [] });
    expect(await bookkeeping(pool)).toEqual(rows);
  });

  it('are applied exactly once when several instances migrate one empty database at the same moment', async () => {
    const db = await emptyDatabase();
    const dir = migrationsCopy();
    // A slow migration that fails if run twice widens the window in which the instances overlap.
    addMigration(dir, '29991231000000_slow_probe', 'SELECT pg_sleep(0.3);\nCREATE TABLE slow_probe (id integer);\n');
    const migrations = readMigrations(dir);

    const reports = await Promise.all(Array.from({ length: 4 }, () => migrate(db.pool(1), migrations)));

    const names = migrations.map((m) => m.name);
    expect(reports.flatMap((report) => report.applied).sort()).toEqual(names);
    for (const report of reports) expect([...report.applied, ...report.alreadyApplied].sort()).toEqual(names);
    const counts = await db
      .pool()
      .query<{ migration_name: string; n: number }>(
        'SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY migration_name ORDER BY migration_name',
      );
    expect(counts.rows).toEqual(names.map((name) => ({ migration_name: name, n: 1 })));
  });

  it('stop with a clear MigrationError when an applied migration was changed, applying nothing more', async () => {
    const pool = (await emptyDatabase()).pool();
    const dir = migrationsCopy();
    addMigration(dir, '29990101000000_first', 'CREATE TABLE first_probe (id integer);\n');
    await migrate(pool, readMigrations(dir));
    const before = await bookkeeping(pool);

    writeFileSync(path.join(dir, '29990101000000_first', 'migration.sql'), 'CREATE TABLE first_probe (id bigint);\n');
    addMigration(dir, '29990102000000_second', 'CREATE TABLE second_probe (id integer);\n');
    const error = await migrate(pool, readMigrations(dir)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/Migration 29990101000000_first was modified after it was applied/);
    expect((error as Error).message).toMatch(/restore the file and add a new migration instead/);
    expect(await tableExists(pool, 'second_probe')).toBe(false);
    expect(await bookkeeping(pool)).toEqual(before);
  });

  it('roll a failing migration back completely, leaving no bookkeeping row, and retry it once fixed', async () => {
    const pool = (await emptyDatabase()).pool();
    const dir = migrationsCopy();
    addMigration(
      dir,
      '29990101000000_broken',
      'CREATE TABLE half_done (id integer);\nALTER TABLE customers ADD COLUMN half_done integer;\nSELECT 1/0;\n',
    );
    addMigration(dir, '29990102000000_after', 'CREATE TABLE after_probe (id integer);\n');

    const error = await migrate(pool, readMigrations(dir)).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(
      /Migration 29990101000000_broken failed and was rolled back: division by zero/,
    );
    expect(await tableExists(pool, 'half_done')).toBe(false);
    expect(await tableExists(pool, 'after_probe')).toBe(false);
    const columns = await pool.query(
      "SELECT 1 FROM information_schema.columns WHERE table_name = 'customers' AND column_name = 'half_done'",
    );
    expect(columns.rows).toEqual([]);
    // The migrations before it stay applied; the broken one left no row behind.
    expect((await bookkeeping(pool)).map((row) => row.migration_name)).toEqual(migrationsOnDisk().map((m) => m.name));

    writeFileSync(path.join(dir, '29990101000000_broken', 'migration.sql'), 'CREATE TABLE half_done (id integer);\n');
    const retry = await migrate(pool, readMigrations(dir));
    expect(retry.applied).toEqual(['29990101000000_broken', '29990102000000_after']);
    expect(await tableExists(pool, 'after_probe')).toBe(true);
  });

  it('refuse to continue past a migration recorded as started but never finished', async () => {
    const pool = (await emptyDatabase()).pool();
    await migrate(pool);
    const [first] = migrationsOnDisk();
    await pool.query('UPDATE "_prisma_migrations" SET finished_at = NULL WHERE migration_name = $1', [first!.name]);
    await expect(migrate(pool)).rejects.toThrow(new RegExp(`Migration ${first!.name} started but never finished`));
  });

  it('may run longer than a request statement timeout, and leave the shared pool with its timeouts', async () => {
    const db = await emptyDatabase();
    // The service's pool: statement timeout 300 ms (client-side query timeout 1.3 s), one connection.
    const pool = createPool({ connectionString: db.url, max: 1, connectTimeoutMs: 60_000, statementTimeoutMs: 300 });
    cleanups.push(() => pool.end());
    const dir = migrationsCopy();
    addMigration(dir, '29990101000000_slow', 'SELECT pg_sleep(1.6);\nCREATE TABLE slow_probe (id integer);\n');

    expect((await migrate(pool, readMigrations(dir))).applied).toContain('29990101000000_slow');

    // The same pooled connection serves requests next: their timeout must still apply.
    expect((await pool.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]?.statement_timeout).toBe(
      '300ms',
    );
    await expect(pool.query('SELECT pg_sleep(1)')).rejects.toThrow(/statement timeout/);
  });

  describe('beside a serving fleet', () => {
    /** A table the "fleet" uses, and a migration that upgrades its lock on it: SHARE (index build), then ACCESS EXCLUSIVE (drop). */
    async function servedTable(db: EmptyDatabase) {
      const pool = db.pool(3);
      await migrate(pool);
      await pool.query('CREATE TABLE served (id integer); CREATE INDEX served_old ON served (id)');
      const dir = migrationsCopy();
      addMigration(
        dir,
        '29990101000000_swap_index',
        'CREATE INDEX served_new ON served (id);\nDROP INDEX served_old;\n',
      );
      return { pool, migrations: readMigrations(dir) };
    }

    /** Resolves once a session holds (granted) or waits for (not granted) a lock of this mode on `served`. */
    async function untilLockOnServed(pool: pg.Pool, mode: string, granted: boolean) {
      for (
        const started = Date.now();
        Date.now() - started < HUNG_TEST_DEADLINE_MS;
        await new Promise((r) => setTimeout(r, 20))
      ) {
        const { rows } = await pool.query(
          "SELECT 1 FROM pg_locks WHERE relation = 'served'::regclass AND mode = $1 AND granted = $2",
          [mode, granted],
        );
        if (rows.length > 0) return;
      }
      throw new Error(
        `no session ${granted ? 'held' : 'waited for'} ${mode} on served within ${HUNG_TEST_DEADLINE_MS / 1000} s`,
      );
    }

    it('run a migration again, whole, when it lost a deadlock to a transaction of the running service, and apply it once', async () => {
      const db = await emptyDatabase();
      const pool = db.pool(4);
      await migrate(pool);
      await pool.query('CREATE TABLE served (id integer); CREATE INDEX served_old ON served (id)');
      const dir = migrationsCopy();
      // The gate (an advisory lock the test holds) orders the steps; it is free when the migration runs again.
      addMigration(
        dir,
        '29990101000000_swap_index',
        'CREATE INDEX served_new ON served (id);\nSELECT pg_advisory_xact_lock(4242);\nDROP INDEX served_old;\n',
      );
      const gate = await pool.connect();
      cleanups.push(() => gate.release());
      await gate.query('SELECT pg_advisory_lock(4242)');
      // The running service: a transaction that read the table, as the event sequencer does before it writes.
      const service = await pool.connect();
      cleanups.push(() => service.release());
      await service.query('BEGIN');
      await service.query('SELECT count(*) FROM served');
      const retries: unknown[] = [];

      const migrating = migrate(db.pool(1), readMigrations(dir), {
        lockTimeoutMs: 30_000,
        attempts: 3,
        firstBackoffMs: 10,
        onRetry: (retry) => retries.push(retry),
      });
      await untilLockOnServed(pool, 'ShareLock', true);
      // The service now writes: it waits for the migration's SHARE lock (the index build)...
      const writing = service.query('INSERT INTO served VALUES (1)');
      await untilLockOnServed(pool, 'RowExclusiveLock', false);
      // ...and the migration goes on to DROP INDEX, whose ACCESS EXCLUSIVE lock waits for the service's read: a deadlock.
      await gate.query('SELECT pg_advisory_unlock(4242)');
      await writing;
      await service.query('COMMIT');
      const report = await migrating;

      expect(report.applied).toEqual(['29990101000000_swap_index']);
      expect(report.retried).toEqual([
        { migration: '29990101000000_swap_index', attempt: 1, reason: 'deadlock with a running transaction' },
      ]);
      expect(retries).toEqual(report.retried);
      const indexes = await pool.query<{ indexname: string }>(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'served'",
      );
      expect(indexes.rows.map((row) => row.indexname)).toEqual(['served_new']);
      expect((await pool.query('SELECT id FROM served')).rows).toEqual([{ id: 1 }]);
      const rows = await bookkeeping(pool);
      expect(rows.filter((row) => row.migration_name === '29990101000000_swap_index')).toHaveLength(1);
    });

    it('give up a lock wait after MIGRATION_LOCK_TIMEOUT_MS, run again, and fail clearly, changing nothing, after the last attempt', async () => {
      const db = await emptyDatabase();
      const { pool, migrations } = await servedTable(db);
      // A long transaction of the running service holds ACCESS SHARE on the table throughout.
      const service = await pool.connect();
      cleanups.push(() => service.release());
      await service.query('BEGIN');
      await service.query('SELECT count(*) FROM served');
      const before = await bookkeeping(pool);

      const error = await migrate(db.pool(1), migrations, {
        lockTimeoutMs: 200,
        attempts: 3,
        firstBackoffMs: 10,
      }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toMatch(
        /^Migration 29990101000000_swap_index failed and was rolled back \(attempt 3 of 3\): canceling statement due to lock timeout/,
      );
      expect(await bookkeeping(pool)).toEqual(before);
      const indexes = await pool.query<{ indexname: string }>(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'served'",
      );
      expect(indexes.rows.map((row) => row.indexname)).toEqual(['served_old']);

      // Once the transaction ends, the same migration applies: it times out at least once while the transaction
      // still runs (the transaction ends only when the first retry is reported, whatever the machine's speed).
      let firstRetry!: () => void;
      const retried = new Promise<void>((resolve) => (firstRetry = resolve));
      const migrating = migrate(db.pool(1), migrations, {
        lockTimeoutMs: 200,
        attempts: 50,
        firstBackoffMs: 10,
        onRetry: () => firstRetry(),
      });
      // A migration that applied without waiting, or failed, would never report a retry: say which, not hang.
      const firstOutcome = await Promise.race([
        retried.then(() => 'timed out and retried'),
        migrating.then(
          () => 'applied without waiting for the transaction',
          (error: unknown) => `failed: ${(error as Error).message}`,
        ),
      ]);
      expect(firstOutcome).toBe('timed out and retried');
      await service.query('COMMIT');
      const report = await migrating;
      expect(report.applied).toEqual(['29990101000000_swap_index']);
      expect(
        report.retried.length,
        'it waited for the transaction: at least one attempt timed out first',
      ).toBeGreaterThan(0);
      expect(report.retried.every((retry) => retry.reason === 'lock wait past the lock timeout')).toBe(true);
    });
  });

  it('report migrations recorded by a newer build without failing', async () => {
    const pool = (await emptyDatabase()).pool();
    const dir = migrationsCopy();
    addMigration(dir, '29990101000000_from_the_future', 'CREATE TABLE future_probe (id integer);\n');
    await migrate(pool, readMigrations(dir));
    const report = await migrate(pool);
    expect(report).toEqual({
      applied: [],
      retried: [],
      alreadyApplied: migrationsOnDisk().map((m) => m.name),
      unknown: ['29990101000000_from_the_future'],
    });
  });
});
