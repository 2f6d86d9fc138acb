import path from 'node:path';
import { z } from 'zod';
import { type OidcConfig, parseOidcConfig } from './oidc.js';
import { staticTokenProblems } from './static-tokens.js';


/**
 * The service's whole configuration, read from the environment once at startup (see README,
 * "Configuration"). Nothing else in the code reads process.env.
 */
export interface Config {
  nodeEnv: 'development' | 'test' | 'production';
  host: string;
  port: number;
  /** External PostgreSQL; when absent an embedded PostgreSQL is started with its data in dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Fixed port for the embedded PostgreSQL; undefined picks a free one. */
  embeddedPostgresPort: number | undefined;
  /** How long the embedded PostgreSQL may take to start, and to come back after it died, before the service gives up (exits). */
  embeddedPostgresRestartTimeoutMs: number;
  databasePoolSize: number;
  databaseConnectTimeoutMs: number;
  databaseStatementTimeoutMs: number;
  /** A streaming replica for the reads that tolerate lag (docs/decisions.md, "Read replicas"); undefined: every read on the primary. */
  databaseReplica: ReplicaConfig | undefined;
  /**
   * Named prepared statements (src/db/sql/sql.ts). False when DATABASE_URL goes through a connection pooler in
   * transaction mode that cannot keep them (pgbouncer before 1.21): DATABASE_PREPARED_STATEMENTS=false, or
   * Prisma's `pgbouncer=true` in DATABASE_URL. Such a pooler cannot run migrations either (docs/operations.md).
   */
  databasePreparedStatements: boolean;
  /**
   * LISTEN for other instances' wake-ups on one dedicated connection (docs/decisions.md, "Waking other
   * instances"); false (DATABASE_LISTEN=false): other instances' work is found by polling only.
   */
  databaseListen: boolean;
  /** Where to LISTEN: the primary directly or through a session-mode pooler; undefined means DATABASE_URL (or the embedded server). */
  databaseListenUrl: string | undefined;
  /**
   * Static full-access bearer tokens (src/config/static-tokens.ts says what they must be); undefined in
   * development means "generate one", in production "none": managed tokens or OIDC authenticate instead
   * (the runtime refuses to start a production service that has no way to authenticate at all).
   */
  apiTokens: string[] | undefined;
  environments: string[];
  pii: PiiConfig;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  logPretty: boolean;
  /** GET /metrics: on `port` when set, else on the main port: behind `token` when set, else behind bearer tokens with `metrics:read`. */
  metrics: MetricsConfig;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** After SIGTERM, how long /readyz answers 503 while requests are still served, before the graceful stop (SHUTDOWN_DRAIN_MS). */
  shutdownDrainMs: number;
  /** How long an idle keep-alive connection stays open: longer than the load balancer's idle timeout. */
  keepAliveTimeoutMs: number;
  runMigrationsOnStart: boolean;
  /** How a migration behaves beside a serving fleet: src/db/migrations/migrations.ts. */
  migrations: { lockTimeoutMs: number; attempts: number };
  /** V8's old-generation growth factor, in percent over what survived (src/config/heap-growth.ts); 0: V8's own. */
  heapGrowingPercent: number;
  /** OIDC/JWT bearer tokens; undefined when OIDC_ISSUER is not set. */
  oidc: OidcConfig | undefined;
  /** How long an idempotency key and its stored result are kept. */
  idempotencyTtlHours: number;
  /** How often each instance voids the holds past their expiry (HOLD_EXPIRY_INTERVAL_MS). */
  holdExpiryIntervalMs: number;
  /** The outbox: how often each instance numbers new events, and how long events are kept. */
  events: { sequencerIntervalMs: number; retentionDays: number };
  /** Webhook delivery (docs/decisions.md, "Webhooks"). */
  webhooks: WebhooksConfig;

  /** Browser origins allowed to call the API cross-origin (CORS), e.g. Apollo Sandbox's. */
  corsOrigins: string[];
  graphql: GraphqlConfig;
  rateLimit: RateLimitConfig;
  /** Reverse proxies in front of the service whose X-Forwarded-For is trusted (Express `trust proxy` hops). */
  trustProxyHops: number;
}

export interface ReplicaConfig {
  url: string;
  /** How long a read presenting a consistency token may wait for the replica to replay it before the primary answers it. */
  maxWaitMs: number;
  /** Past this much lag the replica answers no read at all. */
  maxLagMs: number;
  /** How often the replica's health, position and lag are checked (and how soon a recovered replica is used again). */
  checkIntervalMs: number;
}

export const REPLICA_DEFAULTS = { maxWaitMs: 150, maxLagMs: 10_000, checkIntervalMs: 1000 } as const;

