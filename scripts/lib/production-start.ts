import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The Node flags production starts the service with, read from `npm start` (package.json's start script,
 * `… exec node [flags] dist/main.js`): the one place they are written. The Dockerfile's CMD repeats them
 * (test/deploy/artifacts.test.ts holds the two together) and the benchmark starts the service with them, so
 * what it measures is what runs. Why each flag: docs/adr/0076-a-small-young-generation.md.
 */
export function productionNodeFlags(repoRoot: string): string[] {
  const start =
    (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts.start ?? '';
  const match = /\bexec node((?: --\S+)*) dist\/main\.js$/.exec(start);
  if (!match)
    throw new Error(`package.json's start script must end in "exec node [--flag …] dist/main.js", got: ${start}`);
  return match[1]!.split(' ').filter(Boolean);
}
