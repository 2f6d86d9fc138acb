import type { AuditPage } from '../../graphql/pagination.js';
import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { withoutNulls } from '../../graphql/resolver-helpers.js';
import type { AuditFilter } from './audit.schemas.js';

/**
 * `Query.auditEvents`: the domain's audit.list (which checks `audit:read` and validates every filter), as a
 * connection. The cursor is the event id, the same value REST answers as `nextAfter`, so a page read over
 * one surface can be continued over the other.
 */
export const auditResolvers: Pick<Resolvers, 'Query' | 'AuditEventConnection'> = {
  Query: {
    // An explicit null means "no filter", as an omitted argument does. The domain validates the filter and the page.
    auditEvents: (_parent, { first, after, ...filter }, { services, caller }) =>
      services.audit.find(caller, withoutNulls(filter) as AuditFilter, {
        first: first ?? undefined,
        after: after ?? undefined,
      }),
  },
  AuditEventConnection: {
    edges: (page: AuditPage) => page.items.map((node) => ({ cursor: node.eventId, node })),
    nodes: (page: AuditPage) => page.items,
    pageInfo: (page: AuditPage) => ({
      hasNextPage: page.nextAfter !== null,
      endCursor: page.items.at(-1)?.eventId ?? null,
    }),
  },
};
