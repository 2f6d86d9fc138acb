import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { BenchContext } from './context.js';
import { runLoadWorker } from './measure.js';
import { processCpuMicros, processTreeCpuMicros } from '../../scripts/lib/proc.js';
import { type RunningServer, runToCompletion, startServer } from './processes.js';
import { withDatabase } from './postgres.js';
import { serviceEnvironment } from './contenders.js';
import { BENCH_ENVIRONMENT, seed } from './seed.js';
import { customerForSequence } from './ssn-sequence.js';
import { productionNodeFlags } from '../../scripts/lib/production-start.js';

/**
 * The outbox's cost (issue 16: at most 10 % of create-customer throughput), measured against two builds
 * without it, each a real `node dist/main.js` on a database of its own seeded like the bench's:
 *
 * - `no-outbox`: this checkout with ONE change, the creation statement as it was before the outbox (no
 *   `event` insert, `RETURNING id`; src/features/customers/customer.store.ts). Everything else is the same code, the
 *   sequencer and the webhook jobs included (they find nothing to do): the difference is the outbox's
 *   work for one creation, the insert into `events` and its indexes, and the sequencer numbering it.
 * - `pre-outbox`: the commit before the outbox landed (the parent of the commit that added the events
 *   migration), built from `git archive`. Honest about history, but it also lacks what came after the
 *   outbox (webhooks, their jobs); the ratio against it is the outbox plus everything since.
 *
 * Builds are cached in the system's temporary directory: pre-outbox by commit, no-outbox by this
 * checkout's HEAD and uncommitted diff.
 */

export type OutboxVariant = 'no-outbox' | 'pre-outbox';

const VARIANT_ROOT = path.join(os.tmpdir(), 'cas-bench-variants');
const EVENTS_MIGRATION = 'prisma/migrations/20261124010000_events';

const git = (repoRoot: string, args: string[]): string =>
  execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();

/** The parent of the commit that added the events table: the last commit without the outbox. */
export function preOutboxCommit(repoRoot: string): string {
  const added = git(repoRoot, ['log', '--format=%H', '--diff-filter=A', '--', EVENTS_MIGRATION])
    .split('\n')
    .filter(Boolean)
    .at(-1);
  if (!added) throw new Error(`no commit adds ${EVENTS_MIGRATION}: cannot find the build before the outbox`);
  return git(repoRoot, ['rev-parse', `${added}^`]);
}

/** The creation statement of src/features/customers/customer.store.ts with its outbox insert, and what replaces it. */
const WITH_OUTBOX =
  /RETURNING \$\{NEW_CUSTOMER_COLUMNS\}(\s*\), audit AS \(\$\{auditInsert\(\d+, 'customer'\)\}\)),\s*event AS \(\$\{eventInsert\([^\n]*'customer\.created'[^\n]*\)\}\)/;

export function withoutOutbox(customerStore: string): string {
  if (!WITH_OUTBOX.test(customerStore)) {
    throw new Error(
      'src/features/customers/customer.store.ts no longer has the creation statement bench/lib/outbox.ts removes the outbox from; update WITH_OUTBOX there',
    );
  }
  return customerStore.replace(WITH_OUTBOX, 'RETURNING id$1');
}

/**
 * The variant runs on this checkout's dependencies, linked afresh each time: a cached build keeps its
 * directory across checkouts, and a link to a worktree since removed made pre-outbox exit at start-up
 * ("Cannot find package 'zod'") in every run from 2026-11-24 11:50 until this was found.
 */
function linkDependencies(dir: string, repoRoot: string): void {
  const link = path.join(dir, 'node_modules');
  const target = path.join(repoRoot, 'node_modules');
  let current: string | undefined;
  try {
    current = lstatSync(link).isSymbolicLink() ? readlinkSync(link) : 'not a link';
  } catch {
    current = undefined;
  }
  if (current === target) return;
  if (current !== undefined) rmSync(link, { recursive: true, force: true });
  symlinkSync(target, link);
}

async function build(dir: string, repoRoot: string, log: (line: string) => void): Promise<void> {
  linkDependencies(dir, repoRoot);
  log(`building ${path.basename(dir)} (npm run build)`);
  await runToCompletion('npm', ['run', 'build', '--silent'], {
    cwd: dir,
    env: { ...process.env } as Record<string, string>,
  });
  writeFileSync(path.join(dir, '.built'), new Date().toISOString());
}

