import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { bootstrapRatioInterval } from './lib/interval.js';
import { median } from './lib/measure.js';

/**
 * CPU of writing access-sized log lines to a pipe in 4 KB batches, synchronous writes against asynchronous ones
 * (docs/adr/0079-batched-log-lines-written-synchronously.md). Each round runs both modes in turn, in fresh child
 * processes whose stdout is a pipe this process reads and drops; a child reports its own CPU, the thread pool's
 * included. Run: `npx tsx bench/log-write-cost.ts [rounds] [lines]`.
 */

const CHILD_MODE = process.env.LOG_WRITE_COST_MODE;

if (CHILD_MODE === 'sync' || CHILD_MODE === 'async') {
  const lines = Number(process.env.LOG_WRITE_COST_LINES);
  const destination = pino.destination({ dest: 1, sync: CHILD_MODE === 'sync', minLength: 4096, periodicFlush: 100 });
  const logger = pino({ level: 'info', base: { service: 'customer-account-service' } }, destination);
  const start = process.cpuUsage();
  let written = 0;
  // Fifty lines per turn of the event loop, as a busy instance writes them between requests.
  const turn = () => {
    for (let k = 0; k < 50; k++)
      logger.info(
        {
          req: { method: 'GET', url: '/sandbox/customers/7d9f' },
          res: { statusCode: 200 },
          responseTime: 1.2,
          n: written++,
        },
        'request completed',
      );
    if (written < lines) setImmediate(turn);
    else
      destination.flush(() => {
        const used = process.cpuUsage(start);
        process.stderr.write(`${(used.user + used.system) / lines}\n`);
      });
  };
  turn();
} else {
  const rounds = Number(process.argv[2] ?? 10);
  const lines = Number(process.argv[3] ?? 200_000);
  const runChild = (mode: 'sync' | 'async') =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
        env: { ...process.env, LOG_WRITE_COST_MODE: mode, LOG_WRITE_COST_LINES: String(lines) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let report = '';
      child.stdout.resume();
      child.stderr.on('data', (chunk: Buffer) => (report += chunk.toString()));
      child.on('close', (code) =>
        code === 0 ? resolve(Number(report.trim())) : reject(new Error(`${mode} child exited ${code}`)),
      );
    });
  const sync: number[] = [];
  const async: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternate which mode goes first, so neither always runs on a warmer machine.
    if (round % 2 === 0) {
      sync.push(await runChild('sync'));
      async.push(await runChild('async'));
    } else {
      async.push(await runChild('async'));
      sync.push(await runChild('sync'));
    }
  }
  const interval = bootstrapRatioInterval(sync, async);
  process.stdout.write(
    `CPU µs per line, median of ${rounds} rounds of ${lines} lines: synchronous ${median(sync).toFixed(2)}, asynchronous ${median(async).toFixed(2)}\n`,
  );
  process.stdout.write(
    `synchronous ÷ asynchronous: ${(median(sync) / median(async)).toFixed(2)} (95 % interval ${interval?.map((x) => x.toFixed(2)).join('–') ?? 'n/a'})\n`,
  );
}