export interface WebhooksConfig {
  /** Deliver to private, loopback and link-local addresses too: tests only, refused in production. */
  allowPrivateNetworks: boolean;
  /** One attempt's time-out. */
  timeoutMs: number;
  /** The delay before each retry; after the last one the delivery is exhausted. Their sum is the window after which a failing endpoint is disabled. */
  retryScheduleMs: number[];
  /** How long the secret before a rotation keeps signing. */
  secretOverlapMs: number;
  /** How often each instance looks for due deliveries besides being woken (retries, and everything while the listener is down). */
  pollIntervalMs: number;
  /** Attempts in flight at once per instance. */
  concurrency: number;
  /** Endpoints one environment may have; a creation beyond is refused (WEBHOOK_ENDPOINT_LIMIT). */
  maxEndpointsPerEnvironment: number;
  /** The ports a webhook URL may name (its scheme's default port when it names none); '*': any. */
  allowedPorts: readonly number[] | '*';
  /** Only https URLs (in production); http is accepted elsewhere. */
  requireHttps: boolean;
}

/** WEBHOOKS_ALLOWED_PORTS' default: https, http, and the usual alternative https port. */
export const DEFAULT_WEBHOOK_PORTS: readonly number[] = [443, 80, 8443];

/** Standard Webhooks' (and Svix's) schedule: the first attempt at once, then these delays. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

const DURATION = /^(\d+)(ms|s|m|h)$/;
const DURATION_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const durationMs = (text: string): number => {
  const [, amount, unit] = DURATION.exec(text)!;
  return Number(amount) * DURATION_MS[unit as keyof typeof DURATION_MS];
};

/** Request budgets (docs/security.md, "Rate limits"); 0 points turns a budget off. */
export interface RateLimitConfig {
  /** Points each principal (token) may spend per window, shared by REST and GraphQL. */
  points: number;
  durationS: number;
  /** Refused bearer tokens one client address (IPv6: its /64) may send per window before its refused tokens are answered 429. */
  authFailures: number;
  authFailuresDurationS: number;
  /** A GraphQL operation costs 1 point plus one per this much estimated query cost. */
  graphqlCostPerPoint: number;
  /** Shared counters for several instances; undefined keeps them in this process's memory. */
  redisUrl: string | undefined;
}

export interface GraphqlConfig {
  /** Schema introspection; off in production unless asked for. */
  introspection: boolean;
  /** Apollo Sandbox landing page and the offline GraphiQL explorer; off in production unless asked for. */
  explorer: boolean;
  maxDepth: number;
  maxAliases: number;
  maxRootFields: number;
  maxCost: number;
  maxTokens: number;
  /** Fields resolved plus list items, per operation, counted during execution (src/graphql/execution-budget.ts). */
  maxNodes: number;
  /** How long an operation's execution may run before no further field resolves. */
  maxExecutionMs: number;
  /** The largest answer, serialised, in bytes. */
  maxResponseBytes: number;
  /** How often the subscriptions' event feed reads the outbox besides being woken (the fallback for events other instances numbered). */
  subscriptionPollIntervalMs: number;
  /** Open WebSocket connections one principal (token) may have on an instance; more are closed with 4429. */
  maxWsConnectionsPerPrincipal: number;
  /** Open WebSocket connections one client address may have on an instance, authenticated or not. */
  maxWsConnectionsPerAddress: number;
  /** Subscriptions (event feed followers) open at once on an instance, all connections together. */
  maxSubscriptionFollowers: number;
}

export interface PiiConfig {
  /** kid → 32-byte AES-256 key. Undefined in development means "generate and persist in dataDir". */
  keys: Map<string, Buffer> | undefined;
  activeKeyId: string | undefined;
  blindIndexKey: Buffer | undefined;
}

