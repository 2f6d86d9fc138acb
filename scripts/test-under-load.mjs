#!/usr/bin/env node
/**
 * `npm run test:under-load [-- options] [-- vitest arguments]`: the suite (`vitest run`) with CPU-burning
 * processes beside it and the embedded PostgreSQL's shared_buffers small, to show that no test depends on
 * how fast the machine is (docs/how-to/develop.md). Prints the suite's duration and exit code and exits with
 * it. The burners are busy loops bounded in time: they stop when the suite ends, when this script dies (they
 * watch their parent) or after `--cap` seconds, whichever comes first.
 *
 * Options (before any vitest arguments; anything else goes to vitest, e.g. a test file):
 *   --burners N          CPU-burning processes beside the suite (default 2)
 *   --shared-buffers S   the embedded PostgreSQL's shared_buffers (default 16MB; PostgreSQL's own is 128MB)
 *   --cap SECONDS        the longest a burner runs (default 5400)
 *   --dry-run            print what would run, start nothing
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stdout.write(`${line}\n`);
const complain = (line) => process.stderr.write(`${line}\n`);

export function parseArgs(argv) {
  const options = { burners: 2, sharedBuffers: '16MB', capSeconds: 5400, dryRun: false, vitestArgs: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = () => {
      const next = argv[i + 1];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      i += 1;
      return next;
    };
    if (arg === '--burners') options.burners = Number(value());
    else if (arg === '--shared-buffers') options.sharedBuffers = value();
    else if (arg === '--cap') options.capSeconds = Number(value());
    else if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--') {
      options.vitestArgs.push(...argv.slice(i + 1));
      break;
    } else options.vitestArgs.push(arg);
  }
  if (!Number.isInteger(options.burners) || options.burners < 0) throw new Error('--burners takes a whole number ≥ 0');
  if (!(options.capSeconds > 0)) throw new Error('--cap takes a number of seconds > 0');
  if (!/^\d+(kB|MB|GB)?$/.test(options.sharedBuffers))
    throw new Error('--shared-buffers takes a PostgreSQL size such as 16MB');
  return options;
}

/** A busy loop that stops after `capMs`, or as soon as its parent is gone (it is then re-parented). */
const burnerSource = (capMs) => `
const parent = process.ppid;
const end = Date.now() + ${capMs};
let spins = 0;
for (;;) {
  spins += 1;
  if (spins % 1e6 === 0 && (Date.now() > end || process.ppid !== parent)) process.exit(0);
}`;

function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    complain(`test:under-load: ${error.message}`);
    process.exit(2);
  }
  const vitest = [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...options.vitestArgs];
  const env = { ...process.env, TEST_PG_SHARED_BUFFERS: options.sharedBuffers };
  const summary = `${options.burners} CPU burner(s) for at most ${options.capSeconds} s, shared_buffers ${options.sharedBuffers}`;
  if (process.env.TEST_DATABASE_URL)
    complain('test:under-load: TEST_DATABASE_URL is set: that server keeps its own shared_buffers');
  if (options.dryRun) {
    say(`test:under-load (dry run): ${summary}`);
    say(`would run: TEST_PG_SHARED_BUFFERS=${options.sharedBuffers} ${process.execPath} ${vitest.join(' ')}`);
    return;
  }

  const generated = spawnSync('npm', ['run', 'generate', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (generated.status !== 0) process.exit(generated.status ?? 1);

  const burners = Array.from({ length: options.burners }, () =>
    spawn(process.execPath, ['-e', burnerSource(options.capSeconds * 1000)], { stdio: 'ignore' }),
  );
  const stopBurners = () => {
    for (const burner of burners) if (burner.exitCode === null && burner.signalCode === null) burner.kill('SIGKILL');
  };
  process.on('exit', stopBurners);
  say(`test:under-load: ${summary}; burner pids ${burners.map((b) => b.pid).join(', ') || 'none'}`);

  const started = Date.now();
  const suite = spawn(process.execPath, vitest, { cwd: ROOT, env, stdio: 'inherit' });
  let interrupted = null;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      interrupted = signal;
      stopBurners();
      if (suite.exitCode === null) suite.kill(signal);
    });
  }
  suite.on('error', (error) => {
    stopBurners();
    complain(`test:under-load: could not start vitest: ${error.message}`);
    process.exit(1);
  });
  suite.on('close', (code, signal) => {
    stopBurners();
    const seconds = Math.round((Date.now() - started) / 1000);
    const exitCode = code ?? (interrupted ? 130 : 1);
    say(
      `\ntest:under-load: vitest ${signal ? `stopped by ${signal}` : `exited ${code}`} after ${seconds} s (${summary})`,
    );
    process.exit(exitCode);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
