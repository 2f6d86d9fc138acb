import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { wholeRecord } from '../../graphql/parents.js';
import { HISTORY_LIMITS } from './history.schemas.js';

/** An account's history fields: they read through the domain's history service (accounts:read, validation, limits), as REST does. */
export const historyResolvers: Pick<Resolvers, 'Account'> = {
  Account: {
    balance: async (account, { asOf }, { services, caller }) => {
      if (asOf === undefined || asOf === null) return wholeRecord(account).balance;
      return services.history.balance(caller, account.accountId, { asOf });
    },
    balanceHistory: async (account, { from, to, interval }, { services, caller }) =>
      (await services.history.balanceHistory(caller, account.accountId, { from, to, interval: interval.toLowerCase() }))
        .points,
    statement: (account, { from, to }, { services, caller }) =>
      services.history.statement(caller, account.accountId, { from, to }, HISTORY_LIMITS.maxGraphqlStatementEntries),
  },
};