export interface MetricsConfig {
  /** A separate listener for /metrics only; 0 picks a free port. */
  port: number | undefined;
  /**
   * The metrics listener's address: METRICS_HOST, else HOST when a token guards it, else 127.0.0.1. A listener
   * without METRICS_TOKEN never binds a non-loopback address (loadConfig refuses it): it would serve the
   * service's metrics to anyone who can reach the interface.
   */
  host: string;
  /** Bearer token required on /metrics wherever it is served. */
  token: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const ENVIRONMENT_NAME = /^[a-z][a-z0-9-]{0,62}$/;
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
// Paths that are not environments; an environment with one of these names would shadow them.
const RESERVED_ENVIRONMENT_NAMES = new Set(['healthz', 'readyz', 'metrics', 'docs', 'openapi.json', 'graphql']);

/** 127.0.0.0/8, ::1 (also bracketed or IPv4-mapped) and localhost: addresses only this machine reaches. */
export const isLoopbackHost = (host: string): boolean => {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || bare === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
};

const integer = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

const booleanFlag = (name: string) =>
  z.enum(['true', 'false', '1', '0'], { message: `${name} must be true or false` }).transform((v) => v === 'true' || v === '1');

const byteSize = (name: string, minKb: number, maxMb: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(b|kb|mb)?$/i, `${name} must look like 65536, 64kb or 1mb`)
    .transform((v) => {
      const match = /^(\d+)(b|kb|mb)?$/i.exec(v)!;
      const unit = (match[2] ?? 'b').toLowerCase();
      return Number(match[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
    })
    .refine((n) => n >= minKb * 1024 && n <= maxMb * 1024 * 1024, `${name} must be between ${minKb}kb and ${maxMb}mb`);

const commaList = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production'], { message: 'NODE_ENV must be development, test or production' }).default('development'),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  PORT: integer('PORT', 0, 65535).default(3000),
  DATABASE_URL: z
    .string()
    .trim()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().trim().min(1).default('./.data'),
  EMBEDDED_POSTGRES_PORT: integer('EMBEDDED_POSTGRES_PORT', 1, 65535).optional(),
  EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS: integer('EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS', 1000, 3_600_000).optional(),
  DATABASE_POOL_SIZE: integer('DATABASE_POOL_SIZE', 1, 200).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: integer('DATABASE_CONNECT_TIMEOUT_MS', 100, 60_000).default(2000),
  DATABASE_STATEMENT_TIMEOUT_MS: integer('DATABASE_STATEMENT_TIMEOUT_MS', 100, 600_000).default(5000),
  DATABASE_REPLICA_URL: z
    .string()
    .trim()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'DATABASE_REPLICA_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_REPLICA_MAX_WAIT_MS: integer('DATABASE_REPLICA_MAX_WAIT_MS', 0, 10_000).optional(),
  DATABASE_REPLICA_MAX_LAG_MS: integer('DATABASE_REPLICA_MAX_LAG_MS', 100, 86_400_000).optional(),
  DATABASE_REPLICA_CHECK_INTERVAL_MS: integer('DATABASE_REPLICA_CHECK_INTERVAL_MS', 50, 60_000).optional(),
  DATABASE_PREPARED_STATEMENTS: booleanFlag('DATABASE_PREPARED_STATEMENTS').optional(),
  DATABASE_LISTEN: booleanFlag('DATABASE_LISTEN').optional(),
  DATABASE_LISTEN_URL: z
    .string()
    .trim()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'DATABASE_LISTEN_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  // Each entry's strength is checked by staticTokenProblems (below), which names entries by position only.
  API_TOKENS: z.string().transform(commaList).optional(),
  ENVIRONMENTS: z
    .string()
    .transform(commaList)
    .refine((names) => names.length > 0, 'ENVIRONMENTS must name at least one environment')
    .refine((names) => names.every((n) => ENVIRONMENT_NAME.test(n)), 'ENVIRONMENTS entries must be lower-case letters, digits and dashes, starting with a letter')
    .refine((names) => names.every((n) => !RESERVED_ENVIRONMENT_NAMES.has(n)), `ENVIRONMENTS may not use a reserved name (${[...RESERVED_ENVIRONMENT_NAMES].join(', ')})`)
    .default(['sandbox']),
  PII_KEYS: z.string().optional(),
  PII_ACTIVE_KEY: z.string().trim().optional(),
  PII_BLIND_INDEX_KEY: z.string().trim().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent' }).default('info'),
  LOG_PRETTY: booleanFlag('LOG_PRETTY').optional(),
  METRICS_PORT: integer('METRICS_PORT', 0, 65535).optional(),
  METRICS_HOST: z.string().trim().min(1).optional(),
  METRICS_TOKEN: z
    .string()
    .trim()
    .refine((t) => t.length >= 16 && /^[\x21-\x7e]+$/.test(t), 'METRICS_TOKEN must be at least 16 printable ASCII characters without spaces')
    .optional(),
  BODY_LIMIT: byteSize('BODY_LIMIT', 1, 10).default(64 * 1024),
  SHUTDOWN_TIMEOUT_MS: integer('SHUTDOWN_TIMEOUT_MS', 100, 120_000).default(10_000),
  SHUTDOWN_DRAIN_MS: integer('SHUTDOWN_DRAIN_MS', 0, 120_000).default(0),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer('HTTP_KEEP_ALIVE_TIMEOUT_MS', 1000, 120_000).default(65_000),
  MIGRATE_ON_START: booleanFlag('MIGRATE_ON_START').default(true),
  MIGRATION_LOCK_TIMEOUT_MS: integer('MIGRATION_LOCK_TIMEOUT_MS', 100, 600_000).default(5000),
  MIGRATION_ATTEMPTS: integer('MIGRATION_ATTEMPTS', 1, 100).default(8),
  HEAP_GROWING_PERCENT: integer('HEAP_GROWING_PERCENT', 0, 1000).default(50),
  IDEMPOTENCY_TTL_HOURS: integer('IDEMPOTENCY_TTL_HOURS', 1, 720).default(24),
  HOLD_EXPIRY_INTERVAL_MS: integer('HOLD_EXPIRY_INTERVAL_MS', 100, 3_600_000).default(5000),
  EVENT_SEQUENCER_INTERVAL_MS: integer('EVENT_SEQUENCER_INTERVAL_MS', 10, 60_000).default(100),
  EVENT_RETENTION_DAYS: integer('EVENT_RETENTION_DAYS', 1, 3650).default(30),
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: booleanFlag('WEBHOOKS_ALLOW_PRIVATE_NETWORKS').default(false),
  WEBHOOKS_TIMEOUT_MS: integer('WEBHOOKS_TIMEOUT_MS', 100, 60_000).default(10_000),
  WEBHOOKS_RETRY_SCHEDULE: z
    .string()
    .transform(commaList)
    .refine((delays) => delays.length >= 1 && delays.length <= 20 && delays.every((delay) => DURATION.test(delay)), 'WEBHOOKS_RETRY_SCHEDULE must be 1 to 20 comma-separated delays such as 500ms, 5s, 5m or 2h')
    .transform((delays) => delays.map(durationMs))
    .refine((delays) => delays.every((delay) => delay <= 24 * 3_600_000), 'WEBHOOKS_RETRY_SCHEDULE delays must be at most 24h each')
    .default(DEFAULT_WEBHOOK_RETRY_SCHEDULE.split(',').map(durationMs)),
  WEBHOOKS_SECRET_OVERLAP_S: integer('WEBHOOKS_SECRET_OVERLAP_S', 0, 30 * 86_400).default(86_400),
  WEBHOOKS_POLL_INTERVAL_MS: integer('WEBHOOKS_POLL_INTERVAL_MS', 10, 60_000).default(1000),
  WEBHOOKS_CONCURRENCY: integer('WEBHOOKS_CONCURRENCY', 1, 200).default(10),
  WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT: integer('WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT', 1, 10_000).default(16),
  WEBHOOKS_ALLOWED_PORTS: z
    .string()
    .trim()
    .refine((v) => v === '*' || v.split(',').every((port) => /^\s*\d{1,5}\s*$/.test(port) && Number(port) >= 1 && Number(port) <= 65535), 'WEBHOOKS_ALLOWED_PORTS must be * or comma-separated ports between 1 and 65535, e.g. 443,8443')
    .transform((v): readonly number[] | '*' => (v === '*' ? '*' : [...new Set(v.split(',').map(Number))]))
    .optional(),
  OIDC_ISSUER: z.string().trim().optional(),
  OIDC_AUDIENCE: z.string().trim().optional(),
  OIDC_JWKS_URL: z.string().trim().optional(),
  OIDC_PUBLIC_KEY: z.string().trim().optional(),
  OIDC_ALGORITHMS: z.string().transform(commaList).optional(),
  OIDC_CLOCK_TOLERANCE_S: integer('OIDC_CLOCK_TOLERANCE_S', 0, 300).default(30),
  OIDC_SCOPES_CLAIM: z.string().trim().min(1).max(200).default('scope'),
  OIDC_ENVIRONMENTS_CLAIM: z.string().trim().min(1).max(200).default('environments'),
  OIDC_JWKS_COOLDOWN_S: integer('OIDC_JWKS_COOLDOWN_S', 0, 3600).default(30),
  OIDC_REQUIRED_TYP: z.string().trim().min(1).max(64).regex(/^[\x21-\x7e]+$/, 'OIDC_REQUIRED_TYP must be a media type such as at+jwt').optional(),
  OIDC_MAX_TOKEN_AGE_S: integer('OIDC_MAX_TOKEN_AGE_S', 1, 31 * 86_400).optional(),

  CORS_ORIGINS: z
    .string()
    .transform(commaList)
    .refine((origins) => origins.every(isOrigin), 'CORS_ORIGINS must be a comma-separated list of origins such as https://studio.apollographql.com (scheme, host and optional port; no path)')
    .optional(),
  GRAPHQL_INTROSPECTION: booleanFlag('GRAPHQL_INTROSPECTION').optional(),
  GRAPHQL_EXPLORER: booleanFlag('GRAPHQL_EXPLORER').optional(),
  GRAPHQL_MAX_DEPTH: integer('GRAPHQL_MAX_DEPTH', 1, 100).default(10),
  GRAPHQL_MAX_ALIASES: integer('GRAPHQL_MAX_ALIASES', 0, 1000).default(30),
  GRAPHQL_MAX_ROOT_FIELDS: integer('GRAPHQL_MAX_ROOT_FIELDS', 1, 1000).default(20),
  // Costs are upper bounds since issue 28 (every list counted at the most it can hold): a page of 100
  // customers with their account ids costs 20,200, which the former 5000 (with 10 accounts assumed) let in as 2,200.
  GRAPHQL_MAX_COST: integer('GRAPHQL_MAX_COST', 1, 1_000_000_000_000).default(25_000),
  GRAPHQL_MAX_TOKENS: integer('GRAPHQL_MAX_TOKENS', 100, 1_000_000).default(2000),
  GRAPHQL_MAX_NODES: integer('GRAPHQL_MAX_NODES', 100, 10_000_000).default(50_000),
  GRAPHQL_MAX_EXECUTION_MS: integer('GRAPHQL_MAX_EXECUTION_MS', 100, 600_000).default(10_000),
  GRAPHQL_MAX_RESPONSE_BYTES: byteSize('GRAPHQL_MAX_RESPONSE_BYTES', 1, 256).default(4 * 1024 * 1024),
  GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS: integer('GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS', 10, 60_000).default(1000),
  GRAPHQL_WS_MAX_CONNECTIONS_PER_PRINCIPAL: integer('GRAPHQL_WS_MAX_CONNECTIONS_PER_PRINCIPAL', 1, 100_000).default(20),
  GRAPHQL_WS_MAX_CONNECTIONS_PER_ADDRESS: integer('GRAPHQL_WS_MAX_CONNECTIONS_PER_ADDRESS', 1, 100_000).default(50),
  GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS: integer('GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS', 1, 1_000_000).default(1000),

  RATE_LIMIT_POINTS: integer('RATE_LIMIT_POINTS', 0, 1_000_000_000).optional(),
  RATE_LIMIT_DURATION_S: integer('RATE_LIMIT_DURATION_S', 1, 86_400).default(60),
  RATE_LIMIT_AUTH_FAILURES: integer('RATE_LIMIT_AUTH_FAILURES', 0, 1_000_000).optional(),
  RATE_LIMIT_AUTH_FAILURES_DURATION_S: integer('RATE_LIMIT_AUTH_FAILURES_DURATION_S', 1, 86_400).default(300),
  RATE_LIMIT_GRAPHQL_COST_PER_POINT: integer('RATE_LIMIT_GRAPHQL_COST_PER_POINT', 1, 10_000_000).default(100),
  REDIS_URL: z
    .string()
    .trim()
    .refine((v) => /^rediss?:\/\/[^\s]+$/.test(v), 'REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://redis.internal:6379/0')
    .optional(),
  TRUST_PROXY_HOPS: integer('TRUST_PROXY_HOPS', 0, 10).default(0),
});

/**
 * Rate limits are on by default, generous enough for any single well-behaved client; under NODE_ENV=test
 * they are off unless set, so test suites that send hundreds of requests (or wrong tokens on purpose)
 * from one address are not throttled. Tests of the limits set small budgets explicitly.
 */
export const RATE_LIMIT_DEFAULTS = { points: 6000, authFailures: 20 } as const;

/** Apollo Sandbox (studio.apollographql.com) calls the API from the browser; allowed outside production by default. */
export const APOLLO_STUDIO_ORIGIN = 'https://studio.apollographql.com';

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

function decodeKey(name: string, base64: string, problems: string[]): Buffer | undefined {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32 || key.toString('base64').replace(/=+$/, '') !== base64.replace(/=+$/, '')) {
    problems.push(`${name} must be 32 bytes encoded in base64 (generate one with: openssl rand -base64 32)`);
    return undefined;
  }
  return key;
}

