import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time and memory of processes, read from Linux's /proc. Times are in clock ticks (usually 10 ms),
 * which is fine over runs of seconds; everything is converted to microseconds here.
 */

const TICK_MICROSECONDS = 1_000_000 / clockTicksPerSecond();

function clockTicksPerSecond(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

interface ProcStat {
  ppid: number;
  /** utime + stime of the process itself. */
  ownTicks: number;
  /** cutime + cstime: children it has waited for (PostgreSQL backends that have exited). */
  reapedChildrenTicks: number;
}

function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may contain spaces and parentheses: fields are counted after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return { ppid: field(4), ownTicks: field(14) + field(15), reapedChildrenTicks: field(16) + field(17) };
}

/** CPU time (user + system) used so far by one process, in microseconds. */
export function processCpuMicros(pid: number): number | undefined {
  const stat = readStat(pid);
  return stat === undefined ? undefined : stat.ownTicks * TICK_MICROSECONDS;
}

/**
 * CPU time of a PostgreSQL server: the postmaster, every live child (backends, background workers)
 * and the children that already exited (counted in the postmaster's cutime/cstime once reaped).
 */
export function processTreeCpuMicros(rootPid: number): number | undefined {
  const root = readStat(rootPid);
  if (root === undefined) return undefined;
  let ticks = root.ownTicks + root.reapedChildrenTicks;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat?.ppid === rootPid) ticks += stat.ownTicks;
  }
  return ticks * TICK_MICROSECONDS;
}

export function parentPid(pid: number): number | undefined {
  return readStat(pid)?.ppid;
}

/** Resident set size now, in bytes. */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `intervalMs` until stopped; returns the highest value seen. */
export function samplePeakRss(pid: number, intervalMs = 200): { stop(): number | undefined } {
  let peak: number | undefined;
  const sample = () => {
    const rss = residentBytes(pid);
    if (rss !== undefined && (peak === undefined || rss > peak)) peak = rss;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
