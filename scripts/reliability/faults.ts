import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './lib/results.js';
import { log, round, runScript } from './lib/script.js';
import { buildOnce } from './lib/service-process.js';

/**
 * `npm run reliability:faults`: the fault scripts one after the other (crash, database outage, PostgreSQL
 * kill -9 in its short form, slow database, network partition, full disk and slow disk in their short
 * forms, graceful shutdown, the bank's ledger under service and PostgreSQL kills in its short form, webhooks
 * under service kills in its short form, the fleet's proofs, one automatic failover on Patroni), the service built once. Arguments after `--` go
 * to every script (e.g. `-- --record false`). Exits non-zero if any of them failed; about eight minutes on 2
 * cores. Full disk and slow disk mount file
 * systems and use a cgroup: without root they are skipped, and the summary says so.
 */

/** Each script with the arguments of its short form, if it has one, and whether it needs root. */
const SCRIPTS: [string, string[], { root?: boolean }?][] = [
  ['crash', []],
  ['db-outage', []],
  ['pg-kill', ['--kills', '3', '--between', '1']],
  ['slow-db', []],
  // Short forms, about 25 s each: shorter phases, the same assertions.
  ['partition', ['--healthy', '2', '--black-hole', '4', '--heal', '4', '--reset', '2']],
  ['full-disk', ['--healthy', '2', '--full', '4', '--after', '5'], { root: true }],
  ['slow-disk', ['--healthy', '2', '--slow', '4', '--after', '4'], { root: true }],
  ['shutdown', []],
  // The ledger under faults, short form (about 30 s): 3 service kills, 1 PostgreSQL kill, 2 s per throughput phase.
  ['bank', ['--service-kills', '3', '--pg-kills', '1', '--hot-seconds', '2']],
  // Webhooks under kill -9, short form (about 45 s): 3 kills (one while a receiver holds a request open, one
  // with two instances sharing the database), the same checks of every delivery.
  ['webhooks', ['--kills', '3', '--between', '1.5', '--two-instances-from', '3']],
  // The fleet (HAProxy, 3 instances, PostgreSQL 15 primary + replica, Redis from Debian's packages, installed
  // as root when missing): shared limits and keys, rolling restart, kill -9 of an instance, failover (about 2 min).
  ['fleet', ['--seconds', '3'], { root: true }],
  // Automatic failover (etcd ×3, PostgreSQL ×3 under Patroni from Debian's packages, installed as root when
  // missing): one kill -9 of the leader's PostgreSQL under the bank's workload, nothing acknowledged lost (about 75 s).
  ['patroni', ['--fault', 'pg-kill', '--failovers', '1', '--clients', '6', '--ops-between', '60'], { root: true }],
];

/**
 * Runs one script with its output passed through; the lines naming a problem are also kept, so the summary at
 * the end repeats why a script failed (CI logs are often read from their tail).
 */
function run(script: string, args: string[]): Promise<{ code: number; problems: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts/reliability', `${script}.ts`), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, RELIABILITY_NO_BUILD: '1' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const problems: string[] = [];
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (/PROBLEM:|: ERROR /.test(line)) problems.push(line.replace(/^\[[^\]]*\] /, ''));
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, problems }));
  });
}

runScript('reliability:faults', async () => {
  buildOnce(log);
  const outcomes: string[] = [];
  let passed = true;
  for (const [script, shortForm, needs] of SCRIPTS) {
    if (needs?.root && process.getuid?.() !== 0) {
      outcomes.push(`${script}: SKIPPED (needs root: mount, losetup, cgroup)`);
      continue;
    }
    const started = performance.now();
    log(`--- ${script}`);
    const { code, problems } = await run(script, [...shortForm, ...process.argv.slice(2)]);
    outcomes.push(
      `${script}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${round((performance.now() - started) / 1000)} s`,
    );
    if (code !== 0) outcomes.push(...problems.slice(0, 10).map((problem) => `  ${script}: ${problem}`));
    passed &&= code === 0;
  }
  for (const outcome of outcomes) log(outcome);
  return passed;
});
