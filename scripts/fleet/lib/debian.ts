import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * The fleet runs real components from Debian's packages, never stand-ins. What is missing is installed
 * when this runs as root (as `.ci/run` does); otherwise the message says the command to run.
 */
export const PG_BIN = '/usr/lib/postgresql/15/bin';

const PACKAGES: { name: string; binary: string }[] = [
  { name: 'haproxy', binary: '/usr/sbin/haproxy' },
  { name: 'redis-server', binary: '/usr/bin/redis-server' },
  { name: 'postgresql-15', binary: `${PG_BIN}/pg_basebackup` },
  { name: 'patroni', binary: '/usr/bin/patroni' },
  { name: 'etcd-server', binary: '/usr/bin/etcd' },
];

export function ensureDebianPackages(log: (line: string) => void): void {
  const missing = PACKAGES.filter((pkg) => !existsSync(pkg.binary)).map((pkg) => pkg.name);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `missing Debian packages: ${missing.join(', ')}. Install them with: sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  log(`installing Debian packages: ${missing.join(', ')}`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user the package creates. */
export function asServerUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}
