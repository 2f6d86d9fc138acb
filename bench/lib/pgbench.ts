import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchContext } from './context.js';
import { median, type RunMeasurement, walBytesPerOperation, walPosition } from './measure.js';
import { PGBENCH_DATABASE } from './postgres.js';
import { runToCompletion } from './processes.js';
import { processTreeCpuMicros } from '../../scripts/lib/proc.js';
import { childEnvironment } from '../../scripts/lib/child-environment.js';

export interface PgbenchResult {
  binary: string;
  version: string;
  scale: number;
  clients: number;
  runs: { tps: number; latencyAverageMs: number; postgresCpuUsPerTransaction: number | null }[];
  median: { tps: number; latencyAverageMs: number; postgresCpuUsPerTransaction: number | null } | null;
  note: string | undefined;
}

/** Debian's PostgreSQL 15 client first (installed on these machines), then whatever is on PATH. */
const CANDIDATES = ['/usr/lib/postgresql/15/bin/pgbench', '/usr/bin/pgbench'];

function connectionArgs(url: string): { args: string[]; env: Record<string, string> } {
  const parsed = new URL(url);
  return {
    args: [
      '-h',
      parsed.hostname,
      '-p',
      parsed.port || '5432',
      '-U',
      decodeURIComponent(parsed.username),
      parsed.pathname.slice(1),
    ],
    env: { PGPASSWORD: decodeURIComponent(parsed.password) },
  };
}

/** The scale cas_pgbench holds now (pgbench -i drops and recreates its tables), per server. */
const initialisedScale = new WeakMap<object, number>();

/** The first pgbench found, or undefined. */
export const pgbenchBinary = (): string | undefined => CANDIDATES.find((candidate) => existsSync(candidate));

export interface Pgbench {
  binary: string;
  version: string;
  run(args: string[]): Promise<string>;
}

/** The pgbench binary, on `url` (pgbench's own database unless given), with `env` (e.g. PGOPTIONS) added. */
export async function pgbenchOf(
  ctx: Pick<BenchContext, 'db' | 'repoRoot'>,
  url = ctx.db.pgbenchUrl,
  extraEnv: Record<string, string> = {},
): Promise<Pgbench | undefined> {
  const binary = pgbenchBinary();
  if (!binary) return undefined;
  const { args: connection, env: passwordEnv } = connectionArgs(url);
  const env = childEnvironment({ ...passwordEnv, ...extraEnv });
  const version = (await runToCompletion(binary, ['--version'], { cwd: ctx.repoRoot, env })).trim();
  return {
    binary,
    version,
    run: (args: string[]) => runToCompletion(binary, [...args, ...connection], { cwd: ctx.repoRoot, env }),
  };
}

/** pgbench's tables at `scale` in their own database (server-side generation), unless already there. */
async function ensureScale(ctx: BenchContext, pgbench: Pgbench, scale: number): Promise<void> {
  if (initialisedScale.get(ctx.db) === scale) return;
  ctx.log(`[pgbench] initialising scale ${scale}`);
  await pgbench.run(['-i', '-q', '-I', 'dtGvp', '-s', String(scale)]);
  initialisedScale.set(ctx.db, scale);
}

export const NO_PGBENCH = 'pgbench not found (apt-get install postgresql-client-15 or postgresql-15)';

/** What the transfer scenarios set beside the service: PostgreSQL's own bank workload. */
export const TPCB_CONTENDER = 'pgbench tpcb-like';

export interface TpcbCeiling {
  description: string;
  /** One unmeasured run, then measure(seconds) per alternating run. */
  warmUp(seconds: number): Promise<void>;
  measure(seconds: number): Promise<RunMeasurement>;
}

/**
 * `pgbench -b tpcb-like -M prepared -c <connections> -j <cores>` at --pgbench-tpcb-scale (pgbench's own
 * rule: a scale of at least the client count, or the 1-per-scale branches rows become the bottleneck):
 * per transaction BEGIN, UPDATE an account, SELECT its balance, UPDATE a teller, UPDATE a branch, INSERT a
 * history row, END, with PostgreSQL's default durability. Latency percentiles come from pgbench's
 * per-transaction log (-l), statements per transaction from pg_stat_statements on its database.
 */
export function tpcbCeiling(ctx: BenchContext): Promise<TpcbCeiling | string> {
  return pgbenchCeiling(ctx, 'tpcb-like', ctx.options.pgbenchTpcbScale);
}

/**
 * One of pgbench's built-in workloads as alternating runs (warm-up, then measure per run), at `scale` with
 * --connections clients: `tpcb-like` (above) or `select-only` (`-S`: one primary-key SELECT per transaction).
 * Both at one scale when alternated: a change of scale re-initialises the tables.
 */
export async function pgbenchCeiling(
  ctx: BenchContext,
  workload: 'tpcb-like' | 'select-only',
  scale: number,
): Promise<TpcbCeiling | string> {
  const pgbench = await pgbenchOf(ctx);
  if (!pgbench) return NO_PGBENCH;
  const clients = ctx.options.connections;
  const threads = String(Math.min(clients, os.availableParallelism()));
  // Before any warm-up: the initialisation writes the whole scale, and its checkpoint must not land in a measured run.
  if (initialisedScale.get(ctx.db) !== scale) {
    await ensureScale(ctx, pgbench, scale);
    await ctx.benchPool.query('CHECKPOINT').catch(() => undefined);
  }
  return measuredPgbench(ctx, {
    description: `pgbench -b ${workload} -M prepared, scale ${scale}, ${clients} clients (${pgbench.version.replace(/^pgbench \(PostgreSQL\) /, 'pgbench ')})`,
    database: PGBENCH_DATABASE,
    run: async (seconds, logArgs) => {
      await ensureScale(ctx, pgbench, scale);
      return pgbench.run([
        '-b',
        workload,
        '-M',
        'prepared',
        '-n',
        '-c',
        String(clients),
        '-j',
        threads,
        '-T',
        String(seconds),
        ...logArgs,
      ]);
    },
  });
}

