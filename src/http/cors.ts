import cors from 'cors';
import type { RequestHandler } from 'express';
import { RATE_LIMIT_HEADER_NAMES } from './rate-limit.js';

/**
 * One CORS policy for both surfaces, from the CORS_ORIGINS allow-list: exact origins, no credentials (bearer
 * tokens, not cookies), request headers reflected from the preflight (Authorization, Content-Type,
 * Idempotency-Key, …), and the response headers a browser client needs exposed.
 */
export const EXPOSED_HEADERS = [
  'X-Request-Id',
  'Location',
  'ETag',
  'Idempotent-Replayed',
  'Consistency-Token',
  'WWW-Authenticate',
  'Deprecation',
  'Sunset',
  ...RATE_LIMIT_HEADER_NAMES,
];

export function corsPolicy(origins: readonly string[], methods: readonly string[]): RequestHandler {
  return cors({ origin: [...origins], methods: [...methods], exposedHeaders: EXPOSED_HEADERS, maxAge: 600 });
}

/**
 * The policy, applied only to requests whose Origin is on the list: every other request, including an
 * OPTIONS from a server or from an origin not on the list, reaches the routes as before (405 for OPTIONS).
 */
export function corsForAllowedOrigins(origins: readonly string[], methods: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  const policy = corsPolicy(origins, methods);
  return (req, res, next) => {
    const origin = req.get('origin');
    if (origin !== undefined && allowed.has(origin)) policy(req, res, next);
    else next();
  };
}