/** The variant's directory, built (reused when its key matches). */
export async function prepareVariant(
  variant: OutboxVariant,
  repoRoot: string,
  log: (line: string) => void,
): Promise<{ dir: string; description: string }> {
  mkdirSync(VARIANT_ROOT, { recursive: true });
  if (variant === 'pre-outbox') {
    const commit = preOutboxCommit(repoRoot);
    const dir = path.join(VARIANT_ROOT, `pre-outbox-${commit.slice(0, 12)}`);
    if (!existsSync(path.join(dir, '.built'))) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      execFileSync('bash', ['-c', `git archive ${commit} | tar -x -C '${dir}'`], { cwd: repoRoot });
      await build(dir, repoRoot, log);
    }
    linkDependencies(dir, repoRoot);
    return { dir, description: `commit ${commit.slice(0, 7)}, the last before the outbox` };
  }
  const head = git(repoRoot, ['rev-parse', 'HEAD']);
  const key = createHash('sha256')
    .update(head)
    .update(git(repoRoot, ['diff', 'HEAD']))
    .digest('hex')
    .slice(0, 12);
  const dir = path.join(VARIANT_ROOT, `no-outbox-${key}`);
  if (!existsSync(path.join(dir, '.built'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // The tracked files as they are in this checkout (uncommitted changes included), then the one change.
    execFileSync('bash', ['-c', `git ls-files -z | tar --null -T - -cf - | tar -xf - -C '${dir}'`], {
      cwd: repoRoot,
      maxBuffer: 64 * 1024 * 1024,
    });
    const store = path.join(dir, 'src/features/customers/customer.store.ts');
    writeFileSync(store, withoutOutbox(readFileSync(store, 'utf8')));
    await build(dir, repoRoot, log);
  }
  linkDependencies(dir, repoRoot);
  return { dir, description: `this checkout (${head.slice(0, 7)}) without the creation's outbox insert` };
}

const databaseOf = (variant: OutboxVariant | 'with-outbox') => `cas_bench_${variant.replace('-', '_')}`;

/**
 * The three contenders of the scenario, each on a fresh database of its own seeded alike (the bench
 * database has grown by the earlier write scenarios by then): this checkout as built (`service`), and
 * the two builds without the outbox. A contender that cannot be built or started is reported and left out.
 */
export async function startOutboxContenders(
  ctx: BenchContext,
  node: string,
  failures: string[],
): Promise<Partial<Record<'service' | OutboxVariant, RunningServer>>> {
  const servers: Partial<Record<'service' | OutboxVariant, RunningServer>> = {};
  for (const variant of ['with-outbox', 'no-outbox', 'pre-outbox'] as const) {
    const name = variant === 'with-outbox' ? 'service' : variant;
    try {
      servers[name] = await startOutboxVariant(ctx, node, variant);
      ctx.log(
        `[outbox-cost] ${name} ready at ${servers[name].baseUrl} (pid ${servers[name].pid}, database ${servers[name].database})`,
      );
    } catch (error) {
      failures.push(`outbox-cost: ${name} did not start: ${(error as Error).message.split('\n')[0]}`);
      ctx.log(`[outbox-cost] ${name} did not start: ${(error as Error).message}`);
    }
  }
  return servers;
}

/** A build's migration runner: under dist/db/migrations/ since the second pass moved it, dist/db/ in older commits (pre-outbox). */
function migrationsModule(dir: string): string {
  const found = ['dist/db/migrations/migrations.js', 'dist/db/migrations.js']
    .map((file) => path.join(dir, file))
    .find((file) => existsSync(file));
  if (!found)
    throw new Error(`${dir} has no built migration runner (dist/db/migrations/migrations.js or dist/db/migrations.js)`);
  return found;
}

/**
 * Starts a build on a database of its own: created (dropped first), migrated with the build's own
 * migrations, seeded with the bench's data set and keys, then the server as production starts it.
 */
async function startOutboxVariant(
  ctx: BenchContext,
  node: string,
  variant: OutboxVariant | 'with-outbox',
): Promise<RunningServer> {
  const { dir, description } =
    variant === 'with-outbox'
      ? { dir: ctx.repoRoot, description: 'this checkout as built' }
      : await prepareVariant(variant, ctx.repoRoot, ctx.log);
  const database = databaseOf(variant);
  const admin = new pg.Client({ connectionString: ctx.db.adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(ctx.db.adminUrl, database);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const { migrate } = (await import(pathToFileURL(migrationsModule(dir)).href)) as {
      migrate: (pool: pg.Pool) => Promise<unknown>;
    };
    await migrate(pool);
    await seed(pool, { customers: ctx.options.customers, accounts: ctx.options.accounts }, ctx.keys);
  } finally {
    await pool.end();
  }
  ctx.log(`${variant}: ${description}; database ${database} migrated and seeded`);
  return startServer({
    name: variant === 'with-outbox' ? 'service-own-database' : variant,
    command: node,
    // This checkout's production flags for every build (an older build's own start script may predate them).
    args: [...productionNodeFlags(ctx.repoRoot), 'dist/main.js'],
    cwd: dir,
    env: serviceEnvironment(ctx, url, path.join(ctx.workDir, `${variant}-data`)),
    readyPath: '/readyz',
    readyStatus: 200,
    logDir: ctx.logDir,
    database,
  });
}

/**
 * Before measuring: one creation per contender answers 201, leaves one customer and one audit event, and
 * an outbox event only where there is an outbox (the variants must really be without it).
 */
export async function checkOutboxContender(ctx: BenchContext, name: string, server: RunningServer): Promise<string> {
  const res = await fetch(`${server.baseUrl}/${BENCH_ENVIRONMENT}/customer`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${ctx.token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(customerForSequence(ctx.nextSsnSequence++)),
  });
  const body = (await res.json()) as { data?: { customerId?: string } };
  const customerId = body.data?.customerId;
  if (res.status !== 201 || !customerId) return `FAILED: create answered ${res.status}`;
  const pool = new pg.Pool({ connectionString: withDatabase(ctx.db.adminUrl, server.database ?? 'cas_bench'), max: 1 });
  try {
    const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql, [customerId])).rows[0]!.n);
    const customers = await count('SELECT count(*) AS n FROM customers WHERE id = $1');
    const audits = await count(
      "SELECT count(*) AS n FROM audit_events WHERE resource_id = $1 AND operation = 'customer.create'",
    );
    const hasEvents = (await pool.query("SELECT to_regclass('events') IS NOT NULL AS present")).rows[0]
      .present as boolean;
    const events = hasEvents
      ? await count("SELECT count(*) AS n FROM events WHERE resource_id = $1 AND type = 'customer.created'")
      : 0;
    const expectedEvents = name === 'service' ? 1 : 0;
    const ok = customers === 1 && audits === 1 && events === expectedEvents;
    const what = hasEvents ? `${events} customer.created event${events === 1 ? '' : 's'}` : 'no events table';
    return `${ok ? '' : 'FAILED: '}created: 201, 1 row, 1 audit event, ${what}`;
  } finally {
    await pool.end();
  }
}

