import { isAuthorized } from '../domain/authorization.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { createOptions, noteReplay } from './idempotency.js';
import { loadExisting, loadWithLinked } from './loaders.js';
import { encodeCursor, fetchPage, pageRequest } from './pagination.js';
import { type AccountParent, type CustomerParent, isAccountRecord, isCustomerRecord } from './parents.js';

/**
 * The resolvers only translate: arguments go to the domain services untouched (mutation inputs as
 * `unknown`, validated once, in the domain), and domain records come back as parents of the output
 * types. Which fields leave is decided by schema.graphql, which has no field for the SSN or the
 * document locator number; the domain records do not carry them either. Scalars: see scalars.ts.
 */
const isCustomer = (record: CustomerParent | AccountParent): record is CustomerParent => 'customerId' in record;

export const resolvers: Resolvers = {
  Query: {
    customer: (_parent, { customerId }, { loaders }, info) => loadWithLinked(loaders, 'customer', customerId, info),
    account: (_parent, { accountId }, { loaders }, info) => loadWithLinked(loaders, 'account', accountId, info),
    customers: async (_parent, args, { services, scope, loaders }) => {
      const page = await fetchPage(pageRequest('customer', args), (request) => services.customers.list(scope, request));
      for (const customer of page.items) loaders.customers.prime(customer.customerId, customer);
      return page;
    },
    accounts: async (_parent, args, { services, scope, loaders }) => {
      const page = await fetchPage(pageRequest('account', args), (request) => services.accounts.list(scope, request));
      for (const account of page.items) loaders.accounts.prime(account.accountId, account);
      return page;
    },
    // Ids are UUIDv7 for both kinds of record, so at most one of the two look-ups finds something. Only the
    // kinds the token may read are looked up: a customers:read token gets its customer, and null for an
    // account id (as for an unknown id), instead of the account look-up's FORBIDDEN. A token that may read
    // neither kind is refused by the domain (FORBIDDEN, customers:read).
    node: async (_parent, { id }, { loaders, scope }) => {
      const customers = isAuthorized(scope, 'customers:read');
      const accounts = isAuthorized(scope, 'accounts:read');
      if (!customers && !accounts) return loaders.customers.load(id);
      const [customer, account] = await Promise.all([customers ? loaders.customers.load(id) : null, accounts ? loaders.accounts.load(id) : null]);
      return customer ?? account;
    },
  },

  Mutation: {
    createCustomer: async (_parent, { input, idempotencyKey }, context, info) => {
      const { services, scope } = context;
      const created = noteReplay(context, info, await services.customers.create(scope, input as unknown, createOptions(idempotencyKey)));
      return services.customers.get(scope, created.customerId);
    },
    updateCustomer: async (_parent, { customerId, input }, { services, scope, loaders }) => {
      const customer = await services.customers.update(scope, customerId, input as unknown);
      loaders.customers.clear(customerId).prime(customerId, customer);
      return customer;
    },
    deleteCustomer: async (_parent, { customerId }, { services, scope, loaders }) => {
      await services.customers.delete(scope, customerId);
      loaders.customers.clear(customerId);
      return customerId;
    },
    createAccount: async (_parent, { input, idempotencyKey }, context, info) => {
      const { services, scope, loaders } = context;
      const account = noteReplay(context, info, await services.accounts.create(scope, input as unknown, createOptions(idempotencyKey)));
      // Links changed: customers read earlier in this request have stale accountIds.
      loaders.customers.clearAll();
      return account;
    },
    updateAccount: async (_parent, { accountId, input }, { services, scope, loaders }) => {
      const account = await services.accounts.update(scope, accountId, input as unknown);
      loaders.accounts.clear(accountId).prime(accountId, account);
      return account;
    },
    deleteAccount: async (_parent, { accountId }, { services, scope, loaders }) => {
      await services.accounts.delete(scope, accountId);
      loaders.accounts.clear(accountId);
      loaders.customers.clearAll();
      return accountId;
    },
  },

  Node: {
    __resolveType: (record) => (isCustomer(record) ? 'Customer' : 'Account'),
  },

  Customer: {
    id: (customer) => customer.customerId,
    // Below an ids-and-links read, the linked records are ids and links as well (loaders.ts).
    accounts: (customer, _args, { loaders }) =>
      isCustomerRecord(customer) ? loadExisting(loaders.accounts, customer.accountIds) : loadExisting(loaders.accountLinks, customer.accountIds),
  },

  Account: {
    id: (account) => account.accountId,
    customers: (account, _args, { loaders }) =>
      isAccountRecord(account) ? loadExisting(loaders.customers, account.customerIds) : loadExisting(loaders.customerLinks, account.customerIds),
  },

  CustomerConnection: {
    edges: (page) => page.items.map((node) => ({ cursor: encodeCursor('customer', node.customerId), node })),
    nodes: (page) => page.items,
    pageInfo: (page) => ({ hasNextPage: page.hasNextPage, endCursor: endCursor('customer', page.items.at(-1)?.customerId) }),
  },

  AccountConnection: {
    edges: (page) => page.items.map((node) => ({ cursor: encodeCursor('account', node.accountId), node })),
    nodes: (page) => page.items,
    pageInfo: (page) => ({ hasNextPage: page.hasNextPage, endCursor: endCursor('account', page.items.at(-1)?.accountId) }),
  },
};

const endCursor = (kind: 'customer' | 'account', lastId: string | undefined) => (lastId === undefined ? null : encodeCursor(kind, lastId));
