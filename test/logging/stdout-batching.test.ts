import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/**
 * The service's logger writes stdout in batches (src/logging/logger.ts, ADR 0077): these run it in a child
 * process, as production does, and read the pipe. A quiet process's line still comes out within the flush
 * window, and what is buffered when the process ends is written, whether it exits, is stopped by a signal
 * the service handles, or dies of an uncaught error.
 */
const LOGGER = path.resolve('src/logging/logger.ts');

interface Child {
  lines: () => string[];
  /** Ends the child's stdin with `text` (a child run with `stdin: true`). */
  tell: (text: string) => void;
  exited: Promise<number | null>;
  kill: (signal: NodeJS.Signals) => void;
}

/**
 * One thread in libuv's pool, kept busy by a long key derivation started before anything is logged: a write
 * handed to the pool then waits behind it, as it does on a loaded machine, and a write still there when the
 * process exits would land after the exit's own lines (or not at all). This made CI fail once, out of order.
 */
const BUSY_THREAD_POOL = `(await import('node:crypto')).pbkdf2('x', 'y', 2_000_000, 32, 'sha512', () => {});`;

function run(script: string, options: { busyThreadPool?: boolean; stdin?: boolean } = {}): Child {
  const prelude = options.busyThreadPool ? BUSY_THREAD_POOL : '';
  // One process, node with tsx's loader, so a signal reaches the logger's process itself.
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '--eval',
      `import { createLogger } from ${JSON.stringify(LOGGER)};\nconst logger = createLogger({ level: 'info', pretty: false });\n${prelude}\n${script}`,
    ],
    {
      stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'ignore'],
      env: options.busyThreadPool ? { ...process.env, UV_THREADPOOL_SIZE: '1' } : process.env,
    },
  );
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    lines: () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { msg: string }).msg),
    tell: (text) => child.stdin?.end(text),
    exited,
    kill: (signal) => child.kill(signal),
  };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('log lines to stdout, written in batches', () => {
  it('a single line of a quiet process comes out while it runs on, and the flush timer does not keep a process alive', async () => {
    // Never ends by itself and writes nothing more: the line can only come from the periodic flush (100 ms),
    // the batch being far from full. The wait is long for a loaded machine, where tsx itself takes seconds.
    const quiet = run(`logger.info('alone'); setInterval(() => {}, 1000);`);
    await until(() => quiet.lines().includes('alone'), HUNG_TEST_DEADLINE_MS);
    quiet.kill('SIGKILL');
    await quiet.exited;
    expect(quiet.lines()).toEqual(['alone']);

    // Logs again when told, once its first line came out (by the periodic flush, as above), and then has nothing
    // left to do once its stdin ends: the flush timer alone must not keep it running, and the exit writes the rest.
    const ending = run(`logger.info('first'); process.stdin.once('data', () => logger.info('later'));`, {
      stdin: true,
    });
    await until(() => ending.lines().includes('first'), HUNG_TEST_DEADLINE_MS);
    ending.tell('log again\n');
    expect(await ending.exited).toBe(0);
    expect(ending.lines()).toEqual(['first', 'later']);
  });

  it('writes every buffered line, in order, when the process exits, when a handled signal ends it, and when an uncaught error kills it, even with the thread pool busy', async () => {
    const burst = `for (let i = 0; i < 5000; i++) logger.info('line ' + i);`;
    const burstLines = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
    for (const busyThreadPool of [false, true]) {
      const exiting = run(`${burst} process.exit(0);`, { busyThreadPool });
      expect(await exiting.exited).toBe(0);
      expect(exiting.lines()).toEqual(burstLines);

      // As src/main.ts does on SIGTERM: the handler logs, then exits.
      const signalled = run(
        `process.on('SIGTERM', () => { logger.info('stopping'); process.exit(0); }); ${burst} logger.info('ready'); setInterval(() => {}, 1000);`,
        { busyThreadPool },
      );
      await until(() => signalled.lines().includes('ready'), HUNG_TEST_DEADLINE_MS);
      signalled.kill('SIGTERM');
      expect(await signalled.exited).toBe(0);
      expect(signalled.lines()).toEqual([...burstLines, 'ready', 'stopping']);

      const crashing = run(
        `${burst} logger.error('about to fail'); setImmediate(() => { throw new Error('boom'); });`,
        { busyThreadPool },
      );
      expect(await crashing.exited).not.toBe(0);
      expect(crashing.lines()).toEqual([...burstLines, 'about to fail']);
    }
  });
});
