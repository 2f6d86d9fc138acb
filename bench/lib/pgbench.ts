import { existsSync } from 'node:fs';
import os from 'node:os';
import type { BenchContext } from './context.js';
import { median } from './measure.js';
import { baseEnvironment, runToCompletion } from './processes.js';
import { processTreeCpuMicros } from './proc.js';

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
    args: ['-h', parsed.hostname, '-p', parsed.port || '5432', '-U', decodeURIComponent(parsed.username), parsed.pathname.slice(1)],
    env: { PGPASSWORD: decodeURIComponent(parsed.password) },
  };
}

/**
 * `pgbench -S -M prepared`: the database's own select-only ceiling on this machine, with the same
 * number of clients as the HTTP scenarios' connections, in its own database on the same server.
 */
export async function runPgbench(ctx: BenchContext): Promise<PgbenchResult> {
  const binary = CANDIDATES.find((candidate) => existsSync(candidate));
  const clients = ctx.options.connections;
  const empty = (note: string): PgbenchResult => ({ binary: binary ?? 'pgbench', version: 'n/a', scale: ctx.options.pgbenchScale, clients, runs: [], median: null, note });
  if (!binary) return empty('pgbench not found (apt-get install postgresql-client-15 or postgresql-15)');

  const { args: connection, env: passwordEnv } = connectionArgs(ctx.db.pgbenchUrl);
  const env = baseEnvironment(passwordEnv);
  const run = (args: string[]) => runToCompletion(binary, [...args, ...connection], { cwd: ctx.repoRoot, env });
  const version = (await runToCompletion(binary, ['--version'], { cwd: ctx.repoRoot, env })).trim();

  ctx.log(`[pgbench] initialising scale ${ctx.options.pgbenchScale}`);
  await run(['-i', '-q', '-s', String(ctx.options.pgbenchScale)]);
  const threads = String(Math.min(clients, os.availableParallelism()));
  const select = (seconds: number) => run(['-S', '-M', 'prepared', '-n', '-c', String(clients), '-j', threads, '-T', String(seconds)]);
  await select(ctx.options.warmupSeconds);

  const runs: PgbenchResult['runs'] = [];
  for (let index = 1; index <= ctx.options.runs; index++) {
    const cpuBefore = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
    const output = await select(ctx.options.durationSeconds);
    const cpuAfter = ctx.db.postmasterPid === undefined ? undefined : processTreeCpuMicros(ctx.db.postmasterPid);
    const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? Number.NaN);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(output)?.[1] ?? 0);
    const latencyAverageMs = Number(/latency average = ([\d.]+) ms/.exec(output)?.[1] ?? Number.NaN);
    const postgresCpuUsPerTransaction = cpuBefore === undefined || cpuAfter === undefined || transactions === 0 ? null : (cpuAfter - cpuBefore) / transactions;
    runs.push({ tps, latencyAverageMs, postgresCpuUsPerTransaction });
    ctx.log(`[pgbench] run ${index}/${ctx.options.runs}: ${tps.toFixed(0)} tps, latency average ${latencyAverageMs} ms`);
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
