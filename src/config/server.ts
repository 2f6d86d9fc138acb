import { z } from 'zod';
import { byteSize, integer, type Settings } from './settings.js';

/** The process and its HTTP listener: NODE_ENV and where it listens. */
export const serverEnv = {
  NODE_ENV: z
    .enum(['development', 'test', 'production'], { message: 'NODE_ENV must be development, test or production' })
    .default('development'),
  HOST: z.string().trim().min(1).optional(),
  PORT: integer('PORT', 0, 65535).default(3000),
};

/**
 * Where the service listens without HOST: every interface in production (a container or a host behind a load
 * balancer), else loopback only, so a laptop's development service, with its full-access development token, is not
 * served to the network it is on.
 */
export const defaultHost = (nodeEnv: 'development' | 'test' | 'production') =>
  nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1';

export const serverConfig = (raw: Settings<typeof serverEnv>) => ({
  nodeEnv: raw.NODE_ENV,
  host: raw.HOST ?? defaultHost(raw.NODE_ENV),
  port: raw.PORT,
});

/**
 * How the listener treats requests, slow clients and stops (BODY_LIMIT, SHUTDOWN_*, HTTP_*). A client gets
 * HTTP_HEADERS_TIMEOUT_MS to send a request's headers and HTTP_REQUEST_TIMEOUT_MS to send the whole request
 * (headers and body), counted from its first byte (from the connection for a first request); then it is
 * answered 408 and the connection closed. Neither bounds the answer: a long ledger export streams for as long
 * as it takes, and a WebSocket subscription is no request once upgraded.
 */
export const httpEnv = {
  BODY_LIMIT: byteSize('BODY_LIMIT', 1, 10).default(64 * 1024),
  SHUTDOWN_TIMEOUT_MS: integer('SHUTDOWN_TIMEOUT_MS', 100, 120_000).default(10_000),
  SHUTDOWN_DRAIN_MS: integer('SHUTDOWN_DRAIN_MS', 0, 120_000).default(0),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer('HTTP_KEEP_ALIVE_TIMEOUT_MS', 1000, 120_000).default(65_000),
  HTTP_HEADERS_TIMEOUT_MS: integer('HTTP_HEADERS_TIMEOUT_MS', 1000, 120_000).default(15_000),
  HTTP_REQUEST_TIMEOUT_MS: integer('HTTP_REQUEST_TIMEOUT_MS', 1000, 600_000).default(30_000),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: integer('HTTP_MAX_CONNECTIONS_PER_ADDRESS', 0, 100_000).optional(),
};

/** HTTP_MAX_CONNECTIONS_PER_ADDRESS when not set and no proxy is trusted: clients connect directly. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;

/** Problems of the HTTP settings taken together (loadConfig reports them with the others). */
export function httpProblems(raw: Settings<typeof httpEnv>, problems: string[]): void {
  if (raw.HTTP_HEADERS_TIMEOUT_MS > raw.HTTP_REQUEST_TIMEOUT_MS) {
    problems.push(
      `HTTP_HEADERS_TIMEOUT_MS (${raw.HTTP_HEADERS_TIMEOUT_MS}) must not be longer than HTTP_REQUEST_TIMEOUT_MS (${raw.HTTP_REQUEST_TIMEOUT_MS}): the headers are part of the request`,
    );
  }
}

/**
 * `trustProxyHops` (TRUST_PROXY_HOPS) decides the connection cap's default: the cap counts TCP peers, and
 * behind a trusted proxy every connection comes from the proxy (whose own limits then apply), so it is off.
 */
export const httpConfig = (raw: Settings<typeof httpEnv>, trustProxyHops = 0) => ({
  bodyLimitBytes: raw.BODY_LIMIT,
  shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS,
  /** After SIGTERM, how long /readyz answers 503 while requests are still served, before the graceful stop (SHUTDOWN_DRAIN_MS). */
  shutdownDrainMs: raw.SHUTDOWN_DRAIN_MS,
  /** How long an idle keep-alive connection stays open: longer than the load balancer's idle timeout. */
  keepAliveTimeoutMs: raw.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  /** How long a client may take to send a request's headers (then 408). */
  headersTimeoutMs: raw.HTTP_HEADERS_TIMEOUT_MS,
  /** How long a client may take to send a whole request, headers and body (then 408); not the answer. */
  requestTimeoutMs: raw.HTTP_REQUEST_TIMEOUT_MS,
  /** Open connections one TCP peer may have; 0: no cap. Beyond: 503 TOO_MANY_CONNECTIONS (src/http/server.ts). */
  maxConnectionsPerAddress:
    raw.HTTP_MAX_CONNECTIONS_PER_ADDRESS ?? (trustProxyHops > 0 ? 0 : DEFAULT_MAX_CONNECTIONS_PER_ADDRESS),
});
