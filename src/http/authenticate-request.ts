import type { Request, Response } from 'express';
import { isRequestError } from '../auth/errors.js';
import {
  authenticatePrincipal,
  buildRequestContext,
  type ContextRequest,
  type RequestContext,
} from '../auth/request-context.js';
import { insufficientScope } from '../domain/errors.js';
import type { AccessScope, Principal } from '../domain/caller.js';
import type { HttpDependencies } from './dependencies.js';
import {
  addressBudgetKey,
  type BudgetState,
  rateLimited,
  rateLimitHeaders,
  tooManyFailedAuthentications,
} from './rate-limit.js';

/**
 * The auth step both surfaces run before anything else (REST in each endpoint, GraphQL before Apollo, and
 * once per GraphQL WebSocket connection):
 * 1. buildRequestContext resolves principal and environment; a refused token (invalid_token) spends one
 *    point of the address's failed-authentication budget (IPv6 counted per /64), and once that is spent a
 *    refused token is answered RATE_LIMITED instead of UNAUTHENTICATED. A valid token is never refused by
 *    this budget: the token is checked first, so a client sharing an address (NAT, proxy) with a guesser, or
 *    one that sent a stale token, is not locked out;
 * 2. the principal's request budget, shared by REST and GraphQL, is charged one point (GraphQL adds the
 *    operation's cost later, src/graphql/rate-limit.ts).
 * RateLimit-* headers describe the budget the request was counted against; errors are RequestErrors and
 * DomainErrors, which each surface renders through src/http/errors.ts.
 */
export async function authenticateRequest(
  req: Request,
  res: Response,
  environment: string,
  deps: Pick<HttpDependencies, 'environments' | 'authenticator' | 'rateLimits'>,
): Promise<RequestContext> {
  return authenticateCaller(
    {
      requestId: res.locals.requestId,
      environment,
      authorization: req.get('authorization'),
      logger: res.locals.logger,
    },
    () => clientAddress(req),
    deps,
    (state) => setHeaders(res, state),
  );
}

/**
 * The same auth step for a GraphQL WebSocket connection (src/graphql/websocket.ts): the token comes from the
 * `connection_init` payload instead of a header, and there are no response headers to describe the budgets.
 * Opening the connection costs one point of the token's request budget, as a request does.
 */
export function authenticateConnection(
  request: ContextRequest,
  address: string,
  deps: Pick<HttpDependencies, 'environments' | 'authenticator' | 'rateLimits'>,
): Promise<RequestContext> {
  return authenticateCaller(
    request,
    () => address,
    deps,
    () => undefined,
  );
}

/** The client's address: the TCP peer, or the one trusted proxies name (Express's `req.ip`, TRUST_PROXY_HOPS). */
export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** `address` is read only when a refused token spends its budget: Express's req.ip parses X-Forwarded-For. */
async function authenticateCaller(
  request: ContextRequest,
  address: () => string,
  deps: Pick<HttpDependencies, 'environments' | 'authenticator' | 'rateLimits'>,
  describe: (state: BudgetState) => void,
): Promise<RequestContext> {
  const context = await withFailedAuthenticationBudget(address, describe, deps, () =>
    buildRequestContext(request, deps),
  );
  const requestBudget = deps.rateLimits.principal;
  if (requestBudget) {
    const counted = requestBudget.consume(context.caller.principal.id, 1);
    const state = counted instanceof Promise ? await counted : counted;
    describe(state);
    if (!state.allowed) throw rateLimited(state.resetS);
  }
  return context;
}

/**
 * The auth step of an operator endpoint outside the environments (GET /metrics): the same bearer tokens and
 * failed-authentication budget as the API, then `required` (FORBIDDEN, insufficient_scope, without it).
 * Not charged to the token's request budget: a scraper's requests are not API traffic.
 */
export async function authenticateOperator(
  req: Request,
  res: Response,
  required: AccessScope,
  deps: Pick<HttpDependencies, 'authenticator' | 'rateLimits'>,
): Promise<Principal> {
  const principal = await withFailedAuthenticationBudget(
    () => clientAddress(req),
    (state) => setHeaders(res, state),
    deps,
    () => authenticatePrincipal(req.get('authorization'), deps.authenticator),
  );
  if (!principal.scopes.includes(required)) throw insufficientScope(required);
  return principal;
}

/**
 * Step 1 above: the token is checked first; only a refused one spends a point of its address's budget, and is
 * answered RATE_LIMITED once the budget is spent (UNAUTHENTICATED before). Tokens are unguessable (random
 * secrets of 256 bits, signed JWTs), so the budget throttles and flags a client sending bad tokens rather than
 * protecting a secret that could be found; refusing valid tokens too would let anyone behind the same address
 * lock real clients out.
 */
async function withFailedAuthenticationBudget<T>(
  address: () => string,
  describe: (state: BudgetState) => void,
  deps: Pick<HttpDependencies, 'rateLimits'>,
  authenticate: () => Promise<T>,
): Promise<T> {
  try {
    return await authenticate();
  } catch (error) {
    const { authFailures } = deps.rateLimits;
    // Only presented-and-refused tokens count: a missing header or a token outside its environments is no guess.
    if (authFailures && isRequestError(error) && error.challenge?.error === 'invalid_token') {
      const state = await authFailures.consume(addressBudgetKey(address()), 1);
      describe(state);
      if (!state.allowed) throw tooManyFailedAuthentications(state.resetS);
    }
    throw error;
  }
}

function setHeaders(res: Response, state: BudgetState): void {
  for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
}
