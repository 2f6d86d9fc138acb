import type { Account } from '../features/accounts/index.js';
import { isAuthorized } from '../domain/authorization.js';
import { accountNotFound, isDomainError } from '../domain/errors.js';
import { HISTORY_LIMITS } from '../features/history/index.js';
import { recentEventsFirst } from '../features/events/index.js';
import { RECENT_TRANSACTIONS } from '../features/ledger/index.js';
import type { VersionCondition } from '../domain/versions.js';
import type { GraphqlContext } from './context.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { createOptions, noteReplay } from './idempotency.js';
import { loadExisting, loadWithLinked } from './loaders.js';
import { encodeCursor, pageRequest, type TransactionPage } from './pagination.js';
import { type AccountParent, type CustomerParent, isAccountRecord, isCustomerRecord } from './parents.js';
import { chargeSsnRefusalResolver, chargeSsnSearchResolver } from './rate-limit.js';

/**
 * The resolvers only translate: arguments go to the domain services untouched (mutation inputs as
 * `unknown`, validated once, in the domain), and domain records come back as parents of the output
 * types. Which fields leave is decided by schema.graphql, which has no field for the SSN or the
 * document locator number; the domain records do not carry them either. Scalars: see scalars.ts.
 */
const isCustomer = (record: CustomerParent | AccountParent): record is CustomerParent => 'customerId' in record;

/** The arguments that were given: an explicit null stays (the domain refuses it), an absent one is left out. */
const given = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/**
 * An account a ledger or account-control mutation changed: the request's loader answers it as it is now
 * (primed with the record when the domain returned one), and customers read earlier may list stale links.
 */
function changedAccounts({ loaders }: GraphqlContext, accounts: readonly (Account | string)[]): void {
  for (const account of accounts) {
    const accountId = typeof account === 'string' ? account : account.accountId;
    loaders.flagDetails.clear(accountId);
    if (typeof account === 'string') loaders.accounts.clear(account);
    else loaders.accounts.clear(account.accountId).prime(account.accountId, account);
  }
}

/**
 * `Account.transactions`: the account row carries its newest RECENT_TRANSACTIONS transactions and how many
 * it has in all (one statement per batch of accounts, src/db/sql/columns.ts), so a first page of up to that
 * size is answered from it, with no read per account (no N+1). Larger pages and pages after a cursor are
 * the ledger's (one read each).
 */
async function transactionPage(
  account: Account,
  args: { first?: number | null; after?: string | null; filter?: object | null },
  { services, caller }: GraphqlContext,
): Promise<TransactionPage> {
  // An explicit null `first` means the default, as an omitted one does.
  const request = pageRequest('transaction', { first: args.first ?? RECENT_TRANSACTIONS, after: args.after });
  const filter = args.filter ? withoutNulls(args.filter) : {};
  if (request.after === undefined && request.first <= RECENT_TRANSACTIONS && Object.keys(filter).length === 0) {
    const items = account.transactions.slice(0, request.first);
    return { items, nextAfter: account.transactionCount > request.first ? (items.at(-1)?.transactionId ?? null) : null };
  }
  return services.ledger.transactionPage(caller, account, request, filter);
}

/** An input object without its explicit nulls: to the domain's rules, a null filter is an absent one. */
/** `expectedVersion` as the domain's condition (src/domain/versions.ts); absent or null: unconditional. */
const versionCondition = (expectedVersion: number | null | undefined): VersionCondition | undefined =>
  expectedVersion === null || expectedVersion === undefined ? undefined : { versions: [expectedVersion] };

const withoutNulls = (input: object): Record<string, unknown> => Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));


