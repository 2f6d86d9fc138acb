import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodeVersion } from './processes.js';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  os: string;
  nodeVersions: { orchestrator: string; reference: string; compare: string | null };
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
  compareNode: string | undefined;
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
      compare: options.compareNode ? nodeVersion(options.compareNode) : null,
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
