import { isIP } from 'node:net';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RequestError } from '../auth/errors.js';
import type { RateLimitConfig } from '../config/config.js';
import { isDomainError } from '../domain/errors.js';
import type { Logger } from '../logging/logger.js';

/**
 * Request budgets with rate-limiter-flexible: fixed windows of `duration` seconds, counted in this
 * process's memory, or in Redis when REDIS_URL is set so every instance spends from the same budget.
 * If Redis cannot be reached, each instance falls back to its own in-memory counters (rate-limiter-flexible's
 * insurance limiter) rather than failing requests or letting them through unlimited.
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
  consume(key: string, points: number): Promise<BudgetState>;
}

export interface RateLimits {
  /** Per principal (`token:<id>`, `jwt:<sub>`, `static:<digest>`), shared by REST and GraphQL; undefined when off. */
  principal: Budget | undefined;
  /** Per client address, spent by refused bearer tokens (slows token guessing); undefined when off. */
  authFailures: Budget | undefined;
  /** Per principal, searches by social security number per minute (REST and GraphQL), on top of `principal`; undefined when off. */
  ssnSearch: Budget | undefined;
  /** A GraphQL operation costs 1 point plus one per this much estimated query cost. */
  graphqlCostPerPoint: number;
  close(): Promise<void>;
}

const KEY_PREFIX = { principal: 'cas:rl:principal', authFailures: 'cas:rl:auth-failures', ssnSearch: 'cas:rl:ssn-search' } as const;

function budget(limiter: RateLimiterAbstract, limit: number): Budget {
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
        throw rejection;
      }
    },
  };
}

export function createRateLimits(config: RateLimitConfig, logger: Logger): RateLimits {
  const redis = config.redisUrl === undefined ? undefined : connectRedis(config.redisUrl, logger);
  const limiter = (keyPrefix: string, points: number, duration: number): RateLimiterAbstract => {
    const options = { keyPrefix, points, duration };
    if (!redis) return new RateLimiterMemory(options);
    return new RateLimiterRedis({
      ...options,
      storeClient: redis,
      // Without a connection, go to the insurance limiter at once instead of queueing commands.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  };
  return {
    principal: config.points > 0 ? budget(limiter(KEY_PREFIX.principal, config.points, config.durationS), config.points) : undefined,
    authFailures:
      config.authFailures > 0
        ? budget(limiter(KEY_PREFIX.authFailures, config.authFailures, config.authFailuresDurationS), config.authFailures)
        : undefined,
    ssnSearch: config.ssnSearchesPerMinute > 0 ? budget(limiter(KEY_PREFIX.ssnSearch, config.ssnSearchesPerMinute, 60), config.ssnSearchesPerMinute) : undefined,
    graphqlCostPerPoint: config.graphqlCostPerPoint,
    async close() {
      if (!redis) return;
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function connectRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  // ioredis reports every failed reconnection; one warning per outage is enough. Messages name host and
  // port at most, never the URL's password.
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: { message: error.message } }, 'Redis for rate limits is unreachable; counting in memory per instance until it is back');
  });
  redis.on('ready', () => {
    if (down) logger.info('Redis for rate limits is reachable again');
    down = false;
  });
  return redis;
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
  return `${words.slice(0, 4).map((word) => parseInt(word, 16).toString(16)).join(':')}::/64`;
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
export const RATE_LIMIT_HEADER_NAMES = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'] as const;

/** The caller's budget is spent; the auth step has set Retry-After and RateLimit-* headers. */
export const rateLimited = (retryAfterS: number) =>
  new RequestError('RATE_LIMITED', 'rate_limited', `Too many requests for this token; retry in ${retryAfterS} s.`);

/** The caller's budget of searches by SSN is spent (its other requests still pass); Retry-After comes with the error. */
export const ssnSearchRateLimited = (retryAfterS: number) =>
  new RequestError('SSN_SEARCH_RATE_LIMITED', 'rate_limited', `Too many searches by social security number for this token; retry in ${retryAfterS} s.`, undefined, retryAfterS);

/** A search input names an SSN (any value but null: even one the domain then refuses counts). */
const namesSsn = (input: unknown): boolean =>
  typeof input === 'object' && input !== null && (input as Record<string, unknown>).socialSecurityNumber !== undefined && (input as Record<string, unknown>).socialSecurityNumber !== null;

/**
 * Charges a customer search that names an SSN one point of the principal's SSN search budget, before the
 * search runs (REST's POST /customer/search and GraphQL's searchCustomers): over budget → 429
 * SSN_SEARCH_RATE_LIMITED with Retry-After, and nothing is searched or audited. Other searches cost nothing here.
 */
export async function chargeSsnSearch(rateLimits: Pick<RateLimits, 'ssnSearch'>, principalId: string, input: unknown): Promise<void> {
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
export async function chargeSsnRefusal<T>(rateLimits: Pick<RateLimits, 'ssnSearch'>, principalId: string, create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (rateLimits.ssnSearch && isDomainError(error) && error.code === 'CUSTOMER_ALREADY_EXISTS') {
      const state = await rateLimits.ssnSearch.consume(principalId, 1);
      if (!state.allowed) throw ssnSearchRateLimited(state.resetS);
    }
    throw error;
  }
}

/** Too many refused bearer tokens from one client address: answered to its refused tokens, never to a valid one. */
export const tooManyFailedAuthentications = (retryAfterS: number) =>
  new RequestError('RATE_LIMITED', 'rate_limited', `Too many failed authentication attempts from this address; retry in ${retryAfterS} s.`);
