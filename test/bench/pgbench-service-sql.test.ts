import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { medianOfRuns, type RunMeasurement, walBytesPerOperation, walPosition } from '../../bench/lib/measure.js';
import {
  fillAccountsTable,
  preparedText,
  SERVICE_SQL_CONTENDER,
  servicePostingScript,
  uuidFunction,
} from '../../bench/lib/pgbench-service-sql.js';
import { type BenchReport, renderMarkdown } from '../../bench/lib/report.js';
import {
  type ContenderResult,
  type ResultName,
  type ScenarioResult,
  scenarioRatios,
} from '../../bench/lib/scenarios.js';
import { pgbenchBinary, pgbenchOf } from '../../bench/lib/pgbench.js';
import type { BenchPostgres } from '../../bench/lib/postgres.js';
import { BENCH_ENVIRONMENT, generateBenchKeys, seed, seedLedger } from '../../bench/lib/seed.js';
import { checkLedgerAfterRuns } from '../../bench/lib/verify.js';
import { SESSION_OPTIONS } from '../../src/db/connection/pool.js';
import { TRANSFER_POSTING_STATEMENT } from '../../src/features/ledger/ledger.store.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

describe('the pgbench script of the service`s posting statement', () => {
  const uniform = servicePostingScript({
    hot: false,
    environment: BENCH_ENVIRONMENT,
    uuid: 'uuidv7',
  });
  const hot = servicePostingScript({
    hot: true,
    environment: BENCH_ENVIRONMENT,
    uuid: 'uuidv7',
  });

  it('prepares the service`s own statement text, byte for byte, under the service`s statement name', () => {
    for (const script of [uniform, hot]) {
      expect(preparedText(script)).toBe(TRANSFER_POSTING_STATEMENT.text);
      expect(script).toContain(`PREPARE ${TRANSFER_POSTING_STATEMENT.name} AS `);
      expect(script).toContain(`EXECUTE ${TRANSFER_POSTING_STATEMENT.name}(`);
    }
  });

  it('leaves the statement to pgbench untouched: no variable of the script in it, no `;` that would end it early', () => {
    const text = TRANSFER_POSTING_STATEMENT.text;
    // The script's variables: \set's, the SELECT's columns (\gset), and -D accounts. pgbench leaves a `:name` it
    // has no variable for as it is (the statement's to_char formats hold `:MI` and `:SS`), and skips `::type` casts.
    const variables = new Set([
      'accounts',
      ...[...uniform.matchAll(/\\set (\w+)/g), ...hot.matchAll(/\\set (\w+)/g), ...uniform.matchAll(/ AS (\w+)/g)].map(
        (m) => m[1]!,
      ),
    ]);
    expect(variables).toContain('transfer_id');
    const named = [...text.replaceAll('::', '').matchAll(/:(\w+)/g)].map((m) => m[1]!);
    expect(named.filter((name) => variables.has(name))).toEqual([]);
    expect(text).not.toContain(';');
  });

  it('passes one value for each of the statement`s parameters', () => {
    const highest = Math.max(...[...TRANSFER_POSTING_STATEMENT.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
    const execute = uniform.split('\n').find((line) => line.startsWith('EXECUTE'))!;
    // Top-level commas of the argument list (none of the values holds a comma outside quotes or parentheses).
    let depth = 0;
    let quoted = false;
    let count = 1;
    for (const char of execute.slice(execute.indexOf('(') + 1, execute.lastIndexOf(')'))) {
      if (char === "'") quoted = !quoted;
      else if (!quoted && char === '(') depth++;
      else if (!quoted && char === ')') depth--;
      else if (!quoted && depth === 0 && char === ',') count++;
    }
    expect(count).toBe(highest);
  });

  it('draws a distinct pair of funded accounts (uniform), or one of them into the hot account 0', () => {
    expect(uniform).toContain('\\set to case when :to >= :from then :to + 1 else :to end');
    expect(uniform).not.toContain('\\set to 0');
    expect(hot).toContain('\\set to 0');
  });
});

describe('the transfer contenders in the report', () => {
  const run = (rps: number, wal: number | null): RunMeasurement => ({
    rps,
    p50Ms: 1,
    p90Ms: 2,
    p99Ms: 3,
    responses: rps * 10,
    errors: 0,
    serverCpuUsPerRequest: null,
    postgresCpuUsPerRequest: 50,
    statementsPerOperation: 2,
    peakRssMb: null,
    statusCodes: {},
    sampleError: undefined,
    walBytesPerOperation: wal,
  });
  const contender = (name: ResultName, runs: RunMeasurement[]): ContenderResult => ({
    name,
    runs,
    median: medianOfRuns(runs),
    check: 'checked',
    statementProbe: undefined,
  });

  it('shows WAL bytes per transfer on every row, pgbench service-sql in tps, and the ledger check after the runs', () => {
    const contenders = [
      contender('service', [run(1000, 2100), run(1000, 2300)]),
      contender(SERVICE_SQL_CONTENDER, [run(3000, 1500), run(3000, 1700)]),
    ];
    const scenario: ScenarioResult = {
      scenario: 'rest-transfer-uniform',
      title: 'transfers',
      nodeVersion: 'v26.0.0',
      contenders,
      ratios: scenarioRatios(contenders),
      ledgerCheck: 'ledger after the runs: balances sum to zero per environment and currency',
    };
    const markdown = renderMarkdown({
      startedAt: '2026-11-26T00:00:00.000Z',
      elapsedSeconds: 1,
      command: 'npm run bench',
      options: {
        connections: 50,
        runs: 2,
        durationSeconds: 1,
        warmupSeconds: 1,
        poolSize: 10,
      },
      machine: {
        cpuModel: 'test',
        cores: 2,
        memoryGiB: 4,
        os: 'test',
        kernel: 'test',
        nodeVersions: { reference: 'v26.0.0', orchestrator: 'v26.0.0' },
        gitCommit: null,
        packages: {},
      },
      database: {
        server: '18',
        embedded: true,
        statementCounting: 'pg_stat_statements',
      },
      dataset: {
        customers: 1,
        accounts: 1,
        sharedAccounts: 0,
        links: 1,
        nestedPopulation: 1,
      },
      scenarios: [scenario],
      pgbench: null,
      startup: [],
      failures: [],
    } as unknown as BenchReport);
    const rows = markdown.split('\n').filter((line) => line.startsWith('| transfers |'));
    expect(rows[0]).toContain('| service | 1,000 | 1.00× |');
    expect(rows[0]).toContain('| 2,200 |');
    expect(rows[1]).toContain(`| ${SERVICE_SQL_CONTENDER} | 3,000 tps | 0.33× |`);
    expect(rows[1]).toContain('| 1,600 |');
    expect(markdown).toContain('- rest-transfer-uniform (v26.0.0): ledger after the runs: balances sum to zero');
    expect(markdown).toContain(
      `| Transfers, uniform: WAL bytes per transfer (reported, not judged) | – | service 2,200, ${SERVICE_SQL_CONTENDER} 1,600 | – |`,
    );
  });
});

const binary = pgbenchBinary();

describe.skipIf(binary === undefined)(
  `a tiny pgbench run of the script (skipped when no pgbench: ${binary ?? 'none at /usr/lib/postgresql/15/bin or /usr/bin; apt-get install postgresql-client-15'})`,
  () => {
    let db: TestDatabase;
    let workDir: string;
    let ledger: Awaited<ReturnType<typeof seedLedger>>;

    beforeAll(async () => {
      db = await createTestDatabase();
      workDir = mkdtempSync(path.join(os.tmpdir(), 'cas-pgbench-test-'));
      const data = await seed(db.pool, { customers: 10, accounts: 10 }, generateBenchKeys());
      ledger = await seedLedger(db.pool, { transferAccounts: 8, readAccounts: 0 }, data.customerIds);
      await fillAccountsTable(db.pool, ledger.transferAccountIds, ledger.hotAccountId);
    });

    afterAll(async () => {
      await db?.drop();
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    });

    it.each([false, true])(
      'posts every transfer with its entries, audit event, key and events, and the ledger still balances (hot: %s)',
      async (toHot) => {
        const script = path.join(workDir, `script-${toHot}.pgbench`);
        writeFileSync(
          script,
          servicePostingScript({
            hot: toHot,
            environment: BENCH_ENVIRONMENT,
            uuid: await uuidFunction(db.pool),
          }),
        );
        const pgbench = (await pgbenchOf(
          {
            db: { pgbenchUrl: db.url } as BenchPostgres,
            repoRoot: process.cwd(),
          },
          db.url,
          { PGOPTIONS: SESSION_OPTIONS },
        ))!;
        const counts = async () => {
          const { rows } = await db.pool.query<{
            entries: number;
            audits: number;
            keys: number;
            events: number;
            hot: number;
          }>(
            `SELECT (SELECT count(*)::int FROM ledger_entries WHERE description = 'bench transfer') AS entries,
                (SELECT count(*)::int FROM audit_events WHERE operation = 'transfer.create') AS audits,
                (SELECT count(*)::int FROM idempotency_keys WHERE key LIKE 'pgbench-%') AS keys,
                (SELECT count(*)::int FROM events WHERE type = 'transaction.posted') AS events,
                (SELECT count(*)::int FROM ledger_entries WHERE account_id = $1::uuid AND type = 'CREDIT' AND description = 'bench transfer') AS hot`,
            [ledger.hotAccountId],
          );
          return rows[0]!;
        };
        const before = await counts();
        const wal = await walPosition(db.pool);

        const output = await pgbench.run([
          '-n',
          '-M',
          'simple',
          '-f',
          script,
          '-D',
          `accounts=${ledger.transferAccountIds.length}`,
          '-c',
          '2',
          '-j',
          '1',
          '-t',
          '10',
        ]);

        expect(output).toMatch(/number of transactions actually processed: 20\/20/);
        const after = await counts();
        expect(after.entries - before.entries).toBe(40);
        expect(after.audits - before.audits).toBe(20);
        expect(after.keys - before.keys).toBe(20);
        expect(after.events - before.events).toBe(40);
        expect(after.hot - before.hot).toBe(toHot ? 20 : 0);
        expect(await checkLedgerAfterRuns(db.pool)).toMatch(/^ledger after the runs: balances sum to zero/);
        expect(await walBytesPerOperation(db.pool, wal, 20)).toBeGreaterThan(0);
      },
    );

    it('the check after the runs names money that appeared from nowhere', async () => {
      await db.pool.query('UPDATE accounts SET amount = amount + 0.01 WHERE id = $1::uuid', [ledger.hotAccountId]);
      expect(await checkLedgerAfterRuns(db.pool)).toMatch(
        /^LEDGER NOT SOUND after the runs \(2 violations\): environment sandbox USD: balances sum to 0\.01/,
      );
    });
  },
);
