import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { changedAccounts } from '../../graphql/resolver-helpers.js';
import { parseInput } from '../../domain/validation.js';
import { escheatmentQuerySchema } from './dormancy.schemas.js';

/**
 * Dormancy over GraphQL (docs/adr/0109): REST's DormancyService, its scopes, rules and codes; the resolvers only
 * translate. `Account.status` (INACTIVE, DORMANT) is the lifecycle resolvers' field, read from the whole record.
 */
export const dormancyResolvers: Pick<Resolvers, 'Query' | 'Mutation' | 'EscheatmentEntry' | 'EscheatmentPage'> = {
  Query: {
    escheatment: (_parent, { asOf, state, first, after }, { services, caller }) => {
      // The query string's rules (a date, a state of the table, an accountId cursor), refused with the same codes.
      const valid = parseInput(escheatmentQuerySchema, {
        ...(asOf !== null && asOf !== undefined && { asOf }),
        ...(state !== null && state !== undefined && { state }),
        ...(after !== null && after !== undefined && { after }),
      });
      return services.dormancy.escheatment(caller, { ...valid, first: first ?? undefined });
    },
  },
  Mutation: {
    reactivateAccount: async (_parent, { accountId }, context) => {
      const account = await context.services.dormancy.reactivate(context.caller, accountId);
      changedAccounts(context, [account]);
      return account;
    },
  },
  EscheatmentEntry: {
    status: (entry) => (entry.status === 'ACTIVE' ? 'OPEN' : entry.status),
    owners: (entry) => entry.owners.map((owner) => ({ customerId: owner.customerId, name: owner.name ?? null })),
  },
  EscheatmentPage: {
    accounts: (page) => page.items,
    pageInfo: (page) => ({ hasNextPage: page.nextAfter !== null, endCursor: page.items.at(-1)?.accountId ?? null }),
  },
};
