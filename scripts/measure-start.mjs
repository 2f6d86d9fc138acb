// Measures how long `npm start` takes to serve, on the embedded PostgreSQL:
// - cold: a fresh DATA_DIR (initdb, first migration, development keys and token);
// - warm: the same DATA_DIR again (the usual restart).
// Time runs from spawning `node dist/main.js` to the first 200 from GET /healthz; the build is done
// once beforehand and not counted (`npm start` skips nothing, but a build is a one-off per change).
//
// With --npm-start the whole `npm start` is timed instead (its incremental build check included).
//
//   node scripts/measure-start.mjs [runs=3] [--npm-start]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const viaNpm = args.includes('--npm-start');
const runs = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 3);
const command = viaNpm ? ['npm', ['start', '--silent']] : [process.execPath, ['dist/main.js']];
const out = (line) => process.stdout.write(`${line}\n`);

const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

/** Starts the built service, waits until it serves, stops it with SIGTERM; returns the timings. */
async function startOnce(dataDir) {
  const started = performance.now();
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_PRETTY: 'false',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const child = spawn(command[0], command[1], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /Customer & Account Service on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    exited.then((code) => reject(new Error(`exited with ${code} before serving:\n${stdout}\n${stderr}`)));
  });
  const listening = performance.now() - started;
  for (;;) {
    const response = await fetch(`${url}/healthz`).catch(() => undefined);
    if (response?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const serving = performance.now() - started;
  const stopping = performance.now();
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`exited with ${code} on SIGTERM:\n${stderr}`);
  if (postgresRunningIn(dataDir)) throw new Error(`PostgreSQL still runs in ${dataDir} after the service stopped`);
  return { serving, listening, stop: performance.now() - stopping };
}

/** Whether a postmaster serving `<dataDir>/postgres` is still alive (Linux: its argv carries -D <dir>). */
function postgresRunningIn(dataDir) {
  const clusterDir = path.join(dataDir, 'postgres');
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(clusterDir);
      } catch {
        return false;
      }
    });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${Math.round(value)} ms`;

const cold = [];
const warm = [];
for (let run = 0; run < runs; run++) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-measure-'));
  try {
    const dataDir = path.join(dir, 'data');
    cold.push(await startOnce(dataDir));
    warm.push(await startOnce(dataDir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

out(
  `${viaNpm ? 'npm start' : 'node dist/main.js'} on Node ${process.version}, ${os.cpus().length} CPUs, ${runs} run(s), medians:`,
);
for (const [label, samples] of [
  ['cold (fresh DATA_DIR, initdb)', cold],
  ['warm (existing DATA_DIR)', warm],
]) {
  out(
    `  ${label}: serving after ${ms(median(samples.map((s) => s.serving)))} ` +
      `(all: ${samples.map((s) => ms(s.serving)).join(', ')}); graceful stop ${ms(median(samples.map((s) => s.stop)))}`,
  );
}
