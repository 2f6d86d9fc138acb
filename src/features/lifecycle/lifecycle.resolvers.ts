import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { byId } from '../../graphql/loaders.js';
import { wholeRecord } from '../../graphql/parents.js';
import { changedAccounts } from '../../graphql/resolver-helpers.js';

/**
 * Accounts close and reopen, customers archive, over GraphQL (docs/adr/0106): REST's LifecycleService, its scopes,
 * rules and codes; the resolvers only translate. The records' status fields read the whole record (they are not
 * among the ids-only walk's fields).
 */
export const lifecycleResolvers: Pick<Resolvers, 'Mutation' | 'Account' | 'Customer'> = {
  Mutation: {
    closeAccount: async (_parent, { accountId, reason, disbursementAccountId }, context) => {
      const account = await context.services.lifecycle.closeAccount(context.caller, accountId, {
        reason,
        ...(disbursementAccountId !== null && disbursementAccountId !== undefined && { disbursementAccountId }),
      });
      // The disbursement account's balance moved too: read again if asked for in this request.
      changedAccounts(context, disbursementAccountId ? [account, disbursementAccountId] : [account]);
      return account;
    },
    reopenAccount: async (_parent, { accountId }, context) => {
      const account = await context.services.lifecycle.reopenAccount(context.caller, accountId);
      changedAccounts(context, [account]);
      return account;
    },
    archiveCustomer: async (_parent, { customerId, reason }, { services, caller, loaders }) => {
      const customer = await services.lifecycle.archiveCustomer(caller, customerId, { reason });
      loaders.customerById.clear(byId(customerId)).prime(byId(customerId), customer);
      return customer;
    },
  },
  Account: {
    status: (account) => wholeRecord(account).status ?? 'OPEN',
    closedAt: (account) => wholeRecord(account).closedAt ?? null,
    closeReason: (account) => wholeRecord(account).closeReason ?? null,
  },
  Customer: {
    status: (customer) => wholeRecord(customer).status ?? 'ACTIVE',
    archivedAt: (customer) => wholeRecord(customer).archivedAt ?? null,
    archiveReason: (customer) => wholeRecord(customer).archiveReason ?? null,
  },
};
