import express from 'express';
import { createGraphqlMiddleware } from './graphql/middleware.js';
import type { SubscriptionServer } from './graphql/websocket.js';
import type { HttpDependencies } from './http/dependencies.js';
import { consoleRouter } from './http/console.js';
import { healthRouter } from './http/health.js';
import { authenticateOperator } from './http/authenticate-request.js';
import { metricsExposition, metricsTokenGuard } from './http/metrics.js';
import { readScope } from './http/read-consistency.js';
import { requestLogging } from './http/request-logging.js';
import { refuseOverCapacity } from './http/server.js';
import { apiSecurityHeaders } from './http/security-headers.js';
import { referencePagesRouter } from './openapi/reference-pages.js';
import { finalErrorHandler, unmatchedRoute } from './rest/fallbacks.js';
import { createRestRouter } from './rest/router.js';
import { verificationCallbackRouter } from './http/verification-callback.js';

/**
 * The HTTP application: one Express app carrying health checks, metrics, the API reference (/openapi.json,
 * /docs), the back-office console (/console), GraphQL at /{environment}/graphql and the REST contract. Both surfaces receive the same
 * dependencies (services, authenticator). GraphQL subscriptions are WebSocket upgrades, which Express does not
 * see: the server hands them to `subscriptions` (src/runtime.ts).
 */
export async function createHttpApp(
  deps: HttpDependencies,
): Promise<{ app: express.Express; subscriptions: SubscriptionServer; close(): Promise<void> }> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // req.ip (the per-address budget for failed authentication) is the client's only behind trusted proxies.
  if (deps.config.trustProxyHops > 0) app.set('trust proxy', deps.config.trustProxyHops);
  app.use(requestLogging(deps.logger, deps.metrics));
  app.use(apiSecurityHeaders());
  // A connection beyond HTTP_MAX_CONNECTIONS_PER_ADDRESS: 503 TOO_MANY_CONNECTIONS, logged and counted (src/http/server.ts).
  app.use(refuseOverCapacity);
  if (deps.metrics) {
    // With METRICS_PORT the metrics have their own listener (src/runtime.ts). Else they are here, behind
    // METRICS_TOKEN when set, or behind the API's bearer tokens with the metrics:read scope; refusals of the
    // latter are answered by the final error handler (401/403 with WWW-Authenticate, or 429).
    const { port, token } = deps.config.metrics;
    if (port === undefined) {
      const guard: express.RequestHandler =
        token === undefined
          ? async (req, res, next) => {
              await authenticateOperator(req, res, 'metrics:read', deps);
              next();
            }
          : metricsTokenGuard(token);
      app.get('/metrics', guard, metricsExposition(deps.metrics));
    }
  }
  // With a read replica: where each request's reads may go, and its writes' consistency token.
  if (deps.readConsistency) app.use(readScope(deps.readConsistency));
  // The REST router first: it claims only its own paths (/{environment}/customer…, /{environment}/account…),
  // so the busiest requests skip the other routers' route tables, and no other path changes hands.
  // A verification vendor's signed callback (docs/adr/0104): its own raw body and signature, no bearer token.
  app.use(verificationCallbackRouter(deps));
  app.use(createRestRouter(deps));
  app.use(healthRouter(deps));
  app.use(referencePagesRouter([...deps.environments]));
  app.use(consoleRouter([...deps.environments], deps.config.consoleOidc));
  const graphql = await createGraphqlMiddleware(deps);
  app.use(graphql.router);
  // Every response is an envelope, also for unknown paths and for errors of any router.
  app.use(unmatchedRoute);
  app.use(finalErrorHandler(deps.logger));
  return { app, subscriptions: graphql.subscriptions, close: graphql.close };
}
