import { createOptions, noteReplay } from '../../graphql/idempotency.js';
import type { NotePage } from '../../graphql/pagination.js';
import type { Resolvers } from '../../graphql/generated/resolvers-types.js';

const pageOf = (first: number | null | undefined, after: string | null | undefined) => ({
  first: first ?? undefined,
  after: after ?? undefined,
});

/**
 * Case notes over GraphQL (docs/adr/0105): REST's NoteService, its scopes, rules and codes; the resolvers only
 * translate. The cursor is the noteId, the same value REST answers as `nextAfter`, so a page read over one surface
 * can be continued over the other. First pages are batched: a list of records with their notes is one statement
 * more, whatever its length.
 */
export const noteResolvers: Pick<Resolvers, 'Mutation' | 'Customer' | 'Account' | 'Note' | 'NoteConnection'> = {
  Mutation: {
    addCustomerNote: async (_parent, { customerId, text, idempotencyKey }, context, info) =>
      noteReplay(
        context,
        info,
        await context.services.notes.add(
          context.caller,
          'customer',
          customerId,
          { text },
          createOptions(idempotencyKey),
        ),
      ),
    addAccountNote: async (_parent, { accountId, text, idempotencyKey }, context, info) =>
      noteReplay(
        context,
        info,
        await context.services.notes.add(context.caller, 'account', accountId, { text }, createOptions(idempotencyKey)),
      ),
  },
  // A first page is batched over every record of the response (loaders.ts); a page after a cursor is read alone.
  Customer: {
    notes: (customer, { first, after }, { services, caller, loaders }) =>
      after === null || after === undefined
        ? loaders.firstNotes('customer', first ?? undefined).load(customer.customerId)
        : services.notes.list(caller, 'customer', customer.customerId, pageOf(first, after)),
  },
  Account: {
    notes: (account, { first, after }, { services, caller, loaders }) =>
      after === null || after === undefined
        ? loaders.firstNotes('account', first ?? undefined).load(account.accountId)
        : services.notes.list(caller, 'account', account.accountId, pageOf(first, after)),
  },
  Note: {
    id: (note) => note.noteId,
  },
  NoteConnection: {
    edges: (page: NotePage) => page.items.map((node) => ({ cursor: node.noteId, node })),
    nodes: (page: NotePage) => page.items,
    pageInfo: (page: NotePage) => ({
      hasNextPage: page.nextAfter !== null,
      endCursor: page.items.at(-1)?.noteId ?? null,
    }),
  },
};
