import DataLoader from 'dataloader';
import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import type { Account, AccountFlagDetail, AccountLinks } from '../features/accounts/index.js';
import type { BeneficialOwner, BusinessOwnership } from '../features/businesses/index.js';
import type { Verification } from '../features/verification/index.js';
import type { Customer, CustomerLinks } from '../features/customers/index.js';
import type { LinkRoots, Walk, WalkShape } from '../features/links/index.js';
import type { AccountParent, Below, CustomerParent } from './parents.js';
import type { Caller } from '../domain/caller.js';
import type { DomainServices } from '../features/services.js';
import type { DomainEvent } from '../features/events/index.js';
import type { Note } from '../features/notes/index.js';
import type { MaintenanceFeeAssessment } from '../features/fees/index.js';
import type { RevealedAccountNumber } from '../features/account-numbers/index.js';
import type { Product } from '../features/products/index.js';
import type { InterestSummary } from '../features/interest/index.js';
import type { Page } from '../domain/pagination.js';

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
 *
 * A walked key also carries `shape`: where the selection asks for nothing but ids and nested lists at every
 * level (`customer { accounts { accountId customers { customerId } } }`), the walk reads each record's id and
 * links alone (parents of shape `ids`, parents.ts): no personal column, no JSON to decode (docs/adr/0092). A
 * batch holding any key that needs whole records reads whole records for all of them.
 */
export interface Loaders {
  customerById: DataLoader<RecordKey, CustomerParent | null, string>;
  accountById: DataLoader<RecordKey, AccountParent | null, string>;
  /** `Customer.accounts` of customers read without a walk below them (a page of `customers`, a mutation's answer). */
  accountsOfCustomer: DataLoader<RelationKey<CustomerLinks>, AccountParent[], string>;
  /** `Account.customers`, likewise. */
  customersOfAccount: DataLoader<RelationKey<AccountLinks>, CustomerParent[], string>;
  /** `Account.flagDetails` of every account of the response in one statement. */
  flagDetails: DataLoader<string, AccountFlagDetail[] | null>;
  /** `Customer.beneficialOwners` of every business of the response in one statement (docs/adr/0097). */
  beneficialOwners: DataLoader<string, BeneficialOwner[]>;
  /** `Customer.beneficialOwnerOf` of every customer of the response in one statement. */
  ownershipsOf: DataLoader<string, BusinessOwnership[]>;
  /** `Customer.verification` of every customer of the response in one statement (docs/adr/0101). */
  verification: DataLoader<string, Verification | null>;
  /**
   * `Customer.recentEvents` / `Account.recentEvents` of every record of the response in one statement per
   * record type and `first` (docs/adr/0073-a-records-recent-events.md): the loader for that pair.
   */
  recentEvents(resourceType: RecordKind, first: number): DataLoader<string, DomainEvent[]>;
  /**
   * The first page of `Customer.notes` / `Account.notes` (no `after`) of every record of the response in one
   * statement per record type and `first` (docs/adr/0105); a page after a cursor is read on its own.
   */
  firstNotes(subject: RecordKind, first: number | undefined): DataLoader<string, Page<Note>>;
  /** The first page of `Account.fees` of every account of the response in one statement, per page size. */
  firstFees(first: number | undefined): DataLoader<string, Page<MaintenanceFeeAssessment>>;
  /** `Account.accountNumbers` of every account of the response in one statement (docs/adr/0107). */
  accountNumbers: DataLoader<string, RevealedAccountNumber[]>;
  /** `Account.product` of every account of the response in one statement (products:read checked once per batch). */
  productByCode: DataLoader<string, Product | null>;
  /** `Account.interest` of every account of the response in one statement (docs/adr/0113); null: no interest product. */
  interestOf: DataLoader<string, InterestSummary | null>;
  /** `Account.accountNumberLast4` of every account of the response in one statement. */
  accountNumberLast4: DataLoader<string, string | null>;
}

type RecordKind = 'customer' | 'account';

/** A record by id, the links the selection walks below it, and what the walk reads of each record. */
export interface RecordKey {
  id: string;
  links: number;
  shape: WalkShape;
}

/** The records linked to `parent`, the links the selection walks below those, and what is read of each. */
export interface RelationKey<P> {
  parent: P;
  links: number;
  shape: WalkShape;
}

/** A record read by id alone: the key of mutations, `node` and `Transaction.account`. */
export const byId = (id: string): RecordKey => ({ id, links: 0, shape: 'records' });

// Ids are UUIDs, which the database compares case-insensitively; one cache entry per record, depth and shape.
const recordCacheKey = (key: RecordKey) => `${key.links}:${key.shape}:${key.id.toLowerCase()}`;

