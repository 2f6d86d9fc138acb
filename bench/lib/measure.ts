import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { LoadResult, LoadSpec } from '../load/protocol.js';
import type { LoadKind } from '../load/requests.js';
import type { BenchContext } from './context.js';
import { type RunningServer, runToCompletion } from './processes.js';
import { processCpuMicros, processTreeCpuMicros, samplePeakRss } from '../../scripts/lib/proc.js';
import { BENCH_ENVIRONMENT } from './seed.js';
import { cpuTimes, stealShareSince } from './machine.js';
import { childEnvironment } from '../../scripts/lib/child-environment.js';

/** One measured run of one contender. Per-request figures divide by every response received. */
export interface RunMeasurement {
  /** Successful (2xx, no GraphQL errors) responses per second. */
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  responses: number;
  errors: number;
  serverCpuUsPerRequest: number | null;
  postgresCpuUsPerRequest: number | null;
  statementsPerOperation: number | null;
  peakRssMb: number | null;
  statusCodes: Record<string, number>;
  sampleError: string | undefined;
  /**
   * WAL the whole server generated during the run (pg_wal_lsn_diff of pg_current_wal_insert_lsn() after and
   * before: the insert position, which, unlike pg_current_wal_lsn(), does not wait for the WAL writer) per
   * successful answer; null when it could not be read.
   */
  walBytesPerOperation?: number | null;
  /** The share of the machine's CPU time stolen by the hypervisor during the run (absent in older reports). */
  stealShare?: number | null;
  /** Blocks read from outside shared_buffers per response (pg_stat_statements); null when not counted. */
  blocksReadPerOperation?: number | null;
}

/** The server's current WAL insert position, or undefined when it cannot be read (a standby, no permission). */
export async function walPosition(pool: pg.Pool): Promise<string | undefined> {
  try {
    const { rows } = await pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
    return rows[0]?.lsn;
  } catch {
    return undefined;
  }
}

/** WAL bytes written since `before` (walPosition) per operation, or null (not read, or no operation). */
export async function walBytesPerOperation(
  pool: pg.Pool,
  before: string | undefined,
  operations: number,
): Promise<number | null> {
  if (before === undefined || operations <= 0) return null;
  try {
    const { rows } = await pool.query<{ bytes: number }>(
      'SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn)::float8 AS bytes',
      [before],
    );
    return rows[0] === undefined ? null : rows[0].bytes / operations;
  } catch {
    return null;
  }
}

let specCounter = 0;

/**
 * The load generator (bench/load/worker.ts), in its own process on the reference Node, driving `kind` against
 * `baseUrl` for `seconds`; the creations it made move the context's SSN sequence on, so the next run's are new.
 */
export async function runLoadWorker(
  ctx: BenchContext,
  baseUrl: string,
  kind: LoadKind,
  seconds: number,
  rate?: number,
  token = ctx.token,
): Promise<LoadResult> {
  const spec: LoadSpec = {
    baseUrl,
    kind,
    environment: BENCH_ENVIRONMENT,
    token,
    durationSeconds: seconds,
    connections: ctx.options.connections,
    idsFile: ctx.idsFile,
    ssnSequenceStart: ctx.nextSsnSequence,
    ...(rate !== undefined && { rate }),
  };
  const specFile = path.join(ctx.workDir, `load-${++specCounter}.json`);
  writeFileSync(specFile, JSON.stringify(spec));
  // On its own core when the machine allows it (bench/lib/pinning.ts).
  const [command, ...prefix] = [...ctx.pinning.generatorPrefix, ctx.referenceNode];
  const stdout = await runToCompletion(command!, [...prefix, '--import', 'tsx', 'bench/load/worker.ts', specFile], {
    cwd: ctx.repoRoot,
    env: childEnvironment({ NODE_ENV: 'production' }),
  });
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as LoadResult;
  ctx.nextSsnSequence = result.ssnSequenceEnd + 1;
  return result;
}

/**
 * Drives `kind` against `server` for `seconds` with the load generator in its own process, and reads
 * around it: CPU of the server process and of the whole PostgreSQL server (/proc), statements executed
 * in the bench database, and the server's peak RSS sampled every 200 ms.
 */
export async function measureRun(
  ctx: BenchContext,
  server: RunningServer,
  kind: LoadKind,
  seconds: number,
  rate?: number,
): Promise<RunMeasurement> {
  await ctx.db.statements.reset();
  const serverCpuBefore = processCpuMicros(server.pid);
  const postgresCpuBefore = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
  const rss = samplePeakRss(server.pid);
  const walBefore = await walPosition(ctx.benchPool);
  const cpuBefore = cpuTimes();
  let result: LoadResult;
  let peakRss: number | undefined;
  try {
    result = await runLoadWorker(ctx, server.baseUrl, kind, seconds, rate, server.bearer);
  } finally {
    peakRss = rss.stop();
  }
  const stealShare = stealShareSince(cpuBefore);
  const serverCpuAfter = processCpuMicros(server.pid);
  const postgresCpuAfter = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
  const statements = await ctx.db.statements.read(server.database);
  const blocksRead = await ctx.db.statements.readBlocks(server.database);
  const walBytes = await walBytesPerOperation(ctx.benchPool, walBefore, result.ok);

  const perRequest = (before: number | undefined, after: number | undefined) =>
    before === undefined || after === undefined || result.responses === 0 ? null : (after - before) / result.responses;
  return {
    rps: result.ok / result.durationSeconds,
    p50Ms: result.latencyMs.p50,
    p90Ms: result.latencyMs.p90,
    p99Ms: result.latencyMs.p99,
    responses: result.responses,
    errors: result.errors,
    serverCpuUsPerRequest: perRequest(serverCpuBefore, serverCpuAfter),
    postgresCpuUsPerRequest: perRequest(postgresCpuBefore, postgresCpuAfter),
    statementsPerOperation: result.responses === 0 ? null : statements / result.responses,
    blocksReadPerOperation: result.responses === 0 || blocksRead === null ? null : blocksRead / result.responses,
    peakRssMb: peakRss === undefined ? null : peakRss / (1024 * 1024),
    statusCodes: result.statusCodes,
    sampleError: result.sampleError,
    walBytesPerOperation: walBytes,
    stealShare,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function medianOrNull(values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : median(present);
}

/** The median of every figure taken separately (the usual way to summarise alternating runs). */
export function medianOfRuns(runs: RunMeasurement[]): RunMeasurement {
  const statusCodes: Record<string, number> = {};
  for (const run of runs)
    for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  return {
    rps: median(runs.map((r) => r.rps)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p90Ms: median(runs.map((r) => r.p90Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    responses: median(runs.map((r) => r.responses)),
    errors: median(runs.map((r) => r.errors)),
    serverCpuUsPerRequest: medianOrNull(runs.map((r) => r.serverCpuUsPerRequest)),
    postgresCpuUsPerRequest: medianOrNull(runs.map((r) => r.postgresCpuUsPerRequest)),
    statementsPerOperation: medianOrNull(runs.map((r) => r.statementsPerOperation)),
    peakRssMb: runs.some((r) => r.peakRssMb !== null) ? Math.max(...runs.map((r) => r.peakRssMb ?? 0)) : null,
    statusCodes,
    sampleError: runs.find((r) => r.sampleError !== undefined)?.sampleError,
    walBytesPerOperation: medianOrNull(runs.map((r) => r.walBytesPerOperation ?? null)),
    stealShare: runs.some((r) => typeof r.stealShare === 'number')
      ? Math.max(...runs.map((r) => r.stealShare ?? 0))
      : null,
  };
}