interface RawPiiSettings {
  PII_KEYS?: string | undefined;
  PII_ACTIVE_KEY?: string | undefined;
  PII_BLIND_INDEX_KEY?: string | undefined;
}

function parsePiiConfig(raw: RawPiiSettings, problems: string[]): PiiConfig {
  const problemsBefore = problems.length;
  let keys: Map<string, Buffer> | undefined;
  if (raw.PII_KEYS !== undefined) {
    keys = new Map();
    for (const pair of commaList(raw.PII_KEYS)) {
      const separator = pair.indexOf(':');
      const kid = separator > 0 ? pair.slice(0, separator) : '';
      if (!KEY_ID.test(kid)) {
        problems.push('PII_KEYS must be a comma-separated list of kid:base64key pairs, kid made of letters, digits, ".", "_" or "-"');
        continue;
      }
      if (keys.has(kid)) problems.push(`PII_KEYS names key "${kid}" twice`);
      const key = decodeKey(`PII_KEYS key "${kid}"`, pair.slice(separator + 1), problems);
      if (key) keys.set(kid, key);
    }
    if (keys.size === 0 && problems.length === problemsBefore) problems.push('PII_KEYS must contain at least one kid:base64key pair');
  }
  const activeKeyId = raw.PII_ACTIVE_KEY;
  if (activeKeyId !== undefined && keys === undefined) problems.push('PII_ACTIVE_KEY is set but PII_KEYS is not');
  if (keys !== undefined && keys.size > 0) {
    if (activeKeyId === undefined) problems.push('PII_ACTIVE_KEY must name one of the keys in PII_KEYS');
    else if (!keys.has(activeKeyId)) problems.push(`PII_ACTIVE_KEY "${activeKeyId}" is not one of the keys in PII_KEYS`);
  }
  const blindIndexKey = raw.PII_BLIND_INDEX_KEY === undefined ? undefined : decodeKey('PII_BLIND_INDEX_KEY', raw.PII_BLIND_INDEX_KEY, problems);
  if ((keys === undefined) !== (raw.PII_BLIND_INDEX_KEY === undefined)) {
    problems.push('PII_KEYS and PII_BLIND_INDEX_KEY must be set together');
  }
  return { keys, activeKeyId, blindIndexKey };
}

