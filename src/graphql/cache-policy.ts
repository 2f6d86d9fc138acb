import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';

/**
 * Every GraphQL answer carries personal data, so none may be stored by a shared cache or a browser:
 * `Cache-Control: no-store`, always. Apollo's cache-control plugin would reach the same header by
 * computing a cache policy for every resolved field of every request (a measurable share of a nested
 * query's CPU), only to find it uncacheable; it is replaced by this constant answer.
 */
export function noStorePlugins(): ApolloServerPlugin[] {
  return [
    ApolloServerPluginCacheControlDisabled(),
    {
      async requestDidStart() {
        return {
          async willSendResponse({ response }) {
            response.http.headers.set('cache-control', 'no-store');
          },
        };
      },
    },
  ];
}
