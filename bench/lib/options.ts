import { parseArgs } from 'node:util';
import { DEFAULT_GROWTH_SCALE, type GrowthScale, parseGrowthScale } from './growth-seed.js';

/** Where results go unless --out says otherwise; only a full run there updates latest.md. */
export const DEFAULT_OUT_DIR = 'bench/results';

export const SCENARIO_NAMES = [
  'rest-get-customer',
  'rest-get-account',
  'rest-get-customer-4',
  'rest-get-account-4',
  'rest-get-account-auth-4',
  'rest-post-customer',
  'graphql-nested',
  'mixed',
  'rest-transfer-uniform',
  'rest-transfer-hot',
  'rest-get-account-with-transactions',
  'rest-list-customers-by-name',
  'rest-search-customer-by-ssn',
  'startup',
  'open-loop',
] as const;

/**
 * Scenarios a run includes only when named (never in the default, full run): they read the busy account of the
 * data-growth seed (bench/lib/growth-seed.ts), which `npm run bench:data-growth` measures at every size.
 */
export const OPT_IN_SCENARIO_NAMES = ['rest-balance-as-of', 'rest-statement'] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number] | (typeof OPT_IN_SCENARIO_NAMES)[number];

/** The scenarios that need the ledger's own seed (funded accounts, accounts with recent transactions). */
export const LEDGER_SCENARIOS: readonly ScenarioName[] = [
  'rest-transfer-uniform',
  'rest-transfer-hot',
  'rest-get-account-with-transactions',
  'open-loop',
];

/**
 * `managed`: a token created in the bench database as `npm run token -- create` creates it (what a deployment
 * hands its clients); `jwt`: an access token signed with a key generated for the run, the service verifying it
 * with OIDC_PUBLIC_KEY; `static`: an API_TOKENS entry (compared in memory, no lookup).
 */
export const AUTH_MODES = ['managed', 'jwt', 'static'] as const;
export type BenchAuth = (typeof AUTH_MODES)[number];

export interface BenchOptions {
  quick: boolean;
  customers: number;
  accounts: number;
  /** Seconds of one measured run. */
  durationSeconds: number;
  /** Seconds of each open-loop step: long enough for a steady p99.9 (thousands of samples above it), whatever --duration is. */
  openLoopStepSeconds: number;
  /** Seconds of the unmeasured warm-up of each contender before its first run. */
  warmupSeconds: number;
  runs: number;
  connections: number;
  scenarios: ScenarioName[];
  /** Reference runtime (Node 26); undefined = the project's .tools copy, installed when missing. */
  nodeBinary: string | undefined;
  /** Connections per server pool, the same for the service and every comparator. */
  poolSize: number;
  /** How the load generator authenticates to the service: a managed token (the default), a JWT, or a static token. */
  auth: BenchAuth;
  /** Funded accounts the transfer scenarios move money among. */
  ledgerAccounts: number;
  build: boolean;
  outDir: string;
  /** Extra environment for the service, e.g. to raise a rate limit for the benchmark. */
  serviceEnv: Record<string, string>;
  keepData: boolean;
  /** The data-growth seed's rows per customer (bench/lib/growth-seed.ts); null: none (unless a scenario needs its busy account). */
  growth: GrowthScale | null;
  /** --against: a git ref whose build runs beside this one as the `baseline` contender (bench/lib/baseline.ts). */
  against: string | null;
}

const HELP = `npm run bench [-- options]   (each option also reads an environment variable)

  --quick                   smoke run: tiny data, 1 run x 2 s, 1 s warm-up          BENCH_QUICK=1
  --customers N             customers to seed (default 10000)                        BENCH_CUSTOMERS
  --accounts N              accounts to seed (default 15000)                         BENCH_ACCOUNTS
  --duration S              seconds per measured run (default 4)                     BENCH_DURATION
  --warmup S                warm-up seconds per contender (default 2)                BENCH_WARMUP
  --open-loop-step S        seconds of each open-loop step (default 10)              BENCH_OPEN_LOOP_STEP
  --runs N                  measured runs per contender (default 10: paired cycles for the intervals) BENCH_RUNS
  --connections N           concurrent connections (default 50)                      BENCH_CONNECTIONS
  --scenarios a,b           subset of: ${SCENARIO_NAMES.join(', ')}
                            (named only: ${OPT_IN_SCENARIO_NAMES.join(', ')})
                                                                                     BENCH_SCENARIOS
  --node PATH               reference Node binary (default .tools/node26, installed) BENCH_NODE
  --pool-size N             DB pool size of every server (default 10)                BENCH_POOL_SIZE
  --auth MODE               managed (default: a token made as npm run token makes it), BENCH_AUTH
                            jwt (signed with a key made for the run), or static (API_TOKENS)
  --ledger-accounts N       funded accounts for the transfers (default 10000)        BENCH_LEDGER_ACCOUNTS
  --no-build                skip "npm run build" (dist/ must be current)             BENCH_NO_BUILD=1
  --out DIR                 results directory (default bench/results)                BENCH_OUT
  --service-env K=V,K=V     extra environment for the service                        BENCH_SERVICE_ENV
  --keep-data               keep the temporary PostgreSQL cluster                    BENCH_KEEP_DATA=1
  --against REF             run REF's build beside this one in every closed-loop scenario; a whole BENCH_AGAINST
                            interval more than 3 % slower is reported as a regression
  --growth SCALE            seed history per customer: "default" or entries=10,busy=1,events=10,audit=10,keys=1
                            (also seeded when rest-balance-as-of or rest-statement run) BENCH_GROWTH
  DATABASE_URL              use this PostgreSQL server (a database "cas_bench" is recreated on it)
`;