type ReplicaSettings = Pick<
  z.infer<typeof envSchema>,
  'DATABASE_URL' | 'DATABASE_REPLICA_URL' | 'DATABASE_REPLICA_MAX_WAIT_MS' | 'DATABASE_REPLICA_MAX_LAG_MS' | 'DATABASE_REPLICA_CHECK_INTERVAL_MS'
>;

function replicaProblems(raw: ReplicaSettings, problems: string[]): void {
  if (raw.DATABASE_REPLICA_URL === undefined) {
    const orphans = (['DATABASE_REPLICA_MAX_WAIT_MS', 'DATABASE_REPLICA_MAX_LAG_MS', 'DATABASE_REPLICA_CHECK_INTERVAL_MS'] as const).filter((name) => raw[name] !== undefined);
    for (const name of orphans) problems.push(`${name} applies only to a read replica, but DATABASE_REPLICA_URL is not set`);
    return;
  }
  if (raw.DATABASE_URL === undefined) problems.push('DATABASE_REPLICA_URL needs DATABASE_URL (the primary it replicates): the embedded PostgreSQL has no replica');
  else if (raw.DATABASE_URL === raw.DATABASE_REPLICA_URL) problems.push('DATABASE_REPLICA_URL must name the replica, not the primary of DATABASE_URL');
}

