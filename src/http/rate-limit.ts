import { isIP } from 'node:net';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RequestError } from '../auth/errors.js';
import { type Clock, systemClock } from '../clock.js';
import type { RateLimitConfig } from '../config/config.js';
import { isDomainError } from '../domain/errors.js';
import type { Logger } from '../logging/logger.js';

/**
 * Request budgets: fixed windows of `duration` seconds, counted in this process's memory (memoryBudget, on
 * the service's Clock), or in Redis with rate-limiter-flexible when REDIS_URL is set so every instance spends
 * from the same budget (windows then end by Redis's expiry). If Redis cannot be reached, each instance falls
 * back to its own in-memory counters rather than failing requests or letting them through unlimited.
 */

/** A budget's state after a request was counted against it. */
export interface BudgetState {
  /** False when the request is over budget (its points are counted all the same). */
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window restarts, at least 1. */
  resetS: number;
}

export interface Budget {
  /** In this process's memory the answer is synchronous (no promise, no microtask for every request); in Redis a promise. */
  consume(key: string, points: number): BudgetState | Promise<BudgetState>;
}

export interface RateLimits {
  /** Per principal (`token:<id>`, `jwt:<sub>`, `static:<digest>`), shared by REST and GraphQL; undefined when off. */
  principal: Budget | undefined;
  /** Per client address, spent by refused bearer tokens (slows token guessing); undefined when off. */
  authFailures: Budget | undefined;
  /** Per principal, searches by social security number per minute (REST and GraphQL), on top of `principal`; undefined when off. */
  ssnSearch: Budget | undefined;
  /** Per principal, account number look-ups per minute (REST and GraphQL, docs/adr/0107), on top of `principal`; undefined when off. */
  accountNumberLookup: Budget | undefined;
  /** A GraphQL operation costs 1 point plus one per this much estimated query cost. */
  graphqlCostPerPoint: number;
  /**
   * Settles once the Redis client first connected or first failed to (at once without REDIS_URL; ioredis's
   * connectTimeout bounds it): the service listens after it, so its first requests count in Redis when Redis is up.
   */
  connected: Promise<void>;
  close(): Promise<void>;
}

const KEY_PREFIX = {
  principal: 'cas:rl:principal',
  authFailures: 'cas:rl:auth-failures',
  ssnSearch: 'cas:rl:ssn-search',
  accountNumberLookup: 'cas:rl:account-number-lookup',
} as const;

/**
 * A fixed window per key in this process's memory, as rate-limiter-flexible's RateLimiterMemory counts it, but
 * on `clock`: a key's window starts with its first request and lasts `durationS`; points counted past the limit
 * are refused (and still counted). Ended windows are swept once per window length, so the map holds at most
 * the keys of about two windows.
 */
export function memoryBudget(limit: number, durationS: number, clock: Pick<Clock, 'now'> = systemClock): Budget {
  const durationMs = durationS * 1000;
  const windows = new Map<string, { consumed: number; endsAt: number }>();
  let nextSweep = clock.now() + durationMs;
  return {
    consume(key, points) {
      const now = clock.now();
      if (now >= nextSweep) {
        for (const [k, window] of windows) if (window.endsAt <= now) windows.delete(k);
        nextSweep = now + durationMs;
      }
      let window = windows.get(key);
      if (window && window.endsAt > now) window.consumed += points;
      else windows.set(key, (window = { consumed: points, endsAt: now + durationMs }));
      return {
        allowed: window.consumed <= limit,
        limit,
        remaining: Math.max(0, limit - window.consumed),
        resetS: Math.max(1, Math.ceil((window.endsAt - now) / 1000)),
      };
    },
  };
}

