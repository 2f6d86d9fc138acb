import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './context.js';
import { median } from './measure.js';
import { nodeVersion, startServer } from './processes.js';
import { BENCH_ENVIRONMENT, piiEnvironment } from './seed.js';
import { productionNodeFlags } from '../../scripts/lib/production-start.js';
import { childEnvironment } from '../../scripts/lib/child-environment.js';

export interface StartupResult {
  nodeVersion: string;
  /** New DATA_DIR: initdb of the embedded cluster, migrations, then ready. */
  coldMs: number;
  /** Same DATA_DIR again: the cluster exists and is migrated. */
  warmMs: number[];
  warmMedianMs: number;
  /** `npm start` on the warm DATA_DIR, including its `npm run build` step. */
  npmStartWarmMs: number | null;
}

/**
 * Start time as an operator sees it: from spawning the process to the first 200 from /readyz
 * (database reachable and migrated), with the embedded PostgreSQL and production settings.
 */
export async function measureStartup(
  ctx: BenchContext,
  node: string,
  options: { includeNpmStart: boolean },
): Promise<StartupResult> {
  const dataDir = mkdtempSync(path.join(ctx.workDir, 'startup-'));
  const env = childEnvironment({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // A fresh database holds no managed token, and a production service refuses to start without any way to
    // authenticate: start time is measured with a static token whatever --auth says (no request is sent).
    API_TOKENS: `bench_${randomBytes(32).toString('base64url')}`,
    ENVIRONMENTS: BENCH_ENVIRONMENT,
    LOG_LEVEL: 'warn',
    ...piiEnvironment(ctx.keys),
    ...ctx.options.serviceEnv,
  });
  const startOnce = async (command: string, args: string[], extraEnv: Record<string, string> = {}) => {
    const server = await startServer({
      name: 'startup',
      command,
      args,
      cwd: ctx.repoRoot,
      env: { ...env, ...extraEnv },
      readyPath: '/readyz',
      readyStatus: 200,
      logDir: ctx.logDir,
      timeoutMs: 180_000,
    });
    await server.stop();
    return server.readyAfterMs;
  };

  const args = [...productionNodeFlags(ctx.repoRoot), 'dist/main.js'];
  const coldMs = await startOnce(node, args);
  ctx.log(`[startup] Node ${nodeVersion(node)} cold ${coldMs.toFixed(0)} ms`);
  const warmMs: number[] = [];
  for (let i = 0; i < ctx.options.runs; i++) warmMs.push(await startOnce(node, args));
  ctx.log(`[startup] Node ${nodeVersion(node)} warm ${warmMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  let npmStartWarmMs: number | null = null;
  if (options.includeNpmStart) {
    // npm runs the scripts with the first node on PATH: put the measured one there.
    npmStartWarmMs = await startOnce('npm', ['start', '--silent'], { PATH: `${path.dirname(node)}:${env.PATH ?? ''}` });
    ctx.log(`[startup] npm start (build included) ${npmStartWarmMs.toFixed(0)} ms`);
  }
  return { nodeVersion: nodeVersion(node), coldMs, warmMs, warmMedianMs: median(warmMs), npmStartWarmMs };
}
