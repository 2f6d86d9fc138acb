import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** The console's production build as `npm run build` makes it (scripts/build-console.mjs): issue 33 asks for both figures. */
export interface ConsoleBuildResult {
  seconds: number;
  files: number;
  rawBytes: number;
  /** The JavaScript, CSS and HTML of dist/console, each gzipped at level 9, summed. */
  gzipBytes: number;
}

/** Builds the console afresh (Vite, production) with the machine's Node and reads its time and sizes. */
export function measureConsoleBuild(repoRoot: string): ConsoleBuildResult {
  const result = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build-console.mjs'), '--json'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(
      `the console's build exited with ${result.status}: ${result.stderr.trim().split('\n').at(-1) ?? ''}`,
    );
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as ConsoleBuildResult;
}
