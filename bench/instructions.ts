import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startPostGraphile, startRawFloor, startService } from './lib/contenders.js';
import { measureRun } from './lib/measure.js';
import { scratchBenchOptions, withScratchBench } from './lib/scratch-bench.js';
import { killAllChildren, type RunningServer } from './lib/processes.js';
import type { LoadKind } from './load/requests.js';

/**
 * `npx tsx bench/instructions.ts --scenario rest-get-customer [--variant DIR ...]`: CPU instructions
 * per request of the server process, counted by `perf stat` while the benchmark's load generator drives
 * it. Timings on a 2-core machine shared with PostgreSQL and the load generator move by ±5 % from run to
 * run; instruction counts move by well under 1 %, so a change worth a few microseconds shows. Each
 * `--variant` is another checkout of the service with its own `dist/` (e.g. a git worktree of the commit
 * before a change), measured in the same run on the same database, alternating run by run; the raw floor
 * (PostGraphile for GraphQL scenarios) is measured alongside unless --no-comparator. Needs `perf` (Debian's
 * linux-perf) on a machine that exposes hardware counters; where `perf stat -e instructions` answers
 * "<not supported>" (virtual machines without a PMU, like these), it falls back to the server's CPU time
 * per request (user + system, from /proc) and says so: decide with the median of 5 or more alternating runs
 * then. A development tool for optimising; `npm run bench` is what reports.
 */

/** Whether `perf stat` can count instructions here (a PMU is exposed to this machine). */
function perfCountsInstructions(): boolean {
  const probe = spawnSync('perf', ['stat', '-x', ',', '-e', 'instructions', 'true'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return false;
  return /^\d+,/m.test(probe.stderr);
}

const log = (line: string) => process.stderr.write(`[instructions] ${line}\n`);

interface Counted {
  instructions: number;
  cycles: number;
}

/** Starts `perf stat` on a process; the returned function stops it and returns what it counted. */
function countInstructions(pid: number): () => Promise<Counted> {
  const perf = spawn('perf', ['stat', '-x', ',', '-e', 'instructions,cycles', '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  perf.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return () =>
    new Promise((resolve, reject) => {
      perf.once('exit', () => {
        const value = (event: string) =>
          Number(/^(\d+),[^,]*,(\w+)/m.exec(stderr.split('\n').find((line) => line.includes(event)) ?? '')?.[1]);
        const counted = { instructions: value('instructions'), cycles: value('cycles') };
        if (!Number.isFinite(counted.instructions)) reject(new Error(`perf stat printed no count: ${stderr}`));
        else resolve(counted);
      });
      perf.kill('SIGINT');
    });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'rest-get-customer' },
      duration: { type: 'string', default: '5' },
      runs: { type: 'string', default: '3' },
      customers: { type: 'string', default: '3000' },
      variant: { type: 'string', multiple: true, default: [] },
      'no-comparator': { type: 'boolean', default: false },
      'service-env': { type: 'string' },
      'keep-logs': { type: 'boolean', default: false },
    },
  });
  const options = scratchBenchOptions(
    Number(values.customers),
    values['service-env'] ? ['--service-env', values['service-env']] : [],
  );
  if (options === 'help') return;
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'cas-instructions-'));
  try {
    await withScratchBench(options, workDir, log, async (ctx) => {
      const kind = values.scenario as LoadKind;
      const contenders: { name: string; kind?: LoadKind; start: () => Promise<RunningServer> }[] = [
        { name: 'this checkout', start: () => startService(ctx, ctx.referenceNode) },
        ...values.variant.map((dir) => ({
          name: dir,
          start: () => startService({ ...ctx, repoRoot: path.resolve(dir) }, ctx.referenceNode),
        })),
        ...(values['no-comparator']
          ? []
          : kind.startsWith('graphql')
            ? [
                {
                  name: 'postgraphile',
                  kind: 'postgraphile-nested' as const,
                  start: () => startPostGraphile(ctx, ctx.referenceNode),
                },
              ]
            : [{ name: 'raw floor', start: () => startRawFloor(ctx, ctx.referenceNode) }]),
      ];
      const counters = perfCountsInstructions();
      log(
        counters
          ? 'measuring: CPU instructions per request (perf stat)'
          : 'measuring: server CPU µs per request (perf stat has no hardware counters on this machine)',
      );
      const results = new Map<
        string,
        { perRequest: number[]; cyclesPerRequest: number[]; rps: number[]; rssMb: number[] }
      >();
      for (let run = 0; run < Number(values.runs); run++) {
        for (const contender of contenders) {
          const server = await contender.start();
          try {
            await measureRun(ctx, server, contender.kind ?? kind, 2);
            const stop = counters ? countInstructions(server.pid) : undefined;
            const measured = await measureRun(ctx, server, contender.kind ?? kind, Number(values.duration));
            const counted = await stop?.();
            const requests = measured.responses;
            const entry = results.get(contender.name) ?? { perRequest: [], cyclesPerRequest: [], rps: [], rssMb: [] };
            // Without counters the column holds CPU µs per request (printed as such below).
            entry.perRequest.push(
              counted ? counted.instructions / requests : (measured.serverCpuUsPerRequest ?? Number.NaN),
            );
            entry.cyclesPerRequest.push(counted ? counted.cycles / requests : Number.NaN);
            entry.rps.push(measured.rps);
            entry.rssMb.push(measured.peakRssMb ?? Number.NaN);
            results.set(contender.name, entry);
            const cost = counted
              ? `${(counted.instructions / requests / 1000).toFixed(1)} k instructions/req`
              : `${(measured.serverCpuUsPerRequest ?? Number.NaN).toFixed(1)} µs CPU/req`;
            log(`${contender.name}: ${cost}, ${measured.rps.toFixed(0)} req/s, ${measured.errors} errors`);
          } finally {
            await server.stop();
          }
        }
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      if (counters) {
        process.stdout.write(
          `| ${kind} | k instructions/req | k cycles/req | req/s | peak RSS MB |\n|---|--:|--:|--:|--:|\n`,
        );
        for (const [name, entry] of results) {
          process.stdout.write(
            `| ${name} | ${(median(entry.perRequest) / 1000).toFixed(1)} | ${(median(entry.cyclesPerRequest) / 1000).toFixed(1)} | ${median(entry.rps).toFixed(0)} | ${Math.max(...entry.rssMb).toFixed(0)} |\n`,
          );
        }
      } else {
        process.stdout.write(
          `| ${kind} (server CPU time: no hardware counters here) | CPU µs/req (median) | runs | req/s | peak RSS MB |\n|---|--:|--:|--:|--:|\n`,
        );
        for (const [name, entry] of results) {
          process.stdout.write(
            `| ${name} | ${median(entry.perRequest).toFixed(1)} | ${entry.perRequest.map((v) => v.toFixed(0)).join(' / ')} | ${median(entry.rps).toFixed(0)} | ${Math.max(...entry.rssMb).toFixed(0)} |\n`,
          );
        }
      }
    });
  } finally {
    if (values['keep-logs']) log(`server logs kept in ${path.join(workDir, 'logs')}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  killAllChildren();
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