/** The shape one walk reads for a batch of keys: ids alone only when every key asks for no more. */
const shapeOf = (keys: readonly { shape: WalkShape }[]): WalkShape =>
  keys.every((key) => key.shape === 'ids') ? 'ids' : 'records';

export function createLoaders(services: DomainServices, caller: Caller): Loaders {
  const recentEvents = new Map<string, DataLoader<string, DomainEvent[]>>();
  const firstNotes = new Map<string, DataLoader<string, Page<Note>>>();
  const firstFees = new Map<number | undefined, DataLoader<string, Page<MaintenanceFeeAssessment>>>();
  const walkFrom = (roots: LinkRoots, depth: number, shape: WalkShape) =>
    services.links.findLinkedFrom(caller, roots, depth, shape);
  return {
    customerById: recordLoader(
      'customer',
      (ids) => services.customers.findMany(caller, ids),
      (ids, depth, shape) =>
        services.links.findLinkedRecords(caller, { customerIds: ids, accountIds: [] }, depth, shape),
    ),
    accountById: recordLoader(
      'account',
      (ids) => services.accounts.findMany(caller, ids),
      (ids, depth, shape) =>
        services.links.findLinkedRecords(caller, { customerIds: [], accountIds: ids }, depth, shape),
    ),
    accountsOfCustomer: new DataLoader<RelationKey<CustomerLinks>, AccountParent[], string>(
      async (keys) => {
        const walk = await walkFrom(
          { customerIds: keys.map((key) => key.parent.customerId), accountIds: [] },
          1 + Math.max(...keys.map((key) => key.links)),
          shapeOf(keys),
        );
        const below = new WalkedGraph(walk).below(walk.links);
        return keys.map((key) => below.accountsOf(key.parent));
      },
      { cacheKeyFn: (key) => `${key.links}:${key.shape}:${key.parent.customerId}` },
    ),
    customersOfAccount: new DataLoader<RelationKey<AccountLinks>, CustomerParent[], string>(
      async (keys) => {
        const walk = await walkFrom(
          { customerIds: [], accountIds: keys.map((key) => key.parent.accountId) },
          1 + Math.max(...keys.map((key) => key.links)),
          shapeOf(keys),
        );
        const below = new WalkedGraph(walk).below(walk.links);
        return keys.map((key) => below.customersOf(key.parent));
      },
      { cacheKeyFn: (key) => `${key.links}:${key.shape}:${key.parent.accountId}` },
    ),
    flagDetails: new DataLoader<string, AccountFlagDetail[] | null>(
      (ids) => services.accounts.flagDetailsOfMany(caller, ids),
      { cacheKeyFn: (id) => id.toLowerCase() },
    ),
    // The domain checks customers:read once per batch; refused, every field of the batch is null with that error.
    beneficialOwners: new DataLoader<string, BeneficialOwner[]>(
      (ids) => services.beneficialOwners.listOfMany(caller, ids),
      { cacheKeyFn: (id) => id.toLowerCase() },
    ),
    ownershipsOf: new DataLoader<string, BusinessOwnership[]>(
      (ids) => services.beneficialOwners.ownershipsOfMany(caller, ids),
      { cacheKeyFn: (id) => id.toLowerCase() },
    ),
    // The domain checks verification:read once per batch; refused, every field of the batch is null with that error.
    verification: new DataLoader<string, Verification | null>((ids) => services.verification.getMany(caller, ids), {
      cacheKeyFn: (id) => id.toLowerCase(),
    }),
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
    // The domain checks accounts:numbers:read once per batch (and audits each account read); refused, every field is null with that error.
    accountNumbers: new DataLoader<string, RevealedAccountNumber[]>(
      (ids) => services.accountNumbers.listOfMany(caller, ids),
      { cacheKeyFn: (id) => id.toLowerCase() },
    ),
    productByCode: new DataLoader<string, Product | null>((codes) => services.products.getMany(caller, codes)),
    // The domain checks accounts:read once per batch.
    interestOf: new DataLoader<string, InterestSummary | null>((ids) => services.interest.summariesOf(caller, ids), {
      cacheKeyFn: (id) => id.toLowerCase(),
    }),
    accountNumberLast4: new DataLoader<string, string | null>(
      (ids) => services.accountNumbers.last4OfMany(caller, ids),
      { cacheKeyFn: (id) => id.toLowerCase() },
    ),
    // The domain checks notes:read and `first` once per batch; refused, every field of the batch is null with that error.
    firstNotes: (subject, first) => {
      const key = `${subject}:${first ?? ''}`;
      let loader = firstNotes.get(key);
      if (!loader) {
        loader = new DataLoader<string, Page<Note>>(
          (ids) => services.notes.firstPagesOfMany(caller, subject, ids, first),
          { cacheKeyFn: (id) => id.toLowerCase() },
        );
        firstNotes.set(key, loader);
      }
      return loader;
    },
    // The domain checks accounts:read and `first` once per batch; refused, every field of the batch is null with that error.
    firstFees: (first) => {
      let loader = firstFees.get(first);
      if (!loader) {
        loader = new DataLoader<string, Page<MaintenanceFeeAssessment>>(
          (ids) => services.fees.firstPagesOfMany(caller, ids, first),
          { cacheKeyFn: (id) => id.toLowerCase() },
        );
        firstFees.set(first, loader);
      }
      return loader;
    },
  };
}

