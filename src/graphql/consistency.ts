import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { ReadConsistency } from '../http/dependencies.js';
import { CONSISTENCY_TOKEN_HEADER } from '../http/read-consistency.js';

/**
 * Read replicas over GraphQL (docs/graphql.md, "Consistency tokens"): a query's reads may go to the replica,
 * a mutation's never; a response to an operation that wrote carries the consistency token in the
 * `Consistency-Token` header and in `extensions.consistencyToken`. A query presents a token with the same
 * request header as REST.
 */
export function consistencyPlugin<TContext extends BaseContext>(
  consistency: ReadConsistency,
): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          consistency.allowLagTolerantReads(operation?.operation === 'query');
        },
        async willSendResponse({ response }) {
          const token = consistency.currentToken();
          if (token === undefined) return;
          response.http.headers.set(CONSISTENCY_TOKEN_HEADER, token);
          if (response.body.kind === 'single')
            response.body.singleResult.extensions = {
              ...response.body.singleResult.extensions,
              consistencyToken: token,
            };
        },
      };
    },
  };
}
