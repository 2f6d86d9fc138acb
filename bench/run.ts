import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startContenders } from './lib/start-contenders.js';
import { seedBenchContext } from './lib/context.js';
import { cpuTimes, describeMachine, loadAverage, stealShareSince } from './lib/machine.js';
import { type BenchOptions, DEFAULT_OUT_DIR, parseOptions, SCENARIO_NAMES, USAGE } from './lib/options.js';
import { prepareBaseline } from './lib/baseline.js';
import { type OpenLoopResult, openLoopHistory, runOpenLoop } from './lib/open-loop.js';
import { startBenchPostgres } from './lib/postgres.js';
import { ensureReferenceNode } from '../scripts/lib/reference-node.js';
import { nodeVersion, runToCompletion } from './lib/processes.js';
import { type BenchReport, renderMarkdown } from './lib/report.js';
import { newestDataGrowth, renderBenchTables } from './lib/results-tables.js';
import { HTTP_SCENARIOS, type HttpScenarioName, runHttpScenario, type ScenarioResult } from './lib/scenarios.js';
import { measureStartup, type StartupResult } from './lib/startup.js';
import { runBenchEntry } from './lib/entry.js';
import { productionNodeFlags } from '../scripts/lib/production-start.js';

/**
 * `npm run bench`: the service side by side with the floors that run its own SQL with none of its stack but
 * node:http and pg (the batching and transfer floors) and PostGraphile, on one PostgreSQL, as described in
 * docs/performance.md.
 * Progress goes to stderr, the report to stdout and to bench/results/.
 */

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Run on an interrupt, after the children are killed: the embedded PostgreSQL is not our child. */
const onInterrupt: (() => Promise<void>)[] = [];

