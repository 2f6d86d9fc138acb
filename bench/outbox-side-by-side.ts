import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { BenchContext } from './lib/context.js';
import { runLoadWorker } from './lib/measure.js';
import { startOutboxContenders } from './lib/outbox.js';
import { withDatabase } from './lib/postgres.js';
import { killAllChildren, type RunningServer } from './lib/processes.js';
import { processCpuMicros, processTreeCpuMicros } from './lib/proc.js';
import { scratchBenchOptions, withScratchBench } from './lib/scratch-bench.js';

/**
 * `npx tsx bench/outbox-side-by-side.ts [--runs 6] [--duration 15]`: the outbox's cost measured with both
 * builds loaded AT THE SAME TIME, each on its own database of the same PostgreSQL (bench/lib/outbox.ts):
 * this checkout and the same build without the creation's outbox insert. `npm run bench` alternates 10 s
 * runs, and on these shared machines the CPU's speed moves by up to 2x from one run to the next (the same
 * build's CPU per creation went from 630 to 1,180 µs), which buries a 10 % difference unless tens of runs
 * are pooled. Loaded together, both see the same machine at every moment, so the per-run ratio is free of
 * that drift. A development tool to decide with; the ratio table of `npm run bench` is what reports.
 *
 * Per creation it reports the CPU of each server process and of the PostgreSQL backends serving that
 * database (their connection pool's, read from /proc by pid), and what the rest of PostgreSQL (WAL writer,
 * checkpointer, autovacuum, the sequencer's and jobs' connections that come and go) used in all, shared.
 */

const log = (line: string) => process.stderr.write(`[side-by-side] ${line}\n`);

/** The pids of the client backends connected to `database` now (the server's pool, once warmed up). */
async function backendPids(admin: pg.Client, database: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'", [database]);
  return rows.map((row) => row.pid);
}

const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + (processCpuMicros(pid) ?? 0), 0);

interface Sample {
  creations: number;
  serverUs: number;
  backendsUs: number;
}

async function measureTogether(ctx: BenchContext, admin: pg.Client, servers: Record<string, RunningServer>, seconds: number) {
  const names = Object.keys(servers);
  const pids = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await backendPids(admin, servers[name]!.database!)] as const)));
  const before = Object.fromEntries(names.map((name) => [name, { server: processCpuMicros(servers[name]!.pid)!, backends: cpuOf(pids[name]!) }]));
  const treeBefore = processTreeCpuMicros(ctx.db.postmasterPid!)!;
  const start = ctx.nextSsnSequence;
  const results = await Promise.all(
    names.map((name, index) => {
      // Each load worker its own block of SSNs (they are different databases, but keep them apart anyway).
      ctx.nextSsnSequence = start + index * 1_000_000;
      return runLoadWorker(ctx, servers[name]!.baseUrl, 'rest-post-customer', seconds);
    }),
  );
  ctx.nextSsnSequence = start + names.length * 1_000_000;
  const treeUs = processTreeCpuMicros(ctx.db.postmasterPid!)! - treeBefore;
  const samples: Record<string, Sample> = {};
  names.forEach((name, index) => {
    const after = { server: processCpuMicros(servers[name]!.pid)!, backends: cpuOf(pids[name]!) };
    samples[name] = { creations: results[index]!.ok, serverUs: after.server - before[name]!.server, backendsUs: after.backends - before[name]!.backends };
  });
  const backendsUs = Object.values(samples).reduce((sum, s) => sum + s.backendsUs, 0);
  return { samples, restOfPostgresUs: treeUs - backendsUs, errors: results.map((r) => r.errors) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '6' },
      duration: { type: 'string', default: '15' },
      customers: { type: 'string', default: '10000' },
    },
  });
  const options = scratchBenchOptions(Number(values.customers));
  if (options === 'help') return;
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'cas-side-by-side-'));
  try {
    await withScratchBench(options, workDir, log, async (ctx) => {
      const failures: string[] = [];
      const started = await startOutboxContenders(ctx, ctx.referenceNode, failures);
      if (!started.service || !started['no-outbox']) throw new Error(`a contender did not start: ${failures.join('; ')}`);
      await started['pre-outbox']?.stop();
      const servers = { service: started.service, 'no-outbox': started['no-outbox'] };
      const admin = new pg.Client({ connectionString: withDatabase(ctx.db.adminUrl, 'postgres') });
      await admin.connect();
      try {
        log('warming up both (5 s, together)');
        await measureTogether(ctx, admin, servers, 5);
        const rows: string[] = [];
        const ratios: { rps: number; cpu: number; pg: number }[] = [];
        for (let run = 1; run <= Number(values.runs); run++) {
          const { samples, restOfPostgresUs, errors } = await measureTogether(ctx, admin, servers, Number(values.duration));
          const per = (s: Sample) => ({ rps: s.creations / Number(values.duration), server: s.serverUs / s.creations, pg: s.backendsUs / s.creations });
          const w = per(samples.service!);
          const n = per(samples['no-outbox']!);
          const all = samples.service!.creations + samples['no-outbox']!.creations;
          ratios.push({ rps: w.rps / n.rps, cpu: (n.server + n.pg) / (w.server + w.pg), pg: w.pg - n.pg });
          const line = `| ${run} | ${w.rps.toFixed(0)} / ${n.rps.toFixed(0)} | ${w.server.toFixed(0)} / ${n.server.toFixed(0)} | ${w.pg.toFixed(0)} / ${n.pg.toFixed(0)} | ${(restOfPostgresUs / all).toFixed(0)} | ${ratios.at(-1)!.rps.toFixed(3)} | ${ratios.at(-1)!.cpu.toFixed(3)} | ${errors.join(' / ')} |`;
          rows.push(line);
          log(line);
        }
        const median = (xs: number[]) => {
          const s = [...xs].sort((a, b) => a - b);
          return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
        };
        process.stdout.write(
          '| run | creations/s with / without | server CPU µs per creation | its PostgreSQL backends µs per creation | rest of PostgreSQL µs per creation (shared) | req/s ratio | CPU ratio (without ÷ with) | errors |\n|--:|--:|--:|--:|--:|--:|--:|--|\n' +
            `${rows.join('\n')}\n` +
            `| median | | | backends +${median(ratios.map((r) => r.pg)).toFixed(0)} µs | | ${median(ratios.map((r) => r.rps)).toFixed(3)} | ${median(ratios.map((r) => r.cpu)).toFixed(3)} | |\n`,
        );
      } finally {
        await admin.end();
        for (const server of Object.values(servers)) await server.stop();
      }
    });
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  killAllChildren();
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
