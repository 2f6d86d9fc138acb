import { z } from 'zod';
import { accessConfig, accessEnv } from './access.js';
import { accountNumbersConfig, accountNumbersEnv, routingNumberProblems } from './account-numbers.js';
import { clockConfig, clockEnv } from './clock.js';
import { consoleEnv, parseConsoleOidcConfig } from './console.js';
import { databaseConfig, databaseEnv, listenProblems, pgbouncerFlag, replicaProblems } from './database.js';
import { graphqlConfig, graphqlEnv } from './graphql.js';
import { jobsConfig, jobsEnv } from './jobs.js';
import { lifecycleConfig, lifecycleEnv } from './lifecycle.js';
import { dormancyConfig, dormancyEnv, dormancyProblems } from './dormancy.js';
import { verificationConfig, verificationEnv, verificationProblems } from './verification.js';
import { ledgerExportProblems, limitsConfig, limitsEnv } from './limits.js';
import { loggingConfig, loggingEnv } from './logging.js';
import { isLoopbackHost, metricsConfig, metricsEnv } from './metrics.js';
import { oidcEnv, parseOidcConfig } from './oidc.js';
import { parsePiiConfig, piiEnv } from './pii.js';
import { defaultHost, httpConfig, httpEnv, httpProblems, serverConfig, serverEnv } from './server.js';
import { commaList } from './settings.js';
import { startupConfig, startupEnv } from './startup.js';
import { statementPdfProblems, statementsConfig, statementsEnv } from './statements.js';
import { staticTokenProblems } from './static-tokens.js';
import { taxFormProblems, taxFormsConfig, taxFormsEnv } from './tax-forms.js';
import { webhooksConfig, webhooksEnv } from './webhooks.js';

export type { ConsoleOidcConfig } from './console.js';
export { APOLLO_STUDIO_ORIGIN, type GraphqlConfig } from './graphql.js';
export { RATE_LIMIT_DEFAULTS, type RateLimitConfig } from './limits.js';
export { isLoopbackHost, type MetricsConfig } from './metrics.js';
export { REPLICA_DEFAULTS, type ReplicaConfig } from './database.js';
export type { PiiConfig } from './pii.js';
export { DEFAULT_WEBHOOK_PORTS, DEFAULT_WEBHOOK_RETRY_SCHEDULE, type WebhooksConfig } from './webhooks.js';

/**
 * The service's whole configuration, read from the environment once at startup (see README,
 * "Configuration"). Nothing else in the code reads process.env.
 *
 * Each section (server.ts, database.ts, access.ts, pii.ts, logging.ts, metrics.ts, startup.ts, jobs.ts,
 * webhooks.ts, oidc.ts, console.ts, graphql.ts, limits.ts, statements.ts, verification.ts, clock.ts, lifecycle.ts, account-numbers.ts, tax-forms.ts) defines its variables once: their zod schema, and the mapping
 * to its part of `Config`, whose type is inferred from it. This module composes them, in the order the
 * problems are reported, and checks what spans sections.
 */
const envSchema = z.object({
  ...serverEnv,
  ...databaseEnv,
  ...accessEnv,
  ...piiEnv,
  ...loggingEnv,
  ...metricsEnv,
  ...httpEnv,
  ...startupEnv,
  ...jobsEnv,
  ...webhooksEnv,
  ...oidcEnv,
  ...consoleEnv,
  ...graphqlEnv,
  ...limitsEnv,
  ...statementsEnv,
  ...verificationEnv,
  ...clockEnv,
  ...lifecycleEnv,
  ...dormancyEnv,
  ...accountNumbersEnv,
  ...taxFormsEnv,
});

