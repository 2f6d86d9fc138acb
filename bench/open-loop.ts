import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ensureReferenceNode } from '../scripts/lib/reference-node.js';
import { seedBenchContext } from './lib/context.js';
import { describeMachine } from './lib/machine.js';
import { openLoopHistory, renderOpenLoop, runOpenLoop } from './lib/open-loop.js';
import { parseOptions, USAGE } from './lib/options.js';
import { startBenchPostgres } from './lib/postgres.js';
import { nodeVersion, runToCompletion } from './lib/processes.js';
import { runBenchEntry } from './lib/entry.js';

/**
 * `npm run bench:open-loop`: issue 34 item 4 on its own (bench/lib/open-loop.ts): latency at 25, 50, 75 and 90 %
 * of the service's closed-loop capacity on a constant schedule, measured from each request's intended send time,
 * for GET account, create customer, transfer and the nested GraphQL query, beside the floor at the same offered
 * rate; and closed loop at 1 and 4 connections. Takes `npm run bench`'s options (--duration, --warmup,
 * --connections, --customers, --no-build, --node, --quick …; --scenarios is ignored). Writes
 * bench/results/open-loop/latest.md and appends the run's raw figures (histograms included) to history.ndjson
 * there; --quick writes quick-latest.md and quick-history.ndjson (gitignored).
 */

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(repoRoot, 'bench/results/open-loop');
const log = (line: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const onInterrupt: (() => Promise<void>)[] = [];

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const parsed = parseOptions(argv, process.env);
  if (parsed === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  // The transfer scenario needs the ledger's funded accounts: naming a ledger scenario makes the seed add them.
  const options = { ...parsed, scenarios: ['rest-transfer-uniform' as const] };
  const startedAt = new Date();
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'cas-bench-open-loop-'));
  const logDir = path.join(workDir, 'logs');
  mkdirSync(logDir);
  const referenceNode = options.nodeBinary ? path.resolve(options.nodeBinary) : await ensureReferenceNode(log);
  if (options.build) {
    log('npm run build');
    await runToCompletion('npm', ['run', 'build', '--silent'], {
      cwd: repoRoot,
      env: { ...process.env } as Record<string, string>,
    });
  }
  const db = await startBenchPostgres({
    databaseUrl: process.env.DATABASE_URL || undefined,
    keepData: options.keepData,
    log,
  });
  onInterrupt.push(() => db.stop());
  const benchPool = new pg.Pool({ connectionString: db.benchUrl, max: 2 });
  try {
    const ctx = await seedBenchContext({ options, repoRoot, workDir, logDir, referenceNode, db, benchPool, log });
    const result = await runOpenLoop(ctx, referenceNode);
    const finishedAt = new Date();
    const machine = describeMachine({
      repoRoot,
      referenceNode,
      compareNode: undefined,
      postgresVersion: db.serverVersion,
    });
    const command = ['npm run bench:open-loop', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' ');
    const markdown = [
      '# Open-loop latency (issue 34 item 4)',
      '',
      `Command: \`${command}\`; started ${startedAt.toISOString()}, ${((finishedAt.getTime() - startedAt.getTime()) / 60_000).toFixed(1)} min; commit ${machine.gitCommit ?? 'n/a'}.`,
      `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}; PostgreSQL ${db.serverVersion} (${db.embedded ? 'embedded' : 'DATABASE_URL'}); ` +
        `${ctx.data.customers.toLocaleString('en-US')} customers, ${ctx.data.accounts.toLocaleString('en-US')} accounts, ${ctx.ledger?.transferAccountIds.length.toLocaleString('en-US') ?? 0} funded accounts; generator on ${nodeVersion(referenceNode)}.`,
      '',
      ...renderOpenLoop(result),
      '',
    ].join('\n');
    mkdirSync(outDir, { recursive: true });
    const prefix = options.quick ? 'quick-' : '';
    writeFileSync(path.join(outDir, `${prefix}latest.md`), markdown);
    // Only the latest report is kept whole; every run's raw figures stay in the history, so a rerun leaves a trace.
    appendFileSync(
      path.join(outDir, `${prefix}history.ndjson`),
      `${JSON.stringify({ startedAt: startedAt.toISOString(), command, commit: machine.gitCommit, cpu: machine.cpuModel, cores: machine.cores, dataset: { customers: ctx.data.customers, accounts: ctx.data.accounts }, ...openLoopHistory(result) })}\n`,
    );
    process.stdout.write(`\n${markdown}`);
    log(
      `results: ${path.relative(repoRoot, path.join(outDir, `${prefix}latest.md`))} and ${prefix}history.ndjson beside it`,
    );
  } finally {
    await benchPool.end();
    await db.stop();
    if (!options.keepData) rmSync(workDir, { recursive: true, force: true });
  }
}

runBenchEntry('bench:open-loop', main, onInterrupt);
