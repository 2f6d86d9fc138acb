import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { migrate } from '../../src/db/migrations/migrations.js';
import { type BenchOptions, LEDGER_SCENARIOS } from './options.js';
import type { BenchPostgres } from './postgres.js';
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
  /** Next unused SSN sequence number; every create run takes a fresh block. */
  nextSsnSequence: number;
  log(line: string): void;
}

/**
 * Migrates the bench database, seeds it (options.customers / options.accounts) and writes the ids the load
 * generator picks from: the context every entry point (run.ts, profile.ts, instructions.ts) measures in.
 * Keys and token are generated here unless given (fleet-scaling.ts starts its instances before seeding).
 */
export async function seedBenchContext(
  base: Pick<
    BenchContext,
    'options' | 'repoRoot' | 'workDir' | 'logDir' | 'referenceNode' | 'db' | 'benchPool' | 'log'
  > &
    Partial<Pick<BenchContext, 'keys' | 'token'>>,
): Promise<BenchContext> {
  await migrate(base.benchPool);
  const seedStarted = performance.now();
  const keys = base.keys ?? generateBenchKeys();
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
  return {
    ...base,
    keys,
    token: base.token ?? `bench_${randomBytes(32).toString('base64url')}`,
    data,
    ledger,
    growth,
    seedSeconds,
    idsFile,
    nextSsnSequence: data.nextSsnSequence,
  };
}