/**
 * A pgbench workload as a contender of the alternating runs: `run(seconds, logArgs)` runs pgbench once (with
 * `logArgs`, its per-transaction log). Each measured run reads around it the whole PostgreSQL server's CPU, the
 * statements executed in `database` (pg_stat_statements) and the server's WAL position (WAL bytes per committed
 * transaction); latency percentiles come from the per-transaction log.
 */
export function measuredPgbench(
  ctx: BenchContext,
  workload: { description: string; database: string; run(seconds: number, logArgs: string[]): Promise<string> },
): TpcbCeiling {
  let counter = 0;
  return {
    description: workload.description,
    warmUp: async (seconds) => void (await workload.run(seconds, [])),
    measure: async (seconds) => {
      const logDir = path.join(ctx.workDir, `pgbench-${++counter}`);
      mkdirSync(logDir);
      await ctx.db.statements.reset();
      const walBefore = await walPosition(ctx.benchPool);
      const cpuBefore = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
      const output = await workload.run(seconds, ['-l', `--log-prefix=${path.join(logDir, 'pgbench')}`]);
      const cpuAfter = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
      const statements = await ctx.db.statements.read(workload.database);
      // Per-transaction log lines: client_id transaction_no latency_us script_no epoch_s epoch_us.
      const latencies: number[] = [];
      for (const file of readdirSync(logDir)) {
        for (const line of readFileSync(path.join(logDir, file), 'utf8').split('\n')) {
          const fields = line.split(' ');
          if (fields.length >= 3) latencies.push(Number(fields[2]) / 1000);
        }
      }
      rmSync(logDir, { recursive: true, force: true });
      latencies.sort((a, b) => a - b);
      const percentile = (p: number) =>
        latencies.length === 0
          ? Number.NaN
          : latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
      const transactions = Number(/number of transactions actually processed: (\d+)/.exec(output)?.[1] ?? 0);
      const failed = Number(/number of failed transactions: (\d+)/.exec(output)?.[1] ?? 0);
      const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? Number.NaN);
      const walBytes = await walBytesPerOperation(ctx.benchPool, walBefore, transactions);
      // A run too short for 50 clients to connect (--quick) processes nothing: say so on its row, keep the service's.
      const sampleError =
        Number.isFinite(tps) && transactions > 0
          ? undefined
          : `pgbench processed no transaction: ${output.replace(/\s+/g, ' ').slice(-300)}`;
      return {
        rps: tps,
        p50Ms: percentile(50),
        p90Ms: percentile(90),
        p99Ms: percentile(99),
        responses: transactions + failed,
        errors: failed,
        serverCpuUsPerRequest: null,
        postgresCpuUsPerRequest:
          cpuBefore === undefined || cpuAfter === undefined || transactions === 0
            ? null
            : (cpuAfter - cpuBefore) / transactions,
        statementsPerOperation: transactions === 0 ? null : statements / transactions,
        peakRssMb: null,
        statusCodes: {},
        sampleError,
        walBytesPerOperation: walBytes,
      };
    },
  };
}

/**
 * `pgbench -S -M prepared`: the database's own select-only ceiling on this machine, with the same
 * number of clients as the HTTP scenarios' connections, in its own database on the same server.
 */
export async function runPgbench(ctx: BenchContext): Promise<PgbenchResult> {
  const clients = ctx.options.connections;
  const pgbench = await pgbenchOf(ctx);
  if (!pgbench)
    return {
      binary: 'pgbench',
      version: 'n/a',
      scale: ctx.options.pgbenchScale,
      clients,
      runs: [],
      median: null,
      note: NO_PGBENCH,
    };
  const { binary, version, run } = pgbench;
  await ensureScale(ctx, pgbench, ctx.options.pgbenchScale);
  const threads = String(Math.min(clients, os.availableParallelism()));
  const select = (seconds: number) =>
    run(['-S', '-M', 'prepared', '-n', '-c', String(clients), '-j', threads, '-T', String(seconds)]);
  await select(ctx.options.warmupSeconds);

  const runs: PgbenchResult['runs'] = [];
  for (let index = 1; index <= ctx.options.runs; index++) {
    const cpuBefore = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
    const output = await select(ctx.options.durationSeconds);
    const cpuAfter = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
    const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? Number.NaN);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(output)?.[1] ?? 0);
    const latencyAverageMs = Number(/latency average = ([\d.]+) ms/.exec(output)?.[1] ?? Number.NaN);
    const postgresCpuUsPerTransaction =
      cpuBefore === undefined || cpuAfter === undefined || transactions === 0
        ? null
        : (cpuAfter - cpuBefore) / transactions;
    runs.push({ tps, latencyAverageMs, postgresCpuUsPerTransaction });
    ctx.log(
      `[pgbench] run ${index}/${ctx.options.runs}: ${tps.toFixed(0)} tps, latency average ${latencyAverageMs} ms`,
    );
  }
  const cpu = runs.map((r) => r.postgresCpuUsPerTransaction).filter((v): v is number => v !== null);
  return {
    binary,
    version,
    scale: ctx.options.pgbenchScale,
    clients,
    runs,
    median: {
      tps: median(runs.map((r) => r.tps)),
      latencyAverageMs: median(runs.map((r) => r.latencyAverageMs)),
      postgresCpuUsPerTransaction: cpu.length === 0 ? null : median(cpu),
    },
    note: undefined,
  };
}
