import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { ServiceMetrics } from '../http/metrics.js';

/**
 * One sample per GraphQL operation for /metrics: its name, how it ended and how long it took. `rejected`
 * means refused before execution (syntax, validation, limits, authentication); `error` that execution
 * reported errors.
 */
export function metricsPlugin<TContext extends BaseContext>(metrics: ServiceMetrics): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      const started = performance.now();
      let executed = false;
      return {
        async executionDidStart() {
          executed = true;
        },
        async willSendResponse({ operationName, errors }) {
          const outcome = !errors?.length ? 'success' : executed ? 'error' : 'rejected';
          metrics.recordGraphqlOperation(operationName, outcome, (performance.now() - started) / 1000);
        },
      };
    },
  };
}
