import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { GraphQLError } from 'graphql';
import { environmentNotFound } from '../auth/errors.js';
import type { RequestContext } from '../auth/request-context.js';
import { authenticateRequest } from '../http/authenticate-request.js';
import { corsForAllowedOrigins } from '../http/cors.js';
import type { HttpDependencies } from '../http/dependencies.js';
import { bodyReadFailure, type CallerError, internalError, isCallerError, logUnexpected } from '../http/errors.js';
import { createJsonBodyReader } from '../http/json-body.js';
import { allowOwnPagePolicy, documentSecurityHeaders } from '../http/security-headers.js';
import type { Logger } from '../logging/logger.js';
import { noStorePlugins } from './cache-policy.js';
import { consistencyPlugin } from './consistency.js';
import { createGraphqlContext, type GraphqlContext } from './context.js';
import {
  errorResponseBody,
  errorScope,
  formatGraphqlError,
  httpGraphqlError,
  requestGraphqlError,
} from './error-mapping.js';
import { boundedStringify, chargeResolvedNodes, ExecutionBudget, executionBudgetPlugin } from './execution-budget.js';
import { explorerRouter } from './explorer.js';
import { idempotentReplayPlugin } from './idempotency.js';
import { metricsPlugin } from './metrics-plugin.js';
import { costLimitPlugin, operationShapeRule } from './limits.js';
import { chargeOperationCost } from './rate-limit.js';
import { buildGraphqlSchema } from './schema.js';
import { refuseSensitiveFieldsInUrl } from './url-guard.js';
import { createSubscriptionServer, type SubscriptionServer } from './websocket.js';

export const GRAPHQL_PATH = '/:environment/graphql';

type ContextAttempt = { ok: true; context: RequestContext } | { ok: false; error: CallerError };

/**
 * GraphQL at /{environment}/graphql (POST, and GET for queries), the Apollo Sandbox landing page and the
 * offline GraphiQL explorer (GET /{environment}/graphiql); subscriptions are the same path's WebSocket
 * upgrade (src/graphql/websocket.ts), which the HTTP server hands to `subscriptions.handleUpgrade`. As in REST, the auth step
 * (src/http/authenticate-request.ts) runs first and the JSON body (src/http/json-body.ts) is read only
 * after it accepted the token; errors leave through src/graphql/error-mapping.ts only, with the statuses
 * and texts of the HTTP failure vocabulary (src/http/errors.ts).
 */
export async function createGraphqlMiddleware(
  deps: HttpDependencies,
): Promise<{ router: Router; subscriptions: SubscriptionServer; close(): Promise<void> }> {
  const settings = deps.config.graphql;
  const schema = chargeResolvedNodes(buildGraphqlSchema());
  const server = new ApolloServer<GraphqlContext>({
    schema,
    formatError: formatGraphqlError,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: deps.config.nodeEnv === 'production',
    introspection: settings.introspection,
    allowBatchedHttpRequests: false,
    csrfPrevention: true,
    // Automatic persisted queries would let any caller register documents in server memory; no client needs them.
    persistedQueries: false,
    parseOptions: { maxTokens: settings.maxTokens },
    stringifyResult: boundedStringify(settings.maxResponseBytes),
    // Apollo would stop itself on SIGTERM and re-raise the signal, cutting the process's own graceful stop
    // short (runtime.ts stops Apollo after in-flight requests, and the database last).
    stopOnTerminationSignals: false,
    // Apollo's guard against fragment explosions; it also makes the rules below run only on documents that
    // passed the standard validation (known, acyclic fragments).
    maxRecursiveSelections: true,
    validationRules: [operationShapeRule(settings)],
    logger: apolloLogger(deps.logger),
    plugins: [
      // An operation over the cost limit at the caps is estimated again with what the environment holds (docs/adr/0089).
      costLimitPlugin(schema, settings.maxCost, chargeOperationCost(deps.rateLimits), async ({ contextValue }) => ({
        ...(await contextValue.services.links.bounds(contextValue.caller)),
      })),
      executionBudgetPlugin(),
      idempotentReplayPlugin(),
      landingPage(settings.explorer),
      ...noStorePlugins(),
      ...(deps.metrics ? [metricsPlugin<GraphqlContext>(deps.metrics)] : []),
      ...(deps.readConsistency ? [consistencyPlugin<GraphqlContext>(deps.readConsistency)] : []),
    ],
  });
  await server.start();

  const attempts = new WeakMap<Request, ContextAttempt>();
  const readBody = createJsonBodyReader(deps.config.bodyLimitBytes);
  const authenticate = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const context = await authenticateRequest(req, res, String(req.params.environment), deps);
      attempts.set(req, { ok: true, context });
      // Apollo wants `req.body` set, also to undefined (a GET, or a POST without a body: its BAD_REQUEST).
      req.body = req.method === 'POST' ? await readBody(req, res) : undefined;
    } catch (error) {
      if (!isCallerError(error)) throw error;
      // A refused operation (a POST, or a GET that is not a browser opening the landing page) is answered
      // here, before its body is read. The landing page needs no token; other methods get Apollo's 400
      // (unsupported method), as REST answers 405 before looking at the token.
      const operation = req.method === 'POST' || (req.method === 'GET' && !opensLandingPage(req));
      if (operation) {
        sendError(req, res, requestGraphqlError(error));
        return;
      }
      // The explorer's landing page takes no token; it is served only in a configured environment (as the
      // offline GraphiQL below is). Without the explorer every environment answers alike.
      if (settings.explorer && opensLandingPage(req) && !deps.environments.has(String(req.params.environment))) {
        sendError(req, res, requestGraphqlError(environmentNotFound()));
        return;
      }
      attempts.set(req, { ok: false, error });
      req.body = undefined;
    }
    next();
  };

  const apollo = expressMiddleware(server, {
    context: async ({ req }) => {
      const attempt = attempts.get(req);
      if (!attempt) throw new Error('GraphQL request reached Apollo without an authentication attempt');
      if (!attempt.ok) throw requestGraphqlError(attempt.error);
      return {
        ...createGraphqlContext(attempt.context, deps.services, deps.environments),
        budget: new ExecutionBudget(settings, deps.clock),
        rateLimits: deps.rateLimits,
      };
    },
  });

  const router = Router();
  router.route(GRAPHQL_PATH).all(
    corsForAllowedOrigins(deps.config.corsOrigins, ['GET', 'POST']),
    // Before the token, the body and Apollo: an SSN in the URL is refused whoever sends it (url-guard.ts).
    refuseSensitiveFieldsInUrl(settings.maxTokens, sendError),
    ...(settings.explorer ? [sandboxPagePolicy] : []),
    authenticate,
    (req, res, next) =>
      errorScope.run({ requestId: res.locals.requestId, logger: res.locals.logger }, () => apollo(req, res, next)),
  );
  if (settings.explorer) {
    router.use(
      explorerRouter((req, res, next) => {
        if (deps.environments.has(String(req.params.environment))) next();
        else sendError(req, res, requestGraphqlError(environmentNotFound()));
      }),
    );
  }
  router.use(edgeErrorHandler);

  return { router, subscriptions: createSubscriptionServer(deps, schema), close: () => server.stop() };
}

