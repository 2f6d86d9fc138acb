import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import type { TimelineEntry, TimelinePage } from './timeline.js';

/** A customer's timeline over GraphQL (docs/adr/0111): TimelineService's scopes, rules and codes; only translated. */
export const timelineResolvers: Pick<Resolvers, 'Customer' | 'TimelineConnection' | 'TimelineEntry'> = {
  Customer: {
    timeline: (customer, { first, after, kinds }, { services, caller }) =>
      services.timeline.page(caller, customer.customerId, {
        first: first ?? undefined,
        after: after ?? undefined,
        kinds: kinds ?? undefined,
      }),
  },
  TimelineConnection: {
    nodes: (page: TimelinePage) => page.entries,
    omittedKinds: (page: TimelinePage) => page.omittedKinds,
    pageInfo: (page: TimelinePage) => ({ hasNextPage: page.nextAfter !== null, endCursor: page.nextAfter }),
  },
  TimelineEntry: {
    at: (entry: TimelineEntry) => entry.at.toISOString(),
  },
};