/** A budget counted in Redis; while Redis is not ready (rejectIfRedisNotReady) or fails, `fallback` counts. */
function redisBudget(limiter: RateLimiterAbstract, limit: number, fallback: Budget): Budget {
  const state = (result: RateLimiterRes, allowed: boolean): BudgetState => ({
    allowed,
    limit,
    remaining: Math.max(0, result.remainingPoints),
    resetS: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
  });
  return {
    async consume(key, points) {
      try {
        return state(await limiter.consume(key, points), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return state(rejection, false);
        return fallback.consume(key, points);
      }
    },
  };
}

export interface RateLimitOptions {
  /** The clock of the in-memory windows (systemClock by default); tests advance a manual one instead of waiting a window out. */
  clock?: Pick<Clock, 'now'>;
}

export function createRateLimits(config: RateLimitConfig, logger: Logger, options: RateLimitOptions = {}): RateLimits {
  const redis = config.redisUrl === undefined ? undefined : connectRedis(config.redisUrl, logger);
  const clock = options.clock ?? systemClock;
  const budget = (keyPrefix: string, points: number, duration: number): Budget => {
    const memory = memoryBudget(points, duration, clock);
    if (!redis) return memory;
    const limiter = new RateLimiterRedis({
      keyPrefix,
      points,
      duration,
      storeClient: redis,
      // Without a connection, go to the in-memory budget at once instead of queueing commands.
      rejectIfRedisNotReady: true,
    });
    return redisBudget(limiter, points, memory);
  };
  return {
    principal: config.points > 0 ? budget(KEY_PREFIX.principal, config.points, config.durationS) : undefined,
    authFailures:
      config.authFailures > 0
        ? budget(KEY_PREFIX.authFailures, config.authFailures, config.authFailuresDurationS)
        : undefined,
    ssnSearch:
      config.ssnSearchesPerMinute > 0 ? budget(KEY_PREFIX.ssnSearch, config.ssnSearchesPerMinute, 60) : undefined,
    accountNumberLookup:
      config.accountNumberLookupsPerMinute > 0
        ? budget(KEY_PREFIX.accountNumberLookup, config.accountNumberLookupsPerMinute, 60)
        : undefined,
    graphqlCostPerPoint: config.graphqlCostPerPoint,
    connected: redis ? firstConnection(redis) : Promise.resolve(),
    async close() {
      if (!redis) return;
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function connectRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  reportRedisOutages(redis, logger);
  return redis;
}

/**
 * One warning per outage: ioredis reports every failed reconnection ('error'), and only the first after a
 * 'ready' (or since the start) is logged; 'ready' after an outage is logged once too. Messages name host and
 * port at most, never the URL's password.
 */
export function reportRedisOutages(redis: Pick<Redis, 'on'>, logger: Pick<Logger, 'warn' | 'info'>): void {
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn(
      { err: { message: error.message } },
      'Redis for rate limits is unreachable; counting in memory per instance until it is back',
    );
  });
  redis.on('ready', () => {
    if (down) logger.info('Redis for rate limits is reachable again');
    down = false;
  });
}

/** Settles at the Redis client's first 'ready' or first 'error', whichever comes first (the client keeps trying after an error). */
function firstConnection(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const settle = () => {
      redis.off('ready', settle);
      redis.off('error', settle);
      resolve();
    };
    redis.once('ready', settle);
    redis.once('error', settle);
  });
}

/**
 * The key of a client address in the failed-authentication budget: an IPv4 address as it is (an IPv4-mapped
 * IPv6 address, as Node reports IPv4 peers on a dual-stack socket, as its IPv4 address); an IPv6 address by its
 * /64, the smallest block a single subscriber is routinely given, so rotating through one's own /64 does not
 * buy new budgets. Anything else (no address) as it is.
 */
