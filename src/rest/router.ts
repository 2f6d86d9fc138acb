import { type Request, type Response, Router } from 'express';
import type { RequestScope } from '../domain/scope.js';
import { authenticateRequest } from '../http/authenticate-request.js';
import { corsForAllowedOrigins } from '../http/cors.js';
import type { HttpDependencies } from '../http/dependencies.js';
import { createJsonBodyReader, type JsonBodyReader } from '../http/json-body.js';
import { CONSISTENCY_TOKEN_HEADER } from '../http/read-consistency.js';
import { sendEnvelope } from './envelope.js';
import { methodNotAllowed } from './error-mapping.js';
import {
  presentAccount,
  presentAuditPage,
  presentCustomer,
  presentEvent,
  presentEventPage,
  presentTransaction,
  presentTransactionPage,
  presentTransfer,
  presentWebhookAttempts,
  presentWebhookEndpoint,
} from './presenters.js';
import { type HttpMethod, type OperationId, REST_ROUTES, type RestRoute, takesIdempotencyKey } from './routes.js';

interface Call {
  scope: RequestScope;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  /** The `Idempotency-Key` header, when sent (validated by the domain). */
  idempotencyKey: string | undefined;
}

interface Reply {
  status: 200 | 201;
  data: object;
  headers?: Record<string, string>;
}

type Operation = (call: Call) => Promise<Reply>;

const ok = (data: object): Reply => ({ status: 200, data });
/** 201 with the new record's Location; a replayed idempotent creation says so (same status, same ids). */
const created = (location: string, data: object, replayed: boolean): Reply => ({
  status: 201,
  data,
  headers: { Location: location, ...(replayed && { 'Idempotent-Replayed': 'true' }) },
});

/** A replayed idempotent request that is not a creation: same status, marked as a replay. */
const replay = (reply: Reply, replayed: boolean): Reply => (replayed ? { ...reply, headers: { 'Idempotent-Replayed': 'true' } } : reply);

const transactionPath = (scope: RequestScope, accountId: string, transactionId: string) => `/${scope.environment}/account/${accountId}/transaction/${transactionId}`;

const METHODS_WITH_BODY: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT']);

/**
 * The REST contract: eight operations on two resources, plus the audit trail, as listed in
 * src/rest/routes.ts (which the OpenAPI document describes). Every operation resolves the request context
 * (environment, bearer token and rate limits: src/http/authenticate-request.ts), reads the JSON body if
 * the method has one, calls the domain service and presents the result. Business rules live in the
 * services; errors go to the final error handler (src/rest/fallbacks.ts) through Express's async error
 * propagation.
 */
