import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { parentPid } from '../../scripts/lib/proc.js';

/**
 * The load generator on a core of its own where the machine allows it (`taskset`, two cores or more): core 0 for
 * the generator and the orchestrator, the others for the servers and PostgreSQL (the postmaster, its backends and
 * every backend forked later). Without it a faster contender also takes CPU from the generator, and the
 * generator's figures become the machine's. The report says which it was.
 */
export interface Pinning {
  description: string;
  /** The command prefix that starts the generator on its core; empty when not pinned. */
  generatorPrefix: string[];
  pinServer(pid: number): void;
  /** Puts everything this pinned back on every core. */
  release(): void;
}

const hasTaskset = () => spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;

function setAffinity(pid: number, cpus: string): boolean {
  // -a: every thread of the process (libuv's pool, V8's helpers), not only its main thread.
  return spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' }).status === 0;
}

/** The postmaster's children (backends, checkpointer, WAL writer …); later backends inherit its affinity. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((candidate) => parentPid(candidate) === pid);
}

export function planPinning(postmaster: number | undefined): Pinning {
  const cores = os.availableParallelism();
  const unpinned = (why: string): Pinning => ({
    description: `not pinned: ${why}; the generator shares the cores with the servers and PostgreSQL`,
    generatorPrefix: [],
    pinServer: () => undefined,
    release: () => undefined,
  });
  if (!hasTaskset()) return unpinned('`taskset` not found (util-linux)');
  if (cores < 2) return unpinned(`${cores} core`);
  const all = `0-${cores - 1}`;
  const serverCores = cores === 2 ? '1' : `1-${cores - 1}`;
  const pinned: number[] = [];
  const pin = (pid: number, cpus: string) => {
    if (setAffinity(pid, cpus)) pinned.push(pid);
  };
  // The orchestrator too: it only samples /proc between steps, but it must not run on the servers' core.
  pin(process.pid, '0');
  if (postmaster !== undefined) for (const pid of [postmaster, ...childrenOf(postmaster)]) pin(pid, serverCores);
  return {
    description:
      `generator on core 0 (\`taskset -c 0\`), servers on core${cores === 2 ? '' : 's'} ${serverCores}` +
      (postmaster === undefined
        ? '; PostgreSQL not pinned (not on this machine: DATABASE_URL)'
        : `, PostgreSQL (postmaster and backends) on ${serverCores}`),
    generatorPrefix: ['taskset', '-c', '0'],
    pinServer: (pid) => pin(pid, serverCores),
    release: () => {
      for (const pid of new Set([...pinned, ...(postmaster === undefined ? [] : childrenOf(postmaster))]))
        setAffinity(pid, all);
    },
  };
}
