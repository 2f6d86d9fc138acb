import express from 'express';
import { createGraphqlMiddleware } from './graphql/middleware.js';
import type { HttpDependencies } from './http/dependencies.js';
import { healthRouter } from './http/health.js';
import { requestLogging } from './http/request-logging.js';
import { securityHeaders } from './http/security-headers.js';
import { finalErrorHandler, unmatchedRoute } from './rest/fallbacks.js';
import { createRestRouter } from './rest/router.js';

/**
 * The HTTP application: one Express app carrying health checks, GraphQL at /{environment}/graphql
 * and the REST contract. Both surfaces receive the same dependencies (services, authenticator).
 */
export async function createHttpApp(deps: HttpDependencies): Promise<{ app: express.Express; close(): Promise<void> }> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // req.ip (the per-address budget for failed authentication) is the client's only behind trusted proxies.
  if (deps.config.trustProxyHops > 0) app.set('trust proxy', deps.config.trustProxyHops);
  app.use(requestLogging(deps.logger));
  app.use(securityHeaders());
  app.use(healthRouter(deps));
  const graphql = await createGraphqlMiddleware(deps);
  app.use(graphql.router);
  app.use(createRestRouter(deps));
  // Every response is an envelope, also for unknown paths and for errors of any router.
  app.use(unmatchedRoute);
  app.use(finalErrorHandler(deps.logger));
  return { app, close: graphql.close };
}