export function createRestRouter(deps: HttpDependencies): Router {
  const router = Router({ caseSensitive: true, strict: false });
  const readBody = createJsonBodyReader(deps.config.bodyLimitBytes);
  const { customers, accounts, audit, ledger, events, webhooks } = deps.services;
  // Browser clients from CORS_ORIGINS only; without an allowed Origin, OPTIONS stays 405 as for any server.
  // On the REST routes only: this router comes first (src/app.ts) and GraphQL has its own policy.
  const cors = corsForAllowedOrigins(deps.config.corsOrigins, ['GET', 'HEAD', 'POST', 'PUT', 'DELETE']);

  // One handler per documented operation: the compiler refuses a route without a handler and the reverse.
  const handlers: Record<OperationId, Operation> = {
    createCustomer: async ({ scope, body, idempotencyKey }) => {
      const { value, replayed } = await customers.create(scope, body, { idempotencyKey });
      return created(`/${scope.environment}/customer/${value.customerId}`, { customerId: value.customerId }, replayed);
    },
    getCustomer: async ({ scope, params }) => ok(presentCustomer(await customers.get(scope, params.customerId!))),
    updateCustomer: async ({ scope, params, body }) => ok(presentCustomer(await customers.update(scope, params.customerId!, body))),
    deleteCustomer: async ({ scope, params }) => {
      await customers.delete(scope, params.customerId!);
      return ok({});
    },
    createAccount: async ({ scope, body, idempotencyKey }) => {
      const { value: account, replayed } = await accounts.create(scope, body, { idempotencyKey });
      return created(`/${scope.environment}/account/${account.accountId}`, presentAccount(account), replayed);
    },
    getAccount: async ({ scope, params }) => ok(presentAccount(await accounts.get(scope, params.accountId!))),
    updateAccount: async ({ scope, params, body }) => ok(presentAccount(await accounts.update(scope, params.accountId!, body))),
    deleteAccount: async ({ scope, params }) => {
      await accounts.delete(scope, params.accountId!);
      return ok({});
    },
    addAccountCustomer: async ({ scope, params, body }) => ok(presentAccount(await accounts.addCustomer(scope, params.accountId!, body))),
    removeAccountCustomer: async ({ scope, params }) => ok(presentAccount(await accounts.removeCustomer(scope, params.accountId!, params.customerId!))),
    setAccountFlag: async ({ scope, params }) => ok(presentAccount(await accounts.setFlag(scope, params.accountId!, params.flag, true))),
    clearAccountFlag: async ({ scope, params }) => ok(presentAccount(await accounts.setFlag(scope, params.accountId!, params.flag, false))),
    setOverdraftLimit: async ({ scope, params, body }) => ok(presentAccount(await accounts.setOverdraftLimit(scope, params.accountId!, body))),
    postTransaction: async ({ scope, params, body, idempotencyKey }) => {
      const { value, replayed } = await ledger.postTransaction(scope, params.accountId!, body, { idempotencyKey });
      return created(transactionPath(scope, value.accountId, value.transactionId), presentTransaction(value), replayed);
    },
    listTransactions: async ({ scope, params, query }) => ok(presentTransactionPage(await ledger.listTransactions(scope, params.accountId!, query))),
    getTransaction: async ({ scope, params }) => ok(presentTransaction(await ledger.getTransaction(scope, params.accountId!, params.transactionId!))),
    postHold: async ({ scope, params, body, idempotencyKey }) => {
      const { value, replayed } = await ledger.postHold(scope, params.accountId!, params.transactionId!, body, { idempotencyKey });
      return replay(ok(presentTransaction(value)), replayed);
    },
    voidHold: async ({ scope, params, idempotencyKey }) => {
      const { value, replayed } = await ledger.voidHold(scope, params.accountId!, params.transactionId!, { idempotencyKey });
      return replay(ok(presentTransaction(value)), replayed);
    },
    reverseTransaction: async ({ scope, params, body, idempotencyKey }) => {
      const { value, replayed } = await ledger.reverse(scope, params.accountId!, params.transactionId!, body, { idempotencyKey });
      return created(transactionPath(scope, value.accountId, value.transactionId), presentTransaction(value), replayed);
    },
    createTransfer: async ({ scope, body, idempotencyKey }) => {
      const { value, replayed } = await ledger.transfer(scope, body, { idempotencyKey });
      return created(transactionPath(scope, value.debit.accountId, value.debit.transactionId), presentTransfer(value), replayed);
    },
    listEvents: async ({ scope, query }) => ok(presentEventPage(await events.list(scope, query))),
    getEvent: async ({ scope, params }) => ok(presentEvent(await events.get(scope, params.eventId!))),
    createWebhookEndpoint: async ({ scope, body }) => {
      const { endpoint, secret } = await webhooks.create(scope, body);
      return created(
        `/${scope.environment}/webhook-endpoint/${endpoint.endpointId}`,
        { endpointId: endpoint.endpointId, url: endpoint.url, eventTypes: [...endpoint.eventTypes], secret, enabled: endpoint.enabled },
        false,
      );
    },
    getWebhookEndpoint: async ({ scope, params }) => ok(presentWebhookEndpoint(await webhooks.get(scope, params.endpointId!))),
    updateWebhookEndpoint: async ({ scope, params, body }) => ok(presentWebhookEndpoint(await webhooks.update(scope, params.endpointId!, body))),
    deleteWebhookEndpoint: async ({ scope, params }) => {
      await webhooks.delete(scope, params.endpointId!);
      return ok({});
    },
    listWebhookAttempts: async ({ scope, params, query }) => ok(presentWebhookAttempts(await webhooks.listAttempts(scope, params.endpointId!, query))),
    rotateWebhookSecret: async ({ scope, params }) => {
      const { endpoint, secret } = await webhooks.rotateSecret(scope, params.endpointId!);
      return ok({ endpointId: endpoint.endpointId, secret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt });
    },
    enableWebhookEndpoint: async ({ scope, params }) => ok(presentWebhookEndpoint(await webhooks.setEnabled(scope, params.endpointId!, true))),
    disableWebhookEndpoint: async ({ scope, params }) => ok(presentWebhookEndpoint(await webhooks.setEnabled(scope, params.endpointId!, false))),
    redeliverWebhook: async ({ scope, params }) => {
      await webhooks.redeliver(scope, params.endpointId!, params.eventId!);
      return ok({ endpointId: params.endpointId!.toLowerCase(), eventId: params.eventId!.toLowerCase() });
    },
    listAuditEvents: async ({ scope, query }) => ok(presentAuditPage(await audit.list(scope, query))),
  };

  const paths = [...new Set(REST_ROUTES.map((route) => route.path))];
  for (const path of paths) {
    const routes = REST_ROUTES.filter((candidate) => candidate.path === path);
    const mounted = router.route(path).all(cors);
    for (const route of routes as readonly RestRoute[]) {
      const handler = endpoint(deps, readBody, route, handlers[route.operationId as OperationId]);
      if (route.method === 'GET') mounted.get(handler);
      else if (route.method === 'POST') mounted.post(handler);
      else if (route.method === 'PUT') mounted.put(handler);
      else mounted.delete(handler);
    }
    // Express answers HEAD with the GET handler, so HEAD is allowed wherever GET is.
    const allowed = routes.flatMap(({ method }) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
    mounted.all(() => {
      throw methodNotAllowed(allowed);
    });
  }

  return router;
}

function endpoint(deps: HttpDependencies, readBody: JsonBodyReader, route: RestRoute, operation: Operation) {
  const { family, method } = route;
  const withKey = takesIdempotencyKey(route);
  return async (req: Request, res: Response) => {
    const params = pathParams(req);
    const context = await authenticateRequest(req, res, params.environment ?? '', deps);
    res.locals.logger = context.logger;
    // GET and DELETE bodies have no meaning here (RFC 9110 §9.3.1, §9.3.5): never read, never parsed.
    const body = METHODS_WITH_BODY.has(method) ? await readBody(req, res) : undefined;
    const reply = await operation({
      scope: context.scope,
      params,
      query: queryParams(req),
      body,
      idempotencyKey: withKey ? req.get('idempotency-key') : undefined,
    });
    const token = deps.readConsistency?.currentToken();
    sendEnvelope(res, family, reply.status, { data: reply.data }, token === undefined ? reply.headers : { ...reply.headers, [CONSISTENCY_TOKEN_HEADER]: token });
  };
}

/** The route's named segments; this API's routes have no wildcard (array-valued) parameters. */
function pathParams(req: Request): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name in req.params) {
    const value = req.params[name];
    if (typeof value === 'string') params[name] = value;
  }
  return params;
}

/** Single-valued query parameters; a repeated parameter keeps its first value. */
function queryParams(req: Request): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.query)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') query[name] = first;
  }
  return query;
}
