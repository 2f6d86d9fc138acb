import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/postgres/embedded-postgres.js';
import { migrate, readMigrations } from '../../src/db/migrations/migrations.js';
import { createPool } from '../../src/db/connection/pool.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ledgerViolations } from '../support/ledger-invariants.js';
import { assertNoSensitiveValues } from '../support/factories.js';
import { LOG_DIR, startTestService, TEST_PII_ENV, type TestService } from '../support/service.js';
import {
  type ExtractedRelease,
  extractRelease,
  missingHistory,
  type PreviousRelease,
  type ReleaseProcess,
  resolvePreviousRelease,
  ROOT,
  startRelease,
  unknownVariables,
} from './previous-release.js';
import {
  expectEvents,
  readBack,
  readContract,
  ReleaseClient,
  smokeWorkload,
  type Written,
} from './rollout-workload.js';

/**
 * A rolling upgrade, as docs/how-to/upgrade.md ("Schema changes in a fleet") prescribes it: the previous release
 * (test/deploy/previous-release.ts says which commit that is) serves a database that has only its own
 * migrations; the current release's migrations are applied while it keeps serving, on the connections and
 * prepared statements it already has; then the current release joins it on the same database (a mixed fleet).
 * The previous release must keep answering as its own contract says throughout, and each release must read
 * what the other wrote. A migration that is not expand-only relative to the previous release fails here.
 */

const log = (line: string) => process.stdout.write(`[rollout] ${line}\n`);
const token = `rollout_${randomBytes(32).toString('base64url')}`;

let previous: PreviousRelease;
let tree: ExtractedRelease | undefined;
let database: TestDatabase | undefined;
let old: ReleaseProcess | undefined;
let oldClient: ReleaseClient;
let current: TestService | undefined;
let dataDir: string | undefined;
const started = Date.now();

async function migrateWith(url: string, migrationsDir: string) {
  const pool = createPool({ connectionString: url, max: 1, connectTimeoutMs: 60_000, statementTimeoutMs: 60_000 });
  try {
    return await migrate(pool, readMigrations(migrationsDir));
  } finally {
    await pool.end();
  }
}

/** Log lines at error level or above (pino: 50 error, 60 fatal). */
const errorLines = (text: string) => text.split('\n').filter((line) => /"level":(5|6)\d\b/.test(line));

/** An error log line without its stack: the message, Prisma's code and PostgreSQL's SQLSTATE. */
function summary(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; error?: { name?: string; code?: string; sqlState?: string } };
    return `- ${entry.msg} (${[entry.error?.name, entry.error?.code, entry.error?.sqlState && `SQLSTATE ${entry.error.sqlState}`].filter(Boolean).join(', ')})`;
  } catch {
    return `- ${line.slice(0, 300)}`;
  }
}

/** The previous release's own words about a failure: its error lines, which carry PostgreSQL's SQLSTATE. */
function explainPrevious(error: unknown, when: string): Error {
  const lines = old ? errorLines(old.output()).slice(-5).map(summary).join('\n') : '';
  return new Error(
    `The previous release (${previous.commit.slice(0, 12)}) failed ${when}: ${(error as Error).message}\n` +
      `Its error log lines:\n${lines || '(none)'}\n` +
      'A migration of this release is not expand-only relative to it: see docs/how-to/upgrade.md, "Schema changes in a fleet".',
    { cause: error },
  );
}

const skipReason = missingHistory();
if (skipReason)
  log(`skipped: ${skipReason}; the rollout test needs the history back to the commit before the newest migration`);

