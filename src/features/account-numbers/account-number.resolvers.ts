import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { chargeAccountNumberLookupResolver } from '../../graphql/rate-limit.js';

/**
 * Account numbers over GraphQL (docs/adr/0107): REST's AccountNumberService, its scopes, rules and codes; the resolvers
 * only translate. `Account.accountNumbers` (full digits, `accounts:numbers:read`, audited) and `accountNumberLast4`
 * (`accounts:read`) are batched over every account of the response.
 */
export const accountNumberResolvers: Pick<Resolvers, 'Mutation' | 'Account' | 'AccountNumber' | 'MaskedAccountNumber'> =
  {
    Mutation: {
      addAccountNumber: (_parent, { accountId, inboundAchDebits }, { services, caller }) =>
        services.accountNumbers.add(caller, accountId, inboundAchDebits ? { inboundAchDebits } : {}),
      updateAccountNumber: (_parent, { accountId, accountNumberId, status, inboundAchDebits }, { services, caller }) =>
        services.accountNumbers.update(caller, accountId, accountNumberId, {
          ...(status !== null && status !== undefined && { status }),
          ...(inboundAchDebits !== null && inboundAchDebits !== undefined && { inboundAchDebits }),
        }),
      lookupAccountNumber: async (_parent, { input }, context) => {
        await chargeAccountNumberLookupResolver(context);
        return context.services.accountNumbers.lookup(context.caller, { ...input });
      },
    },
    Account: {
      accountNumberLast4: (account, _args, { loaders }) => loaders.accountNumberLast4.load(account.accountId),
      accountNumbers: (account, _args, { loaders }) => loaders.accountNumbers.load(account.accountId),
    },
    AccountNumber: {
      id: (number) => number.accountNumberId,
    },
    MaskedAccountNumber: {
      id: (number) => number.accountNumberId,
    },
  };