export const resolvers: Resolvers = {
  Query: {
    customer: (_parent, { customerId }, { loaders }, info) => loadWithLinked(loaders, 'customer', customerId, info),
    account: (_parent, { accountId }, { loaders }, info) => loadWithLinked(loaders, 'account', accountId, info),
    customers: async (_parent, args, { services, caller, loaders }) => {
      const request = pageRequest('customer', args);
      const page = args.filter ? await services.customers.filtered(caller, withoutNulls(args.filter), request) : await services.customers.list(caller, request);
      for (const customer of page.items) loaders.customers.prime(customer.customerId, customer);
      return page;
    },
    // The SSN travels in the input (a variable, never the document's text when clients use variables); REST's search rules.
    searchCustomers: async (_parent, { input, first, after }, context) => {
      const { services, caller, loaders } = context;
      const request = pageRequest('customer', { first, after });
      await chargeSsnSearchResolver(context, withoutNulls(input));
      const page = await services.customers.search(caller, { ...withoutNulls(input), limit: request.first, ...(request.after !== undefined && { after: request.after }) });
      for (const customer of page.items) loaders.customers.prime(customer.customerId, customer);
      return page;
    },
    accounts: async (_parent, args, { services, caller, loaders }) => {
      const request = pageRequest('account', args);
      const page = args.filter ? await services.accounts.filtered(caller, withoutNulls(args.filter), request) : await services.accounts.list(caller, request);
      for (const account of page.items) loaders.accounts.prime(account.accountId, account);
      return page;
    },
    // The domain parses the same query REST sends (after, types, limit), so both surfaces share every rule.
    events: (_parent, { after, types, first }, { services, caller }) =>
      services.events.list(caller, { after: String(after ?? 0), ...(types && { types: types.join(',') }), limit: String(first ?? 20) }),
    transaction: async (_parent, { accountId, transactionId }, { services, caller }) => {
      try {
        return await services.ledger.getTransaction(caller, accountId, transactionId);
      } catch (error) {
        if (isDomainError(error) && (error.code === 'TRANSACTION_NOT_FOUND' || error.code === 'ACCOUNT_NOT_FOUND')) return null;
        throw error;
      }
    },
    transfer: async (_parent, { transferId }, { services, caller }) => {
      try {
        return await services.ledger.getTransfer(caller, transferId);
      } catch (error) {
        if (isDomainError(error) && error.code === 'TRANSFER_NOT_FOUND') return null;
        throw error;
      }
    },
    event: async (_parent, { eventId }, { services, caller }) => {
      try {
        return await services.events.get(caller, eventId);
      } catch (error) {
        if (isDomainError(error) && error.code === 'EVENT_NOT_FOUND') return null;
        throw error;
      }
    },
    // Ids are UUIDv7 for both kinds of record, so at most one of the two look-ups finds something. Only the
    // kinds the token may read are looked up: a customers:read token gets its customer, and null for an
    // account id (as for an unknown id), instead of the account look-up's FORBIDDEN. A token that may read
    // neither kind is refused by the domain (FORBIDDEN, customers:read).
    node: async (_parent, { id }, { loaders, caller }) => {
      const customers = isAuthorized(caller, 'customers:read');
      const accounts = isAuthorized(caller, 'accounts:read');
      if (!customers && !accounts) return loaders.customers.load(id);
      const [customer, account] = await Promise.all([customers ? loaders.customers.load(id) : null, accounts ? loaders.accounts.load(id) : null]);
      return customer ?? account;
    },
  },

  Mutation: {
    createCustomer: async (_parent, { input, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      return noteReplay(context, info, await chargeSsnRefusalResolver(context, () => services.customers.create(caller, input as unknown, createOptions(idempotencyKey))));
    },
    updateCustomer: async (_parent, { customerId, input, expectedVersion }, { services, caller, loaders }) => {
      const customer = await services.customers.update(caller, customerId, input as unknown, versionCondition(expectedVersion));
      loaders.customers.clear(customerId).prime(customerId, customer);
      return customer;
    },
    deleteCustomer: async (_parent, { customerId, expectedVersion }, { services, caller, loaders }) => {
      await services.customers.delete(caller, customerId, versionCondition(expectedVersion));
      loaders.customers.clear(customerId);
      return customerId;
    },
    createAccount: async (_parent, { input, idempotencyKey }, context, info) => {
      const { services, caller, loaders } = context;
      const account = noteReplay(context, info, await services.accounts.create(caller, input as unknown, createOptions(idempotencyKey)));
      // Links changed: customers read earlier in this request have stale accountIds.
      loaders.customers.clearAll();
      return account;
    },
    updateAccount: async (_parent, { accountId, input, expectedVersion }, { services, caller, loaders }) => {
      const account = await services.accounts.update(caller, accountId, input as unknown, versionCondition(expectedVersion));
      loaders.accounts.clear(accountId).prime(accountId, account);
      return account;
    },
    deleteAccount: async (_parent, { accountId, expectedVersion }, { services, caller, loaders }) => {
      await services.accounts.delete(caller, accountId, versionCondition(expectedVersion));
      loaders.accounts.clear(accountId);
      loaders.customers.clearAll();
      return accountId;
    },
    addAccountCustomer: async (_parent, { accountId, customerId }, context) => {
      const account = await context.services.accounts.addCustomer(context.caller, accountId, { customerId });
      changedAccounts(context, [account]);
      context.loaders.customers.clearAll();
      return account;
    },
    removeAccountCustomer: async (_parent, { accountId, customerId, expectedVersion }, context) => {
      const account = await context.services.accounts.removeCustomer(context.caller, accountId, customerId, versionCondition(expectedVersion));
      changedAccounts(context, [account]);
      context.loaders.customers.clearAll();
      return account;
    },
    setAccountFlag: async (_parent, { accountId, flag, reason, until, expectedVersion }, context) => {
      const account = await context.services.accounts.setFlag(context.caller, accountId, flag, withoutNulls({ reason, until }), versionCondition(expectedVersion));
      changedAccounts(context, [account]);
      return account;
    },
    clearAccountFlag: async (_parent, { accountId, flag, expectedVersion }, context) => {
      const account = await context.services.accounts.clearFlag(context.caller, accountId, flag, versionCondition(expectedVersion));
      changedAccounts(context, [account]);
      return account;
    },
    setOverdraftLimit: async (_parent, { accountId, overdraftLimit, expectedVersion }, context) => {
      const account = await context.services.accounts.setOverdraftLimit(context.caller, accountId, { overdraftLimit }, versionCondition(expectedVersion));
      changedAccounts(context, [account]);
      return account;
    },
    postTransaction: async (_parent, { accountId, input, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      const transaction = noteReplay(context, info, await services.ledger.postTransaction(caller, accountId, input as unknown, createOptions(idempotencyKey)));
      changedAccounts(context, [transaction.accountId]);
      return transaction;
    },
    postHold: async (_parent, { accountId, transactionId, amount, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      const transaction = noteReplay(context, info, await services.ledger.postHold(caller, accountId, transactionId, given({ amount: amount ?? undefined }), createOptions(idempotencyKey)));
      changedAccounts(context, [transaction.accountId]);
      return transaction;
    },
    voidHold: async (_parent, { accountId, transactionId, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      const transaction = noteReplay(context, info, await services.ledger.voidHold(caller, accountId, transactionId, createOptions(idempotencyKey)));
      changedAccounts(context, [transaction.accountId]);
      return transaction;
    },
    reverseTransaction: async (_parent, { accountId, transactionId, description, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      const reversal = noteReplay(context, info, await services.ledger.reverse(caller, accountId, transactionId, given({ description }), createOptions(idempotencyKey)));
      // A transfer's reversal moves money on the other account too.
      context.loaders.accounts.clearAll();
      return reversal;
    },
    transfer: async (_parent, { input, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      const transfer = noteReplay(context, info, await services.ledger.transfer(caller, input as unknown, createOptions(idempotencyKey)));
      changedAccounts(context, [transfer.debit.accountId, transfer.credit.accountId]);
      return transfer;
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
    // `first` checked as GraphQL names it (1 to 50); the domain then parses REST's query (limit) and enforces events:read (@requiresScope).
    // Batched: every customer's in one read per `first` (loaders.ts).
    recentEvents: (customer, { first }, { loaders }) => loaders.recentEvents('customer', recentEventsFirst(first)).load(customer.customerId),
  },

  Account: {
    id: (account) => account.accountId,
    customers: (account, _args, { loaders }) =>
      isAccountRecord(account) ? loadExisting(loaders.customers, account.customerIds) : loadExisting(loaders.customerLinks, account.customerIds),
    // `transactions` is no id or link field, so the look-ahead (loaders.ts) always hands it a whole record;
    // the loader is only a fallback.
    transactions: async (account, args, context) => {
      const record = isAccountRecord(account) ? account : await context.loaders.accounts.load(account.accountId);
      return record ? transactionPage(record, args, context) : { items: [], nextAfter: null };
    },
    flagDetails: async (account, _args, { loaders }) => (await loaders.flagDetails.load(account.accountId)) ?? [],
    // The history fields read through the domain's history service (accounts:read, validation, limits), as REST does.
    balance: async (account, { asOf }, { services, caller, loaders }) => {
      if (asOf === undefined || asOf === null) {
        const record = isAccountRecord(account) ? account : await loaders.accounts.load(account.accountId);
        if (!record) throw accountNotFound();
        return record.balance;
      }
      return services.history.balance(caller, account.accountId, { asOf });
    },
    balanceHistory: async (account, { from, to, interval }, { services, caller }) =>
      (await services.history.balanceHistory(caller, account.accountId, { from, to, interval: interval.toLowerCase() })).points,
    statement: (account, { from, to }, { services, caller }) =>
      services.history.statement(caller, account.accountId, { from, to }, HISTORY_LIMITS.maxGraphqlStatementEntries),
    recentEvents: (account, { first }, { loaders }) => loaders.recentEvents('account', recentEventsFirst(first)).load(account.accountId),
  },

  Transaction: {
    account: (transaction, _args, { loaders }) => loaders.accounts.load(transaction.accountId),
  },

  Event: {
    customer: (event) => (event.data.kind === 'customer' ? event.data.customer : null),
    account: (event) => (event.data.kind === 'account' ? event.data.account : null),
    transaction: (event) => (event.data.kind === 'transaction' ? event.data.transaction : null),
    accountId: ({ data, resourceType }) => {
      if (data.kind === 'holder') return data.accountId;
      if (data.kind === 'withheld') return data.accountId ?? null;
      return data.kind === 'deleted' && resourceType === 'account' ? data.id : null;
    },
    customerId: ({ data, resourceType }) => {
      if (data.kind === 'holder') return data.customerId;
      if (data.kind === 'withheld') return data.customerId ?? null;
      return data.kind === 'deleted' && resourceType === 'customer' ? data.id : null;
    },
    changedFields: (event) => [...event.changedFields],
    requiredScope: ({ data }) => (data.kind === 'withheld' ? data.readScope : null),
  },

  // The domain's page names its records `items`, as every page does; the schema's EventPage says `events`.
  EventPage: {
    events: (page) => page.items,
  },

  TransactionConnection: {
    edges: (page) => page.items.map((node) => ({ cursor: encodeCursor('transaction', node.transactionId), node })),
    nodes: (page) => page.items,
    pageInfo: (page) => ({ hasNextPage: page.nextAfter !== null, endCursor: endCursor('transaction', page.items.at(-1)?.transactionId) }),
  },

  CustomerConnection: {
    edges: (page) => page.items.map((node) => ({ cursor: encodeCursor('customer', node.customerId), node })),
    nodes: (page) => page.items,
    pageInfo: (page) => ({ hasNextPage: page.nextAfter !== null, endCursor: endCursor('customer', page.items.at(-1)?.customerId) }),
  },

  AccountConnection: {
    edges: (page) => page.items.map((node) => ({ cursor: encodeCursor('account', node.accountId), node })),
    nodes: (page) => page.items,
    pageInfo: (page) => ({ hasNextPage: page.nextAfter !== null, endCursor: endCursor('account', page.items.at(-1)?.accountId) }),
  },
};

const endCursor = (kind: 'customer' | 'account' | 'transaction', lastId: string | undefined) => (lastId === undefined ? null : encodeCursor(kind, lastId));
