import { authorize, isAuthorized } from '../../domain/authorization.js';
import { isRecordId } from '../../domain/ids.js';
import type { LinkBounds, LinkedIds, LinkedRecords, LinkReadModel, LinkRoots } from './ports.js';
import type { Caller } from '../../domain/caller.js';
import type { Customer } from '../customers/index.js';

/** How many links a nested read may prefetch in one statement; deeper levels are read by another walk. */
export const MAX_LINK_DEPTH = 4;

/**
 * What a walk reads of each record: the whole record, or its id and links alone (for a selection that asks
 * for nothing else, GraphQL's `customer { accounts { customers { customerId } } }`).
 */
export type WalkShape = 'records' | 'ids';

/** What a walk read, in the shape asked for, and how many links deep it went (0 when it could not follow links). */
export type Walk =
  (LinkedRecords & { shape: 'records'; links: number }) | (LinkedIds & { shape: 'ids'; links: number });

/**
 * Reads across the customer–account links for nested reads (GraphQL): the customers and accounts named in
 * `roots`, and the records linked to them within `depth` links, in one round trip. The depth is capped.
 */
export class LinkService {
  constructor(
    private readonly links: LinkReadModel,
    /** Completes the customers a walk read (a business's profile: CustomerService.withProfiles); absent, as read. */
    private readonly completeCustomers?: (environment: string, customers: Customer[]) => Promise<Customer[]>,
  ) {}

  /**
   * A walk from roots a principal reads directly (`customer(customerId)`): roots need the read scope of their
   * kind, as the services' findMany does; links are followed only for a principal that may read both kinds
   * (a nested read it may not make is refused by `findLinkedFrom`, as a direct read would be).
   */
  async findLinkedRecords(
    caller: Caller,
    roots: LinkRoots,
    depth: number,
    shape: WalkShape = 'records',
  ): Promise<Walk> {
    if (roots.customerIds.length > 0) authorize(caller, 'customers:read');
    if (roots.accountIds.length > 0) authorize(caller, 'accounts:read');
    const mayFollow = isAuthorized(caller, 'customers:read') && isAuthorized(caller, 'accounts:read');
    return this.walk(caller, roots, mayFollow ? depth : 0, shape);
  }

  /**
   * A walk from records already read to the records linked to them (`Customer.accounts`, `Account.customers`):
   * at least one link, so it needs the read scope of the other kind (FORBIDDEN naming it, as findMany), and of
   * the roots' own kind.
   */
  async findLinkedFrom(caller: Caller, roots: LinkRoots, depth: number, shape: WalkShape = 'records'): Promise<Walk> {
    const other = roots.customerIds.length > 0 ? 'accounts:read' : 'customers:read';
    authorize(caller, other);
    authorize(caller, other === 'accounts:read' ? 'customers:read' : 'accounts:read');
    return this.walk(caller, roots, Math.max(1, depth), shape);
  }

  /** The caller's environment's link bounds (see LinkBounds). */
  bounds(caller: Caller): Promise<LinkBounds> {
    return this.links.findBounds(caller.environment);
  }

  private async walk(caller: Caller, roots: LinkRoots, depth: number, shape: WalkShape): Promise<Walk> {
    const customerIds = roots.customerIds.filter(isRecordId);
    const accountIds = roots.accountIds.filter(isRecordId);
    if (customerIds.length === 0 && accountIds.length === 0) return { shape, customers: [], accounts: [], links: 0 };
    const links = Math.max(0, Math.min(Math.trunc(depth), MAX_LINK_DEPTH));
    const valid = { customerIds, accountIds };
    return shape === 'ids'
      ? { shape, ...(await this.links.findLinkedIds(caller.environment, valid, links)), links }
      : { shape, ...(await this.completed(caller.environment, valid, links)), links };
  }

  private async completed(environment: string, roots: LinkRoots, links: number): Promise<LinkedRecords> {
    const read = await this.links.findLinkedRecords(environment, roots, links);
    if (!this.completeCustomers) return read;
    return { ...read, customers: await this.completeCustomers(environment, read.customers) };
  }
}
