import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Request } from 'express';
import { type FormattedExecutionResult, GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { handleProtocols, makeServer, type WebSocket as ProtocolSocket } from 'graphql-ws';
import { type WebSocket, WebSocketServer } from 'ws';
import { unauthenticated } from '../auth/errors.js';
import { type RequestContext, requestIdFrom } from '../auth/request-context.js';
import { isAuthorized, mayActIn } from '../domain/authorization.js';
import { environmentNotAllowed } from '../domain/errors.js';
import type { AccessScope } from '../domain/caller.js';
import { authenticateConnection, clientAddress } from '../http/authenticate-request.js';
import type { HttpDependencies } from '../http/dependencies.js';
import { type CallerError, isCallerError, logUnexpected } from '../http/errors.js';
import type { Logger } from '../logging/logger.js';
import {
  ClientFacingError,
  type ErrorScope,
  errorScope,
  formatGraphqlError,
  requestGraphqlError,
} from './error-mapping.js';
import { operationPreparer } from './websocket-operation.js';

/**
 * GraphQL subscriptions over WebSocket (docs/graphql.md, "Subscriptions"), on the HTTP endpoint's own path
 * /{environment}/graphql, with the GraphQL over WebSocket protocol of the graphql-ws library (subprotocol
 * `graphql-transport-ws`) on the `ws` server. Same schema, resolvers, domain services, auth step, limits and
 * error mapping as HTTP:
 * - the connection is authenticated once, by the bearer token in the `connection_init` payload, through the
 *   auth step HTTP requests go through (failed-authentication budget, environment, one point of the token's
 *   budget); refused with close code 4401 (no valid token), 4403 (not in this environment, or no scope any
 *   subscription needs), 4429 (too many connections open from the client's address, or with the token:
 *   GRAPHQL_WS_MAX_CONNECTIONS_PER_ADDRESS / _PER_PRINCIPAL) or 1013 (rate limited, or the token cannot be
 *   verified now);
 * - every operation is parsed with the token limit, validated by graphql-js's rules and the depth, alias and
 *   root-field rule, estimated against the cost limit and charged to the token's budget before it runs
 *   (src/graphql/websocket-operation.ts); refusals are `error` messages with the codes HTTP answers;
 * - only subscriptions: queries and mutations stay on HTTP, with its idempotency and metrics.
 */

/** The scopes some subscription needs; a token with none of them cannot use a connection. */
const SUBSCRIPTION_SCOPES: readonly AccessScope[] = ['accounts:read', 'events:read'];
/** Operations open at once on one connection (each holds a follower of the event feed). */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 100;
/** Pings that go unanswered this long end the connection (a vanished client holds nothing for long). */
const KEEP_ALIVE_MS = 12_000;
/** The connection's token is verified again this often: a revoked or expired token stops receiving. */
const REVALIDATE_MS = 60_000;
/** How long a closing connection may take to answer the close handshake before its socket is ended. */
const CLOSE_WAIT_MS = 1000;
/** A value the bearer syntax refuses (malformed), for an `authorization` that is not a single string. */
const NOT_A_BEARER = '-';
const GRAPHQL_PATH = /^\/([^/]+)\/graphql\/?$/;

export interface SubscriptionServer {
  /** The HTTP server's `upgrade` listener. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Refuses new connections, closes open ones with 1001 (Going away), and waits for them to end. */
  close(): Promise<void>;
  /** Open connections (tests, diagnostics). */
  connections(): number;
}

/** One WebSocket connection: graphql-ws's `extra`. */
interface Connection {
  id: string;
  environment: string;
  address: string;
  logger: Logger;
  openedAt: number;
  /** Set once the token was accepted. */
  context?: RequestContext;
  authorization?: string | undefined;
  /** The error scope (request id, logger) of each open operation, by its id. */
  operations: Map<string, ErrorScope>;
  close(code: number, reason: string): void;
  closed: Promise<void>;
  terminate(): void;
}

/** graphql-ws's close codes (RFC 6455 §7.4.2 private range) and RFC 6455's "Try Again Later". */
const CLOSE = {
  unauthorized: 4401,
  forbidden: 4403,
  notFound: 4404,
  badRequest: 4400,
  tooMany: 4429,
  internal: 4500,
  tryAgainLater: 1013,
  goingAway: 1001,
} as const;

export function createSubscriptionServer(deps: HttpDependencies, schema: GraphQLSchema): SubscriptionServer {
  const settings = deps.config.graphql;
  const prepare = operationPreparer(deps, schema);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: deps.config.bodyLimitBytes,
    handleProtocols: (protocols) => handleProtocols(protocols),
  });
  const open = new Set<Connection>();
  let closing = false;
  const limits = {
    perPrincipal: settings.maxWsConnectionsPerPrincipal,
    perAddress: settings.maxWsConnectionsPerAddress,
  };
  /** Open connections of one client address (any), or of one principal (accepted ones): what the quotas count. */
  const ofAddress = (address: string) => [...open].filter((other) => other.address === address).length;
  const ofPrincipal = (principalId: string) =>
    [...open].filter((other) => other.context?.caller.principal.id === principalId).length;
  const busiest = (key: (connection: Connection) => string | undefined) => {
    const counts = new Map<string, number>();
    for (const connection of open) {
      const id = key(connection);
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return Math.max(0, ...counts.values());
  };
  deps.metrics?.setQuotaLimit('graphql_ws_connections_per_principal', limits.perPrincipal);
  deps.metrics?.setQuotaLimit('graphql_ws_connections_per_address', limits.perAddress);
  deps.metrics?.watchQuotaUsage('graphql_ws_connections_per_principal', () =>
    busiest((connection) => connection.context?.caller.principal.id),
  );
  deps.metrics?.watchQuotaUsage('graphql_ws_connections_per_address', () =>
    busiest((connection) => connection.address),
  );

  /** Closes a connection over a quota with 4429, as graphql-ws closes too many initialisations; answers false for onConnect. */
  const overQuota = (
    connection: Connection,
    quota: 'graphql_ws_connections_per_principal' | 'graphql_ws_connections_per_address',
    message: string,
  ): false => {
    deps.metrics?.quotaRefused(quota);
    connection.logger.info({ quota }, 'graphql websocket connection refused: quota');
    connection.close(CLOSE.tooMany, closeReason(`TOO_MANY_CONNECTIONS: ${message}`));
    return false;
  };

  const server = makeServer<Record<string, unknown> | undefined, Connection>({
    schema,
    async onConnect(ctx) {
      const connection = ctx.extra;
      // Before the token is checked: a client address flooding connections costs no verification.
      if (ofAddress(connection.address) > limits.perAddress) {
        return overQuota(
          connection,
          'graphql_ws_connections_per_address',
          `At most ${limits.perAddress} connections may be open from one address; close one.`,
        );
      }
      try {
        const authorization = bearerFrom(ctx.connectionParams);
        const context = await authenticateConnection(
          { requestId: connection.id, environment: connection.environment, authorization, logger: connection.logger },
          connection.address,
          deps,
        ).catch((error: unknown) => {
          // The HTTP message names the header; here the token travels in the payload.
          if (authorization === undefined && isCallerError(error) && error.code === 'UNAUTHENTICATED')
            throw unauthenticated('Send {"authorization": "Bearer <token>"} as the connection_init payload.');
          throw error;
        });
        if (!SUBSCRIPTION_SCOPES.some((scope) => isAuthorized(context.caller, scope))) {
          connection.close(
            CLOSE.forbidden,
            `FORBIDDEN: The token may not subscribe: it holds neither ${SUBSCRIPTION_SCOPES.join(' nor ')}.`,
          );
          return false;
        }
        // Counted and taken in one synchronous step: two connections of the principal cannot both pass.
        if (ofPrincipal(context.caller.principal.id) >= limits.perPrincipal) {
          return overQuota(
            connection,
            'graphql_ws_connections_per_principal',
            `At most ${limits.perPrincipal} connections may be open per token; close one.`,
          );
        }
        connection.context = context;
        connection.authorization = authorization;
        // The auth step's logger: this connection's id (as request id), principal and environment.
        connection.logger = context.logger;
        connection.logger.info('graphql websocket connection accepted');
        return true;
      } catch (error) {
        refuse(connection, error);
        return false;
      }
    },
    async onSubscribe(ctx, id, payload) {
      const connection = ctx.extra;
      const context = connection.context!;
      const requestId = requestIdFrom(undefined);
      const scope: ErrorScope = {
        requestId,
        logger: connection.logger.child({ operationRequestId: requestId, operation: id }),
      };
      connection.operations.set(id, scope);
      return errorScope.run(scope, async () => {
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_CONNECTION) {
          return [
            new ClientFacingError(
              `At most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions may be open on one connection; complete one, or open another connection.`,
              { code: 'TOO_MANY_SUBSCRIPTIONS' },
            ),
          ];
        }
        const refusal = await revalidate(connection);
        if (refusal) return [requestGraphqlError(refusal)];
        return prepare({ ...context, caller: { ...context.caller, requestId }, logger: scope.logger }, payload);
      });
    },
    onNext(ctx, id, _payload, _args, result) {
      if (!result.errors?.length) return undefined;
      const formatted: FormattedExecutionResult = { data: result.data, errors: format(ctx.extra, id, result.errors) };
      if (result.extensions) formatted.extensions = result.extensions;
      return formatted;
    },
    onError(ctx, id, _payload, errors) {
      const formatted = format(ctx.extra, id, errors);
      // An `error` message ends the operation.
      ctx.extra.operations.delete(id);
      return formatted;
    },
    onComplete(ctx, id) {
      ctx.extra.operations.delete(id);
    },
  });

  /** The connection's token is still good (not revoked, not expired, still in this environment); else it is closed. */
  async function revalidate(connection: Connection): Promise<CallerError | undefined> {
    let problem: CallerError | undefined;
    try {
      const authentication = await deps.authenticator.authenticate(connection.authorization);
      if (!authentication.ok)
        problem = unauthenticated(
          authentication.reason === 'expired'
            ? 'The bearer token has expired.'
            : authentication.reason === 'revoked'
              ? 'The bearer token has been revoked.'
              : 'The bearer token is not valid.',
        );
      else if (!mayActIn(authentication.principal, connection.environment)) problem = environmentNotAllowed();
    } catch (error) {
      // The token store or identity provider is away: keep the connection, check again later.
      connection.logger.warn(
        { err: { message: (error as Error).message } },
        "could not verify a websocket connection's token again; keeping it",
      );
      return undefined;
    }
    if (problem) refuse(connection, problem);
    return problem;
  }

  /** Closes a connection whose token was refused, with the code graphql-ws clients understand and the error's code and message. */
  function refuse(connection: Connection, error: unknown): void {
    if (!isCallerError(error)) {
      logUnexpected(connection.logger, error);
      connection.close(CLOSE.internal, 'INTERNAL_ERROR: Something went wrong on our side.');
      return;
    }
    const code =
      error.code === 'UNAUTHENTICATED'
        ? CLOSE.unauthorized
        : error.code === 'FORBIDDEN'
          ? CLOSE.forbidden
          : error.code === 'ENVIRONMENT_NOT_FOUND'
            ? CLOSE.notFound
            : error.code === 'RATE_LIMITED' || error.code === 'SERVICE_UNAVAILABLE'
              ? CLOSE.tryAgainLater
              : CLOSE.badRequest;
    connection.logger.info(
      { code: error.code, environment: connection.environment },
      'graphql websocket connection refused',
    );
    connection.close(code, closeReason(`${error.code}: ${error.message}`));
  }

  /** graphql-ws's errors of one operation, formatted by the one GraphQL error mapping under the operation's request id. */
  function format(connection: Connection, id: string, errors: readonly GraphQLError[]): GraphQLFormattedError[] {
    const scope = connection.operations.get(id) ?? { requestId: connection.id, logger: connection.logger };
    return errorScope.run(scope, () => errors.map((error) => formatGraphqlError(error.toJSON(), error)));
  }

  function accept(ws: WebSocket, req: IncomingMessage, environment: string): void {
    const id = requestIdFrom(typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'] : undefined);
    let closeRequested = false;
    let resolveClosed!: () => void;
    const connection: Connection = {
      id,
      environment,
      address: clientAddress(req as Request),
      logger: deps.logger.child({ requestId: id, component: 'graphql-ws' }),
      openedAt: Date.now(),
      operations: new Map(),
      close(code, reason) {
        if (closeRequested) return;
        closeRequested = true;
        ws.close(code, reason);
      },
      closed: new Promise<void>((resolve) => (resolveClosed = resolve)),
      terminate: () => ws.terminate(),
    };
    open.add(connection);

    const socket: ProtocolSocket = {
      protocol: ws.protocol,
      send: (data) =>
        new Promise<void>((resolve, reject) => {
          if (ws.readyState !== ws.OPEN) return resolve();
          ws.send(data, (error) => (error ? reject(error) : resolve()));
        }),
      close: (code, reason) => connection.close(code ?? CLOSE.internal, reason ?? ''),
      onMessage: (handle) =>
        ws.on('message', async (data: Buffer, isBinary: boolean) => {
          try {
            // The protocol's messages are JSON text; a binary frame is not one.
            if (isBinary) connection.close(CLOSE.badRequest, 'Invalid message received');
            else await handle(data.toString('utf8'));
          } catch (error) {
            logUnexpected(connection.logger, error);
            connection.close(CLOSE.internal, 'INTERNAL_ERROR: Something went wrong on our side.');
          }
        }),
    };
    const closed = server.opened(socket, connection);

    // Keep-alive: a client that stops answering pings is dropped; the token is verified again now and then.
    let awaitingPong = false;
    const keepAlive = setInterval(() => {
      if (awaitingPong) {
        ws.terminate();
        return;
      }
      awaitingPong = true;
      ws.ping();
    }, KEEP_ALIVE_MS);
    ws.on('pong', () => (awaitingPong = false));
    const revalidation = setInterval(() => {
      if (connection.context) void revalidate(connection);
    }, REVALIDATE_MS);
    keepAlive.unref();
    revalidation.unref();

    ws.on('error', (error) =>
      connection.logger.warn({ err: { message: error.message } }, 'graphql websocket connection failed'),
    );
    ws.once('close', (code: number, reason: Buffer) => {
      clearInterval(keepAlive);
      clearInterval(revalidation);
      open.delete(connection);
      // Ends the connection's subscriptions (their streams leave the event feed).
      void closed(code, reason.toString('utf8'))
        .catch((error: unknown) => logUnexpected(connection.logger, error))
        .finally(() => {
          if (connection.context)
            connection.logger.info(
              { code, durationMs: Date.now() - connection.openedAt },
              'graphql websocket connection closed',
            );
          resolveClosed();
        });
    });
  }

  return {
    handleUpgrade(req, socket, head) {
      socket.on('error', () => socket.destroy());
      let environment: string;
      try {
        const match = GRAPHQL_PATH.exec(new URL(req.url ?? '/', 'http://localhost').pathname);
        if (!match)
          return rejectUpgrade(socket, 404, {
            errors: [
              {
                message: 'No WebSocket endpoint at this path; subscriptions are at /{environment}/graphql.',
                extensions: { code: 'ROUTE_NOT_FOUND' },
              },
            ],
          });
        environment = decodeURIComponent(match[1]!);
      } catch {
        return rejectUpgrade(socket, 404, {
          errors: [
            {
              message: 'No WebSocket endpoint at this path; subscriptions are at /{environment}/graphql.',
              extensions: { code: 'ROUTE_NOT_FOUND' },
            },
          ],
        });
      }
      // An unknown environment is upgraded like a known one: connection_init's token decides, as on HTTP
      // (src/auth/request-context.ts), so environment names cannot be probed without a token valid in all.
      if (closing)
        return rejectUpgrade(socket, 503, {
          errors: [
            { message: 'The service is shutting down; connect again.', extensions: { code: 'SERVICE_UNAVAILABLE' } },
          ],
        });
      wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req, environment));
    },
    async close() {
      closing = true;
      const connections = [...open];
      for (const connection of connections) connection.close(CLOSE.goingAway, 'Going away');
      await Promise.all(
        connections.map(async (connection) => {
          const timer = setTimeout(() => connection.terminate(), CLOSE_WAIT_MS);
          await connection.closed;
          clearTimeout(timer);
        }),
      );
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
    connections: () => open.size,
  };
}

/** The token of the `connection_init` payload: `authorization` in any letter case (GraphiQL sends its Headers tab as is). */
function bearerFrom(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const values = Object.entries(params ?? {})
    .filter(([key]) => key.toLowerCase() === 'authorization')
    .map(([, value]) => value);
  if (values.length === 0) return undefined;
  return values.length === 1 && typeof values[0] === 'string' ? values[0] : NOT_A_BEARER;
}

/** A close frame's reason is at most 123 bytes. */
function closeReason(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= 123
    ? text
    : `${bytes
        .subarray(0, 120)
        .toString('utf8')
        .replace(/\uFFFD$/, '')}...`;
}

function rejectUpgrade(socket: Duplex, status: 404 | 503, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Service Unavailable'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
