import http from 'node:http';
import type { Express } from 'express';

/**
 * The HTTP server for the Express app, with requests and responses created with Express's prototypes
 * from the start. Express otherwise swaps the prototype of each request and response on arrival
 * (`Object.setPrototypeOf` in app.handle), and V8 answers a prototype change by moving the object to
 * slow dictionary mode: every later property access on it, by node:http, Express and the service, pays
 * for that. Setting the prototype an object already has is free. Measured with bench/instructions.ts.
 */
export function createExpressServer(app: Express, options: { keepAliveTimeoutMs: number }): http.Server {
  const IncomingMessage = function (socket: unknown) {
    return Reflect.construct(http.IncomingMessage, [socket], IncomingMessage);
  } as unknown as typeof http.IncomingMessage;
  IncomingMessage.prototype = app.request;
  const ServerResponse = function (req: unknown, options: unknown) {
    return Reflect.construct(http.ServerResponse, [req, options], ServerResponse);
  } as unknown as typeof http.ServerResponse;
  ServerResponse.prototype = app.response;
  const server = http.createServer({ IncomingMessage, ServerResponse }, app);
  server.keepAliveTimeout = options.keepAliveTimeoutMs;
  // The headers of a request on a kept-alive connection may take as long as the idle time before them.
  server.headersTimeout = options.keepAliveTimeoutMs + 1000;
  return server;
}
