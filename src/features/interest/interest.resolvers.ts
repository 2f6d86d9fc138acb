import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { isDomainError } from '../../domain/errors.js';

/**
 * `Account.interest` (docs/adr/0113): REST's InterestService.summary, its scope and codes; an account on no product
 * with interest answers null here rather than REST's INTEREST_NOT_APPLICABLE, as a field of an account it is simply
 * absent.
 */
export const interestResolvers: Pick<Resolvers, 'Account'> = {
  Account: {
    interest: async (account, _args, { services, caller }) => {
      try {
        return await services.interest.summary(caller, account.accountId);
      } catch (error) {
        if (isDomainError(error) && error.code === 'INTEREST_NOT_APPLICABLE') return null;
        throw error;
      }
    },
  },
};
