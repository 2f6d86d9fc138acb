import { z } from 'zod';
import { byteSize, integer, type Settings } from './settings.js';

/** The process and its HTTP listener: NODE_ENV and where it listens. */
export const serverEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production'], { message: 'NODE_ENV must be development, test or production' }).default('development'),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  PORT: integer('PORT', 0, 65535).default(3000),
};

export const serverConfig = (raw: Settings<typeof serverEnv>) => ({
  nodeEnv: raw.NODE_ENV,
  host: raw.HOST,
  port: raw.PORT,
});

/** How the listener treats requests and stops (BODY_LIMIT, SHUTDOWN_*, HTTP_KEEP_ALIVE_TIMEOUT_MS). */
export const httpEnv = {
  BODY_LIMIT: byteSize('BODY_LIMIT', 1, 10).default(64 * 1024),
  SHUTDOWN_TIMEOUT_MS: integer('SHUTDOWN_TIMEOUT_MS', 100, 120_000).default(10_000),
  SHUTDOWN_DRAIN_MS: integer('SHUTDOWN_DRAIN_MS', 0, 120_000).default(0),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer('HTTP_KEEP_ALIVE_TIMEOUT_MS', 1000, 120_000).default(65_000),
};

export const httpConfig = (raw: Settings<typeof httpEnv>) => ({
  bodyLimitBytes: raw.BODY_LIMIT,
  shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS,
  /** After SIGTERM, how long /readyz answers 503 while requests are still served, before the graceful stop (SHUTDOWN_DRAIN_MS). */
  shutdownDrainMs: raw.SHUTDOWN_DRAIN_MS,
  /** How long an idle keep-alive connection stays open: longer than the load balancer's idle timeout. */
  keepAliveTimeoutMs: raw.HTTP_KEEP_ALIVE_TIMEOUT_MS,
});
