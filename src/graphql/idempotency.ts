import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLResolveInfo } from 'graphql';
import type { Creation } from '../features/idempotency/index.js';
import type { GraphqlContext } from './context.js';

/**
 * Idempotency keys over GraphQL: the create mutations and the ledger's writes (postTransaction, postHold,
 * voidHold, reverseTransaction, transfer: the mutations whose REST POST takes an Idempotency-Key) take an
 * optional `idempotencyKey` argument (not an input field: the key names the request, it is not part of the
 * record, and the input goes to the domain as is).
 * Replays are reported in the response's `extensions.idempotentReplayed`, the response key (alias) of the
 * replayed mutation field, as a list so the shape stays the same if several writes per operation are allowed
 * one day (today an operation holds one mutation field: src/graphql/limits.ts).
 */
/** The domain's create options for a mutation's `idempotencyKey` argument (null means "none"). */
export const createOptions = (idempotencyKey: string | null | undefined) => ({
  idempotencyKey: idempotencyKey ?? undefined,
});

/** The created value; notes in the request's context when it is the replay of an earlier creation. */
export function noteReplay<T>(context: GraphqlContext, info: GraphQLResolveInfo, creation: Creation<T>): T {
  if (creation.replayed) context.replayedFields.push(String(info.path.key));
  return creation.value;
}

export function idempotentReplayPlugin(): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, response }) {
          const fields = contextValue.replayedFields;
          if (fields.length === 0 || response.body.kind !== 'single') return;
          response.body.singleResult.extensions = {
            ...response.body.singleResult.extensions,
            idempotentReplayed: fields,
          };
        },
      };
    },
  };
}
