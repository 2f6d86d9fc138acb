import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * "The previous release", for the rollout test (test/deploy/rollout.test.ts; rule in docs/how-to/upgrade.md,
 * "Schema changes in a fleet"): the code that is still serving while the current release's migrations run.
 *
 * The repository tags API releases (`v1.0.0`, docs/how-to/release.md), not deployments, so it is defined from git,
 * mechanically:
 *
 *   the newest commit on the first-parent line of HEAD (main's own history, not a side branch's) that does
 *   not yet have every migration directory of the working tree: the first parent of the commit that brought
 *   the most recently added migration to this line, or HEAD itself when the working tree has a migration
 *   HEAD does not (a migration being written).
 *
 * So whatever migration lands next, by whatever name, the test runs the code of just before it against the
 * schema with it. `ROLLOUT_PREVIOUS_RELEASE=<commit-ish>` overrides it (e.g. the commit production runs).
 */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const MIGRATIONS = 'prisma/migrations';

const git = (args: string[]): string =>
  execFileSync('git', args, {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

export interface PreviousRelease {
  commit: string;
  /** Why this commit: the rule that chose it, in words, for the test's output. */
  reason: string;
}

function workingTreeMigrations(): string[] {
  return readdirSync(path.join(ROOT, MIGRATIONS), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(ROOT, MIGRATIONS, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort();
}

/**
 * Why this clone cannot tell the previous release, or undefined when it can: a shallow clone lacks the
 * history (`.ci/run` deepens one first). The test is then reported as skipped with this reason, as the
 * deploy tests are where HAProxy is not installed; everywhere else a missing commit is a failure.
 */
export function missingHistory(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.ROLLOUT_PREVIOUS_RELEASE?.trim()) return undefined;
  try {
    return git(['rev-parse', '--is-shallow-repository']) === 'true'
      ? 'this clone is shallow (git fetch --unshallow)'
      : undefined;
  } catch {
    return 'this is not a git checkout';
  }
}

export function resolvePreviousRelease(env: NodeJS.ProcessEnv = process.env): PreviousRelease {
  let inside: string;
  try {
    inside = git(['rev-parse', '--is-inside-work-tree']);
  } catch {
    inside = 'false';
  }
  if (inside !== 'true') {
    throw new Error(
      `${ROOT} is not a git checkout: the rollout test finds the previous release in git history (run it from a clone, not an export)`,
    );
  }
  const override = env.ROLLOUT_PREVIOUS_RELEASE?.trim();
  if (override)
    return { commit: mustExist(override, 'ROLLOUT_PREVIOUS_RELEASE'), reason: `ROLLOUT_PREVIOUS_RELEASE=${override}` };

  if (git(['rev-parse', '--is-shallow-repository']) === 'true') {
    throw new Error(
      'This clone is shallow: the rollout test needs the history back to the commit before the newest migration. ' +
        'Clone without --depth, or run `git fetch --unshallow` (CI: fetch-depth 0).',
    );
  }
  const current = workingTreeMigrations();
  const atHead = new Set(
    git(['ls-tree', '-d', '--name-only', 'HEAD', `${MIGRATIONS}/`])
      .split('\n')
      .filter(Boolean)
      .map((entry) => path.basename(entry)),
  );
  const uncommitted = current.filter((name) => !atHead.has(name));
  if (uncommitted.length > 0) {
    return { commit: git(['rev-parse', 'HEAD']), reason: `HEAD: the working tree adds ${uncommitted.join(', ')}` };
  }
  // Newest first: each first-parent commit that added a migration.sql, with the files it added (a merge's are
  // those it brought relative to its first parent).
  const log = git([
    'log',
    '--first-parent',
    '--diff-filter=A',
    '--name-only',
    '--format=@%H',
    '--',
    `${MIGRATIONS}/*/migration.sql`,
  ]);
  const wanted = new Set(current);
  let commit: string | undefined;
  for (const line of log.split('\n')) {
    if (line.startsWith('@')) {
      commit = line.slice(1);
    } else if (line && commit && wanted.has(path.basename(path.dirname(line)))) {
      const parent = git(['rev-list', '--parents', '-n', '1', commit]).split(' ')[1];
      if (!parent)
        throw new Error(`Commit ${commit.slice(0, 12)} adds ${line} and has no parent: there is no release before it`);
      return {
        commit: mustExist(parent, 'the parent'),
        reason: `the first parent of ${commit.slice(0, 12)}, which brought ${path.dirname(line)} to this line`,
      };
    }
  }
  throw new Error(
    `No commit on HEAD's first-parent line adds a migration of ${MIGRATIONS}: cannot tell the previous release`,
  );
}

function mustExist(revision: string, what: string): string {
  try {
    return git(['rev-parse', '--verify', '--quiet', `${revision}^{commit}`]);
  } catch {
    throw new Error(
      `${what} (${revision}) is not a commit of this clone: fetch the full history (git fetch --unshallow) or fix the value`,
    );
  }
}

export interface ExtractedRelease {
  commit: string;
  dir: string;
  /** How node_modules was provided, for the test's output. */
  dependencies: string;
  remove(): void;
}

type Lock = { packages: Record<string, { version?: string; link?: boolean }> };

/**
 * The packages the previous release locked that this checkout's lock file has at another version, or not at all.
 * Empty: the release runs on this checkout's node_modules, which `npm ci` built from this lock file.
 */
export function dependencyDifferences(previousLock: Lock, currentLock: Lock): string[] {
  const differences: string[] = [];
  for (const [key, entry] of Object.entries(previousLock.packages)) {
    if (key === '' || entry.link) continue;
    const now = currentLock.packages[key];
    if (now?.version !== entry.version)
      differences.push(`${key.replace(/^node_modules\//, '')} ${entry.version} (now ${now?.version ?? 'absent'})`);
  }
  return differences;
}

/**
 * The previous release's tree (`git archive`) in a temporary directory, with node_modules and its own Prisma
 * client generated from its own schema.prisma. node_modules is this checkout's when the previous release's
 * lock file is a subset of ours at the same versions (a release only adding packages); otherwise its own lock
 * file is installed (`npm ci --ignore-scripts`, cached by the lock file's hash in the system's temporary
 * directory), so it runs on exactly what it was released with.
 */
export async function extractRelease(commit: string, log: (line: string) => void): Promise<ExtractedRelease> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `cas-previous-${commit.slice(0, 12)}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync('bash', ['-o', 'pipefail', '-c', `git archive ${commit} | tar -x -C '${dir}'`], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const previousLockText = readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
    const differences = dependencyDifferences(
      JSON.parse(previousLockText) as Lock,
      JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as Lock,
    );
    let dependencies: string;
    if (differences.length === 0) {
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
      dependencies = "this checkout's node_modules (the previous release's lock file is a subset of ours)";
    } else {
      const modules = installLocked(previousLockText, dir, log, differences);
      symlinkSync(modules, path.join(dir, 'node_modules'));
      dependencies = `its own lock file, installed in ${modules} (${differences.length} packages differ, e.g. ${differences.slice(0, 3).join(', ')})`;
    }
    await run(
      process.execPath,
      ['scripts/prisma-generate.mjs'],
      dir,
      "prisma generate (the previous release's schema.prisma)",
    );
    return { commit, dir, dependencies, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

function installLocked(
  lockText: string,
  releaseDir: string,
  log: (line: string) => void,
  differences: string[],
): string {
  const key = createHash('sha256').update(lockText).digest('hex').slice(0, 16);
  const home = path.join(os.tmpdir(), 'cas-previous-release-modules', key);
  const modules = path.join(home, 'node_modules');
  if (existsSync(path.join(home, '.installed'))) return modules;
  log(
    `the previous release locks other versions (${differences.slice(0, 5).join(', ')}${differences.length > 5 ? ', …' : ''}): installing its lock file into ${home}`,
  );
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) execFileSync('cp', [path.join(releaseDir, file), home]);
  // The registry sometimes fails once (docs: toolchain facts); a second attempt is cheap next to a red build.
  for (let attempt = 1; ; attempt += 1) {
    try {
      execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: home,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      break;
    } catch (error) {
      if (attempt >= 2)
        throw new Error(
          `npm ci of the previous release's lock file failed twice in ${home}: ${(error as Error).message}`,
          { cause: error },
        );
    }
  }
  execFileSync('touch', [path.join(home, '.installed')]);
  return modules;
}

