import { isRequestError } from '../auth/errors.js';
import { isCallerError } from '../http/errors.js';
import {
  chargeAccountNumberLookup,
  chargeSsnRefusal,
  chargeSsnSearch,
  rateLimited,
  rateLimitHeaders,
  type RateLimits,
} from '../http/rate-limit.js';
import type { GraphqlContext } from './context.js';
import { requestGraphqlError } from './error-mapping.js';
import type { CostListener } from './limits.js';

/**
 * GraphQL's share of the request budget REST also spends from. The auth step charged the request 1 point,
 * like any REST request; an operation then pays one more point per `RATE_LIMIT_GRAPHQL_COST_PER_POINT` of its
 * estimated cost (rounded down), so small queries cost what a REST call costs and a page of 100 customers
 * with their accounts (cost 2,200) costs 23. Charged before any resolver runs; over budget → 429 RATE_LIMITED.
 */
export function chargeOperationCost(rateLimits: RateLimits): CostListener<GraphqlContext> {
  return async (cost, { contextValue, response }) => {
    const budget = rateLimits.principal;
    const points = Math.floor(cost / rateLimits.graphqlCostPerPoint);
    if (!budget || points === 0) return;
    const state = await budget.consume(contextValue.caller.principal.id, points);
    for (const [name, value] of Object.entries(rateLimitHeaders(state))) response.http.headers.set(name, value);
    if (!state.allowed) throw requestGraphqlError(rateLimited(state.resetS));
  };
}

/**
 * `searchCustomers` with an SSN spends a point of the principal's SSN search budget before the search runs,
 * as REST's POST /customer/search does; over budget → SSN_SEARCH_RATE_LIMITED with HTTP 429 and Retry-After.
 */
export async function chargeSsnSearchResolver(context: GraphqlContext, input: unknown): Promise<void> {
  if (!context.rateLimits) return;
  try {
    await chargeSsnSearch(context.rateLimits, context.caller.principal.id, input);
  } catch (error) {
    throw isCallerError(error) ? requestGraphqlError(error) : error;
  }
}

/**
 * `createCustomer` refused because the SSN is on file spends a point of the same budget, as REST's POST
 * /customer does (src/http/rate-limit.ts, chargeSsnRefusal); over budget → SSN_SEARCH_RATE_LIMITED with HTTP 429.
 */
export async function chargeSsnRefusalResolver<T>(context: GraphqlContext, create: () => Promise<T>): Promise<T> {
  if (!context.rateLimits) return create();
  try {
    return await chargeSsnRefusal(context.rateLimits, context.caller.principal.id, create);
  } catch (error) {
    // Only the budget's 429 becomes a request error; the domain's refusals stay field errors, as before.
    throw isRequestError(error) ? requestGraphqlError(error) : error;
  }
}

/**
 * `lookupAccountNumber` spends a point of the principal's look-up budget before it runs, as REST's POST
 * /account-numbers/lookup does; over budget → ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED with HTTP 429 and Retry-After.
 */
export async function chargeAccountNumberLookupResolver(context: GraphqlContext): Promise<void> {
  if (!context.rateLimits) return;
  try {
    await chargeAccountNumberLookup(context.rateLimits, context.caller.principal.id);
  } catch (error) {
    throw isCallerError(error) ? requestGraphqlError(error) : error;
  }
}
