import type { RequestContext } from '../auth/request-context.js';
import type { DomainServices } from '../features/services.js';
import type { RateLimits } from '../http/rate-limit.js';
import type { ExecutionBudget } from './execution-budget.js';
import { createLoaders, type Loaders } from './loaders.js';

/**
 * What every resolver receives: the request context REST also uses (caller and logger, built by the same
 * buildRequestContext), the domain services, and this request's batching loaders.
 */
export interface GraphqlContext extends RequestContext {
  services: DomainServices;
  loaders: Loaders;
  /** Response keys of the idempotent mutations that replayed an earlier request (idempotency.ts). */
  replayedFields: string[];
  /** What the operation may still resolve (execution-budget.ts); absent for subscriptions' events. */
  budget?: ExecutionBudget;
  /** The per-principal budgets a resolver charges itself (searches by SSN); absent for subscriptions' events. */
  rateLimits?: Pick<RateLimits, 'ssnSearch' | 'accountNumberLookup'>;
  /** The configured environments (ENVIRONMENTS), for `viewer`. */
  environments: ReadonlySet<string>;
}

export function createGraphqlContext(
  request: RequestContext,
  services: DomainServices,
  environments: ReadonlySet<string>,
): GraphqlContext {
  return { ...request, services, loaders: createLoaders(services, request.caller), replayedFields: [], environments };
}