export class UsageError extends Error {
  override name = 'UsageError';
}

function positiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new UsageError(`${name} must be a positive whole number, got "${raw}"`);
  return Number(raw);
}

function flag(value: boolean | undefined, envValue: string | undefined): boolean {
  return value === true || envValue === '1' || envValue === 'true';
}

function parseScenarios(raw: string | undefined): ScenarioName[] {
  if (raw === undefined || raw === '' || raw === 'all') return [...SCENARIO_NAMES];
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const known: readonly string[] = [...SCENARIO_NAMES, ...OPT_IN_SCENARIO_NAMES];
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0)
    throw new UsageError(`unknown scenario(s): ${unknown.join(', ')}; choose from ${known.join(', ')}`);
  return names as ScenarioName[];
}

function parseAuth(raw: string | undefined): BenchAuth {
  if (raw === undefined || raw === '') return 'managed';
  if (!(AUTH_MODES as readonly string[]).includes(raw))
    throw new UsageError(`--auth must be one of ${AUTH_MODES.join(', ')}, got "${raw}"`);
  return raw as BenchAuth;
}

function parseKeyValues(raw: string | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at < 1) throw new UsageError(`--service-env expects K=V pairs, got "${pair}"`);
    result[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return result;
}

/** Flags win over environment variables, which win over the defaults (or the quick defaults). */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      quick: { type: 'boolean' },
      customers: { type: 'string' },
      accounts: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      'open-loop-step': { type: 'string' },
      runs: { type: 'string' },
      connections: { type: 'string' },
      scenarios: { type: 'string' },
      node: { type: 'string' },
      'pool-size': { type: 'string' },
      auth: { type: 'string' },
      'ledger-accounts': { type: 'string' },
      'no-build': { type: 'boolean' },
      out: { type: 'string' },
      'service-env': { type: 'string' },
      'keep-data': { type: 'boolean' },
      growth: { type: 'string' },
      against: { type: 'string' },
    },
  });
  if (values.help) return 'help';
  const quick = flag(values.quick, env.BENCH_QUICK);
  const customers = positiveInteger('--customers', values.customers ?? env.BENCH_CUSTOMERS, quick ? 200 : 10_000);
  const accounts = positiveInteger('--accounts', values.accounts ?? env.BENCH_ACCOUNTS, quick ? 300 : 15_000);
  if (accounts < customers)
    throw new UsageError('--accounts must be at least --customers (every customer gets an account)');
  const scenarios = parseScenarios(values.scenarios ?? env.BENCH_SCENARIOS);
  return {
    quick,
    customers,
    accounts,
    durationSeconds: positiveInteger('--duration', values.duration ?? env.BENCH_DURATION, quick ? 2 : 4),
    openLoopStepSeconds: positiveInteger(
      '--open-loop-step',
      values['open-loop-step'] ?? env.BENCH_OPEN_LOOP_STEP,
      quick ? 2 : 10,
    ),
    warmupSeconds: positiveInteger('--warmup', values.warmup ?? env.BENCH_WARMUP, quick ? 1 : 2),
    runs: positiveInteger('--runs', values.runs ?? env.BENCH_RUNS, quick ? 1 : 10),
    connections: positiveInteger('--connections', values.connections ?? env.BENCH_CONNECTIONS, 50),
    scenarios,
    nodeBinary: values.node ?? (env.BENCH_NODE || undefined),
    poolSize: positiveInteger('--pool-size', values['pool-size'] ?? env.BENCH_POOL_SIZE, 10),
    auth: parseAuth(values.auth ?? env.BENCH_AUTH),
    ledgerAccounts: positiveInteger(
      '--ledger-accounts',
      values['ledger-accounts'] ?? env.BENCH_LEDGER_ACCOUNTS,
      quick ? 200 : 10_000,
    ),
    build: !flag(values['no-build'], env.BENCH_NO_BUILD),
    outDir: values.out ?? (env.BENCH_OUT || DEFAULT_OUT_DIR),
    serviceEnv: parseKeyValues(values['service-env'] ?? env.BENCH_SERVICE_ENV),
    keepData: flag(values['keep-data'], env.BENCH_KEEP_DATA),
    growth: parseGrowth(values.growth ?? env.BENCH_GROWTH, scenarios),
    against: values.against ?? (env.BENCH_AGAINST || null),
  };
}

function parseGrowth(raw: string | undefined, scenarios: ScenarioName[]): GrowthScale | null {
  if (raw === undefined || raw === '') {
    const needsBusyAccount = scenarios.some((name) => (OPT_IN_SCENARIO_NAMES as readonly string[]).includes(name));
    return needsBusyAccount ? { ...DEFAULT_GROWTH_SCALE } : null;
  }
  if (raw === 'default') return { ...DEFAULT_GROWTH_SCALE };
  try {
    return parseGrowthScale(raw);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export const USAGE = HELP;
