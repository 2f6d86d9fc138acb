import path from 'node:path';
import { benchCredentials } from './auth.js';
import type { BenchContext } from './context.js';
import { nodeMajor, type RunningServer, startServer } from './processes.js';
import { BENCH_ENVIRONMENT, piiEnvironment } from './seed.js';
import { productionNodeFlags } from '../../scripts/lib/production-start.js';
import { childEnvironment } from '../../scripts/lib/child-environment.js';

/**
 * Node 24+ runs the comparators' TypeScript natively (they import packages only), so no loader
 * sits in the measured process; older Node needs tsx.
 */
function scriptArgs(node: string, script: string): string[] {
  return nodeMajor(node) >= 24 ? ['--disable-warning=ExperimentalWarning', script] : ['--import', 'tsx', script];
}

/**
 * `batching-floor` and `transfer-floor` run the service's own SQL as the service sends it, with none of its
 * stack but node:http and pg (bench/comparators/service-sql-floor.ts); PostGraphile is the peer a team would
 * otherwise pick for GraphQL.
 */
export type ContenderName =
  'service' | 'baseline' | 'batching-floor' | 'transfer-floor' | 'postgraphile' | AuthPathContender;

/**
 * The auth paths a bank runs, each with its caches on (production's default) and off (AUTH_CACHE_MAX_ENTRIES=0):
 * the service with a managed token of its own, or with a JWT of its own, whatever --auth says.
 */
export type AuthPathContender = 'managed-cached' | 'managed-uncached' | 'jwt-cached' | 'jwt-uncached';

/** How the report and docs name each contender. */
export const CONTENDER_LABELS: Record<ContenderName, string> = {
  service: 'service',
  baseline: 'baseline (--against)',
  'batching-floor': 'batching floor',
  'transfer-floor': 'transfer floor',
  postgraphile: 'postgraphile',
  'managed-cached': 'service, managed token, auth cache on',
  'managed-uncached': 'service, managed token, auth cache off',
  'jwt-cached': 'service, JWT, auth cache on',
  'jwt-uncached': 'service, JWT, auth cache off',
};

/** Each hand-written comparator's script under bench/comparators/. */
const COMPARATOR_SCRIPTS = {
  'batching-floor': 'service-sql-floor.ts',
  'transfer-floor': 'service-sql-floor.ts',
} as const;

/** The service's environment exactly as production sets it, on `databaseUrl` (the bench database by default). */
export function serviceEnvironment(
  ctx: BenchContext,
  databaseUrl = ctx.db.benchUrl,
  dataDir = path.join(ctx.workDir, 'service-data'),
  extra: Record<string, string> = {},
): Record<string, string> {
  return childEnvironment({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: String(ctx.options.poolSize),
    DATA_DIR: dataDir,
    ...ctx.credentials.serviceEnv,
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
 * The service exactly as production starts it (`node [npm start's flags] dist/main.js`), pointed at the bench
 * database.
 */
export function startService(ctx: BenchContext, node: string): Promise<RunningServer> {
  return startServer({
    name: 'service',
    command: node,
    args: [...productionNodeFlags(ctx.repoRoot), 'dist/main.js'],
    cwd: ctx.repoRoot,
    env: serviceEnvironment(ctx),
    readyPath: '/readyz',
    readyStatus: 200,
    logDir: ctx.logDir,
  });
}

/**
 * One of the auth-path contenders: the service as production runs it, with credentials of its own (a managed token
 * made as `npm run token` makes it, or a JWT it is configured to verify) and its authentication caches on or off.
 */
export async function startAuthPathService(
  ctx: BenchContext,
  node: string,
  name: AuthPathContender,
): Promise<RunningServer> {
  const credentials = await benchCredentials(name.startsWith('jwt') ? 'jwt' : 'managed', ctx.db.benchUrl);
  const server = await startServer({
    name,
    command: node,
    args: [...productionNodeFlags(ctx.repoRoot), 'dist/main.js'],
    cwd: ctx.repoRoot,
    env: serviceEnvironment(ctx, undefined, path.join(ctx.workDir, `${name}-data`), {
      ...credentials.serviceEnv,
      ...(name.endsWith('uncached') && { AUTH_CACHE_MAX_ENTRIES: '0' }),
    }),
    readyPath: '/readyz',
    readyStatus: 200,
    logDir: ctx.logDir,
  });
  return { ...server, bearer: credentials.bearer };
}

/** The build of --against (bench/lib/baseline.ts), started as the service is, with a data directory of its own. */
export function startBaseline(ctx: BenchContext, node: string): Promise<RunningServer> {
  const baseline = ctx.baseline;
  if (baseline === undefined) return Promise.reject(new Error('no --against build'));
  return startServer({
    name: 'baseline',
    command: node,
    args: [...productionNodeFlags(baseline.dir), 'dist/main.js'],
    cwd: baseline.dir,
    env: serviceEnvironment(ctx, undefined, path.join(ctx.workDir, 'baseline-data')),
    readyPath: '/readyz',
    readyStatus: 200,
    logDir: ctx.logDir,
  });
}

/**
 * A hand-written comparator (bench/comparators/<name>.ts), on the service's database, pool size, token and
 * environment; it seals personal data with the service's keys, as the service does. The floors of the service's own
 * SQL load its modules from dist/, so `npm run build` must have run (the bench runs it unless --no-build).
 */
function startComparator(
  ctx: BenchContext,
  node: string,
  name: keyof typeof COMPARATOR_SCRIPTS,
): Promise<RunningServer> {
  return startServer({
    name,
    command: node,
    args: scriptArgs(node, `bench/comparators/${COMPARATOR_SCRIPTS[name]}`),
    cwd: ctx.repoRoot,
    env: childEnvironment({
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

/** The batching floor: node:http + pg, reads merged as the service merges them, the service's SQL and session settings. */
export const startBatchingFloor = (ctx: BenchContext, node: string): Promise<RunningServer> =>
  startComparator(ctx, node, 'batching-floor');

/** The transfer floor: node:http + pg running the service's posting statement (key claim, audit and outbox in it). */
export const startTransferFloor = (ctx: BenchContext, node: string): Promise<RunningServer> =>
  startComparator(ctx, node, 'transfer-floor');

export function startPostGraphile(ctx: BenchContext, node: string): Promise<RunningServer> {
  return startServer({
    name: 'postgraphile',
    command: node,
    args: scriptArgs(node, 'bench/comparators/postgraphile.ts'),
    cwd: ctx.repoRoot,
    env: childEnvironment({
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
