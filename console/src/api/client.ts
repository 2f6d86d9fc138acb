import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';

/**
 * One Apollo Client per session: GraphQL at /{environment}/graphql on this origin, the token as a bearer
 * header. Records are normalised by their ids (customers and accounts carry `id`; the others their own id).
 */
export function createClient(environment: string, token: string): ApolloClient {
  return new ApolloClient({
    link: new HttpLink({ uri: `/${encodeURIComponent(environment)}/graphql`, headers: { authorization: `Bearer ${token}` } }),
    cache: new InMemoryCache({
      typePolicies: {
        Transaction: { keyFields: ['transactionId'] },
        AuditEvent: { keyFields: ['eventId'] },
        Event: { keyFields: ['eventId'] },
        WebhookEndpoint: { keyFields: ['endpointId'] },
        Viewer: { keyFields: [] },
      },
    }),
    defaultOptions: { watchQuery: { fetchPolicy: 'cache-and-network' } },
  });
}