/** Every variable the configuration reads, in the order their problems are reported. */
export const CONFIGURATION_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export type Config = ReturnType<typeof serverConfig> &
  ReturnType<typeof databaseConfig> &
  ReturnType<typeof accessConfig> & { pii: ReturnType<typeof parsePiiConfig> } & ReturnType<typeof loggingConfig> &
  ReturnType<typeof metricsConfig> &
  ReturnType<typeof httpConfig> &
  ReturnType<typeof startupConfig> &
  /** OIDC/JWT bearer tokens; undefined when OIDC_ISSUER is not set. */
  {
    oidc: ReturnType<typeof parseOidcConfig>;
  } /** The console's OIDC sign-in; undefined when CONSOLE_OIDC_CLIENT_ID is not set. */ & {
    consoleOidc: ReturnType<typeof parseConsoleOidcConfig>;
  } & ReturnType<typeof jobsConfig> &
  ReturnType<typeof webhooksConfig> &
  ReturnType<typeof graphqlConfig> &
  ReturnType<typeof limitsConfig> &
  ReturnType<typeof statementsConfig> &
  ReturnType<typeof verificationConfig> &
  ReturnType<typeof clockConfig> &
  ReturnType<typeof lifecycleConfig> &
  ReturnType<typeof dormancyConfig> &
  ReturnType<typeof accountNumbersConfig> &
  ReturnType<typeof taxFormsConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export interface LoadConfigOptions {
  /**
   * For `npm run db:migrate`, which reaches only the database: production's tokens and keys are not
   * required (a migration job should not hold them), and MIGRATE_ON_START does not apply.
   */
  databaseOnly?: boolean;
}

