import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measureOutboxSideBySide, startOutboxContenders } from './lib/outbox.js';
import { killAllChildren } from './lib/processes.js';
import { outboxSideBySideTable } from './lib/report.js';
import { scratchBenchOptions, withScratchBench } from './lib/scratch-bench.js';

/**
 * `npx tsx bench/outbox-side-by-side.ts [--runs 6] [--duration 15]`: only the side-by-side part of the
 * `outbox-cost` scenario (bench/lib/outbox.ts, measureOutboxSideBySide): this checkout, the same build
 * without the creation's outbox insert, and the commit before the outbox, loaded at the same time, each on
 * its own database. Quicker than `npm run bench -- --scenarios outbox-cost` when only the rule is in question.
 * Needs `npm run build` first (it measures dist/).
 */

const log = (line: string) => process.stderr.write(`[side-by-side] ${line}\n`);

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
      const servers = await startOutboxContenders(ctx, ctx.referenceNode, failures);
      for (const failure of failures) log(failure);
      try {
        const measured = await measureOutboxSideBySide(ctx, servers, {
          runs: Number(values.runs),
          seconds: Number(values.duration),
          warmUpSeconds: 5,
        });
        process.stdout.write(`${outboxSideBySideTable(measured).join('\n')}\n`);
      } finally {
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
