import { authorize, isAuthorized } from '../../domain/authorization.js';
import { isRecordId } from '../../domain/ids.js';
import type { LinkedIds, LinkedRecords, LinkReadModel, LinkRoots } from './ports.js';
import type { Caller } from '../../domain/caller.js';

/** How many links a nested read may prefetch in one statement; deeper levels are read level by level. */
export const MAX_LINK_DEPTH = 4;

/**
 * Reads across the customer–account links for nested reads (GraphQL look-ahead): the customers and
 * accounts named in `roots`, and the records linked to them within `depth` links, in one round trip.
 * Roots need the read scope of their kind, as the services' findMany does; links are followed only for a
 * principal that may read both kinds (a nested read it may not make is refused later, by findMany, as
 * without look-ahead). The depth is capped.
 */
export class LinkService {
  constructor(private readonly links: LinkReadModel) {}

  async findLinkedRecords(caller: Caller, roots: LinkRoots, depth: number): Promise<LinkedRecords> {
    const walk = this.walk(caller, roots, depth);
    if (!walk) return { customers: [], accounts: [] };
    return this.links.findLinkedRecords(caller.environment, walk.roots, walk.links);
  }

  /** findLinkedRecords for a read that selects nothing but ids and links: the same rules, only those columns. */
  async findLinkedIds(caller: Caller, roots: LinkRoots, depth: number): Promise<LinkedIds> {
    const walk = this.walk(caller, roots, depth);
    if (!walk) return { customers: [], accounts: [] };
    return this.links.findLinkedIds(caller.environment, walk.roots, walk.links);
  }

  /** The authorized, well-formed roots and the number of links the principal may follow; undefined: nothing to read. */
  private walk(caller: Caller, roots: LinkRoots, depth: number): { roots: LinkRoots; links: number } | undefined {
    if (roots.customerIds.length > 0) authorize(caller, 'customers:read');
    if (roots.accountIds.length > 0) authorize(caller, 'accounts:read');
    const customerIds = roots.customerIds.filter(isRecordId);
    const accountIds = roots.accountIds.filter(isRecordId);
    if (customerIds.length === 0 && accountIds.length === 0) return undefined;
    const mayFollow = isAuthorized(caller, 'customers:read') && isAuthorized(caller, 'accounts:read');
    const links = mayFollow ? Math.max(0, Math.min(Math.trunc(depth), MAX_LINK_DEPTH)) : 0;
    return { roots: { customerIds, accountIds }, links };
  }
}
