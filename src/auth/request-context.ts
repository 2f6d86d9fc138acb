import { randomUUID } from 'node:crypto';
import { mayActIn } from '../domain/authorization.js';
import { environmentNotAllowed } from '../domain/errors.js';
import type { Caller, Principal } from '../domain/caller.js';
import type { Logger } from '../logging/logger.js';
import type { AuthenticationFailure, Authenticator } from './bearer-token.js';
import { type BearerChallenge, environmentNotFound, unauthenticated } from './errors.js';

/**
 * The one per-request context both surfaces use: who is calling, in which environment, under which
 * request id, with a logger that stamps every line with that id.
 */
export interface RequestContext {
  caller: Caller;
  logger: Logger;
}

export const CALLER_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's X-Request-Id when it is safe to echo and log, else a fresh UUID. */
export const requestIdFrom = (header: string | undefined): string =>
  header !== undefined && CALLER_REQUEST_ID.test(header) ? header : randomUUID();

const AUTH_FAILURES: Record<AuthenticationFailure, { message: string; challenge: BearerChallenge }> = {
  // RFC 6750 §3.1: no error code when the request carried no credentials at all.
  missing: { message: 'Send an Authorization header: Bearer <token>.', challenge: {} },
  malformed: { message: 'The Authorization header must be: Bearer <token>.', challenge: { error: 'invalid_request' } },
  invalid: { message: 'The bearer token is not valid.', challenge: { error: 'invalid_token' } },
  expired: { message: 'The bearer token has expired.', challenge: { error: 'invalid_token' } },
  revoked: { message: 'The bearer token has been revoked.', challenge: { error: 'invalid_token' } },
};

export interface ContextRequest {
  requestId: string;
  environment: string;
  authorization: string | undefined;
  logger: Logger;
}

/**
 * Resolves the caller and the environment; throws UNAUTHENTICATED (with an invalid_token / invalid_request
 * challenge), FORBIDDEN (insufficient_scope: the token may not act in this environment),
 * ENVIRONMENT_NOT_FOUND or SERVICE_UNAVAILABLE (the token store or identity provider cannot be reached).
 * The token is checked first, then whether it may act in the environment, and only then whether the
 * environment exists: without a valid token, or with a token bound to other environments, an unknown
 * environment answers exactly as a known one does (401 / 403), so environment names cannot be probed.
 * Only a token valid in every environment (`*`) learns that a name is not configured (404).
 */
export async function buildRequestContext(
  request: ContextRequest,
  deps: { environments: ReadonlySet<string>; authenticator: Authenticator },
): Promise<RequestContext> {
  const principal = await authenticatePrincipal(request.authorization, deps.authenticator);
  if (!mayActIn(principal, request.environment)) throw environmentNotAllowed();
  if (!deps.environments.has(request.environment)) throw environmentNotFound();
  return {
    caller: { environment: request.environment, principal, requestId: request.requestId },
    logger: request.logger.child({ principal: principal.id, environment: request.environment }),
  };
}

/**
 * Who the Authorization header names, in no environment (the environment-free endpoints, e.g. /metrics);
 * throws UNAUTHENTICATED with the RFC 6750 challenge, or SERVICE_UNAVAILABLE.
 */
export async function authenticatePrincipal(
  authorization: string | undefined,
  authenticator: Authenticator,
): Promise<Principal> {
  const authentication = await authenticator.authenticate(authorization);
  if (!authentication.ok) {
    const failure = AUTH_FAILURES[authentication.reason];
    throw unauthenticated(failure.message, failure.challenge);
  }
  return authentication.principal;
}
