import { environmentNotAllowed, insufficientScope } from './errors.js';
import type { AccessScope, Principal, RequestScope } from './scope.js';

/** True when the principal may act in `environment` at all. */
export const mayActIn = (principal: Principal, environment: string): boolean =>
  principal.environments === '*' || principal.environments.includes(environment);

/**
 * The one permission check, called first thing by every domain operation, so REST and GraphQL enforce
 * the same rules without repeating them. The environment is checked again here (the auth step already
 * refuses a token outside its environments) so that no caller can skip it by building a scope by hand.
 * Throws FORBIDDEN with an insufficient_scope challenge naming the scope that is missing.
 */
export function authorize(scope: RequestScope, required: AccessScope): void {
  if (!mayActIn(scope.principal, scope.environment)) throw environmentNotAllowed();
  if (!scope.principal.scopes.includes(required)) throw insufficientScope(required);
}

/** The same check as authorize(), answered instead of thrown: for reads that include what they may. */
export const isAuthorized = (scope: RequestScope, required: AccessScope): boolean =>
  mayActIn(scope.principal, scope.environment) && scope.principal.scopes.includes(required);