/** The entity loader of one kind: keys without links read by id (findMany), those with links by one walk, the deepest key's. */
function recordLoader<K extends RecordKind>(
  kind: K,
  findMany: (ids: readonly string[]) => Promise<((K extends 'customer' ? Customer : Account) | null)[]>,
  walk: (ids: readonly string[], depth: number, shape: WalkShape) => Promise<Walk>,
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
                shapeOf(walked),
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
 * The records one walk read, by id, as parents of the walk's shape. A record answered `n` links below the walk's
 * roots may hand out its linked records as long as `n` is below the walk's depth: the copy answered there carries
 * `below` for the links left (one copy per record and links left), and the last level is the plain parent.
 */
class WalkedGraph {
  readonly links: number;
  private readonly customers = new Map<string, CustomerParent>();
  private readonly accounts = new Map<string, AccountParent>();
  private readonly views = new Map<number, Below>();
  private readonly copies = new Map<string, CustomerParent | AccountParent>();

  constructor(walk: Walk) {
    this.links = walk.links;
    if (walk.shape === 'ids') {
      for (const customer of walk.customers) this.customers.set(customer.customerId, { ...customer, shape: 'ids' });
      for (const account of walk.accounts) this.accounts.set(account.accountId, { ...account, shape: 'ids' });
    } else {
      for (const customer of walk.customers) this.customers.set(customer.customerId, customer);
      for (const account of walk.accounts) this.accounts.set(account.accountId, account);
    }
  }

  customer(id: string, links: number): CustomerParent | null {
    const parent = this.customers.get(id.toLowerCase());
    return parent ? this.withBelow(`c:${links}:${parent.customerId}`, parent, links) : null;
  }

  account(id: string, links: number): AccountParent | null {
    const parent = this.accounts.get(id.toLowerCase());
    return parent ? this.withBelow(`a:${links}:${parent.accountId}`, parent, links) : null;
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

  private withBelow<T extends CustomerParent | AccountParent>(key: string, parent: T, links: number): T {
    if (links <= 0) return parent;
    let copy = this.copies.get(key) as T | undefined;
    if (!copy) this.copies.set(key, (copy = { ...parent, below: this.below(links) }));
    return copy;
  }
}

/**
 * A root field's key: its id, how many links its selection walks below the record, and whether ids and links
 * are all it reads (a record read alone, by id, is read whole: that is one look-up either way).
 */
export function rootKey(kind: RecordKind, id: string, info: GraphQLResolveInfo): RecordKey {
  const links = linkDepth(kind, info.fieldNodes, info);
  const shape = links > 0 && selectsOnlyIdsAndLinks(kind, info.fieldNodes, info) ? 'ids' : 'records';
  return { id, links, shape };
}

/**
 * A relation field's key (`Customer.accounts`, `Account.customers`): its parent, the links walked below the
 * records it lists, and whether ids and links are all it reads of them.
 */
export function relationKey<P>(parent: P, kind: RecordKind, info: GraphQLResolveInfo): RelationKey<P> {
  const next = LINK_FIELD[kind].next;
  const shape = selectsOnlyIdsAndLinks(next, info.fieldNodes, info) ? 'ids' : 'records';
  return { parent, links: linkDepth(next, info.fieldNodes, info), shape };
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

/** What an ids-only parent answers on each kind of record (parents.ts): its identity but `version`, and its nested list. */
const ID_AND_LINK_FIELDS: Record<RecordKind, ReadonlySet<string>> = {
  customer: new Set(['__typename', 'id', 'customerId', 'accounts']),
  account: new Set(['__typename', 'id', 'accountId', 'customers']),
};

/**
 * Whether the selections below records of `kind` ask for nothing but ids and nested lists, at every depth.
 * Conservative: any other field anywhere (also one under @skip), or a fragment on any type but the record's
 * own (an interface such as Node included), answers no, and whole records are read.
 */
function selectsOnlyIdsAndLinks(kind: RecordKind, fields: readonly FieldNode[], info: GraphQLResolveInfo): boolean {
  const check = (selectionSet: SelectionSetNode | undefined, current: RecordKind): boolean => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (!ID_AND_LINK_FIELDS[current].has(name)) return false;
        if (name === LINK_FIELD[current].field && !check(selection.selectionSet, LINK_FIELD[current].next))
          return false;
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
