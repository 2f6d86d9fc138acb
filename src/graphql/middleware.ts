import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { GraphQLError } from 'graphql';
import type { RequestContext } from '../auth/request-context.js';
import { type DomainError, environmentNotFound, isDomainError } from '../domain/errors.js';
import { authenticateRequest } from '../http/authenticate-request.js';
import { corsForAllowedOrigins } from '../http/cors.js';
import type { HttpDependencies } from '../http/dependencies.js';
import { allowOwnPagePolicy, documentSecurityHeaders } from '../http/security-headers.js';
import type { Logger } from '../logging/logger.js';
import { noStorePlugins } from './cache-policy.js';
import { createGraphqlContext, type GraphqlContext } from './context.js';
import { ClientFacingError, describeUnexpected, errorResponseBody, errorScope, formatGraphqlError, GraphqlErrorCodes, requestGraphqlError } from './error-mapping.js';
import { explorerRouter } from './explorer.js';
import { idempotentReplayPlugin } from './idempotency.js';
import { metricsPlugin } from './metrics-plugin.js';
import { costLimitPlugin, operationShapeRule } from './limits.js';
import { chargeOperationCost } from './rate-limit.js';
import { buildGraphqlSchema } from './schema.js';

export const GRAPHQL_PATH = '/:environment/graphql';

type ContextAttempt = { ok: true; context: RequestContext } | { ok: false; error: DomainError };

/**
 * GraphQL at /{environment}/graphql (POST, and GET for queries), the Apollo Sandbox landing page and the
 * offline GraphiQL explorer (GET /{environment}/graphiql). The request context comes from the same
 * buildRequestContext as REST; errors leave through src/graphql/error-mapping.ts only.
 */
export async function createGraphqlMiddleware(deps: HttpDependencies): Promise<{ router: Router; close(): Promise<void> }> {
  const settings = deps.config.graphql;
  const schema = buildGraphqlSchema();
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
    // Apollo would stop itself on SIGTERM and re-raise the signal, cutting the process's own graceful stop
    // short (runtime.ts stops Apollo after in-flight requests, and the database last).
    stopOnTerminationSignals: false,
    // Apollo's guard against fragment explosions; it also makes the rules below run only on documents that
    // passed the standard validation (known, acyclic fragments).
    maxRecursiveSelections: true,
    validationRules: [operationShapeRule(settings)],
    logger: apolloLogger(deps.logger),
    plugins: [
      costLimitPlugin(schema, settings.maxCost, chargeOperationCost(deps.rateLimits)),
      idempotentReplayPlugin(),
      landingPage(settings.explorer),
      ...noStorePlugins(),
      ...(deps.metrics ? [metricsPlugin<GraphqlContext>(deps.metrics)] : []),
    ],
  });
  await server.start();

  const attempts = new WeakMap<Request, ContextAttempt>();
  const authenticate = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const context = await authenticateRequest(req, res, String(req.params.environment), deps);
      attempts.set(req, { ok: true, context });
    } catch (error) {
      if (!isDomainError(error)) throw error;
      if (error.code === 'ENVIRONMENT_NOT_FOUND') {
        sendError(req, res, requestGraphqlError(error));
        return;
      }
      // Kept for Apollo: a browser opening the landing page sends no token, and still gets the page.
      attempts.set(req, { ok: false, error });
    }
    next();
  };

  const apollo = expressMiddleware(server, {
    context: async ({ req }) => {
      const attempt = attempts.get(req);
      if (!attempt) throw new Error('GraphQL request reached Apollo without an authentication attempt');
      if (!attempt.ok) throw requestGraphqlError(attempt.error);
      return createGraphqlContext(attempt.context, deps.services);
    },
  });

  const router = Router();
  router
    .route(GRAPHQL_PATH)
    .all(
      corsForAllowedOrigins(deps.config.corsOrigins, ['GET', 'POST']),
      ...(settings.explorer ? [sandboxPagePolicy] : []),
      express.json({ limit: deps.config.bodyLimitBytes }),
      authenticate,
      (req, res, next) => errorScope.run({ requestId: res.locals.requestId, logger: res.locals.logger }, () => apollo(req, res, next)),
    );
  if (settings.explorer) {
    router.use(
      explorerRouter((req, res, next) => {
        if (deps.environments.has(String(req.params.environment))) next();
        else sendError(req, res, requestGraphqlError(environmentNotFound([...deps.environments])));
      }),
    );
  }
  router.use(edgeErrorHandler);

  return { router, close: () => server.stop() };
}

/** The Sandbox landing page (GET from a browser) brings its own `<meta>` CSP for Apollo's CDN; the API's would block it. */
const documentHeaders = documentSecurityHeaders();

function sandboxPagePolicy(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'GET' && req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html') {
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
  const body = errorScope.run({ requestId: res.locals.requestId, logger: res.locals.logger }, () => errorResponseBody(error));
  const type = req.accepts(['application/json', 'application/graphql-response+json']) || 'application/json';
  res.status(http?.status ?? 400).type(type).send(JSON.stringify(body));
}

/**
 * Errors before Apollo runs: body-parser's (whose error objects carry the raw body, which may hold an
 * SSN: they are never logged or echoed) and anything unexpected.
 */
function edgeErrorHandler(error: unknown, req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) {
    next(error);
    return;
  }
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.parse.failed') {
    sendError(req, res, new ClientFacingError('The request body is not valid JSON.', { code: GraphqlErrorCodes.malformedRequest, httpStatus: 400 }));
  } else if (type === 'entity.too.large') {
    sendError(req, res, new ClientFacingError('The request body is larger than the configured limit (BODY_LIMIT).', { code: GraphqlErrorCodes.payloadTooLarge, httpStatus: 413 }));
  } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    sendError(req, res, new ClientFacingError('The request body must be UTF-8 JSON.', { code: GraphqlErrorCodes.unsupportedMediaType, httpStatus: 415 }));
  } else {
    res.locals.logger.error({ err: describeUnexpected(error) }, 'unexpected error on the GraphQL route');
    sendError(req, res, new ClientFacingError('An unexpected error occurred. Quote the requestId when reporting it.', { code: GraphqlErrorCodes.internal, httpStatus: 500 }));
  }
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
