import DataLoader from 'dataloader';
import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import type { Account, AccountFlagDetail, AccountLinks } from '../features/accounts/index.js';
import type { Customer, CustomerLinks } from '../features/customers/index.js';
import type { LinkRoots } from '../features/links/index.js';
import type { AccountParent, CustomerParent } from './parents.js';
import type { Caller } from '../domain/caller.js';
import type { DomainServices } from '../features/services.js';
import type { DomainEvent } from '../features/events/index.js';

/**
 * Per-request batching and caching of record look-ups: every customer (or account) asked for in one tick
 * of the execution is fetched with one findMany, so nested lists cost a constant number of SQL
 * statements instead of one per item (no N+1). New loaders per request: no data is shared between
 * callers or environments, and a mutation's reads are never stale from an earlier request.
 *
 * Look-ahead: a root field that selects nested customers/accounts (`customer { accounts { customers … } }`)
 * reads its record and everything the nesting will walk in ONE statement (findLinkedRecords), and primes
 * the two record loaders with the result, so the nested resolvers find their records already loaded.
 * When the selection below the root asks for nothing but ids and links, the walk reads only those
 * (findLinkedIds) into loaders of their own: the record loaders only ever hold whole records.
 */
export interface Loaders {
  customers: DataLoader<string, Customer | null>;
  accounts: DataLoader<string, Account | null>;
  linked: DataLoader<LinkedKey, Customer | Account | null, string>;
  customerLinks: DataLoader<string, CustomerLinks | null>;
  accountLinks: DataLoader<string, AccountLinks | null>;
  linkedIds: DataLoader<LinkedKey, CustomerLinks | AccountLinks | null, string>;
  /** `Account.flagDetails` of every account of the response in one statement. */
  flagDetails: DataLoader<string, AccountFlagDetail[] | null>;
  /**
   * `Customer.recentEvents` / `Account.recentEvents` of every record of the response in one statement per
   * record type and `first` (docs/adr/0073-a-records-recent-events.md): the loader for that pair.
   */
  recentEvents(resourceType: RecordKind, first: number): DataLoader<string, DomainEvent[]>;
}

type RecordKind = 'customer' | 'account';

interface LinkedKey {
  kind: RecordKind;
  id: string;
  /** Links the selection walks below the record. */
  depth: number;
}

// Ids are UUIDs, which the database compares case-insensitively; one cache entry per record.
const cacheKeyFn = (id: string) => id.toLowerCase();

export function createLoaders(services: DomainServices, caller: Caller): Loaders {
  const recentEvents = new Map<string, DataLoader<string, DomainEvent[]>>();
  const findCustomers = (ids: readonly string[]) => services.customers.findMany(caller, ids);
  const findAccounts = (ids: readonly string[]) => services.accounts.findMany(caller, ids);
  const customers = new DataLoader<string, Customer | null>(findCustomers, { cacheKeyFn });
  const accounts = new DataLoader<string, Account | null>(findAccounts, { cacheKeyFn });
  // Whole records are ids and links too: a look-up the walk did not prime reads records.
  const customerLinks = new DataLoader<string, CustomerLinks | null>(findCustomers, { cacheKeyFn });
  const accountLinks = new DataLoader<string, AccountLinks | null>(findAccounts, { cacheKeyFn });
  return {
    customers,
    accounts,
    linked: walkLoader((roots, depth) => services.links.findLinkedRecords(caller, roots, depth), customers, accounts),
    customerLinks,
    accountLinks,
    linkedIds: walkLoader((roots, depth) => services.links.findLinkedIds(caller, roots, depth), customerLinks, accountLinks),
    flagDetails: new DataLoader<string, AccountFlagDetail[] | null>((ids) => services.accounts.flagDetailsOfMany(caller, ids), { cacheKeyFn }),
    // The domain checks events:read and the limit once per batch; refused, every field of the batch is null with that error.
    recentEvents: (resourceType, first) => {
      const key = `${resourceType}:${first}`;
      let loader = recentEvents.get(key);
      if (!loader) {
        loader = new DataLoader<string, DomainEvent[]>((ids) => services.events.recentOfMany(caller, { resourceType, resourceIds: ids }, { first }), { cacheKeyFn });
        recentEvents.set(key, loader);
      }
      return loader;
    },
  };
}

/**
 * Root records with the records their selections walk, read by `walk` and primed into the two loaders.
 * The root fields of one request are read together, one statement per kind of root (so that a principal
 * without accounts:read still gets its customers); the deepest selection sets the walk.
 */