describe.skipIf(skipReason !== undefined)(
  'a rollout: the previous release keeps working on the migrated schema, beside the current one',
  () => {
    beforeAll(async () => {
      previous = resolvePreviousRelease();
      log(`previous release: ${previous.commit.slice(0, 12)} (${previous.reason})`);
      tree = await extractRelease(previous.commit, log);
      log(`extracted into ${tree.dir}; node_modules: ${tree.dependencies} (${Date.now() - started} ms)`);

      const environment = {
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        DATABASE_URL: '',
        MIGRATE_ON_START: 'false',
        API_TOKENS: token,
        ENVIRONMENTS: 'sandbox',
        ...TEST_PII_ENV,
        DATABASE_POOL_SIZE: '5',
        EVENT_SEQUENCER_INTERVAL_MS: '50',
        LOG_LEVEL: 'info',
        LOG_PRETTY: 'false',
        DATA_DIR: '',
      };
      // A variable the previous release does not read would be ignored silently: MIGRATE_ON_START above all.
      const unknown = unknownVariables(tree.dir, Object.keys(environment));
      if (unknown.length > 0)
        throw new Error(
          `The previous release (${previous.commit.slice(0, 12)}) does not know ${unknown.join(', ')} (not in its .env.example): adapt the test's environment for it`,
        );

      database = await createTestDatabase({ migrated: false, prefix: 'cas_test_rollout' });
      const own = await migrateWith(database.url, path.join(tree.dir, 'prisma/migrations'));
      log(`database ${database.name} at the previous release's schema: ${own.applied.length} migrations`);
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-rollout-data-'));
      old = await startRelease(
        tree.dir,
        { ...environment, DATABASE_URL: database.url, DATA_DIR: dataDir },
        path.join(LOG_DIR, `rollout-previous-${previous.commit.slice(0, 12)}.log`),
      );
      oldClient = new ReleaseClient(
        `previous release ${previous.commit.slice(0, 12)}`,
        old.url,
        readContract(tree.dir),
        token,
      );
      log(`previous release serving at ${old.url} (${Date.now() - started} ms)`);
    }, 300_000);

    afterAll(async () => {
      await old?.stop();
      // The current release's stop() also drops the database (it was handed the database).
      if (current) await current.stop();
      else await database?.drop();
      tree?.remove();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      log(`done in ${Date.now() - started} ms`);
    });

    let before: Written;
    let during: Written;

    it('the previous release serves its own schema (the state before the rollout)', async () => {
      before = await smokeWorkload(oldClient, 'before');
      await expectEvents(oldClient, [before.customerId, before.accountId, before.graphqlCustomerId]);
    }, 90_000);

    it("the current release's migrations apply while it serves, and it keeps answering as its contract says", async () => {
      const report = await migrateWith(database!.url, path.join(ROOT, 'prisma/migrations'));
      expect(report.unknown, 'migrations of the previous release that this release no longer has').toEqual([]);
      expect([...report.alreadyApplied, ...report.applied].sort()).toEqual(readMigrations().map((m) => m.name));
      log(
        `applied under the running previous release: ${report.applied.join(', ') || '(none: the previous release had every migration)'}`,
      );
      if (!before) throw new Error('not run: the previous step failed');
      try {
        // The same process, its pool's connections and prepared statements from before the migration.
        await readBack(oldClient, before);
        during = await smokeWorkload(oldClient, 'during');
        await expectEvents(oldClient, [during.customerId, during.accountId, during.graphqlAccountId]);
      } catch (error) {
        throw explainPrevious(error, 'against the migrated schema');
      }
    }, 90_000);

    it('a mixed fleet: both releases serve the same database at once and read what the other wrote', async () => {
      if (!before || !during) throw new Error('not run: a previous step failed');
      current = await startTestService(
        {
          MIGRATE_ON_START: 'false',
          API_TOKENS: token,
          ENVIRONMENTS: 'sandbox',
          EVENT_SEQUENCER_INTERVAL_MS: '50',
          DATABASE_POOL_SIZE: '5',
        },
        { database: database! },
      );
      const currentClient = new ReleaseClient('current release', current.url, readContract(ROOT), token);
      let fromOld: Written;
      let fromCurrent: Written;
      try {
        [fromOld, fromCurrent] = await Promise.all([
          smokeWorkload(oldClient, 'mixed-previous'),
          smokeWorkload(currentClient, 'mixed-current'),
        ]);
        await readBack(oldClient, fromCurrent);
        await readBack(oldClient, during);
        await expectEvents(oldClient, [fromCurrent.customerId, fromCurrent.graphqlAccountId]);
      } catch (error) {
        throw explainPrevious(error, 'in the mixed fleet');
      }
      await readBack(currentClient, before);
      await readBack(currentClient, fromOld);
      await expectEvents(currentClient, [before.customerId, fromOld.customerId, fromOld.graphqlAccountId]);
      expect(await ledgerViolations(database!.pool)).toEqual([]);

      expect(
        await fetch(`${old!.url}/readyz`).then((response) => response.status),
        'the previous release is still ready',
      ).toBe(200);
      expect(errorLines(old!.output()), "the previous release's error log lines").toEqual([]);
      expect(errorLines(current.logLines.join('\n')), "the current release's error log lines").toEqual([]);
      assertNoSensitiveValues(old!.output(), "the previous release's output");
      const uncovered = oldClient.uncovered();
      if (uncovered.length > 0)
        log(`operations of the previous release the workload does not call: ${uncovered.join(', ')}`);
      const currentUncovered = currentClient.uncovered();
      if (currentUncovered.length > 0)
        log(`operations of the current release the workload does not call: ${currentUncovered.join(', ')}`);
    }, 120_000);
  },
);
