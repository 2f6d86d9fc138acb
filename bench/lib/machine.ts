import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchAuth } from './options.js';
import { nodeVersion } from './processes.js';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  os: string;
  nodeVersions: { orchestrator: string; reference: string };
  postgres: string;
  packages: Record<string, string>;
  gitCommit: string | null;
}

function osName(): string {
  try {
    return /^PRETTY_NAME="?(.*?)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? os.type();
  } catch {
    return os.type();
  }
}

function packageVersion(repoRoot: string, name: string): string {
  try {
    return (
      JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'n/a';
  }
}

export function describeMachine(options: {
  repoRoot: string;
  referenceNode: string;
  postgresVersion: string;
}): MachineInfo {
  let gitCommit: string | null = null;
  try {
    gitCommit = execFileSync('git', ['describe', '--always', '--dirty'], {
      cwd: options.repoRoot,
      encoding: 'utf8',
    }).trim();
  } catch {
    // not a git checkout
  }
  return {
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    kernel: os.release(),
    os: osName(),
    nodeVersions: {
      orchestrator: process.version,
      reference: nodeVersion(options.referenceNode),
    },
    postgres: options.postgresVersion,
    packages: Object.fromEntries(
      ['autocannon', 'postgraphile', 'pg', 'express', '@apollo/server', '@prisma/client'].map((name) => [
        name,
        packageVersion(options.repoRoot, name),
      ]),
    ),
    gitCommit,
  };
}

/** What the machine was doing while the run measured, beside where the load generator ran. */
export interface RunConditions {
  /** Where the generator, the servers and PostgreSQL ran, or why they were not pinned (bench/lib/pinning.ts). */
  pinning: string;
  auth: BenchAuth;
  /** The share of all CPU time the hypervisor gave to other guests over the run (/proc/stat "steal"); null off Linux. */
  stealShare: number | null;
  loadAverage: { start: number[]; end: number[] };
}

/** The machine's CPU time so far, all cores (/proc/stat, in ticks): total and stolen; null where unreadable. */
export function cpuTimes(): { total: number; steal: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    // user nice system idle iowait irq softirq steal: steal is the eighth.
    return { total: fields.reduce((sum, x) => sum + x, 0), steal: fields[7] ?? 0 };
  } catch {
    return null;
  }
}

/** The share of CPU time stolen since `before` (cpuTimes); null when either reading is missing or no time passed. */
export function stealShareSince(before: ReturnType<typeof cpuTimes>): number | null {
  const after = cpuTimes();
  if (!before || !after || after.total <= before.total) return null;
  return (after.steal - before.steal) / (after.total - before.total);
}

export const loadAverage = (): number[] => os.loadavg().map((x) => Math.round(x * 100) / 100);
