import DataLoader from 'dataloader';
import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import type { Account, AccountFlagDetail } from '../features/accounts/index.js';
import type { Customer } from '../features/customers/index.js';
import type { LinkRoots, Walk } from '../features/links/index.js';
import type { AccountParent, Below, CustomerParent } from './parents.js';
import type { Caller } from '../domain/caller.js';
import type { DomainServices } from '../features/services.js';
import type { DomainEvent } from '../features/events/index.js';

/**
 * Per-request batching and caching of the reads of customers, accounts and their links: one loader per
 * entity and one per side of the customer–account relation, each asked for in one tick of the execution read
 * with one statement, so nested lists cost a constant number of statements instead of one per item (no N+1).
 * New loaders per request: no data is shared between callers or environments, and a mutation's reads are never
 * stale from an earlier request. Walks of concurrent requests may share a statement, in the store
 * (link.read-model.ts), each request getting only what its own roots reach.
 *
 * A key carries `links`: how many links the selection walks below the records it answers. With 0 the records
 * are read by id; with more, one walk (LinkService) reads them and everything that many links away, and each
 * record answered carries `below` (parents.ts) to hand its linked records to the nested field: nothing is primed
 * into another loader. `customer { accounts { customers { … } } }` is therefore one statement; a walk is capped
 * at 4 links, and the level below it is read by the relation loader, with another walk.
 */
export interface Loaders {
  customerById: DataLoader<RecordKey, CustomerParent | null, string>;
  accountById: DataLoader<RecordKey, AccountParent | null, string>;
  /** `Customer.accounts` of customers read without a walk below them (a page of `customers`, a mutation's answer). */
  accountsOfCustomer: DataLoader<RelationKey<Customer>, AccountParent[], string>;
  /** `Account.customers`, likewise. */
  customersOfAccount: DataLoader<RelationKey<Account>, CustomerParent[], string>;
  /** `Account.flagDetails` of every account of the response in one statement. */
  flagDetails: DataLoader<string, AccountFlagDetail[] | null>;
  /**
   * `Customer.recentEvents` / `Account.recentEvents` of every record of the response in one statement per
   * record type and `first` (docs/adr/0073-a-records-recent-events.md): the loader for that pair.
   */
  recentEvents(resourceType: RecordKind, first: number): DataLoader<string, DomainEvent[]>;
}

type RecordKind = 'customer' | 'account';

/** A record by id, and the links the selection walks below it. */
export interface RecordKey {
  id: string;
  links: number;
}

/** The records linked to `parent`, and the links the selection walks below those. */
export interface RelationKey<P> {
  parent: P;
  links: number;
}

/** A record read by id alone: the key of mutations, `node` and `Transaction.account`. */
export const byId = (id: string): RecordKey => ({ id, links: 0 });

// Ids are UUIDs, which the database compares case-insensitively; one cache entry per record and depth.
const recordCacheKey = (key: RecordKey) => `${key.links}:${key.id.toLowerCase()}`;

export function createLoaders(services: DomainServices, caller: Caller): Loaders {
  const recentEvents = new Map<string, DataLoader<string, DomainEvent[]>>();
  const walkFrom = (roots: LinkRoots, depth: number) => services.links.findLinkedFrom(caller, roots, depth);
  return {
    customerById: recordLoader(
      'customer',
      (ids) => services.customers.findMany(caller, ids),
      (ids, depth) => services.links.findLinkedRecords(caller, { customerIds: ids, accountIds: [] }, depth),
    ),
    accountById: recordLoader(
      'account',
      (ids) => services.accounts.findMany(caller, ids),
      (ids, depth) => services.links.findLinkedRecords(caller, { customerIds: [], accountIds: ids }, depth),
    ),
    accountsOfCustomer: new DataLoader<RelationKey<Customer>, AccountParent[], string>(
      async (keys) => {
        const walk = await walkFrom(
          { customerIds: keys.map((key) => key.parent.customerId), accountIds: [] },
          1 + Math.max(...keys.map((key) => key.links)),
        );
        const below = new WalkedGraph(walk).below(walk.links);
        return keys.map((key) => below.accountsOf(key.parent));
      },
      { cacheKeyFn: (key) => `${key.links}:${key.parent.customerId}` },
    ),
    customersOfAccount: new DataLoader<RelationKey<Account>, CustomerParent[], string>(
      async (keys) => {
        const walk = await walkFrom(
          { customerIds: [], accountIds: keys.map((key) => key.parent.accountId) },
          1 + Math.max(...keys.map((key) => key.links)),
        );
        const below = new WalkedGraph(walk).below(walk.links);
        return keys.map((key) => below.customersOf(key.parent));
      },
      { cacheKeyFn: (key) => `${key.links}:${key.parent.accountId}` },
    ),
    flagDetails: new DataLoader<string, AccountFlagDetail[] | null>(
      (ids) => services.accounts.flagDetailsOfMany(caller, ids),
      { cacheKeyFn: (id) => id.toLowerCase() },
    ),
    // The domain checks events:read and the limit once per batch; refused, every field of the batch is null with that error.
    recentEvents: (resourceType, first) => {
      const key = `${resourceType}:${first}`;
      let loader = recentEvents.get(key);
      if (!loader) {
        loader = new DataLoader<string, DomainEvent[]>(
          (ids) => services.events.recentOfMany(caller, { resourceType, resourceIds: ids }, { first }),
          { cacheKeyFn: (id) => id.toLowerCase() },
        );
        recentEvents.set(key, loader);
      }
      return loader;
    },
  };
}