/** The Sandbox landing page (GET from a browser) brings its own `<meta>` CSP for Apollo's CDN; the API's would block it. */
const documentHeaders = documentSecurityHeaders();

/** A browser's GET for the landing page (Apollo's own test: HTML preferred to both JSON types). */
const opensLandingPage = (req: Request) =>
  req.method === 'GET' &&
  req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';

function sandboxPagePolicy(req: Request, res: Response, next: NextFunction): void {
  if (opensLandingPage(req)) {
    allowOwnPagePolicy(res);
    documentHeaders(req, res, next);
  } else next();
}

function landingPage(enabled: boolean): ApolloServerPlugin {
  if (!enabled) return ApolloServerPluginLandingPageDisabled();
  // Sandbox opens pointed at this endpoint, with an Authorization header row ready to fill in.
  return ApolloServerPluginLandingPageLocalDefault({
    embed: {
      runTelemetry: false,
      endpointIsEditable: false,
      initialState: { pollForSchemaUpdates: false, sharedHeaders: { Authorization: 'Bearer <your API token>' } },
    },
    includeCookies: false,
    footer: false,
  });
}

/** Answers with a GraphQL-shaped error body, in the media type the client asked for. */
function sendError(req: Request, res: Response, error: GraphQLError): void {
  const http = error.extensions.http as { status?: number; headers?: Map<string, string> } | undefined;
  for (const [name, value] of http?.headers ?? []) res.setHeader(name, value);
  const body = errorScope.run({ requestId: res.locals.requestId, logger: res.locals.logger }, () =>
    errorResponseBody(error),
  );
  const type = req.accepts(['application/json', 'application/graphql-response+json']) || 'application/json';
  res
    .status(http?.status ?? 400)
    .type(type)
    .send(JSON.stringify(body));
}

/**
 * Errors before Apollo runs, in the GraphQL response shape: the body reader's (classified by the HTTP
 * failure vocabulary, which never reads body-parser's raw body: it may hold an SSN) and anything unexpected.
 */
function edgeErrorHandler(error: unknown, req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) {
    next(error);
    return;
  }
  if (isCallerError(error)) {
    sendError(req, res, requestGraphqlError(error));
    return;
  }
  const failure = bodyReadFailure(error);
  if (failure === undefined) logUnexpected(res.locals.logger, error);
  sendError(req, res, httpGraphqlError(failure ?? internalError()));
}

function apolloLogger(logger: Logger) {
  const log = logger.child({ component: 'apollo-server' });
  const text = (message: unknown) => (typeof message === 'string' ? message : String(message));
  return {
    debug: (message?: unknown) => log.debug(text(message)),
    info: (message?: unknown) => log.info(text(message)),
    warn: (message?: unknown) => log.warn(text(message)),
    error: (message?: unknown) => log.error(text(message)),
  };
}
