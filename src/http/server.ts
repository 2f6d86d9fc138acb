import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Express, NextFunction, Request, Response } from 'express';
import { tooManyConnections } from './errors.js';

export interface ServerOptions {
  keepAliveTimeoutMs: number;
  /** A request's headers must have arrived this long after its first byte (the connection, for the first one); then 408. */
  headersTimeoutMs: number;
  /** The whole request (headers and body) likewise; the answer is not bounded (ledger exports stream for long). */
  requestTimeoutMs: number;
  /** Open connections per TCP peer address; 0: no cap. */
  maxConnectionsPerAddress: number;
}

/** Connections accepted beyond their address's cap: their requests are answered 503 (refuseOverCapacity). */
const overCapacity = new WeakSet<Socket | Duplex>();

/**
 * The HTTP server for the Express app, with requests and responses created with Express's prototypes
 * from the start. Express otherwise swaps the prototype of each request and response on arrival
 * (`Object.setPrototypeOf` in app.handle), and V8 answers a prototype change by moving the object to
 * slow dictionary mode: every later property access on it, by node:http, Express and the service, pays
 * for that. Setting the prototype an object already has is free. Measured with a one-off instruction count (bench/instructions.ts, in git history).
 *
 * Slow clients: node:http answers 408 and closes a connection whose request headers (headersTimeoutMs) or
 * whole request (requestTimeoutMs) take longer, checked every connectionsCheckingInterval (a tenth of the
 * shorter timeout, 100 ms to 1 s; Node's default of 30 s let a 66 s header timeout run to 76 s). Neither
 * starts before a request's first byte, so an idle keep-alive connection is the keep-alive timeout's alone.
 *
 * Connections per address: counted on 'connection', by the TCP peer (behind a proxy, the proxy). Up to the
 * cap they are served; beyond it, up to twice the cap, each one's requests are answered 503
 * TOO_MANY_CONNECTIONS with Retry-After and `Connection: close` (refuseOverCapacity, in the app, so the
 * answer is logged and counted like any); beyond twice the cap a connection is closed at once, unanswered.
 */
export function createExpressServer(app: Express, options: ServerOptions): http.Server {
  const IncomingMessage = function (socket: unknown) {
    return Reflect.construct(http.IncomingMessage, [socket], IncomingMessage);
  } as unknown as typeof http.IncomingMessage;
  IncomingMessage.prototype = app.request;
  const ServerResponse = function (req: unknown, options: unknown) {
    return Reflect.construct(http.ServerResponse, [req, options], ServerResponse);
  } as unknown as typeof http.ServerResponse;
  ServerResponse.prototype = app.response;
  const server = http.createServer(
    {
      IncomingMessage,
      ServerResponse,
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(
        1000,
        Math.max(100, Math.floor(Math.min(options.headersTimeoutMs, options.requestTimeoutMs) / 10)),
      ),
    },
    app,
  );
  server.keepAliveTimeout = options.keepAliveTimeoutMs;
  if (options.maxConnectionsPerAddress > 0) capConnectionsPerAddress(server, options.maxConnectionsPerAddress);
  return server;
}

function capConnectionsPerAddress(server: http.Server, cap: number): void {
  const open = new Map<string, number>();
  // Prepended: the count must be known before node:http reads a byte of the connection.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > 2 * cap) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    if (count > cap) overCapacity.add(socket);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** Whether this connection was accepted beyond its address's cap. */
export const isOverCapacity = (socket: Socket | Duplex): boolean => overCapacity.has(socket);

/** Early in the app (after the request logging): a request on a connection beyond the cap is answered 503 and the connection closed. */
export function refuseOverCapacity(req: Request, res: Response, next: NextFunction): void {
  if (!overCapacity.has(req.socket)) {
    next();
    return;
  }
  res.setHeader('Connection', 'close');
  next(tooManyConnections());
}

/** A WebSocket upgrade on a connection beyond the cap: answered 503 in HTTP and closed; true when refused. */
export function refuseUpgradeOverCapacity(socket: Duplex): boolean {
  if (!overCapacity.has(socket)) return false;
  const error = tooManyConnections();
  const body = JSON.stringify({ error: { code: error.code, message: error.message } });
  socket.end(
    `HTTP/1.1 503 Service Unavailable\r\nRetry-After: ${error.headers['Retry-After']}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  return true;
}
