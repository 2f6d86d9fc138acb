import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { createOptions, noteReplay } from '../../graphql/idempotency.js';
import { byId, forgetLinks, relationKey, rootKey } from '../../graphql/loaders.js';
import { encodeCursor, pageRequest } from '../../graphql/pagination.js';
import { wholeRecord } from '../../graphql/parents.js';
import { changedAccounts, endCursor, versionCondition, withoutNulls } from '../../graphql/resolver-helpers.js';
import { everyRelationship } from './account.js';

/**
 * Accounts over GraphQL: reading them, creating, updating and deleting them, their customers and roles, flags
 * and overdraft limit. Arguments go to the domain untouched (a null optional argument as an absent one); a
 * mutation tells the request's loaders what changed.
 */
export const accountResolvers: Pick<
  Resolvers,
  'Query' | 'Mutation' | 'Account' | 'AccountRelationship' | 'AccountConnection'
> = {
  Query: {
    account: (_parent, { accountId }, { loaders }, info) =>
      loaders.accountById.load(rootKey('account', accountId, info)),
    accounts: async (_parent, args, { services, caller, loaders }) => {
      const request = pageRequest('account', args);
      const page = await services.accounts.find(caller, args.filter ? withoutNulls(args.filter) : {}, request);
      for (const account of page.items) loaders.accountById.prime(byId(account.accountId), account);
      return page;
    },
  },

  Mutation: {
    createAccount: async (_parent, { input, idempotencyKey }, context, info) => {
      const { services, caller, loaders } = context;
      // A null `relationships` is an absent one: every customer an OWNER.
      const { relationships, ...fields } = input;
      const account = noteReplay(
        context,
        info,
        await services.accounts.create(
          caller,
          (relationships === null ? fields : input) as unknown,
          createOptions(idempotencyKey),
        ),
      );
      // Links changed: customers read earlier in this request have stale accountIds.
      forgetLinks(loaders);
      return account;
    },
    updateAccount: async (_parent, { accountId, input, expectedVersion }, { services, caller, loaders }) => {
      const account = await services.accounts.update(
        caller,
        accountId,
        input as unknown,
        versionCondition(expectedVersion),
      );
      loaders.accountById.clear(byId(accountId)).prime(byId(accountId), account);
      return account;
    },
    deleteAccount: async (_parent, { accountId, expectedVersion }, { services, caller, loaders }) => {
      await services.accounts.delete(caller, accountId, versionCondition(expectedVersion));
      forgetLinks(loaders);
      return accountId;
    },
    addAccountCustomer: async (_parent, { accountId, customerId, role }, context) => {
      const account = await context.services.accounts.addCustomer(
        context.caller,
        accountId,
        withoutNulls({ customerId, role }),
      );
      forgetLinks(context.loaders);
      changedAccounts(context, [account]);
      return account;
    },
    removeAccountCustomer: async (_parent, { accountId, customerId, expectedVersion }, context) => {
      const account = await context.services.accounts.removeCustomer(
        context.caller,
        accountId,
        customerId,
        versionCondition(expectedVersion),
      );
      forgetLinks(context.loaders);
      changedAccounts(context, [account]);
      return account;
    },
    setAccountRelationship: async (_parent, { accountId, customerId, role, expectedVersion }, context) => {
      const account = await context.services.accounts.setCustomerRole(
        context.caller,
        accountId,
        customerId,
        { role },
        versionCondition(expectedVersion),
      );
      // Links are unchanged (customers list the same accounts); the account's roles and version moved.
      changedAccounts(context, [account]);
      return account;
    },
    setAccountFlag: async (_parent, { accountId, flag, reason, until, expectedVersion }, context) => {
      const account = await context.services.accounts.setFlag(
        context.caller,
        accountId,
        flag,
        withoutNulls({ reason, until }),
        versionCondition(expectedVersion),
      );
      changedAccounts(context, [account]);
      return account;
    },
    clearAccountFlag: async (_parent, { accountId, flag, reason, expectedVersion }, context) => {
      const account = await context.services.accounts.clearFlag(
        context.caller,
        accountId,
        flag,
        withoutNulls({ reason }),
        versionCondition(expectedVersion),
      );
      changedAccounts(context, [account]);
      return account;
    },
    setOverdraftLimit: async (_parent, { accountId, overdraftLimit, expectedVersion }, context) => {
      const account = await context.services.accounts.setOverdraftLimit(
        context.caller,
        accountId,
        { overdraftLimit },
        versionCondition(expectedVersion),
      );
      changedAccounts(context, [account]);
      return account;
    },
  },

  Account: {
    id: (account) => account.accountId,
    // Read with the account by a walk (`below`), or by the relation's loader (loaders.ts).
    customers: (account, _args, { loaders }, info) =>
      account.below?.customersOf(account) ?? loaders.customersOfAccount.load(relationKey(account, 'account', info)),
    flagDetails: async (account, _args, { loaders }) => (await loaders.flagDetails.load(account.accountId)) ?? [],
    // The roles come with the account (one column of its read); a selection with this field reads whole records.
    relationships: (account) => everyRelationship(wholeRecord(account)),
    productCode: (account) => wholeRecord(account).productCode ?? null,
    // products:read besides the account's scope (docs/adr/0112): without it, FORBIDDEN on this field only.
    product: async (account, _args, { loaders }) => {
      const code = wholeRecord(account).productCode;
      return code === undefined || code === null ? null : loaders.productByCode.load(code);
    },
  },

  AccountRelationship: {
    // Every relationship of the response in one read (or one walk, with the links selected below it): customers:read.
    customer: (relationship, _args, { loaders }, info) =>
      loaders.customerById.load(rootKey('customer', relationship.customerId, info)),
  },

  AccountConnection: {
    edges: (page) => page.items.map((node) => ({ cursor: encodeCursor('account', node.accountId), node })),
    nodes: (page) => page.items,
    pageInfo: (page) => ({
      hasNextPage: page.nextAfter !== null,
      endCursor: endCursor('account', page.items.at(-1)?.accountId),
    }),
  },
};
