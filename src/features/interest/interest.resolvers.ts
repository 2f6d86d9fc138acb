import type { Resolvers } from '../../graphql/generated/resolvers-types.js';

/**
 * `Account.interest` (docs/adr/0113): REST's InterestService figures and scope, every account of a response in one
 * statement (the per-request loader); an account on no product with interest answers null here rather than REST's
 * INTEREST_NOT_APPLICABLE: as a field of an account it is simply absent.
 */
export const interestResolvers: Pick<Resolvers, 'Account'> = {
  Account: {
    interest: (account, _args, { loaders }) => loaders.interestOf.load(account.accountId),
  },
};