type ListenSettings = Pick<z.infer<typeof envSchema>, 'DATABASE_URL' | 'DATABASE_REPLICA_URL' | 'DATABASE_LISTEN' | 'DATABASE_LISTEN_URL'>;

/**
 * Where the wake-ups are LISTENed for. A transaction-mode pooler hands the LISTEN to whichever server
 * connection ran it and then to other clients, so nothing would ever arrive, silently: behind one the operator
 * says where to listen (a direct or session-mode URL to the primary) or that polling is enough. A standby
 * refuses LISTEN and never sees the primary's notifications, so the replica is never the place either.
 */
function listenProblems(raw: ListenSettings, preparedStatements: boolean, databaseOnly: boolean, problems: string[]): void {
  const url = raw.DATABASE_LISTEN_URL;
  if (url !== undefined) {
    if (raw.DATABASE_LISTEN === false) problems.push('DATABASE_LISTEN_URL is set but DATABASE_LISTEN=false: unset one of them');
    if (raw.DATABASE_URL === undefined) problems.push('DATABASE_LISTEN_URL needs DATABASE_URL: with the embedded PostgreSQL the service listens on the embedded server itself');
    let pgbouncer: string | null = null;
    try {
      pgbouncer = new URL(url).searchParams.get('pgbouncer');
    } catch {
      // not a URL: the schema's check reports it
    }
    if (pgbouncer === 'true') {
      problems.push('DATABASE_LISTEN_URL says pgbouncer=true (a pooler in transaction mode), through which LISTEN receives nothing: point it at the PostgreSQL primary directly, or at a pooler in session mode');
    }
    if (raw.DATABASE_REPLICA_URL !== undefined && url === raw.DATABASE_REPLICA_URL) {
      problems.push('DATABASE_LISTEN_URL must reach the primary (the server of DATABASE_URL), not the replica of DATABASE_REPLICA_URL: a standby refuses LISTEN and never receives the primary\'s notifications');
    }
    return;
  }
  if (!preparedStatements && raw.DATABASE_LISTEN !== false && !databaseOnly) {
    problems.push(
      'DATABASE_URL goes through a transaction-mode pooler (DATABASE_PREPARED_STATEMENTS=false or pgbouncer=true), through which LISTEN receives no notifications: ' +
        'set DATABASE_LISTEN_URL to a direct (or session-mode) connection to the PostgreSQL primary, ' +
        'or DATABASE_LISTEN=false to have other instances\' work found by polling only (WEBHOOKS_POLL_INTERVAL_MS, GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS).',
    );
  }
}

/**
 * Prisma's own flag for "this URL is a pgbouncer in transaction mode" (`?pgbouncer=true`): Prisma users put
 * it in their URLs, and the pg driver would ignore it silently, so it is honoured here rather than left a trap.
 */
function pgbouncerFlag(databaseUrl: string | undefined, problems: string[]): boolean | undefined {
  if (databaseUrl === undefined) return undefined;
  let value: string | null;
  try {
    value = new URL(databaseUrl).searchParams.get('pgbouncer');
  } catch {
    return undefined; // not a URL: the schema's check reports it
  }
  if (value === null) return undefined;
  if (value !== 'true' && value !== 'false') {
    problems.push('DATABASE_URL: its pgbouncer parameter must be true or false');
    return undefined;
  }
  return value === 'true';
}

export interface LoadConfigOptions {
  /**
   * For `npm run db:migrate`, which reaches only the database: production's tokens and keys are not
   * required (a migration job should not hold them), and MIGRATE_ON_START does not apply.
   */
  databaseOnly?: boolean;
}

