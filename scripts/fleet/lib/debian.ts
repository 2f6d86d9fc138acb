import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

/**
 * The oldest Patroni whose etcd v3 client never overwrites another member's leader key. Before it, a leader cut off
 * from etcd long enough for its lease to expire, once it reaches etcd again, writes the leader key over the one its
 * successor took (patroni/patroni 1c7bf2f5, "Fix a problem with etcd3.update_leader()", in 3.0.3): the successor
 * demotes itself and the writes it acknowledged are lost (docs/adr/0098-automatic-failover-on-patroni.md). Debian
 * 12 ships 3.0.2.
 */
export const MINIMUM_PATRONI = '3.0.3';

/** Debian 13's Patroni, architecture-independent, with its two pure-Python packages Debian 12 lacks or has too old. */
const TRIXIE_PACKAGES = ['patroni', 'python3-ydiff', 'python3-cdiff'];

const installedVersion = (pkg: string): string | undefined => {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() !== '' ? result.stdout.trim() : undefined;
};

const atLeast = (version: string, minimum: string): boolean =>
  spawnSync('dpkg', ['--compare-versions', version, 'ge', minimum]).status === 0;

/**
 * Refuses a Patroni older than MINIMUM_PATRONI; as root, replaces it with Debian 13's from Debian's archive, its
 * dependencies being Debian 12's (its package lists are fetched apart, so the system's sources stay as they are).
 */
export function ensurePatroniVersion(log: (line: string) => void): void {
  const version = installedVersion('patroni');
  if (version !== undefined && atLeast(version, MINIMUM_PATRONI)) return;
  const why = `Patroni ${version ?? '(none)'} can overwrite a newer leader's key in etcd; ${MINIMUM_PATRONI} or later is needed`;
  if (process.getuid?.() !== 0)
    throw new Error(`${why}. Install Debian 13's patroni package (or PGDG's) as root, or run this as root.`);
  log(`${why}: installing Debian 13's`);
  const work = mkdtempSync(path.join(os.tmpdir(), 'cas-patroni-deb-'));
  try {
    const sources = path.join(work, 'trixie.list');
    writeFileSync(sources, 'deb http://deb.debian.org/debian trixie main\n');
    mkdirSync(path.join(work, 'lists', 'partial'), { recursive: true });
    const apart = [
      '-o',
      `Dir::Etc::sourcelist=${sources}`,
      '-o',
      'Dir::Etc::sourceparts=-',
      '-o',
      `Dir::State::Lists=${path.join(work, 'lists')}`,
      // The files land in a directory of root's: fetched as root, not as apt's sandbox user.
      '-o',
      'APT::Sandbox::User=root',
    ];
    execFileSync('apt-get', ['update', '-qq', ...apart], { stdio: 'inherit' });
    execFileSync('apt-get', ['download', '-qq', ...apart, ...TRIXIE_PACKAGES], { cwd: work, stdio: 'inherit' });
    const debs = readdirSync(work)
      .filter((name) => name.endsWith('.deb'))
      .map((name) => path.join(work, name));
    // python3-consul comes from the system's own sources, whose lists may be absent (an image that removed them).
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', ...debs, 'python3-consul'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const now = installedVersion('patroni');
  if (now === undefined || !atLeast(now, MINIMUM_PATRONI)) throw new Error(`${why}; after the install: ${now}`);
  log(`Patroni ${now} installed`);
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user the package creates. */
export function asServerUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}
