import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DedicatedPostgres, startDedicatedPostgres } from '../lib/postgres.js';
import { backgroundWorkLogSettings, eventsDuring, readBackgroundEvents } from '../lib/postgres-log.js';
import { HUNG_TEST_DEADLINE_MS } from '../../../test/support/eventually.js';

// The soak sets its slowest seconds beside PostgreSQL's checkpoints and autovacuum runs, read from the
// server's own log: this checks the reading against what a real PostgreSQL writes.
describe('PostgreSQL background work read from its log (soak diagnostics)', () => {
  const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'cas-pg-log-')), 'postgres.log');
  let postgres: DedicatedPostgres;
  let client: pg.Client;
  /** Resolves the waiter at the server's next log output (written to the file first). */
  let logged: (() => void) | undefined;
  const nextLogOutput = () =>
    new Promise<void>((resolve, reject) => {
      const hung = setTimeout(
        () => reject(new Error('PostgreSQL wrote nothing more to its log')),
        HUNG_TEST_DEADLINE_MS,
      );
      logged = () => {
        clearTimeout(hung);
        logged = undefined;
        resolve();
      };
    });

  beforeAll(async () => {
    postgres = await startDedicatedPostgres({
      settings: { ...backgroundWorkLogSettings(), autovacuum_naptime: '1', fsync: 'off' },
      serverLog: (chunk) => {
        writeFileSync(logFile, chunk, { flag: 'a' });
        logged?.();
      },
    });
    client = new pg.Client({ connectionString: postgres.databaseUrl });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await postgres?.dispose();
  });

  it('finds a checkpoint with its writes and sync, and an autoanalyze with its duration, at the times they ran', async () => {
    const before = Date.now();
    await client.query('CREATE TABLE soak_log_probe (id int)');
    await client.query('INSERT INTO soak_log_probe SELECT generate_series(1, 5000)');
    // An idle backend reports its table statistics only after 10 s; autovacuum needs them to see the rows.
    await client.query('SELECT pg_stat_force_next_flush()');
    await client.query('CHECKPOINT');
    // autovacuum wakes every second here and analyses a table with 5,000 new rows (threshold 50 + 10 %).
    // Read again at each output of the server's log: the wait is for the line itself, not a polling interval.
    const hung = Date.now() + HUNG_TEST_DEADLINE_MS;
    let events = readBackgroundEvents(logFile);
    while (!events.some((e) => e.what.startsWith('autoanalyze soak_log_probe')) && Date.now() < hung) {
      await nextLogOutput();
      events = readBackgroundEvents(logFile);
    }
    const after = Date.now();

    const sync = events.find((e) => e.what.startsWith('checkpoint sync'));
    expect(sync, JSON.stringify(events)).toBeDefined();
    expect(sync!.from).toBeGreaterThanOrEqual(before - 1000);
    expect(sync!.to).toBeLessThanOrEqual(after + 1000);
    expect(events.some((e) => /^checkpoint writes \(\d+ buffers\)$/.test(e.what))).toBe(true);

    const analyze = events.find((e) => e.what.startsWith('autoanalyze soak_log_probe'));
    expect(analyze, JSON.stringify(events)).toBeDefined();
    // The run spans its logged duration, ending when PostgreSQL logged it.
    expect(analyze!.what).toBe(`autoanalyze soak_log_probe (${analyze!.to - analyze!.from} ms)`);
    expect(analyze!.to).toBeGreaterThanOrEqual(before - 1000);
    expect(analyze!.to).toBeLessThanOrEqual(after + 1000);

    expect(eventsDuring(events, analyze!.from, analyze!.to)).toContain(analyze!.what);
    expect(eventsDuring(events, before - 60_000, before - 30_000)).toEqual([]);
  });

  it('reads multi-line autovacuum entries (aggressive runs included) up to their elapsed time', () => {
    // An excerpt of a soak's log (PostgreSQL 18.4): continuation lines carry no timestamp.
    const file = path.join(path.dirname(logFile), 'excerpt.log');
    writeFileSync(
      file,
      [
        '2026-11-22 05:32:05.286 UTC LOG:  automatic vacuum of table "cas_reliability.public.accounts": index scans: 1',
        '\tpages: 0 removed, 603 remain, 603 scanned (100.00% of total), 0 eagerly scanned',
        ...Array.from(
          { length: 12 },
          (_, i) =>
            `\tindex "accounts_idx_${i}": pages: 160 in total, 0 newly deleted, 0 currently deleted, 0 reusable`,
        ),
        '\tsystem usage: CPU: user: 0.00 s, system: 0.00 s, elapsed: 0.03 s',
        '2026-11-22 05:32:05.380 UTC LOG:  automatic analyze of table "cas_reliability.public.accounts"',
        '\tsystem usage: CPU: user: 0.05 s, system: 0.00 s, elapsed: 0.09 s',
        '2026-11-22 05:32:06.271 UTC LOG:  automatic aggressive vacuum of table "template1.pg_catalog.pg_attribute": index scans: 0',
        '\tsystem usage: CPU: user: 0.00 s, system: 0.00 s, elapsed: 1.50 s',
        '',
      ].join('\n'),
    );
    expect(readBackgroundEvents(file)).toEqual([
      {
        from: Date.parse('2026-11-22T05:32:05.256Z'),
        to: Date.parse('2026-11-22T05:32:05.286Z'),
        what: 'autovacuum accounts (30 ms)',
      },
      {
        from: Date.parse('2026-11-22T05:32:05.290Z'),
        to: Date.parse('2026-11-22T05:32:05.380Z'),
        what: 'autoanalyze accounts (90 ms)',
      },
      {
        from: Date.parse('2026-11-22T05:32:04.771Z'),
        to: Date.parse('2026-11-22T05:32:06.271Z'),
        what: 'autovacuum pg_attribute (1500 ms)',
      },
    ]);
  });
});