function walkLoader<C extends CustomerLinks, A extends AccountLinks>(
  walk: (roots: LinkRoots, depth: number) => Promise<{ customers: C[]; accounts: A[] }>,
  customers: DataLoader<string, C | null>,
  accounts: DataLoader<string, A | null>,
): DataLoader<LinkedKey, C | A | null, string> {
  return new DataLoader<LinkedKey, C | A | null, string>(
    async (keys) => {
      const read = async (kind: RecordKind) => {
        const roots = keys.filter((key) => key.kind === kind);
        if (roots.length === 0) return undefined;
        const ids = roots.map((key) => key.id);
        const depth = Math.max(...roots.map((key) => key.depth));
        try {
          return await walk(kind === 'customer' ? { customerIds: ids, accountIds: [] } : { customerIds: [], accountIds: ids }, depth);
        } catch (error) {
          return error instanceof Error ? error : new Error(String(error));
        }
      };
      const results = { customer: await read('customer'), account: await read('account') };
      const byId = new Map<string, C | A>();
      for (const found of Object.values(results)) {
        if (found === undefined || found instanceof Error) continue;
        for (const customer of found.customers) {
          customers.prime(customer.customerId, customer);
          byId.set(`customer:${customer.customerId}`, customer);
        }
        for (const account of found.accounts) {
          accounts.prime(account.accountId, account);
          byId.set(`account:${account.accountId}`, account);
        }
      }
      return keys.map((key) => {
        const result = results[key.kind];
        return result instanceof Error ? result : (byId.get(`${key.kind}:${key.id.toLowerCase()}`) ?? null);
      });
    },
    { cacheKeyFn: (key) => `${key.kind}:${key.depth}:${key.id.toLowerCase()}` },
  );
}

/**
 * A root field's record, with the records its selection will walk below it read in the same statement.
 * Without nested customers/accounts in the selection it is a plain (batched) look-up.
 */
export function loadWithLinked(loaders: Loaders, kind: 'customer', id: string, info: GraphQLResolveInfo): Promise<CustomerParent | null>;
export function loadWithLinked(loaders: Loaders, kind: 'account', id: string, info: GraphQLResolveInfo): Promise<AccountParent | null>;
export function loadWithLinked(loaders: Loaders, kind: RecordKind, id: string, info: GraphQLResolveInfo): Promise<CustomerParent | AccountParent | null> {
  const depth = linkDepth(kind, info.fieldNodes, info);
  if (selectsOnlyIdsAndLinks(kind, info.fieldNodes, info)) {
    if (depth === 0) return kind === 'customer' ? loaders.customerLinks.load(id) : loaders.accountLinks.load(id);
    return loaders.linkedIds.load({ kind, id, depth });
  }
  if (depth === 0) return kind === 'customer' ? loaders.customers.load(id) : loaders.accounts.load(id);
  return loaders.linked.load({ kind, id, depth });
}

/** What the ids-and-links read answers on each kind of record. */
const ID_AND_LINK_FIELDS: Record<RecordKind, ReadonlySet<string>> = {
  customer: new Set(['__typename', 'id', 'customerId', 'accounts']),
  account: new Set(['__typename', 'id', 'accountId', 'customers']),
};

/**
 * Whether the selections below records of `kind` ask for nothing but ids and links, at every depth.
 * Conservative: any other field anywhere (also one under @skip), or a fragment on any type but the
 * record's own, answers no, and the whole records are read.
 */
function selectsOnlyIdsAndLinks(kind: RecordKind, fields: readonly FieldNode[], info: GraphQLResolveInfo): boolean {
  const check = (selectionSet: SelectionSetNode | undefined, current: RecordKind): boolean => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        if (!ID_AND_LINK_FIELDS[current].has(selection.name.value)) return false;
        if (selection.name.value === LINK_FIELD[current].field && !check(selection.selectionSet, LINK_FIELD[current].next)) return false;
        continue;
      }
      // Validation refused fragment cycles, so this ends.
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
      if (!fragment) return false;
      const typeName = fragment.typeCondition?.name.value;
      if (typeName !== undefined && TYPE_KIND[typeName] !== current) return false;
      if (!check(fragment.selectionSet, current)) return false;
    }
    return true;
  };
  return fields.every((field) => check(field.selectionSet, kind));
}

/** The field through which each kind of record reaches the other kind (schema.graphql). */
const LINK_FIELD: Record<RecordKind, { field: string; next: RecordKind }> = {
  customer: { field: 'accounts', next: 'account' },
  account: { field: 'customers', next: 'customer' },
};

const TYPE_KIND: Record<string, RecordKind> = { Customer: 'customer', Account: 'account' };

/**
 * How many links deep the selection walks from a record of `kind`: `{ accounts { customers { accountId } } }`
 * on a customer is 2. Fragments and inline fragments count; @skip/@include are ignored (at worst a few
 * records are read that the response leaves out).
 */
function linkDepth(kind: RecordKind, fields: readonly FieldNode[], info: GraphQLResolveInfo, visited = new Set<string>()): number {
  let depth = 0;
  const walk = (selectionSet: SelectionSetNode | undefined, current: RecordKind) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === LINK_FIELD[current].field) {
          const next = LINK_FIELD[current].next;
          depth = Math.max(depth, 1 + linkDepth(next, [selection], info, visited));
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const typed = selection.typeCondition ? TYPE_KIND[selection.typeCondition.name.value] : current;
        if (typed === current) walk(selection.selectionSet, current);
      } else {
        const fragment = info.fragments[selection.name.value];
        // A fragment is counted once per path (validation already refused cycles).
        if (!fragment || visited.has(`${current}:${fragment.name.value}`)) continue;
        if (TYPE_KIND[fragment.typeCondition.name.value] !== current) continue;
        visited.add(`${current}:${fragment.name.value}`);
        walk(fragment.selectionSet, current);
        visited.delete(`${current}:${fragment.name.value}`);
      }
    }
  };
  for (const field of fields) walk(field.selectionSet, kind);
  return depth;
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