/** One contender in one side-by-side run: what it did and the CPU it and its own PostgreSQL backends used. */
export interface SideBySideSample {
  creations: number;
  errors: number;
  serverCpuUs: number;
  backendsCpuUs: number;
}

export interface SideBySideRun {
  contenders: Partial<Record<'service' | OutboxVariant, SideBySideSample>>;
  /** CPU of the rest of PostgreSQL (WAL writer, checkpointer, autovacuum, exited connections), shared by all. */
  restOfPostgresCpuUs: number;
}

/** The outbox's cost with every build loaded at the same time (docs/performance.md, issue 16, "Side by side"). */
export interface OutboxSideBySide {
  seconds: number;
  runs: SideBySideRun[];
  /** Per comparator, per run: the service's req/s ÷ the comparator's, and its CPU per creation ÷ the service's. */
  ratios: Partial<Record<OutboxVariant, { rps: number[]; cpu: number[] }>>;
}

/** The pids of the client backends connected to `database` now: the server's pool, once warmed up. */
async function backendPids(admin: pg.Client, database: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'",
    [database],
  );
  return rows.map((row) => row.pid);
}

const cpuOfAll = (pids: number[]) => pids.reduce((sum, pid) => sum + (processCpuMicros(pid) ?? 0), 0);

/** One run: every server driven at once by a load generator of its own, for `seconds`. */
async function runTogether(
  ctx: BenchContext,
  admin: pg.Client,
  servers: [string, RunningServer][],
  seconds: number,
): Promise<SideBySideRun> {
  const pids = await Promise.all(servers.map(([, server]) => backendPids(admin, server.database!)));
  const before = servers.map(([, server], i) => ({
    server: processCpuMicros(server.pid)!,
    backends: cpuOfAll(pids[i]!),
  }));
  const treeBefore = processTreeCpuMicros(ctx.db.postmasterPid!)!;
  const start = ctx.nextSsnSequence;
  const results = await Promise.all(
    servers.map(([, server], i) => {
      // Each its own block of SSNs (runLoadWorker reads the sequence before its first await).
      ctx.nextSsnSequence = start + i * SSN_BLOCK;
      return runLoadWorker(ctx, server.baseUrl, 'rest-post-customer', seconds);
    }),
  );
  ctx.nextSsnSequence = start + servers.length * SSN_BLOCK;
  const tree = processTreeCpuMicros(ctx.db.postmasterPid!)! - treeBefore;
  const run: SideBySideRun = { contenders: {}, restOfPostgresCpuUs: tree };
  servers.forEach(([name, server], i) => {
    const sample = {
      creations: results[i]!.ok,
      errors: results[i]!.errors,
      serverCpuUs: processCpuMicros(server.pid)! - before[i]!.server,
      backendsCpuUs: cpuOfAll(pids[i]!) - before[i]!.backends,
    };
    run.contenders[name as 'service' | OutboxVariant] = sample;
    run.restOfPostgresCpuUs -= sample.backendsCpuUs;
  });
  return run;
}

