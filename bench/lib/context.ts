import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { migrate } from '../../src/db/migrations/migrations.js';
import { type BenchOptions, LEDGER_SCENARIOS } from './options.js';
import type { BenchPostgres } from './postgres.js';
import { benchCredentials, type BenchCredentials } from './auth.js';
import { type Pinning, planPinning } from './pinning.js';
import { type GrowthData, growthShapeFor, seedGrowth } from './growth-seed.js';
import {
  BENCH_ENVIRONMENT,
  type BenchKeys,
  generateBenchKeys,
  type LedgerData,
  type SeededData,
  seed,
  seedLedger,
} from './seed.js';

/** Everything a scenario needs, built once by bench/run.ts. */
export interface BenchContext {
  options: BenchOptions;
  repoRoot: string;
  /** Scratch space for this run (spec files, service data dir, logs); removed at the end. */
  workDir: string;
  logDir: string;
  /** The reference Node: runs the load generator always, and the servers unless comparing. */
  referenceNode: string;
  db: BenchPostgres;
  /** A small pool on the bench database for checks (never used while a run is measured). */
  benchPool: pg.Pool;
  keys: BenchKeys;
  /** The load's credentials (--auth): the bearer every request sends, and what the service needs to accept it. */
  credentials: BenchCredentials;
  /** The bearer of `credentials`, which the comparators accept as their one token. */
  token: string;
  data: SeededData;
  /** The ledger's seed, when a ledger scenario is selected. */
  ledger: LedgerData | undefined;
  /** The data-growth seed (history beside the customers, and its busy account), when options.growth asks for it. */
  growth: GrowthData | undefined;
  /** Seconds the customers and accounts took to seed. */
  seedSeconds: number;
  /** JSON file with the ids the load generator picks from. */
  idsFile: string;
  /** The load generator's core and the servers' (bench/lib/pinning.ts); the caller releases it at the end. */
  pinning: Pinning;
  /** The build of --against, run beside the service as `baseline`. */
  baseline?: { ref: string; commit: string; dir: string };
  /** Next unused SSN sequence number; every create run takes a fresh block. */
  nextSsnSequence: number;
  log(line: string): void;
}

/**
 * Migrates the bench database, creates the load's credentials (options.auth), seeds it (options.customers /
 * options.accounts) and writes the ids the load generator picks from: the context run.ts and data-growth.ts
 * measure in.
 */
export async function seedBenchContext(
  base: Pick<
    BenchContext,
    'options' | 'repoRoot' | 'workDir' | 'logDir' | 'referenceNode' | 'db' | 'benchPool' | 'log'
  >,
): Promise<BenchContext> {
  await migrate(base.benchPool);
  const credentials = await benchCredentials(base.options.auth, base.db.benchUrl);
  base.log(`the load authenticates with a ${credentials.mode} token`);
  const seedStarted = performance.now();
  const keys = generateBenchKeys();
  const data = await seed(base.benchPool, { customers: base.options.customers, accounts: base.options.accounts }, keys);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  base.log(
    `seeded ${data.customers} customers, ${data.accounts} accounts, ${data.links} links in ${seedSeconds.toFixed(1)} s`,
  );
  // Backdated history: before the ledger scenarios' deposits, which post at the present.
  let growth: GrowthData | undefined;
  if (base.options.growth) {
    const shape = growthShapeFor(data.customers, base.options.growth);
    growth = await seedGrowth(base.benchPool, {
      environment: BENCH_ENVIRONMENT,
      shape,
      ownerCustomerId: data.customerIds[0]!,
      log: base.log,
    });
    base.log(
      `seeded the history: ${shape.entries} ledger entries (${shape.busyEntries} on one account), ${shape.events} events, ${shape.auditEvents} audit rows, ` +
        `${shape.idempotencyKeys} idempotency keys in ${growth.seconds.total.toFixed(1)} s`,
    );
  }
  let ledger: LedgerData | undefined;
  if (base.options.scenarios.some((name) => LEDGER_SCENARIOS.includes(name))) {
    const ledgerStarted = performance.now();
    const readAccounts = base.options.quick ? 50 : 2000;
    ledger = await seedLedger(
      base.benchPool,
      { transferAccounts: base.options.ledgerAccounts, readAccounts },
      data.customerIds,
    );
    base.log(
      `seeded the ledger: ${ledger.transferAccountIds.length} funded accounts + 1 hot, ${readAccounts} accounts with 10 transactions, ` +
        `${ledger.entries} entries in ${((performance.now() - ledgerStarted) / 1000).toFixed(1)} s`,
    );
  }
  const idsFile = path.join(base.workDir, 'ids.json');
  writeFileSync(
    idsFile,
    JSON.stringify({
      customerIds: data.customerIds,
      accountIds: data.accountIds,
      nestedCustomerIds: data.nestedCustomerIds,
      transferAccountIds: ledger?.transferAccountIds ?? [],
      hotAccountId: ledger?.hotAccountId ?? null,
      accountsWithTransactions: ledger?.accountsWithTransactions ?? [],
      busyAccountId: growth?.busyAccountId ?? null,
      busyFrom: growth?.from ?? null,
      busyTo: growth?.to ?? null,
    }),
  );
  // Pinned once seeded, so that the seed had every core; backends forked later inherit the postmaster's.
  const pinning = planPinning(base.db.postmasterPid);
  base.log(pinning.description);
  return {
    ...base,
    pinning,
    keys,
    credentials,
    token: credentials.bearer,
    data,
    ledger,
    growth,
    seedSeconds,
    idsFile,
    nextSsnSequence: data.nextSsnSequence,
  };
}