const log = (line: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

async function resolveReferenceNode(options: BenchOptions): Promise<string> {
  return options.nodeBinary ? path.resolve(options.nodeBinary) : ensureReferenceNode(log);
}

function describeCommand(argv: string[]): string {
  const env = Object.keys(process.env)
    .filter((name) => name.startsWith('BENCH_'))
    .sort()
    .map((name) => `${name}=${process.env[name]}`);
  if (process.env.DATABASE_URL) env.push('DATABASE_URL=…');
  return [...env, 'npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' ');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const parsed = parseOptions(argv, process.env);
  if (parsed === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const options = parsed;
  const startedAt = new Date();
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'cas-bench-run-'));
  const logDir = path.join(workDir, 'logs');
  mkdirSync(logDir);
  const failures: string[] = [];
  const scenarioResults: ScenarioResult[] = [];
  const startupResults: StartupResult[] = [];
  let openLoop: OpenLoopResult | null = null;

  const referenceNode = await resolveReferenceNode(options);
  log(`Node ${nodeVersion(referenceNode)}; work dir ${workDir}`);
  if (options.build) {
    log('npm run build');
    await runToCompletion('npm', ['run', 'build', '--silent'], {
      cwd: repoRoot,
      env: { ...process.env } as Record<string, string>,
    });
  }

  const baseline =
    options.against === null ? undefined : await prepareBaseline(repoRoot, options.against, workDir, log);
  if (baseline) onInterrupt.push(async () => baseline.remove());

  const db = await startBenchPostgres({
    databaseUrl: process.env.DATABASE_URL || undefined,
    keepData: options.keepData,
    log,
  });
  onInterrupt.push(() => db.stop());
  const benchPool = new pg.Pool({ connectionString: db.benchUrl, max: 2 });
  try {
    log(
      `PostgreSQL ${db.serverVersion} (${db.embedded ? 'embedded' : 'DATABASE_URL'}); statements counted with ${db.statements.counting}`,
    );
    const ctx = await seedBenchContext({ options, repoRoot, workDir, logDir, referenceNode, db, benchPool, log });
    if (baseline) ctx.baseline = { ref: baseline.ref, commit: baseline.commit, dir: baseline.dir };
    onInterrupt.push(async () => ctx.pinning.release());
    const cpuAtStart = cpuTimes();
    const loadAtStart = loadAverage();

    const httpScenarios = options.scenarios.filter((s): s is HttpScenarioName => s in HTTP_SCENARIOS);
    if (httpScenarios.length > 0) {
      const servers = await startContenders(ctx, httpScenarios, referenceNode, failures);
      try {
        for (const scenario of httpScenarios) {
          try {
            scenarioResults.push(await runHttpScenario(ctx, scenario, servers, referenceNode));
          } catch (error) {
            failures.push(`${scenario} failed: ${(error as Error).message.split('\n')[0]}`);
            log(`${scenario} failed: ${(error as Error).stack ?? String(error)}`);
          }
        }
      } finally {
        for (const server of Object.values(servers)) await server.stop();
      }
    }
    if (options.scenarios.includes('open-loop')) {
      try {
        openLoop = await runOpenLoop(ctx, referenceNode);
      } catch (error) {
        failures.push(`open-loop failed: ${(error as Error).message.split('\n')[0]}`);
        log(`open-loop failed: ${(error as Error).stack ?? String(error)}`);
      }
    }
    // Start time is an operator's figure: measured on every core, as an instance starts, not on the servers' share.
    ctx.pinning.release();
    if (options.scenarios.includes('startup')) {
      try {
        startupResults.push(await measureStartup(ctx, referenceNode, { includeNpmStart: true }));
      } catch (error) {
        failures.push(`start-time measurement failed: ${(error as Error).message.split('\n')[0]}`);
      }
    }

    const finishedAt = new Date();
    const report: BenchReport = {
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      elapsedSeconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
      command: describeCommand(argv),
      options,
      machine: describeMachine({ repoRoot, referenceNode, postgresVersion: db.serverVersion }),
      conditions: {
        pinning: ctx.pinning.description,
        auth: ctx.credentials.mode,
        stealShare: stealShareSince(cpuAtStart),
        loadAverage: { start: loadAtStart, end: loadAverage() },
      },
      serviceNodeFlags: productionNodeFlags(repoRoot),
      database: { server: db.serverVersion, embedded: db.embedded, statementCounting: db.statements.counting },
      dataset: {
        customers: ctx.data.customers,
        accounts: ctx.data.accounts,
        sharedAccounts: ctx.data.sharedAccounts,
        links: ctx.data.links,
        nestedPopulation: ctx.data.nestedCustomerIds.length,
        ...(ctx.ledger && {
          ledger: {
            fundedAccounts: ctx.ledger.transferAccountIds.length,
            accountsWithTransactions: ctx.ledger.accountsWithTransactions.length,
            entries: ctx.ledger.entries,
          },
        }),
      },
      scenarios: scenarioResults,
      openLoop,
      startup: startupResults,
      failures,
      ...(baseline && { baseline: { ref: baseline.ref, commit: baseline.commit } }),
    };
    writeResults(report, options);
  } finally {
    await benchPool.end();
    await db.stop();
    baseline?.remove();
    if (!options.keepData) rmSync(workDir, { recursive: true, force: true });
  }
}

/** How many runs bench/results/history.ndjson keeps, newest last (about 23 KB each). */
const HISTORY_RUNS = 10;

/** One run's raw figures, a line of bench/results/history.ndjson: per scenario and contender, every run's req/s and CPU. */
function historyLine(report: BenchReport) {
  return {
    startedAt: report.startedAt,
    command: report.command,
    commit: report.machine.gitCommit,
    quick: report.options.quick,
    conditions: report.conditions,
    dataset: { customers: report.dataset.customers, accounts: report.dataset.accounts },
    scenarios: report.scenarios.map((scenario) => ({
      scenario: scenario.scenario,
      node: scenario.nodeVersion,
      contenders: scenario.contenders.map((contender) => ({
        name: contender.name,
        rps: contender.runs.map((run) => Math.round(run.rps)),
        serverCpuUsPerRequest: contender.runs.map((run) =>
          run.serverCpuUsPerRequest === null ? null : Math.round(run.serverCpuUsPerRequest),
        ),
        postgresCpuUsPerRequest: contender.runs.map((run) =>
          run.postgresCpuUsPerRequest === null ? null : Math.round(run.postgresCpuUsPerRequest),
        ),
        p99Ms: contender.runs.map((run) => run.p99Ms),
        walBytesPerOperation: contender.runs.map((run) =>
          typeof run.walBytesPerOperation === 'number' ? Math.round(run.walBytesPerOperation) : null,
        ),
        errors: contender.runs.map((run) => run.errors),
      })),
      ratios: scenario.ratios,
    })),
    ...(report.openLoop && { openLoop: openLoopHistory(report.openLoop, { histograms: false }) }),
    failures: report.failures,
  };
}

function writeResults(report: BenchReport, options: BenchOptions): void {
  const outDir = path.resolve(repoRoot, options.outDir);
  mkdirSync(outDir, { recursive: true });
  // Smoke runs and runs of some scenarios only never overwrite the full run's figures (latest.md).
  // A run --against another build compares two builds: never the full run's report, nor a line of its history.
  const full = options.against === null && SCENARIO_NAMES.every((name) => options.scenarios.includes(name));
  const prefix = options.quick ? 'quick-' : full ? '' : 'partial-';
  const kindOf = (file: string) =>
    file.startsWith('quick-') ? 'quick-' : file.startsWith('partial-') ? 'partial-' : '';
  const stamp = report.startedAt.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const markdown = renderMarkdown(report, { dataGrowth: newestDataGrowth(repoRoot) });
  // Only the latest result of each kind is kept in the repository; history belongs in CI artifacts.
  for (const old of readdirSync(outDir)) {
    if (old.endsWith('.json') && kindOf(old) === prefix) rmSync(path.join(outDir, old));
  }
  // One line: the runs' figures and the open-loop histograms are most of a run's bytes, indentation adds a third.
  writeFileSync(path.join(outDir, `${prefix}${stamp}.json`), `${JSON.stringify(report)}\n`);
  // Only the latest report is kept whole; every run's raw figures stay in the history, so a rerun leaves a trace.
  // The newest HISTORY_RUNS runs only (a headline needs three): bench/results/ stays within its 600 KB.
  // A run without load (start time only) has no line: it would push a measured run out.
  const historyFile = path.join(outDir, 'history.ndjson');
  // A smoke run (--quick) has none either: it measures nothing a headline may use.
  if ((report.scenarios.length > 0 || report.openLoop) && options.against === null && !options.quick) {
    const earlier = existsSync(historyFile) ? readFileSync(historyFile, 'utf8').split('\n').filter(Boolean) : [];
    const kept = [...earlier, JSON.stringify(historyLine(report))].slice(-HISTORY_RUNS);
    writeFileSync(historyFile, `${kept.join('\n')}\n`);
  }
  // The repository's tables are rendered from the stored JSON, as `npm run check:generated` renders them.
  if (prefix === '' && options.outDir === DEFAULT_OUT_DIR) for (const line of renderBenchTables(repoRoot)) log(line);
  else writeFileSync(path.join(outDir, `${prefix}latest.md`), markdown);
  process.stdout.write(`\n${markdown}\n`);
  log(
    `results: ${path.relative(repoRoot, path.join(outDir, `${prefix}${stamp}.json`))} and ${path.relative(repoRoot, path.join(outDir, `${prefix}latest.md`))}`,
  );
}

runBenchEntry('bench', main, onInterrupt);