export function addressBudgetKey(address: string): string {
  const bare = address.split('%', 1)[0]!;
  if (isIP(bare) !== 6) return bare;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  // A dotted IPv4 tail is the last 32 bits (two groups); it never reaches the first 64.
  const counted = left.length + right.length + (bare.includes('.') ? 1 : 0);
  const words = [...left, ...Array<string>(Math.max(0, 8 - counted)).fill('0'), ...right];
  return `${words
    .slice(0, 4)
    .map((word) => parseInt(word, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The IETF draft's header names (draft-ietf-httpapi-ratelimit-headers): limit, remaining points and seconds
 * until the window restarts; a refused request also gets Retry-After (RFC 9110).
 */
export function rateLimitHeaders(state: BudgetState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetS),
    ...(!state.allowed && { 'Retry-After': String(state.resetS) }),
  };
}

/** Headers browsers may read from cross-origin answers (CORS `Access-Control-Expose-Headers`). */
export const RATE_LIMIT_HEADER_NAMES = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
] as const;

/** The caller's budget is spent; the auth step has set Retry-After and RateLimit-* headers. */
export const rateLimited = (retryAfterS: number) =>
  new RequestError('RATE_LIMITED', 'rate_limited', `Too many requests for this token; retry in ${retryAfterS} s.`);

/** The caller's budget of searches by SSN is spent (its other requests still pass); Retry-After comes with the error. */
export const ssnSearchRateLimited = (retryAfterS: number) =>
  new RequestError(
    'SSN_SEARCH_RATE_LIMITED',
    'rate_limited',
    `Too many searches by social security number for this token; retry in ${retryAfterS} s.`,
    undefined,
    retryAfterS,
  );

/** The caller's budget of account number look-ups is spent (its other requests still pass); Retry-After comes with the error. */
export const accountNumberLookupRateLimited = (retryAfterS: number) =>
  new RequestError(
    'ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED',
    'rate_limited',
    `Too many account number look-ups for this token; retry in ${retryAfterS} s.`,
    undefined,
    retryAfterS,
  );

/**
 * Charges an account number look-up (REST's POST /account-numbers/lookup, GraphQL's lookupAccountNumber) one point
 * of the principal's look-up budget before it runs: over budget → 429 ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED with
 * Retry-After, and nothing is looked up or audited. Slows the walking of number space with a stolen token.
 */
export async function chargeAccountNumberLookup(
  rateLimits: Pick<RateLimits, 'accountNumberLookup'>,
  principalId: string,
): Promise<void> {
  if (!rateLimits.accountNumberLookup) return;
  const state = await rateLimits.accountNumberLookup.consume(principalId, 1);
  if (!state.allowed) throw accountNumberLookupRateLimited(state.resetS);
}

/** A search input names an SSN (any value but null: even one the domain then refuses counts). */
const namesSsn = (input: unknown): boolean =>
  typeof input === 'object' &&
  input !== null &&
  ['socialSecurityNumber', 'taxId'].some(
    (field) =>
      (input as Record<string, unknown>)[field] !== undefined && (input as Record<string, unknown>)[field] !== null,
  );

/**
 * Charges a customer search that names an SSN one point of the principal's SSN search budget, before the
 * search runs (REST's POST /customer/search and GraphQL's searchCustomers): over budget → 429
 * SSN_SEARCH_RATE_LIMITED with Retry-After, and nothing is searched or audited. Other searches cost nothing here.
 */
export async function chargeSsnSearch(
  rateLimits: Pick<RateLimits, 'ssnSearch'>,
  principalId: string,
  input: unknown,
): Promise<void> {
  if (!rateLimits.ssnSearch || !namesSsn(input)) return;
  const state = await rateLimits.ssnSearch.consume(principalId, 1);
  if (!state.allowed) throw ssnSearchRateLimited(state.resetS);
}

/**
 * Runs a customer creation (REST's POST /customer, GraphQL's createCustomer) and, when it is refused because
 * the SSN is on file (CUSTOMER_ALREADY_EXISTS, audited by the domain as `customer.create.refused`), charges one
 * point of the principal's SSN search budget: that refusal answers what a search by SSN answers. Over budget →
 * 429 SSN_SEARCH_RATE_LIMITED with Retry-After instead of the 409. Creations that succeed, replays and other
 * refusals (EXTERNAL_ID_TAKEN wins whatever the SSN) cost nothing here, so ordinary creation is not slowed.
 */
export async function chargeSsnRefusal<T>(
  rateLimits: Pick<RateLimits, 'ssnSearch'>,
  principalId: string,
  create: () => Promise<T>,
): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (
      rateLimits.ssnSearch &&
      isDomainError(error) &&
      (error.code === 'CUSTOMER_ALREADY_EXISTS' || error.code === 'TAX_ID_ALREADY_EXISTS')
    ) {
      const state = await rateLimits.ssnSearch.consume(principalId, 1);
      if (!state.allowed) throw ssnSearchRateLimited(state.resetS);
    }
    throw error;
  }
}

/** Too many refused bearer tokens from one client address: answered to its refused tokens, never to a valid one. */
export const tooManyFailedAuthentications = (retryAfterS: number) =>
  new RequestError(
    'RATE_LIMITED',
    'rate_limited',
    `Too many failed authentication attempts from this address; retry in ${retryAfterS} s.`,
  );
