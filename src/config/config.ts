import path from 'node:path';
import { z } from 'zod';
import { type OidcConfig, parseOidcConfig } from './oidc.js';

export type { OidcConfig } from './oidc.js';

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
  databasePoolSize: number;
  databaseConnectTimeoutMs: number;
  databaseStatementTimeoutMs: number;
  /** Static full-access bearer tokens; undefined in development means "generate one". */
  apiTokens: string[] | undefined;
  environments: string[];
  pii: PiiConfig;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  logPretty: boolean;
  /** GET /metrics: on `port` when set, else on the main port when `token` is set, else not served. */
  metrics: MetricsConfig;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  runMigrationsOnStart: boolean;
  /** OIDC/JWT bearer tokens; undefined when OIDC_ISSUER is not set. */
  oidc: OidcConfig | undefined;
  /** How long an idempotency key and its stored result are kept. */
  idempotencyTtlHours: number;
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

const integer = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

const booleanFlag = (name: string) =>
  z.enum(['true', 'false', '1', '0'], { message: `${name} must be true or false` }).transform((v) => v === 'true' || v === '1');

const byteSize = z
  .string()
  .trim()
  .regex(/^\d+(b|kb|mb)?$/i, 'BODY_LIMIT must look like 65536, 64kb or 1mb')
  .transform((v) => {
    const match = /^(\d+)(b|kb|mb)?$/i.exec(v)!;
    const unit = (match[2] ?? 'b').toLowerCase();
    return Number(match[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
  })
  .refine((n) => n >= 1024 && n <= 10 * 1024 * 1024, 'BODY_LIMIT must be between 1kb and 10mb');

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
  DATABASE_POOL_SIZE: integer('DATABASE_POOL_SIZE', 1, 200).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: integer('DATABASE_CONNECT_TIMEOUT_MS', 100, 60_000).default(2000),
  DATABASE_STATEMENT_TIMEOUT_MS: integer('DATABASE_STATEMENT_TIMEOUT_MS', 100, 600_000).default(5000),
  API_TOKENS: z
    .string()
    .transform(commaList)
    .refine((tokens) => tokens.every((t) => t.length >= 16), 'API_TOKENS entries must be at least 16 characters long')
    .refine((tokens) => tokens.every((t) => /^[\x21-\x7e]+$/.test(t)), 'API_TOKENS entries must be printable ASCII without spaces')
    .optional(),
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
  BODY_LIMIT: byteSize.default(64 * 1024),
  SHUTDOWN_TIMEOUT_MS: integer('SHUTDOWN_TIMEOUT_MS', 100, 120_000).default(10_000),
  MIGRATE_ON_START: booleanFlag('MIGRATE_ON_START').default(true),
  IDEMPOTENCY_TTL_HOURS: integer('IDEMPOTENCY_TTL_HOURS', 1, 720).default(24),
  OIDC_ISSUER: z.string().trim().optional(),
  OIDC_AUDIENCE: z.string().trim().optional(),
  OIDC_JWKS_URL: z.string().trim().optional(),
  OIDC_PUBLIC_KEY: z.string().trim().optional(),
  OIDC_ALGORITHMS: z.string().transform(commaList).optional(),
  OIDC_CLOCK_TOLERANCE_S: integer('OIDC_CLOCK_TOLERANCE_S', 0, 300).default(30),
  OIDC_SCOPES_CLAIM: z.string().trim().min(1).max(200).default('scope'),
  OIDC_ENVIRONMENTS_CLAIM: z.string().trim().min(1).max(200).default('environments'),
  OIDC_JWKS_COOLDOWN_S: integer('OIDC_JWKS_COOLDOWN_S', 0, 3600).default(30),
});

function decodeKey(name: string, base64: string, problems: string[]): Buffer | undefined {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32 || key.toString('base64').replace(/=+$/, '') !== base64.replace(/=+$/, '')) {
    problems.push(`${name} must be 32 bytes encoded in base64 (generate one with: openssl rand -base64 32)`);
    return undefined;
  }
  return key;
}

function parsePiiConfig(raw: z.infer<typeof envSchema>, problems: string[]): PiiConfig {
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
    if (keys.size === 0 && problems.length === 0) problems.push('PII_KEYS must contain at least one kid:base64key pair');
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

/** Reads and validates the configuration; throws ConfigError listing every bad value at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`));
  }
  const raw = parsed.data;
  const problems: string[] = [];
  const pii = parsePiiConfig(raw, problems);
  const oidc = parseOidcConfig(raw, problems);
  if (raw.API_TOKENS?.some((token) => token.startsWith('cas_'))) problems.push('API_TOKENS entries must not start with cas_ (reserved for managed tokens: npm run token)');
  if (oidc && raw.API_TOKENS?.some((token) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token))) {
    problems.push('API_TOKENS entries must not look like JWTs (x.y.z) when OIDC_ISSUER is set: they would be verified as JWTs');
  }
  if (raw.NODE_ENV === 'production') {
    if (raw.API_TOKENS === undefined) problems.push('API_TOKENS is required in production (NODE_ENV=production)');
    if (pii.keys === undefined) problems.push('PII_KEYS, PII_ACTIVE_KEY and PII_BLIND_INDEX_KEY are required in production (NODE_ENV=production)');
  }
  if (raw.API_TOKENS !== undefined && raw.API_TOKENS.length === 0) problems.push('API_TOKENS is set but contains no token');
  if (raw.METRICS_PORT !== undefined && raw.METRICS_PORT !== 0 && raw.METRICS_PORT === raw.PORT) problems.push('METRICS_PORT must differ from PORT (unset it to serve /metrics on PORT with METRICS_TOKEN)');
  if (raw.METRICS_HOST !== undefined && raw.METRICS_PORT === undefined) problems.push('METRICS_HOST is set without METRICS_PORT');
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    nodeEnv: raw.NODE_ENV,
    host: raw.HOST,
    port: raw.PORT,
    databaseUrl: raw.DATABASE_URL,
    dataDir: path.resolve(raw.DATA_DIR),
    embeddedPostgresPort: raw.EMBEDDED_POSTGRES_PORT,
    databasePoolSize: raw.DATABASE_POOL_SIZE,
    databaseConnectTimeoutMs: raw.DATABASE_CONNECT_TIMEOUT_MS,
    databaseStatementTimeoutMs: raw.DATABASE_STATEMENT_TIMEOUT_MS,
    apiTokens: raw.API_TOKENS,
    environments: [...new Set(raw.ENVIRONMENTS)],
    pii,
    logLevel: raw.LOG_LEVEL,
    logPretty: raw.LOG_PRETTY ?? raw.NODE_ENV === 'development',
    metrics: { port: raw.METRICS_PORT, host: raw.METRICS_HOST ?? raw.HOST, token: raw.METRICS_TOKEN },
    bodyLimitBytes: raw.BODY_LIMIT,
    shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS,
    runMigrationsOnStart: raw.MIGRATE_ON_START,
    oidc,
    idempotencyTtlHours: raw.IDEMPOTENCY_TTL_HOURS,
  };
}
