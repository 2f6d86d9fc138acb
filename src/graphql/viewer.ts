import { grantsOf } from '../domain/authorization.js';
import type { Resolvers } from './generated/resolvers-types.js';

/**
 * `Query.viewer`: the grants of the token the request carries (the domain's grantsOf), so that a client such
 * as the console offers only the actions the token may perform (docs/adr/0065-console-a-client-of-graphql.md).
 */
export const viewerResolvers: Pick<Resolvers, 'Query'> = {
  Query: {
    viewer: (_parent, _args, { caller, environments }) => ({
      ...grantsOf(caller.principal, environments),
      principalId: caller.principal.id,
      name: caller.principal.name ?? caller.principal.id,
    }),
  },
};
