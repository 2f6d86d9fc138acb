import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { BenchContext } from './lib/context.js';
import { runBenchEntry } from './lib/entry.js';
import {
  type DataGrowthReport,
  type DiskRow,
  type GrowthOperation,
  type GrowthSize,
  judgeGrowth,
  renderGrowthMarkdown,
  type VacuumRow,
} from './lib/growth-report.js';
import { parseGrowthScale } from './lib/growth-seed.js';
import { boundPostgresMemory, type MemoryBound } from './lib/memory-bound.js';
import { planPinning } from './lib/pinning.js';
import { type HttpScenarioName, runHttpScenario } from './lib/scenarios.js';
import { runToCompletion } from './lib/processes.js';
import { scratchBenchOptions, withScratchBench } from './lib/scratch-bench.js';
import { startContenders } from './lib/start-contenders.js';
import { UsageError } from './lib/options.js';
import { ensureReferenceNode } from '../scripts/lib/reference-node.js';

/**
 * `npm run bench:data-growth`: the cost as data grows. For each size of DATA_GROWTH_SIZES (customers; default
 * 10,000, 100,000 and 1,000,000, with half as many accounts again) a fresh scratch database is seeded with the
 * customers and, in bulk SQL, the history a bank carries beside them (bench/lib/growth-seed.ts: by default per
 * customer 10 ledger entries, one busy account holding one per customer, 10 events, 10 audit rows and 1 idempotency
 * key); PostgreSQL is then restarted with shared_buffers at a tenth of the database and its memory bounded, so
 * that reads go to the disk (bench/lib/memory-bound.ts); then each operation runs as `npm run bench` runs it, side
 * by side with its comparators. Reported per size: total CPU per request (the server's and PostgreSQL's; median,
 * 95 % bootstrap interval), p99, blocks read per request, disk per million rows; at the largest, VACUUM
 * (ANALYZE)'s time and WAL after a churn. Judged: point reads and writes, list and search cost at most 1.5x at the
 * largest size what they cost at the smallest, in total CPU and in p99, on the ratio's interval.
 * Not part of `npm run bench` (it takes long). Results: bench/results/data-growth/.
 */

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => process.stderr.write(`[data-growth ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

export const DATA_GROWTH_SCENARIOS: HttpScenarioName[] = [
  'rest-get-customer',
  'rest-get-account',
  'rest-list-customers-by-name',
  'rest-search-customer-by-ssn',
  'rest-post-customer',
  'rest-transfer-uniform',
  'rest-balance-as-of',
  'rest-statement',
];

/** The tables whose size is reported per million rows. */
const DISK_TABLES = [
  'customers',
  'accounts',
  'account_customers',
  'ledger_entries',
  'events',
  'audit_events',
  'idempotency_keys',
];

const USAGE = `npm run bench:data-growth [-- options]

  DATA_GROWTH_SIZES=a,b,c   customers per size (default 10000,100000,1000000)
  --runs N                  measured runs per contender and size (default 5; 3 at least for an interval)
  --duration S              seconds per run (default 10)
  --warmup S                warm-up seconds per contender (default 3)
  --growth SCALE            history rows per customer (default entries=10,busy=1,events=10,audit=10,keys=1)
  --churn F                 fraction deleted before the vacuum at the largest size (default 0.1)
  --scenarios a,b           only these operations (default all: ${DATA_GROWTH_SCENARIOS.join(', ')}); a subset
                            is for investigating one, its growth judged only where both sizes measured it
  --no-build                skip "npm run build" (dist/ must be current)
  --out DIR                 results directory (default bench/results/data-growth)
`;

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      runs: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      growth: { type: 'string' },
      churn: { type: 'string' },
      'no-build': { type: 'boolean' },
      out: { type: 'string' },
      scenarios: { type: 'string' },
    },
  });
  const whole = (name: string, raw: string | undefined, fallback: number) => {
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1)
      throw new UsageError(`${name} must be a positive whole number, got "${raw}"`);
    return Number(raw);
  };
  const sizes = (process.env.DATA_GROWTH_SIZES ?? '10000,100000,1000000')
    .split(',')
    .map((s) => whole('DATA_GROWTH_SIZES', s.trim(), 0));
  const churn = Number(values.churn ?? '0.1');
  if (!(churn >= 0 && churn < 1)) throw new UsageError(`--churn must be a fraction in [0, 1), got "${values.churn}"`);
  const growth = values.growth ?? 'entries=10,busy=1,events=10,audit=10,keys=1';
  try {
    parseGrowthScale(growth);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const scenarios =
    values.scenarios === undefined ? DATA_GROWTH_SCENARIOS : values.scenarios.split(',').map((name) => name.trim());
  const unknown = scenarios.filter((name) => !(DATA_GROWTH_SCENARIOS as string[]).includes(name));
  if (unknown.length > 0 || scenarios.length === 0)
    throw new UsageError(
      `--scenarios must name some of ${DATA_GROWTH_SCENARIOS.join(', ')}; got "${values.scenarios}"`,
    );
  return {
    help: values.help === true,
    scenarios: scenarios as HttpScenarioName[],
    sizes: [...sizes].sort((a, b) => a - b),
    runs: whole('--runs', values.runs, 5),
    durationSeconds: whole('--duration', values.duration, 10),
    warmupSeconds: whole('--warmup', values.warmup, 3),
    growth,
    churn,
    build: values['no-build'] !== true,
    outDir: path.resolve(repoRoot, values.out ?? 'bench/results/data-growth'),
  };
}

async function measureSize(
  ctx: BenchContext,
  scenarios: readonly HttpScenarioName[],
  failures: string[],
): Promise<GrowthOperation[]> {
  const operations: GrowthOperation[] = [];
  const servers = await startContenders(ctx, [...scenarios], ctx.referenceNode, failures);
  try {
    for (const scenario of scenarios) {
      try {
        const result = await runHttpScenario(ctx, scenario, servers, ctx.referenceNode);
        operations.push({
          scenario,
          title: result.title,
          connections: result.connections ?? ctx.options.connections,
          // Each comparator's check of its answers against the service's (the service's own, for the writes).
          check:
            result.contenders
              .filter((c) => c.check !== undefined)
              .map((c) => `${c.name}: ${c.check}`)
              .join('; ') || undefined,
          contenders: result.contenders.map((c) => ({
            name: c.name,
            serverCpuUsPerRequest: c.runs.map((r) => r.serverCpuUsPerRequest),
            postgresCpuUsPerRequest: c.runs.map((r) => r.postgresCpuUsPerRequest),
            p99Ms: c.runs.map((r) => r.p99Ms),
            rps: c.runs.map((r) => r.rps),
            errors: c.runs.map((r) => r.errors),
            peakRssMb: c.runs.map((r) => r.peakRssMb),
            blocksReadPerRequest: c.runs.map((r) => r.blocksReadPerOperation ?? null),
          })),
        });
      } catch (error) {
        failures.push(
          `${ctx.data.customers} customers, ${scenario} failed: ${(error as Error).message.split('\n')[0]}`,
        );
        log(`${scenario} failed: ${(error as Error).stack ?? String(error)}`);
      }
    }
  } finally {
    for (const server of Object.values(servers)) await server.stop();
  }
  return operations;
}

async function measureDisk(ctx: BenchContext): Promise<DiskRow[]> {
  const rows: DiskRow[] = [];
  for (const table of DISK_TABLES) {
    const { rows: found } = await ctx.benchPool.query<{ n: string; bytes: string }>(
      `SELECT (SELECT count(*) FROM ${table}) AS n, pg_total_relation_size('${table}') AS bytes`,
    );
    const count = Number(found[0]!.n);
    const bytes = Number(found[0]!.bytes);
    rows.push({ table, rows: count, bytes, bytesPerMillionRows: count > 0 ? (bytes / count) * 1_000_000 : null });
  }
  return rows;
}

/**
 * The churn a bank's tables see, then VACUUM (ANALYZE) of each, timed, with the WAL it wrote: retention deletes
 * the oldest `churn` of the events, the expiry sweep that share of the idempotency keys; ledger entries and audit
 * rows are append-only (triggers refuse updates and deletes), so theirs is the first vacuum after the load
 * (visibility map, freezing).
 */
async function measureVacuum(ctx: BenchContext, churn: number): Promise<VacuumRow[]> {
  const pool = ctx.benchPool;
  const percent = `${(churn * 100).toFixed(0)} %`;
  const count = async (table: string) =>
    Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
  const events = Math.floor((await count('events')) * churn);
  await pool.query(
    `DELETE FROM events WHERE (txid, id) IN (SELECT e.txid, e.id FROM events e ORDER BY e.environment, e.txid, e.id LIMIT $1)`,
    [events],
  );
  const keys = Math.floor((await count('idempotency_keys')) * churn);
  await pool.query(
    `DELETE FROM idempotency_keys WHERE (principal_id, environment, key) IN (SELECT k.principal_id, k.environment, k.key FROM idempotency_keys k ORDER BY k.expires_at LIMIT $1)`,
    [keys],
  );
  const churns: [string, string][] = [
    ['ledger_entries', 'append-only: first vacuum after the load'],
    ['events', `oldest ${percent} deleted (${events.toLocaleString('en-US')} rows, as retention does)`],
    ['audit_events', 'append-only: first vacuum after the load'],
    ['idempotency_keys', `${percent} deleted (${keys.toLocaleString('en-US')} rows, as the expiry sweep does)`],
  ];
  const rows: VacuumRow[] = [];
  const client = await pool.connect();
  try {
    for (const [table, description] of churns) {
      await client.query('CHECKPOINT');
      const before = (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
      const started = performance.now();
      await client.query(`VACUUM (ANALYZE) ${table}`);
      const seconds = (performance.now() - started) / 1000;
      const { rows: wal } = await client.query<{ bytes: string }>(
        'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn) AS bytes',
        [before],
      );
      rows.push({ table, churn: description, seconds, walBytes: Number(wal[0]!.bytes) });
      log(`VACUUM (ANALYZE) ${table}: ${seconds.toFixed(1)} s, ${wal[0]!.bytes} WAL bytes`);
    }
  } finally {
    client.release();
  }
  return rows;
}

function historyLine(report: DataGrowthReport) {
  return {
    startedAt: report.startedAt,
    command: report.command,
    commit: report.commit,
    sizes: report.sizes.map((size) => ({
      customers: size.customers,
      seedSeconds: size.seedSeconds,
      operations: size.operations.map((o) => ({
        scenario: o.scenario,
        contenders: o.contenders.map((c) => ({
          name: c.name,
          serverCpuUsPerRequest: c.serverCpuUsPerRequest.map((v) => (v === null ? null : Math.round(v))),
          postgresCpuUsPerRequest: c.postgresCpuUsPerRequest.map((v) => (v === null ? null : Math.round(v))),
          p99Ms: c.p99Ms,
          rps: c.rps.map(Math.round),
        })),
      })),
      disk: size.disk.map((d) => ({ table: d.table, rows: d.rows, bytes: d.bytes })),
      vacuum: size.vacuum,
      memory: size.memory,
    })),
    judgements: report.judgements,
    failures: report.failures,
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options = parse(argv);
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  const startedAt = new Date();
  const node = await ensureReferenceNode(log);
  if (options.build) {
    log('npm run build');
    await runToCompletion('npm', ['run', 'build', '--silent'], {
      cwd: repoRoot,
      env: { ...process.env } as Record<string, string>,
    });
  }
  const failures: string[] = [];
  const sizes: GrowthSize[] = [];
  for (const customers of options.sizes) {
    const benchOptions = scratchBenchOptions(customers, [
      '--scenarios',
      options.scenarios.join(','),
      '--runs',
      String(options.runs),
      '--duration',
      String(options.durationSeconds),
      '--warmup',
      String(options.warmupSeconds),
      '--growth',
      options.growth,
      '--node',
      node,
    ]);
    if (benchOptions === 'help') throw new Error('unreachable');
    const workDir = mkdtempSync(path.join(os.tmpdir(), 'cas-data-growth-'));
    try {
      log(`${customers.toLocaleString('en-US')} customers: seeding a fresh database`);
      await withScratchBench(benchOptions, workDir, log, async (seeded) => {
        // As seeded: the measured runs' creates and transfers would add to some tables and not others.
        const disk = await measureDisk(seeded);
        const bounded = await boundPostgresMemory(seeded.db, seeded.benchPool, log);
        // The restarted PostgreSQL's processes pinned as the seeded one's were.
        seeded.pinning.release();
        const ctx = { ...seeded, pinning: planPinning(seeded.db.postmasterPid) };
        let operations: GrowthOperation[];
        let vacuum: VacuumRow[] = [];
        let memory: MemoryBound;
        try {
          operations = await measureSize(ctx, options.scenarios, failures);
          if (customers === options.sizes.at(-1)) {
            try {
              vacuum = await measureVacuum(ctx, options.churn);
            } catch (error) {
              failures.push(`vacuum at ${customers} customers failed: ${(error as Error).message.split('\n')[0]}`);
            }
          }
        } finally {
          ctx.pinning.release();
          memory = bounded.release();
        }
        const { seconds, ...growth } = ctx.growth ?? { seconds: null };
        sizes.push({
          customers: ctx.data.customers,
          accounts: ctx.data.accounts,
          seedSeconds: { base: ctx.seedSeconds, growth: seconds },
          growth: ctx.growth ? (growth as GrowthSize['growth']) : null,
          operations,
          disk,
          vacuum,
          memory,
        });
      });
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
  const finishedAt = new Date();
  const commit =
    spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim() || null;
  const report: DataGrowthReport = {
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    elapsedSeconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
    command: [
      process.env.DATA_GROWTH_SIZES ? `DATA_GROWTH_SIZES=${process.env.DATA_GROWTH_SIZES}` : '',
      'npm run bench:data-growth',
      ...(argv.length > 0 ? ['--', ...argv] : []),
    ]
      .filter(Boolean)
      .join(' '),
    commit,
    options: {
      sizes: options.sizes,
      runs: options.runs,
      durationSeconds: options.durationSeconds,
      growthScale: options.growth,
      churn: options.churn,
      scenarios: options.scenarios,
    },
    sizes,
    judgements: judgeGrowth(sizes),
    failures,
  };
  mkdirSync(options.outDir, { recursive: true });
  const stamp = report.startedAt.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const markdown = renderGrowthMarkdown(report);
  // Only the latest run is kept whole (the report summarises the newest); every run's figures stay in the history.
  for (const old of readdirSync(options.outDir))
    if (/^\d{4}-.*Z\.json$/.test(old)) rmSync(path.join(options.outDir, old));
  writeFileSync(path.join(options.outDir, `${stamp}.json`), `${JSON.stringify(report)}\n`);
  writeFileSync(path.join(options.outDir, 'latest.md'), markdown);
  appendFileSync(path.join(options.outDir, 'history.jsonl'), `${JSON.stringify(historyLine(report))}\n`);
  process.stdout.write(`\n${markdown}`);
  log(`results: ${path.relative(repoRoot, path.join(options.outDir, `${stamp}.json`))}, latest.md and history.jsonl`);
}

runBenchEntry('bench:data-growth', main, []);
