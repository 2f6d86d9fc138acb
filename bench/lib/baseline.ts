import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './options.js';
import { runToCompletion } from './processes.js';

/**
 * `--against <ref>`: another build of the service, run beside this one as the `baseline` contender in every
 * scenario the service runs in, so that a change is measured side by side, cycle by cycle, on the same database
 * (report.ts, REGRESSION_LIMIT). Built in a git worktree of the ref under the run's work directory, on this
 * checkout's node_modules; removed with the run.
 */
export interface Baseline {
  ref: string;
  commit: string;
  dir: string;
  remove(): void;
}

export async function prepareBaseline(
  repoRoot: string,
  ref: string,
  workDir: string,
  log: (line: string) => void,
): Promise<Baseline> {
  let commit: string;
  try {
    commit = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
      cwd: repoRoot,
      encoding: 'utf8',
    }).trim();
  } catch {
    throw new UsageError(`--against: "${ref}" names no commit of this repository`);
  }
  const dir = path.join(workDir, 'baseline');
  execFileSync('git', ['worktree', 'add', '--detach', '--quiet', dir, commit], { cwd: repoRoot, stdio: 'ignore' });
  const remove = () => {
    try {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: repoRoot, stdio: 'ignore' });
    } catch {
      // Already gone with the work directory: `git worktree prune` forgets it.
      execFileSync('git', ['worktree', 'prune'], { cwd: repoRoot, stdio: 'ignore' });
    }
  };
  try {
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
    log(`baseline ${ref} (${commit.slice(0, 8)}): npm run build in ${dir}`);
    await runToCompletion('npm', ['run', 'build', '--silent'], {
      cwd: dir,
      env: { ...process.env } as Record<string, string>,
    });
  } catch (error) {
    remove();
    throw error;
  }
  return { ref, commit, dir, remove };
}
