import DataLoader from 'dataloader';
import type { Account } from '../domain/accounts/account.js';
import type { Customer } from '../domain/customers/customer.js';
import type { RequestScope } from '../domain/scope.js';
import type { DomainServices } from '../domain/services.js';

/**
 * Per-request batching and caching of record look-ups: every customer (or account) asked for in one tick
 * of the execution is fetched with one findMany, so nested lists cost a constant number of SQL
 * statements instead of one per item (no N+1). New loaders per request: no data is shared between
 * callers or environments, and a mutation's reads are never stale from an earlier request.
 */
export interface Loaders {
  customers: DataLoader<string, Customer | null>;
  accounts: DataLoader<string, Account | null>;
}

// Ids are UUIDs, which the database compares case-insensitively; one cache entry per record.
const cacheKeyFn = (id: string) => id.toLowerCase();

export function createLoaders(services: DomainServices, scope: RequestScope): Loaders {
  return {
    customers: new DataLoader((ids) => services.customers.findMany(scope, ids), { cacheKeyFn }),
    accounts: new DataLoader((ids) => services.accounts.findMany(scope, ids), { cacheKeyFn }),
  };
}

/**
 * The records for these ids, in order, skipping ids whose record vanished since the parent was read
 * (a concurrent delete between two statements of the same request).
 */
export async function loadExisting<T>(loader: DataLoader<string, T | null>, ids: readonly string[]): Promise<T[]> {
  const results = await loader.loadMany(ids);
  const records: T[] = [];
  for (const result of results) {
    if (result instanceof Error) throw result;
    if (result !== null) records.push(result);
  }
  return records;
}
