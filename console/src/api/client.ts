import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { createClient as createWsClient } from 'graphql-ws';

/**
 * One Apollo Client per session: GraphQL at /{environment}/graphql on this origin, the token as a bearer
 * header; subscriptions over a WebSocket to the same path (opened on the first subscription, the token in
 * its connection parameters). Records are normalised by their ids (customers and accounts carry `id`; the
 * others their own id).
 */
export function createClient(environment: string, token: string): { client: ApolloClient; dispose(): void } {
  const path = `/${encodeURIComponent(environment)}/graphql`;
  const authorization = `Bearer ${token}`;
  const ws = createWsClient({
    url: `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}${path}`,
    connectionParams: { authorization },
    lazy: true,
  });
  const http = new HttpLink({ uri: path, headers: { authorization } });
  const link = ApolloLink.split(
    ({ query }) => {
      const definition = getMainDefinition(query);
      return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
    },
    new GraphQLWsLink(ws),
    http,
  );
  const client = new ApolloClient({
    link,
    cache: new InMemoryCache({
      typePolicies: {
        Transaction: { keyFields: ['transactionId'] },
        AuditEvent: { keyFields: ['eventId'] },
        Event: { keyFields: ['eventId'] },
        WebhookEndpoint: { keyFields: ['endpointId'] },
        Viewer: { keyFields: [] },
        // One customer's verification, whichever query read it (its own panel, a business's owner list): a decision
        // or a check's result read in one shows in the other.
        Verification: { keyFields: ['customerId'] },
      },
    }),
    defaultOptions: { watchQuery: { fetchPolicy: 'cache-and-network' } },
  });
  return {
    client,
    dispose() {
      client.stop();
      void ws.dispose();
    },
  };
}
