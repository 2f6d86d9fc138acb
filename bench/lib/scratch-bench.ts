import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type BenchContext, seedBenchContext } from './context.js';
import { type BenchOptions, parseOptions } from './options.js';
import { startBenchPostgres } from './postgres.js';
import { REFERENCE_NODE } from '../../scripts/lib/reference-node.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The bench options of a run of bench/data-growth.ts at one size: `customers` customers and half as
 * many accounts again, on the build already there; `more` are further bench options. 'help' as parseOptions.
 */
export function scratchBenchOptions(customers: number, more: string[] = []): BenchOptions | 'help' {
  return parseOptions(
    ['--customers', String(customers), '--accounts', String(Math.round(customers * 1.5)), '--no-build', ...more],
    {},
  );
}

/**
 * Runs `measure` in a context of its own: a bench PostgreSQL (DATABASE_URL's, or an embedded one), seeded
 * as `options` say, with the servers' logs in `workDir`/logs. The database is stopped afterwards; `workDir`
 * stays the caller's, since it may hold what the tool made (a CPU profile, logs kept on request).
 */
export async function withScratchBench(
  options: BenchOptions,
  workDir: string,
  log: (line: string) => void,
  measure: (ctx: BenchContext) => Promise<void>,
): Promise<void> {
  const logDir = path.join(workDir, 'logs');
  mkdirSync(logDir);
  const db = await startBenchPostgres({ databaseUrl: process.env.DATABASE_URL || undefined, keepData: false, log });
  const benchPool = new pg.Pool({ connectionString: db.benchUrl, max: 2 });
  // Data growth restarts PostgreSQL after the seed: the pool's idle connections end with an error, and are replaced.
  benchPool.on('error', (error) => log(`bench pool: an idle connection ended (${error.message})`));
  try {
    const referenceNode = options.nodeBinary ?? REFERENCE_NODE;
    const ctx = await seedBenchContext({ options, repoRoot, workDir, logDir, referenceNode, db, benchPool, log });
    try {
      await measure(ctx);
    } finally {
      ctx.pinning.release();
    }
  } finally {
    await benchPool.end();
    await db.stop();
  }
}
