import type { AuditPage } from '../domain/audit/audit.service.js';
import type { Resolvers } from './generated/resolvers-types.js';

/**
 * `Query.auditEvents`: the domain's audit.list (which checks `audit:read` and validates every filter), as a
 * connection. The cursor is the event id, the same value REST answers as `nextCursor`, so a page read over
 * one surface can be continued over the other.
 */
export const auditResolvers: Pick<Resolvers, 'Query' | 'AuditEventConnection'> = {
  Query: {
    auditEvents: (_parent, args, { services, caller }) =>
      // An explicit null means "no filter", as an omitted argument does.
      services.audit.list(caller, Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null && value !== undefined))),
  },
  AuditEventConnection: {
    edges: (page: AuditPage) => page.events.map((node) => ({ cursor: node.eventId, node })),
    nodes: (page: AuditPage) => page.events,
    pageInfo: (page: AuditPage) => ({ hasNextPage: page.nextCursor !== null, endCursor: page.events.at(-1)?.eventId ?? null }),
  },
};
