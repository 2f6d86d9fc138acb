import { randomUUID } from 'node:crypto';
import { environmentNotFound, unauthenticated } from '../domain/errors.js';
import type { RequestScope } from '../domain/scope.js';
import type { Logger } from '../logging/logger.js';
import type { Authenticator } from './bearer-token.js';

/**
 * The one per-request context both surfaces use: who is calling, in which environment, under which
 * request id, with a logger that stamps every line with that id.
 */
export interface RequestContext {
  scope: RequestScope;
  logger: Logger;
}

const CALLER_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's X-Request-Id when it is safe to echo and log, else a fresh UUID. */
export const requestIdFrom = (header: string | undefined): string =>
  header !== undefined && CALLER_REQUEST_ID.test(header) ? header : randomUUID();

const AUTH_MESSAGES = {
  missing: 'Send an Authorization header: Bearer <token>.',
  malformed: 'The Authorization header must be: Bearer <token>.',
  invalid: 'The bearer token is not valid.',
} as const;

export interface ContextRequest {
  requestId: string;
  environment: string;
  authorization: string | undefined;
  logger: Logger;
}

/**
 * Resolves the environment and the caller; throws ENVIRONMENT_NOT_FOUND or UNAUTHENTICATED.
 * The environment is checked first so a typo in the path is reported as such even without a token.
 */
export async function buildRequestContext(
  request: ContextRequest,
  deps: { environments: ReadonlySet<string>; authenticator: Authenticator },
): Promise<RequestContext> {
  if (!deps.environments.has(request.environment)) throw environmentNotFound([...deps.environments]);
  const authentication = await deps.authenticator.authenticate(request.authorization);
  if (!authentication.ok) throw unauthenticated(AUTH_MESSAGES[authentication.reason]);
  return {
    scope: { environment: request.environment, principal: authentication.principal, requestId: request.requestId },
    logger: request.logger.child({ principal: authentication.principal.id, environment: request.environment }),
  };
}
