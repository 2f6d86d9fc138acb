import { type FeedOverflow, isFeedOverflow } from './event-feed.js';
import type { GraphqlContext } from '../../graphql/context.js';
import { ClientFacingError, GraphqlErrorCodes } from '../../graphql/error-mapping.js';
import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { createLoaders } from '../../graphql/loaders.js';

/**
 * The subscriptions (served over WebSocket by src/graphql/websocket.ts). `subscribe` asks the domain to
 * follow (which checks the scope and the account as the equivalent query would); `resolve` presents each
 * value through the same output types and resolvers as the queries. Each value is executed like a request
 * of its own: fresh loaders, so nested fields (`Account.customers`) read what is current rather than what
 * an earlier value cached.
 */
function present<T>(value: T | FeedOverflow, _args: unknown, context: GraphqlContext): T {
  if (isFeedOverflow(value)) {
    throw new ClientFacingError(
      `The subscription was ended: ${value.buffered} values were waiting that the client did not read. Subscribe again, and read what was missed with the \`events\` query (\`after\`).`,
      { code: GraphqlErrorCodes.subscriptionTooSlow },
    );
  }
  context.loaders = createLoaders(context.services, context.caller);
  return value;
}

export const subscriptionResolvers: Pick<Resolvers, 'Subscription'> = {
  Subscription: {
    accountUpdated: {
      subscribe: (_parent, { accountId }, { services, caller }) => services.events.followAccount(caller, accountId),
      resolve: present,
    },
    transactionPosted: {
      subscribe: (_parent, { accountId }, { services, caller }) =>
        services.events.followPostedTransactions(caller, accountId),
      resolve: present,
    },
    events: {
      subscribe: (_parent, { types }, { services, caller }) => services.events.follow(caller, types ? { types } : {}),
      resolve: present,
    },
  },
};
