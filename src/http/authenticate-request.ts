import type { Request, Response } from 'express';
import { isRequestError } from '../auth/errors.js';
import { authenticatePrincipal, buildRequestContext, type RequestContext } from '../auth/request-context.js';
import { insufficientScope } from '../domain/errors.js';
import type { AccessScope, Principal } from '../domain/scope.js';
import type { HttpDependencies } from './dependencies.js';
import { type BudgetState, rateLimited, rateLimitHeaders, tooManyFailedAuthentications } from './rate-limit.js';

/**
 * The auth step both surfaces run before anything else (REST in each endpoint, GraphQL before Apollo):
 * 1. an address that has sent too many refused tokens is answered RATE_LIMITED without looking at its token;
 * 2. buildRequestContext resolves environment and principal; a refused token (invalid_token) spends one
 *    point of the address's failed-authentication budget;
 * 3. the principal's request budget, shared by REST and GraphQL, is charged one point (GraphQL adds the
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
  const context = await withFailedAuthenticationBudget(req, res, deps, () =>
    buildRequestContext({ requestId: res.locals.requestId, environment, authorization: req.get('authorization'), logger: res.locals.logger }, deps),
  );
  const requestBudget = deps.rateLimits.principal;
  if (requestBudget) {
    const state = await requestBudget.consume(context.scope.principal.id, 1);
    setHeaders(res, state);
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
  const principal = await withFailedAuthenticationBudget(req, res, deps, () => authenticatePrincipal(req.get('authorization'), deps.authenticator));
  if (!principal.scopes.includes(required)) throw insufficientScope(required);
  return principal;
}

/** Steps 1 and 2 above: a spent address is refused outright; a refused token spends one point of its budget. */
async function withFailedAuthenticationBudget<T>(req: Request, res: Response, deps: Pick<HttpDependencies, 'rateLimits'>, authenticate: () => Promise<T>): Promise<T> {
  const { authFailures } = deps.rateLimits;
  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  if (authFailures) {
    const spent = await authFailures.exhausted(address);
    if (spent) {
      setHeaders(res, spent);
      throw tooManyFailedAuthentications(spent.resetS);
    }
  }
  try {
    return await authenticate();
  } catch (error) {
    // Only presented-and-refused tokens count: a missing header or a token outside its environments is no guess.
    if (authFailures && isRequestError(error) && error.challenge?.error === 'invalid_token') {
      setHeaders(res, await authFailures.consume(address, 1));
    }
    throw error;
  }
}

function setHeaders(res: Response, state: BudgetState): void {
  for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
}