/** The entity loader of one kind: keys without links read by id (findMany), those with links by one walk, the deepest key's. */
function recordLoader<K extends RecordKind>(
  kind: K,
  findMany: (ids: readonly string[]) => Promise<((K extends 'customer' ? Customer : Account) | null)[]>,
  walk: (ids: readonly string[], depth: number) => Promise<Walk>,
): DataLoader<RecordKey, (K extends 'customer' ? CustomerParent : AccountParent) | null, string> {
  type Parent = (K extends 'customer' ? CustomerParent : AccountParent) | null;
  return new DataLoader<RecordKey, Parent, string>(
    async (keys) => {
      const plain = keys.filter((key) => key.links === 0);
      const walked = keys.filter((key) => key.links > 0);
      const settle = <T>(promise: Promise<T>) =>
        promise.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      const [records, graph] = await Promise.all([
        plain.length > 0 ? settle(findMany(plain.map((key) => key.id))) : [],
        walked.length > 0
          ? settle(
              walk(
                walked.map((key) => key.id),
                Math.max(...walked.map((key) => key.links)),
              ).then((found) => new WalkedGraph(found)),
            )
          : undefined,
      ]);
      let next = 0;
      return keys.map((key): Parent | Error => {
        if (key.links === 0) return records instanceof Error ? records : ((records[next++] ?? null) as Parent);
        if (graph instanceof Error) return graph;
        return (
          kind === 'customer' ? graph!.customer(key.id, graph!.links) : graph!.account(key.id, graph!.links)
        ) as Parent;
      });
    },
    { cacheKeyFn: recordCacheKey },
  );
}

/**
 * The records one walk read, by id. A record answered `n` links below the walk's roots may hand out its linked
 * records as long as `n` is below the walk's depth: the copy answered there carries `below` for the links left
 * (one copy per record and links left), and the last level is the plain record.
 */
class WalkedGraph {
  readonly links: number;
  private readonly customers = new Map<string, Customer>();
  private readonly accounts = new Map<string, Account>();
  private readonly views = new Map<number, Below>();
  private readonly copies = new Map<string, CustomerParent | AccountParent>();

  constructor(walk: Walk) {
    this.links = walk.links;
    for (const customer of walk.customers) this.customers.set(customer.customerId, customer);
    for (const account of walk.accounts) this.accounts.set(account.accountId, account);
  }

  customer(id: string, links: number): CustomerParent | null {
    const record = this.customers.get(id.toLowerCase());
    return record ? this.withBelow(`c:${links}:${record.customerId}`, record, links) : null;
  }

  account(id: string, links: number): AccountParent | null {
    const record = this.accounts.get(id.toLowerCase());
    return record ? this.withBelow(`a:${links}:${record.accountId}`, record, links) : null;
  }

  /** The linked records of a parent with `links` links read below it, each with one link fewer. */
  below(links: number): Below {
    let view = this.views.get(links);
    if (!view) {
      // Ids whose record the walk did not find were unlinked or deleted between two statements: skipped.
      const present = <T>(records: (T | null)[]) => records.filter((record): record is T => record !== null);
      view = {
        accountsOf: (customer) => present(customer.accountIds.map((id) => this.account(id, links - 1))),
        customersOf: (account) => present(account.customerIds.map((id) => this.customer(id, links - 1))),
      };
      this.views.set(links, view);
    }
    return view;
  }

  private withBelow<T extends Customer | Account>(key: string, record: T, links: number): T & { below?: Below } {
    if (links <= 0) return record;
    let copy = this.copies.get(key) as (T & { below: Below }) | undefined;
    if (!copy) this.copies.set(key, (copy = { ...record, below: this.below(links) }));
    return copy;
  }
}

/** A root field's key: its id, and how many links its selection walks below the record. */
export function rootKey(kind: RecordKind, id: string, info: GraphQLResolveInfo): RecordKey {
  return { id, links: linkDepth(kind, info.fieldNodes, info) };
}

/** A relation field's key (`Customer.accounts`, `Account.customers`): its parent, and the links walked below the records it lists. */
export function relationKey<P>(parent: P, kind: RecordKind, info: GraphQLResolveInfo): RelationKey<P> {
  return { parent, links: linkDepth(LINK_FIELD[kind].next, info.fieldNodes, info) };
}

/** Forgets every record and link read so far: a mutation changed links. */
export function forgetLinks(loaders: Loaders): void {
  loaders.customerById.clearAll();
  loaders.accountById.clearAll();
  loaders.accountsOfCustomer.clearAll();
  loaders.customersOfAccount.clearAll();
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
function linkDepth(
  kind: RecordKind,
  fields: readonly FieldNode[],
  info: GraphQLResolveInfo,
  visited = new Set<string>(),
): number {
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