/** Reads and validates the configuration; throws ConfigError listing every bad value at once. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: LoadConfigOptions = {},
): Config {
  // An empty variable means "not set", as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  // The checks below read the raw strings so that they run, and report, even when other variables
  // are bad: an operator fixes every problem in one go.
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`);
  const pii = parsePiiConfig(
    {
      PII_KEYS: present.PII_KEYS,
      PII_ACTIVE_KEY: present.PII_ACTIVE_KEY?.trim(),
      PII_BLIND_INDEX_KEY: present.PII_BLIND_INDEX_KEY?.trim(),
    },
    problems,
  );
  const oidc = parsed.success ? parseOidcConfig(parsed.data, problems, parsed.data.NODE_ENV) : undefined;
  const consoleOidc = parsed.success ? parseConsoleOidcConfig(parsed.data, problems) : undefined;
  const apiTokens = present.API_TOKENS === undefined ? undefined : commaList(present.API_TOKENS);
  if (apiTokens) problems.push(...staticTokenProblems(apiTokens));
  if (apiTokens?.some((token) => token.startsWith('cas_')))
    problems.push('API_TOKENS entries must not start with cas_ (reserved for managed tokens: npm run token)');
  if (oidc && apiTokens?.some((token) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token))) {
    problems.push(
      'API_TOKENS entries must not look like JWTs (x.y.z) when OIDC_ISSUER is set: they would be verified as JWTs',
    );
  }
  const behindPgbouncer = pgbouncerFlag(parsed.success ? parsed.data.DATABASE_URL : undefined, problems);
  const preparedStatements = parsed.success
    ? (parsed.data.DATABASE_PREPARED_STATEMENTS ?? behindPgbouncer !== true)
    : true;
  if (behindPgbouncer === true && parsed.success && parsed.data.DATABASE_PREPARED_STATEMENTS === true) {
    problems.push(
      'DATABASE_PREPARED_STATEMENTS is true but DATABASE_URL says pgbouncer=true (a pooler in transaction mode, where named prepared statements fail): remove one of them',
    );
  }
  if (!preparedStatements && parsed.success && parsed.data.MIGRATE_ON_START && !options.databaseOnly) {
    problems.push(
      'MIGRATE_ON_START must be false when DATABASE_URL goes through a transaction-mode pooler (DATABASE_PREPARED_STATEMENTS=false or pgbouncer=true): ' +
        'migrations hold a session advisory lock and session settings, which such a pooler hands on to other clients. ' +
        'Run npm run db:migrate with DATABASE_URL pointing at the PostgreSQL primary directly.',
    );
  }
  if (present.NODE_ENV === 'production' && !options.databaseOnly) {
    if (pii.keys === undefined)
      problems.push(
        'PII_KEYS, PII_ACTIVE_KEY and PII_BLIND_INDEX_KEY are required in production (NODE_ENV=production)',
      );
    if (parsed.success && parsed.data.WEBHOOKS_ALLOW_PRIVATE_NETWORKS) {
      problems.push(
        'WEBHOOKS_ALLOW_PRIVATE_NETWORKS must not be true in production (NODE_ENV=production): webhooks could reach internal services',
      );
    }
  }
  if (parsed.success && parsed.data.API_TOKENS !== undefined && parsed.data.API_TOKENS.length === 0)
    problems.push('API_TOKENS is set but contains no token');
  if (
    parsed.success &&
    parsed.data.METRICS_PORT !== undefined &&
    parsed.data.METRICS_PORT !== 0 &&
    parsed.data.METRICS_PORT === parsed.data.PORT
  ) {
    problems.push('METRICS_PORT must differ from PORT (unset it to serve /metrics on PORT)');
  }
  if (
    parsed.success &&
    parsed.data.DATABASE_URL !== undefined &&
    parsed.data.EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS !== undefined
  ) {
    problems.push(
      'EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS applies only to the embedded PostgreSQL, but DATABASE_URL is set: unset one of them',
    );
  }
  if (parsed.success && parsed.data.METRICS_HOST !== undefined && parsed.data.METRICS_PORT === undefined)
    problems.push('METRICS_HOST is set without METRICS_PORT');
  if (
    parsed.success &&
    parsed.data.METRICS_PORT !== undefined &&
    parsed.data.METRICS_TOKEN === undefined &&
    parsed.data.METRICS_HOST !== undefined &&
    !isLoopbackHost(parsed.data.METRICS_HOST)
  ) {
    problems.push(
      'METRICS_HOST must be a loopback address (127.0.0.1, ::1, localhost) unless METRICS_TOKEN is set: the metrics listener has no other guard; set METRICS_TOKEN to serve it on another interface',
    );
  }
  if (parsed.success) replicaProblems(parsed.data, problems);
  if (parsed.success) ledgerExportProblems(parsed.data, problems);
  if (parsed.success) httpProblems(parsed.data, problems);
  if (parsed.success) statementPdfProblems(parsed.data, problems);
  if (parsed.success) dormancyProblems(parsed.data, problems);
  if (parsed.success) routingNumberProblems(parsed.data, parsed.data.ENVIRONMENTS, problems);
  if (parsed.success) taxFormProblems(parsed.data, problems);
  if (parsed.success && !options.databaseOnly)
    verificationProblems(parsed.data, parsed.data.NODE_ENV, parsed.data.ENVIRONMENTS, problems);
  if (parsed.success) listenProblems(parsed.data, preparedStatements, options.databaseOnly === true, problems);
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const raw = parsed.data;

  return {
    ...serverConfig(raw),
    ...databaseConfig(raw, preparedStatements),
    ...accessConfig(raw),
    pii,
    ...loggingConfig(raw, raw.NODE_ENV),
    ...metricsConfig(raw, raw.HOST ?? defaultHost(raw.NODE_ENV)),
    ...httpConfig(raw, raw.TRUST_PROXY_HOPS),
    ...startupConfig(raw),
    oidc,
    consoleOidc,
    ...jobsConfig(raw),
    ...webhooksConfig(raw, raw.NODE_ENV),
    ...graphqlConfig(raw, raw.NODE_ENV),
    ...limitsConfig(raw, raw.NODE_ENV),
    ...statementsConfig(raw),
    ...verificationConfig(raw, raw.NODE_ENV),
    ...clockConfig(raw, accessConfig(raw).environments),
    ...lifecycleConfig(raw),
    ...dormancyConfig(raw),
    ...accountNumbersConfig(raw, accessConfig(raw).environments),
    ...taxFormsConfig(raw, raw.NODE_ENV),
  };
}
