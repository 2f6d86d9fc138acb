import path from 'node:path';
import type { BenchContext } from './context.js';
import { baseEnvironment, nodeMajor, type RunningServer, startServer } from './processes.js';
import { BENCH_ENVIRONMENT, piiEnvironment } from './seed.js';

/**
 * Node 24+ runs the comparators' TypeScript natively (they import packages only), so no loader
 * sits in the measured process; older Node needs tsx.
 */
function scriptArgs(node: string, script: string): string[] {
  return nodeMajor(node) >= 24 ? ['--disable-warning=ExperimentalWarning', script] : ['--import', 'tsx', script];
}

/** `no-outbox` and `pre-outbox`: builds of the service without the outbox, on databases of their own (bench/lib/outbox.ts). */
export type ContenderName = 'service' | 'raw-floor' | 'express-prisma' | 'postgraphile' | 'no-outbox' | 'pre-outbox';

/** The service's environment exactly as production sets it, on `databaseUrl` (the bench database by default). */
export function serviceEnvironment(ctx: BenchContext, databaseUrl = ctx.db.benchUrl, dataDir = path.join(ctx.workDir, 'service-data'), extra: Record<string, string> = {}): Record<string, string> {
  return baseEnvironment({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: String(ctx.options.poolSize),
    DATA_DIR: dataDir,
    API_TOKENS: ctx.token,
    ENVIRONMENTS: BENCH_ENVIRONMENT,
    // Production's default: a log line per request is part of what a request costs.
    LOG_LEVEL: 'info',
    // The rate limiter runs (its cost is measured) but never refuses the load generator's one token.
    RATE_LIMIT_POINTS: '1000000000',
    // So does the budget of searches by SSN (its maximum; the bench searches a few thousand a second at most).
    SSN_SEARCH_RATE_LIMIT_PER_MINUTE: '1000000',
    ...piiEnvironment(ctx.keys),
    ...ctx.options.serviceEnv,
    ...extra,
  });
}

/**
 * The service exactly as production starts it (`node dist/main.js`), pointed at the bench database;
 * `nodeArgs` only for bench/profile.ts (`--cpu-prof`).
 */
export function startService(ctx: BenchContext, node: string, nodeArgs: string[] = []): Promise<RunningServer> {
  return startServer({
    name: 'service',
    command: node,
    args: [...nodeArgs, 'dist/main.js'],
    cwd: ctx.repoRoot,
    env: serviceEnvironment(ctx),
    readyPath: '/readyz',
    readyStatus: 200,
    logDir: ctx.logDir,
  });
}

/**
 * A hand-written comparator (bench/comparators/<name>.ts), on the service's database, pool size, token and
 * environment; it seals personal data with the service's keys, as the service does. express-prisma loads
 * the generated client from dist/, so `npm run build` must have run (the bench runs it unless --no-build).
 */
function startComparator(ctx: BenchContext, node: string, name: 'raw-floor' | 'express-prisma'): Promise<RunningServer> {
  return startServer({
    name,
    command: node,
    args: scriptArgs(node, `bench/comparators/${name}.ts`),
    cwd: ctx.repoRoot,
    env: baseEnvironment({
      NODE_ENV: 'production',
      DATABASE_URL: ctx.db.benchUrl,
      POOL_SIZE: String(ctx.options.poolSize),
      API_TOKEN: ctx.token,
      ENVIRONMENT: BENCH_ENVIRONMENT,
      ...piiEnvironment(ctx.keys),
    }),
    readyPath: '/healthz',
    readyStatus: 200,
    logDir: ctx.logDir,
  });
}

/** The floor: the same operations in raw SQL on node:http (bench/comparators/raw-floor.ts). */
export const startRawFloor = (ctx: BenchContext, node: string): Promise<RunningServer> => startComparator(ctx, node, 'raw-floor');

/** Idiomatic Express 5 + Prisma 7 (bench/comparators/express-prisma.ts). */
export const startExpressPrisma = (ctx: BenchContext, node: string): Promise<RunningServer> => startComparator(ctx, node, 'express-prisma');

export function startPostGraphile(ctx: BenchContext, node: string): Promise<RunningServer> {
  return startServer({
    name: 'postgraphile',
    command: node,
    args: scriptArgs(node, 'bench/comparators/postgraphile.ts'),
    cwd: ctx.repoRoot,
    env: baseEnvironment({
      NODE_ENV: 'production',
      GRAPHILE_ENV: 'production',
      DATABASE_URL: ctx.db.benchUrl,
      POOL_SIZE: String(ctx.options.poolSize),
      ENVIRONMENT: BENCH_ENVIRONMENT,
    }),
    readyPath: `/${BENCH_ENVIRONMENT}/graphql`,
    logDir: ctx.logDir,
  });
}
