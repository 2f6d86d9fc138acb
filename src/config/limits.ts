import { z } from 'zod';
import { integer, type Settings } from './settings.js';

/**
 * Rate limits are on by default, generous enough for any single well-behaved client; under NODE_ENV=test
 * they are off unless set, so test suites that send hundreds of requests (or wrong tokens on purpose)
 * from one address are not throttled. Tests of the limits set small budgets explicitly.
 */
export const RATE_LIMIT_DEFAULTS = {
  points: 6000,
  authFailures: 20,
  ssnSearchesPerMinute: 30,
  accountNumberLookupsPerMinute: 600,
} as const;

/** Request budgets (docs/reference/limits.md, "Rate limits"), their shared counters, and the proxies trusted in front. */
export const limitsEnv = {
  RATE_LIMIT_POINTS: integer('RATE_LIMIT_POINTS', 0, 1_000_000_000).optional(),
  RATE_LIMIT_DURATION_S: integer('RATE_LIMIT_DURATION_S', 1, 86_400).default(60),
  RATE_LIMIT_AUTH_FAILURES: integer('RATE_LIMIT_AUTH_FAILURES', 0, 1_000_000).optional(),
  RATE_LIMIT_AUTH_FAILURES_DURATION_S: integer('RATE_LIMIT_AUTH_FAILURES_DURATION_S', 1, 86_400).default(300),
  RATE_LIMIT_GRAPHQL_COST_PER_POINT: integer('RATE_LIMIT_GRAPHQL_COST_PER_POINT', 1, 10_000_000).default(100),
  SSN_SEARCH_RATE_LIMIT_PER_MINUTE: integer('SSN_SEARCH_RATE_LIMIT_PER_MINUTE', 0, 1_000_000).optional(),
  ACCOUNT_NUMBER_LOOKUP_RATE_LIMIT_PER_MINUTE: integer(
    'ACCOUNT_NUMBER_LOOKUP_RATE_LIMIT_PER_MINUTE',
    0,
    1_000_000,
  ).optional(),
  REDIS_URL: z
    .string()
    .trim()
    .refine(
      (v) => /^rediss?:\/\/[^\s]+$/.test(v),
      'REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://redis.internal:6379/0',
    )
    .optional(),
  TRUST_PROXY_HOPS: integer('TRUST_PROXY_HOPS', 0, 10).default(0),
  LEDGER_EXPORT_MAX_CONCURRENT: integer('LEDGER_EXPORT_MAX_CONCURRENT', 1, 1000).optional(),
};

/**
 * Ledger exports an instance runs at once by default: two, and always fewer than the pool's connections (each
 * export holds one for its whole run), except with a pool of one, where the one export waits its turn.
 */
export const defaultLedgerExportConcurrency = (poolSize: number): number => Math.max(1, Math.min(2, poolSize - 1));

/** LEDGER_EXPORT_MAX_CONCURRENT, set, must leave the pool a connection for every other request. */
export function ledgerExportProblems(
  raw: Pick<Settings<typeof limitsEnv>, 'LEDGER_EXPORT_MAX_CONCURRENT'> & { DATABASE_POOL_SIZE: number },
  problems: string[],
): void {
  if (
    raw.LEDGER_EXPORT_MAX_CONCURRENT !== undefined &&
    raw.DATABASE_POOL_SIZE > 1 &&
    raw.LEDGER_EXPORT_MAX_CONCURRENT >= raw.DATABASE_POOL_SIZE
  ) {
    problems.push(
      'LEDGER_EXPORT_MAX_CONCURRENT must be less than DATABASE_POOL_SIZE: each ledger export holds a database connection for its whole run, and the other requests need the rest',
    );
  }
}

export const limitsConfig = (raw: Settings<typeof limitsEnv> & { DATABASE_POOL_SIZE: number }, nodeEnv: string) => ({
  /** Request budgets (docs/reference/limits.md, "Rate limits"); 0 points turns a budget off. */
  rateLimit: {
    /** Points each principal (token) may spend per window, shared by REST and GraphQL. */
    points: raw.RATE_LIMIT_POINTS ?? (nodeEnv === 'test' ? 0 : RATE_LIMIT_DEFAULTS.points),
    durationS: raw.RATE_LIMIT_DURATION_S,
    /** Refused bearer tokens one client address (IPv6: its /64) may send per window before its refused tokens are answered 429. */
    authFailures: raw.RATE_LIMIT_AUTH_FAILURES ?? (nodeEnv === 'test' ? 0 : RATE_LIMIT_DEFAULTS.authFailures),
    authFailuresDurationS: raw.RATE_LIMIT_AUTH_FAILURES_DURATION_S,
    /** A GraphQL operation costs 1 point plus one per this much estimated query cost. */
    graphqlCostPerPoint: raw.RATE_LIMIT_GRAPHQL_COST_PER_POINT,
    /** Searches by SSN each principal may make per minute, on top of its request budget (REST and GraphQL together). */
    ssnSearchesPerMinute:
      raw.SSN_SEARCH_RATE_LIMIT_PER_MINUTE ?? (nodeEnv === 'test' ? 0 : RATE_LIMIT_DEFAULTS.ssnSearchesPerMinute),
    /** Account number look-ups each principal may make per minute, on top of its request budget (REST and GraphQL together). */
    accountNumberLookupsPerMinute:
      raw.ACCOUNT_NUMBER_LOOKUP_RATE_LIMIT_PER_MINUTE ??
      (nodeEnv === 'test' ? 0 : RATE_LIMIT_DEFAULTS.accountNumberLookupsPerMinute),
    /** Shared counters for several instances; undefined keeps them in this process's memory. */
    redisUrl: raw.REDIS_URL,
  },
  /** Reverse proxies in front of the service whose X-Forwarded-For is trusted (Express `trust proxy` hops). */
  trustProxyHops: raw.TRUST_PROXY_HOPS,
  /** Ledger exports this instance runs at once (each holds a snapshot and a connection); one more is LEDGER_EXPORTS_FULL (503). */
  ledgerExportMaxConcurrent: raw.LEDGER_EXPORT_MAX_CONCURRENT ?? defaultLedgerExportConcurrency(raw.DATABASE_POOL_SIZE),
});

export type RateLimitConfig = ReturnType<typeof limitsConfig>['rateLimit'];
