import type { Account } from '../features/accounts/index.js';
import type { VersionCondition } from '../domain/versions.js';
import type { GraphqlContext } from './context.js';
import { byId } from './loaders.js';
import { encodeCursor } from './pagination.js';

/**
 * What the features' resolver maps (src/features/<feature>/*.resolvers.ts) share: arguments as the domain
 * takes them, a connection's end cursor, and the request's loaders told which accounts a mutation changed.
 */

/** The arguments that were given: an explicit null stays (the domain refuses it), an absent one is left out. */
export const given = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/** An input object without its explicit nulls: to the domain's rules, a null filter is an absent one. */
export const withoutNulls = (input: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));

/** `expectedVersion` as the domain's condition (src/domain/versions.ts); absent or null: unconditional. */
export const versionCondition = (expectedVersion: number | null | undefined): VersionCondition | undefined =>
  expectedVersion === null || expectedVersion === undefined ? undefined : { versions: [expectedVersion] };

export const endCursor = (kind: 'customer' | 'account' | 'transaction', lastId: string | undefined) =>
  lastId === undefined ? null : encodeCursor(kind, lastId);

/**
 * An account a ledger or account-control mutation changed: the request's loader answers it as it is now
 * (primed with the record when the domain returned one), and customers read earlier may list stale links.
 */
export function changedAccounts({ loaders }: GraphqlContext, accounts: readonly (Account | string)[]): void {
  for (const account of accounts) {
    const accountId = typeof account === 'string' ? account : account.accountId;
    loaders.flagDetails.clear(accountId);
    if (typeof account === 'string') loaders.accountById.clear(byId(account));
    else loaders.accountById.clear(byId(account.accountId)).prime(byId(account.accountId), account);
  }
}