/** More creations than one load generator makes in a run: the blocks never overlap. */
const SSN_BLOCK = 1_000_000;

/**
 * The outbox's cost with the builds loaded AT THE SAME TIME, each on its own database of the one PostgreSQL.
 * Alternating runs cannot decide a 10 % rule on a machine whose speed moves by up to 2× between runs (the
 * same build's CPU per creation went from 630 to 1,180 µs within a morning); loaded together, every build
 * sees the same machine at every moment, and each run's ratio is free of that drift. Per creation it divides
 * each server's CPU and that of the PostgreSQL backends of its own pool (by pid, from /proc); the rest of
 * PostgreSQL is shared and reported apart. A warm-up run comes first and is not kept.
 */
export async function measureOutboxSideBySide(
  ctx: BenchContext,
  servers: Partial<Record<'service' | OutboxVariant, RunningServer>>,
  options: { runs: number; seconds: number; warmUpSeconds: number },
): Promise<OutboxSideBySide> {
  if (!servers.service) throw new Error('outbox side by side: the service did not start');
  if (ctx.db.postmasterPid === undefined)
    throw new Error(
      'outbox side by side: needs the PostgreSQL server on this machine (its processes are read from /proc)',
    );
  const present = (['service', 'no-outbox', 'pre-outbox'] as const).flatMap((name) =>
    servers[name] ? [[name, servers[name]] as [string, RunningServer]] : [],
  );
  const admin = new pg.Client({ connectionString: withDatabase(ctx.db.adminUrl, 'postgres') });
  await admin.connect();
  try {
    ctx.log(
      `[outbox-cost] side by side: ${present.map(([name]) => name).join(', ')} loaded at once, ${options.warmUpSeconds} s warm-up then ${options.runs} × ${options.seconds} s`,
    );
    await runTogether(ctx, admin, present, options.warmUpSeconds);
    const runs: SideBySideRun[] = [];
    const ratios: OutboxSideBySide['ratios'] = {};
    for (let i = 0; i < options.runs; i++) {
      const run = await runTogether(ctx, admin, present, options.seconds);
      runs.push(run);
      const service = run.contenders.service!;
      const cpuPerCreation = (s: SideBySideSample) => (s.serverCpuUs + s.backendsCpuUs) / Math.max(1, s.creations);
      for (const variant of ['no-outbox', 'pre-outbox'] as const) {
        const other = run.contenders[variant];
        if (!other || other.creations === 0 || service.creations === 0) continue;
        const entry = (ratios[variant] ??= { rps: [], cpu: [] });
        entry.rps.push(service.creations / other.creations);
        entry.cpu.push(cpuPerCreation(other) / cpuPerCreation(service));
      }
      ctx.log(
        `[outbox-cost] side by side run ${i + 1}: ${present.map(([name]) => `${name} ${(run.contenders[name as 'service']!.creations / options.seconds).toFixed(0)}/s, ${cpuPerCreation(run.contenders[name as 'service']!).toFixed(0)} µs`).join('; ')}`,
      );
    }
    return { seconds: options.seconds, runs, ratios };
  } finally {
    await admin.end();
  }
}