function run(command: string, args: string[], cwd: string, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir() },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code}): ${output.slice(-2000)}`)),
    );
  });
}

/** The configuration variables the test sets; a release that does not know one would silently ignore it. */
export function unknownVariables(releaseDir: string, names: string[]): string[] {
  const file = path.join(releaseDir, '.env.example');
  if (!existsSync(file))
    throw new Error(`The previous release has no .env.example: cannot tell which configuration variables it reads`);
  const example = readFileSync(file, 'utf8');
  return names.filter((name) => !new RegExp(`^#?\\s*${name}=`, 'm').test(example));
}

export interface ReleaseProcess {
  url: string;
  /** Everything the process wrote (JSON log lines and the rest). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `src/main.ts` of the release with tsx (no build step: tsc would cost more than the whole test), with
 * exactly the environment given plus PATH and HOME, and waits until its /readyz answers 200.
 */
export async function startRelease(
  dir: string,
  env: Record<string, string>,
  logFile: string,
  timeoutMs = 60_000,
): Promise<ReleaseProcess> {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const file = createWriteStream(logFile);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
  });
  let output = '';
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      file.write(chunk);
    });
  }
  let exited: string | undefined;
  const exit = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = `exit ${code ?? signal}`;
      resolve();
    });
  });
  const url = `http://${env.HOST}:${env.PORT}`;
  const stop = async () => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(killer);
    }
    await new Promise<void>((resolve) => file.end(resolve));
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== undefined) {
      await stop();
      throw new Error(`The previous release exited before it was ready (${exited}):\n${output.slice(-3000)}`);
    }
    const status = await fetch(`${url}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `The previous release was not ready within ${timeoutMs} ms (last /readyz: ${status || 'no answer'}):\n${output.slice(-3000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, output: () => output, stop };
}