/** Reads and validates the configuration; throws ConfigError listing every bad value at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env, options: LoadConfigOptions = {}): Config {
  // An empty variable means "not set", as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  // The checks below read the raw strings so that they run, and report, even when other variables
  // are bad: an operator fixes every problem in one go.
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`);
  const pii = parsePiiConfig({ PII_KEYS: present.PII_KEYS, PII_ACTIVE_KEY: present.PII_ACTIVE_KEY?.trim(), PII_BLIND_INDEX_KEY: present.PII_BLIND_INDEX_KEY?.trim() }, problems);
  const oidc = parsed.success ? parseOidcConfig(parsed.data, problems) : undefined;
  const apiTokens = present.API_TOKENS === undefined ? undefined : commaList(present.API_TOKENS);
  if (apiTokens) problems.push(...staticTokenProblems(apiTokens));
  if (apiTokens?.some((token) => token.startsWith('cas_'))) problems.push('API_TOKENS entries must not start with cas_ (reserved for managed tokens: npm run token)');
  if (oidc && apiTokens?.some((token) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token))) {
    problems.push('API_TOKENS entries must not look like JWTs (x.y.z) when OIDC_ISSUER is set: they would be verified as JWTs');
  }
  const behindPgbouncer = pgbouncerFlag(parsed.success ? parsed.data.DATABASE_URL : undefined, problems);
  const preparedStatements = parsed.success ? (parsed.data.DATABASE_PREPARED_STATEMENTS ?? behindPgbouncer !== true) : true;
  if (behindPgbouncer === true && parsed.success && parsed.data.DATABASE_PREPARED_STATEMENTS === true) {
    problems.push('DATABASE_PREPARED_STATEMENTS is true but DATABASE_URL says pgbouncer=true (a pooler in transaction mode, where named prepared statements fail): remove one of them');
  }
  if (!preparedStatements && parsed.success && parsed.data.MIGRATE_ON_START && !options.databaseOnly) {
    problems.push(
      'MIGRATE_ON_START must be false when DATABASE_URL goes through a transaction-mode pooler (DATABASE_PREPARED_STATEMENTS=false or pgbouncer=true): ' +
        'migrations hold a session advisory lock and session settings, which such a pooler hands on to other clients. ' +
        'Run npm run db:migrate with DATABASE_URL pointing at the PostgreSQL primary directly.',
    );
  }
  if (present.NODE_ENV === 'production' && !options.databaseOnly) {
    if (pii.keys === undefined) problems.push('PII_KEYS, PII_ACTIVE_KEY and PII_BLIND_INDEX_KEY are required in production (NODE_ENV=production)');
    if (parsed.success && parsed.data.WEBHOOKS_ALLOW_PRIVATE_NETWORKS) {
      problems.push('WEBHOOKS_ALLOW_PRIVATE_NETWORKS must not be true in production (NODE_ENV=production): webhooks could reach internal services');
    }
  }
  if (parsed.success && parsed.data.API_TOKENS !== undefined && parsed.data.API_TOKENS.length === 0) problems.push('API_TOKENS is set but contains no token');
  if (parsed.success && parsed.data.METRICS_PORT !== undefined && parsed.data.METRICS_PORT !== 0 && parsed.data.METRICS_PORT === parsed.data.PORT) {
    problems.push('METRICS_PORT must differ from PORT (unset it to serve /metrics on PORT)');
  }
  if (parsed.success && parsed.data.DATABASE_URL !== undefined && parsed.data.EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS !== undefined) {
    problems.push('EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS applies only to the embedded PostgreSQL, but DATABASE_URL is set: unset one of them');
  }
  if (parsed.success && parsed.data.METRICS_HOST !== undefined && parsed.data.METRICS_PORT === undefined) problems.push('METRICS_HOST is set without METRICS_PORT');
  if (parsed.success && parsed.data.METRICS_PORT !== undefined && parsed.data.METRICS_TOKEN === undefined && parsed.data.METRICS_HOST !== undefined && !isLoopbackHost(parsed.data.METRICS_HOST)) {
    problems.push('METRICS_HOST must be a loopback address (127.0.0.1, ::1, localhost) unless METRICS_TOKEN is set: the metrics listener has no other guard; set METRICS_TOKEN to serve it on another interface');
  }
  if (parsed.success) replicaProblems(parsed.data, problems);
  if (parsed.success) listenProblems(parsed.data, preparedStatements, options.databaseOnly === true, problems);
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const raw = parsed.data;

  return {
    nodeEnv: raw.NODE_ENV,
    host: raw.HOST,
    port: raw.PORT,
    databaseUrl: raw.DATABASE_URL,
    dataDir: path.resolve(raw.DATA_DIR),
    embeddedPostgresPort: raw.EMBEDDED_POSTGRES_PORT,
    embeddedPostgresRestartTimeoutMs: raw.EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS ?? 60_000,
    databasePoolSize: raw.DATABASE_POOL_SIZE,
    databaseConnectTimeoutMs: raw.DATABASE_CONNECT_TIMEOUT_MS,
    databaseStatementTimeoutMs: raw.DATABASE_STATEMENT_TIMEOUT_MS,
    databaseReplica:
      raw.DATABASE_REPLICA_URL === undefined
        ? undefined
        : {
            url: raw.DATABASE_REPLICA_URL,
            maxWaitMs: raw.DATABASE_REPLICA_MAX_WAIT_MS ?? REPLICA_DEFAULTS.maxWaitMs,
            maxLagMs: raw.DATABASE_REPLICA_MAX_LAG_MS ?? REPLICA_DEFAULTS.maxLagMs,
            checkIntervalMs: raw.DATABASE_REPLICA_CHECK_INTERVAL_MS ?? REPLICA_DEFAULTS.checkIntervalMs,
          },
    databasePreparedStatements: preparedStatements,
    databaseListen: raw.DATABASE_LISTEN ?? true,
    databaseListenUrl: raw.DATABASE_LISTEN_URL,
    apiTokens: raw.API_TOKENS,
    environments: [...new Set(raw.ENVIRONMENTS)],
    pii,
    logLevel: raw.LOG_LEVEL,
    logPretty: raw.LOG_PRETTY ?? raw.NODE_ENV === 'development',
    metrics: { port: raw.METRICS_PORT, host: raw.METRICS_HOST ?? (raw.METRICS_PORT !== undefined && raw.METRICS_TOKEN === undefined ? '127.0.0.1' : raw.HOST), token: raw.METRICS_TOKEN },
    bodyLimitBytes: raw.BODY_LIMIT,
    shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: raw.SHUTDOWN_DRAIN_MS,
    keepAliveTimeoutMs: raw.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    runMigrationsOnStart: raw.MIGRATE_ON_START,
    migrations: { lockTimeoutMs: raw.MIGRATION_LOCK_TIMEOUT_MS, attempts: raw.MIGRATION_ATTEMPTS },
    heapGrowingPercent: raw.HEAP_GROWING_PERCENT,
    oidc,
    idempotencyTtlHours: raw.IDEMPOTENCY_TTL_HOURS,
    holdExpiryIntervalMs: raw.HOLD_EXPIRY_INTERVAL_MS,
    events: { sequencerIntervalMs: raw.EVENT_SEQUENCER_INTERVAL_MS, retentionDays: raw.EVENT_RETENTION_DAYS },
    webhooks: {
      allowPrivateNetworks: raw.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
      timeoutMs: raw.WEBHOOKS_TIMEOUT_MS,
      retryScheduleMs: raw.WEBHOOKS_RETRY_SCHEDULE,
      secretOverlapMs: raw.WEBHOOKS_SECRET_OVERLAP_S * 1000,
      pollIntervalMs: raw.WEBHOOKS_POLL_INTERVAL_MS,
      concurrency: raw.WEBHOOKS_CONCURRENCY,
      maxEndpointsPerEnvironment: raw.WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT,
      // A local receiver (tests, development with private networks allowed) listens on any port.
      allowedPorts: raw.WEBHOOKS_ALLOWED_PORTS ?? (raw.WEBHOOKS_ALLOW_PRIVATE_NETWORKS ? '*' : DEFAULT_WEBHOOK_PORTS),
      requireHttps: raw.NODE_ENV === 'production',
    },

    corsOrigins: raw.CORS_ORIGINS ?? (raw.NODE_ENV === 'production' ? [] : [APOLLO_STUDIO_ORIGIN]),
    graphql: {
      introspection: raw.GRAPHQL_INTROSPECTION ?? raw.NODE_ENV !== 'production',
      explorer: raw.GRAPHQL_EXPLORER ?? raw.NODE_ENV !== 'production',
      maxDepth: raw.GRAPHQL_MAX_DEPTH,
      maxAliases: raw.GRAPHQL_MAX_ALIASES,
      maxRootFields: raw.GRAPHQL_MAX_ROOT_FIELDS,
      maxCost: raw.GRAPHQL_MAX_COST,
      maxTokens: raw.GRAPHQL_MAX_TOKENS,
      maxNodes: raw.GRAPHQL_MAX_NODES,
      maxExecutionMs: raw.GRAPHQL_MAX_EXECUTION_MS,
      maxResponseBytes: raw.GRAPHQL_MAX_RESPONSE_BYTES,
      subscriptionPollIntervalMs: raw.GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS,
      maxWsConnectionsPerPrincipal: raw.GRAPHQL_WS_MAX_CONNECTIONS_PER_PRINCIPAL,
      maxWsConnectionsPerAddress: raw.GRAPHQL_WS_MAX_CONNECTIONS_PER_ADDRESS,
      maxSubscriptionFollowers: raw.GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS,
    },
    rateLimit: {
      points: raw.RATE_LIMIT_POINTS ?? (raw.NODE_ENV === 'test' ? 0 : RATE_LIMIT_DEFAULTS.points),
      durationS: raw.RATE_LIMIT_DURATION_S,
      authFailures: raw.RATE_LIMIT_AUTH_FAILURES ?? (raw.NODE_ENV === 'test' ? 0 : RATE_LIMIT_DEFAULTS.authFailures),
      authFailuresDurationS: raw.RATE_LIMIT_AUTH_FAILURES_DURATION_S,
      graphqlCostPerPoint: raw.RATE_LIMIT_GRAPHQL_COST_PER_POINT,
      redisUrl: raw.REDIS_URL,
    },
    trustProxyHops: raw.TRUST_PROXY_HOPS,
  };
}
