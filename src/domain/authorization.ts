import { environmentNotAllowed, insufficientScope } from './errors.js';
import { ACCESS_SCOPES, type AccessScope, type Caller, type Principal } from './caller.js';

/** True when the principal may act in `environment` at all. */
export const mayActIn = (principal: Principal, environment: string): boolean =>
  principal.environments === '*' || principal.environments.includes(environment);

/**
 * The one permission check, called first thing by every domain operation, so REST and GraphQL enforce
 * the same rules without repeating them. The environment is checked again here (the auth step already
 * refuses a token outside its environments) so that no code can skip it by building a `Caller` by hand.
 * Throws FORBIDDEN with an insufficient_scope challenge naming the scope that is missing.
 */
export function authorize(caller: Caller, required: AccessScope): void {
  if (!mayActIn(caller.principal, caller.environment)) throw environmentNotAllowed();
  if (!caller.principal.scopes.includes(required)) throw insufficientScope(required);
}

/** The same check as authorize(), answered instead of thrown: for reads that include what they may. */
export const isAuthorized = (caller: Caller, required: AccessScope): boolean =>
  mayActIn(caller.principal, caller.environment) && caller.principal.scopes.includes(required);

/** What a principal was granted: its scopes, and the environments among the configured ones it may act in. */
export interface Grants {
  scopes: AccessScope[];
  environments: string[];
}

/**
 * The caller's own grants (GraphQL's `viewer`), so that a client offers only what the token can do. Needs no
 * scope: it tells the caller nothing it could not learn by trying. Scopes in ACCESS_SCOPES order, environments
 * in the configured order.
 */
export function grantsOf(principal: Principal, configuredEnvironments: Iterable<string>): Grants {
  return {
    scopes: ACCESS_SCOPES.filter((scope) => principal.scopes.includes(scope)),
    environments: [...configuredEnvironments].filter((environment) => mayActIn(principal, environment)),
  };
}
