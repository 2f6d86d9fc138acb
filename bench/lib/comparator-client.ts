import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './context.js';
import { runToCompletion } from './processes.js';

/** The Express + Prisma comparator's own schema (Prisma's default generator settings) and where its client is compiled to. */
const SCHEMA = 'bench/comparators/prisma/schema.prisma';
const TSCONFIG = 'bench/comparators/prisma/tsconfig.json';
export const COMPARATOR_CLIENT = 'dist/bench-prisma/client.js';

/**
 * Generates the comparator's Prisma client (git-ignored) and compiles it to dist/bench-prisma, so a fresh clone's
 * `npm run bench` has it: every run that builds (the default), and a --no-build run whose dist/ lacks it. Offline,
 * as `npm run generate` (scripts/prisma-generate.mjs).
 */
export function ensureComparatorClient(ctx: Pick<BenchContext, 'repoRoot' | 'options' | 'log'>): Promise<void> {
  // Once per process: a second Node version's comparator uses the same client.
  ensured ??= generateAndCompile(ctx);
  return ensured;
}

let ensured: Promise<void> | undefined;

async function generateAndCompile(ctx: Pick<BenchContext, 'repoRoot' | 'options' | 'log'>): Promise<void> {
  if (!ctx.options.build && existsSync(path.join(ctx.repoRoot, COMPARATOR_CLIENT))) return;
  ctx.log(`generating the Express + Prisma comparator's own client (${SCHEMA}, Prisma's defaults)`);
  const env = { ...process.env } as Record<string, string>;
  await runToCompletion(process.execPath, ['scripts/prisma-generate.mjs', '--schema', SCHEMA], {
    cwd: ctx.repoRoot,
    env,
  });
  await runToCompletion(process.execPath, ['node_modules/typescript/bin/tsc', '-p', TSCONFIG], {
    cwd: ctx.repoRoot,
    env,
  });
}
