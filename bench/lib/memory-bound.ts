import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { BenchPostgres } from './postgres.js';
import { parentPid } from '../../scripts/lib/proc.js';

/** shared_buffers as a share of the database, as the data-growth target sets it: I/O is exercised. */
export const SHARED_BUFFERS_SHARE = 0.1;
/**
 * PostgreSQL's memory beyond shared_buffers: its backends' own memory (a few MB each, up to work_mem more while they
 * sort) and what is left for the OS cache. Generous enough that no backend is killed for memory.
 */
const HEADROOM_MB = 1536;
const CGROUP_V1_MEMORY = '/sys/fs/cgroup/memory';

/** What was bounded at one size, for the report. */
export interface MemoryBound {
  databaseMb: number;
  sharedBuffersMb: number;
  /** The memory cgroup's limit on PostgreSQL's processes (shared_buffers, backends, their OS cache); null: none. */
  limitMb: number | null;
  /** Its highest use and how often it reclaimed at the limit, read when released; null without a cgroup. */
  peakMb: number | null;
  limitHits: number | null;
  /** Why PostgreSQL's OS cache was not bounded, when it was not. */
  unbounded?: string;
}

/**
 * Restarts the bench's embedded PostgreSQL with shared_buffers at a tenth of the database, drops the OS cache the
 * seed left, and puts the postmaster and its processes in a memory cgroup of shared_buffers + 1.5 GiB, so that
 * the rest of the data cannot sit in the OS cache instead: at 1,000,000 customers (16 GB) reads go to the disk. On
 * a machine without a writable cgroup v1 memory controller (or not as root) the OS cache is left unbounded and the
 * result says so. `release` puts the processes back and removes the cgroup; call it before the server stops.
 */
export async function boundPostgresMemory(
  db: BenchPostgres,
  pool: pg.Pool,
  log: (line: string) => void,
): Promise<{ bound: MemoryBound; release(): MemoryBound }> {
  const { rows } = await pool.query<{ bytes: string }>('SELECT pg_database_size(current_database())::text AS bytes');
  const databaseMb = Number(rows[0]!.bytes) / 2 ** 20;
  const sharedBuffersMb = Math.max(16, Math.round(databaseMb * SHARED_BUFFERS_SHARE));
  const limitMb = sharedBuffersMb + HEADROOM_MB;
  await db.restartWith({ shared_buffers: `${sharedBuffersMb}MB`, effective_cache_size: `${limitMb}MB` });
  spawnSync('sync');
  const unbounded = dropOsCache() ?? joinCgroup(db.postmasterPid, limitMb);
  const bound: MemoryBound = {
    databaseMb: Math.round(databaseMb),
    sharedBuffersMb,
    limitMb: unbounded ? null : limitMb,
    peakMb: null,
    limitHits: null,
    ...(unbounded ? { unbounded } : {}),
  };
  log(
    `PostgreSQL restarted: shared_buffers ${sharedBuffersMb} MB for a ${bound.databaseMb} MB database; ` +
      (unbounded
        ? `OS cache not bounded: ${unbounded}`
        : `its memory bounded at ${limitMb} MB (cgroup ${cgroupDir()})`),
  );
  return {
    bound,
    release: () => {
      if (unbounded) return bound;
      const read = (file: string) => Number(readFileSync(path.join(cgroupDir(), file), 'utf8').trim());
      const released = {
        ...bound,
        peakMb: Math.round(read('memory.max_usage_in_bytes') / 2 ** 20),
        limitHits: read('memory.failcnt'),
      };
      for (const pid of readFileSync(path.join(cgroupDir(), 'cgroup.procs'), 'utf8').split('\n').filter(Boolean))
        writeFileSync(path.join(CGROUP_V1_MEMORY, 'cgroup.procs'), pid);
      rmdirSync(cgroupDir());
      return released;
    },
  };
}

const cgroupDir = () => path.join(CGROUP_V1_MEMORY, `cas-bench-${process.pid}`);

/** The clean pages of the OS cache dropped (what the seed wrote, after sync); a reason when it cannot be. */
function dropOsCache(): string | undefined {
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '1');
    return undefined;
  } catch (error) {
    return `the OS cache could not be dropped (${(error as NodeJS.ErrnoException).code ?? String(error)}; root only)`;
  }
}

/** The postmaster and its processes in a memory cgroup of `limitMb`; later backends inherit it. A reason when not. */
function joinCgroup(postmaster: number | undefined, limitMb: number): string | undefined {
  if (postmaster === undefined) return 'PostgreSQL does not run on this machine';
  if (!existsSync(path.join(CGROUP_V1_MEMORY, 'memory.limit_in_bytes')))
    return `no cgroup v1 memory controller at ${CGROUP_V1_MEMORY}`;
  try {
    mkdirSync(cgroupDir());
    writeFileSync(path.join(cgroupDir(), 'memory.limit_in_bytes'), String(limitMb * 2 ** 20));
    const children = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .filter((pid) => parentPid(pid) === postmaster);
    for (const pid of [postmaster, ...children]) writeFileSync(path.join(cgroupDir(), 'cgroup.procs'), String(pid));
    return undefined;
  } catch (error) {
    // Processes already moved stay bounded until they end; an empty group is removed.
    try {
      rmdirSync(cgroupDir());
    } catch {
      // Not made, or not empty.
    }
    return `the memory cgroup could not be made (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
}
