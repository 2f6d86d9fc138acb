import { isDomainError } from '../../domain/errors.js';
import type { GraphqlContext } from '../../graphql/context.js';
import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { createOptions, noteReplay } from '../../graphql/idempotency.js';
import { byId } from '../../graphql/loaders.js';
import { wholeRecord } from '../../graphql/parents.js';
import { encodeCursor, pageRequest, type TransactionPage } from '../../graphql/pagination.js';
import { changedAccounts, endCursor, given, withoutNulls } from '../../graphql/resolver-helpers.js';
import type { Account } from '../accounts/index.js';
import { RECENT_TRANSACTIONS } from './transaction.js';

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
    return {
      items,
      nextAfter: account.transactionCount > request.first ? (items.at(-1)?.transactionId ?? null) : null,
    };
  }
  return services.ledger.findTransactions(caller, account, filter, request);
}

/** The ledger over GraphQL (money: postings, holds, reversals, transfers), through the same LedgerService as REST. */
export const ledgerResolvers: Pick<
  Resolvers,
  'Query' | 'Mutation' | 'Account' | 'Transaction' | 'TransactionConnection'
> = {
  Query: {
    transaction: async (_parent, { accountId, transactionId }, { services, caller }) => {
      try {
        return await services.ledger.getTransaction(caller, accountId, transactionId);
      } catch (error) {
        if (isDomainError(error) && (error.code === 'TRANSACTION_NOT_FOUND' || error.code === 'ACCOUNT_NOT_FOUND'))
          return null;
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
  },

  Mutation: {
    postTransaction: async (_parent, { accountId, input, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      const transaction = noteReplay(
        context,
        info,
        await services.ledger.postTransaction(caller, accountId, input as unknown, createOptions(idempotencyKey)),
      );
      changedAccounts(context, [transaction.accountId]);
      return transaction;
    },
    postHold: async (_parent, { accountId, transactionId, amount, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      const transaction = noteReplay(
        context,
        info,
        await services.ledger.postHold(
          caller,
          accountId,
          transactionId,
          given({ amount: amount ?? undefined }),
          createOptions(idempotencyKey),
        ),
      );
      changedAccounts(context, [transaction.accountId]);
      return transaction;
    },
    voidHold: async (_parent, { accountId, transactionId, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      const transaction = noteReplay(
        context,
        info,
        await services.ledger.voidHold(caller, accountId, transactionId, createOptions(idempotencyKey)),
      );
      changedAccounts(context, [transaction.accountId]);
      return transaction;
    },
    reverseTransaction: async (_parent, { accountId, transactionId, description, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      const reversal = noteReplay(
        context,
        info,
        await services.ledger.reverse(
          caller,
          accountId,
          transactionId,
          given({ description }),
          createOptions(idempotencyKey),
        ),
      );
      // A transfer's reversal moves money on the other account too.
      context.loaders.accountById.clearAll();
      return reversal;
    },
    transfer: async (_parent, { input, idempotencyKey }, context, info) => {
      const { services, caller } = context;
      const transfer = noteReplay(
        context,
        info,
        await services.ledger.transfer(caller, input as unknown, createOptions(idempotencyKey)),
      );
      changedAccounts(context, [transfer.debit.accountId, transfer.credit.accountId]);
      return transfer;
    },
  },

  Account: {
    transactions: (account, args, context) => transactionPage(wholeRecord(account), args, context),
  },

  Transaction: {
    account: (transaction, _args, { loaders }) => loaders.accountById.load(byId(transaction.accountId)),
  },

  TransactionConnection: {
    edges: (page) => page.items.map((node) => ({ cursor: encodeCursor('transaction', node.transactionId), node })),
    nodes: (page) => page.items,
    pageInfo: (page) => ({
      hasNextPage: page.nextAfter !== null,
      endCursor: endCursor('transaction', page.items.at(-1)?.transactionId),
    }),
  },
};
