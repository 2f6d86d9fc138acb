import http from 'node:http';

/**
 * A bare HTTP/1.1 client on node:http with keep-alive: unlike fetch it sends any method, any path
 * bytes and any header the protocol allows, and it measures each answer. Used by the fuzzers and the
 * fault scripts, whose requests must reach the server exactly as generated.
 */
export interface RawRequest {
  method: string;
  /** Path and query, sent as is (percent-encoded bytes included). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  elapsedMs: number;
}

export interface RawClient {
  readonly baseUrl: string;
  send(request: RawRequest, timeoutMs?: number): Promise<RawResponse>;
  close(): void;
}

export function createRawClient(baseUrl: string, options: { maxSockets?: number; timeoutMs?: number } = {}): RawClient {
  const url = new URL(baseUrl);
  // Idle sockets are closed by the client before the server's keep-alive timeout (the service's default is
  // 65 s, Node's 5 s). Node 20's agent reads the server's `Keep-Alive: timeout` hint only when it has a
  // timeout of its own; without one, a socket picked just as the server closes it fails with ECONNRESET.
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64, timeout: 4000 });
  const defaultTimeout = options.timeoutMs ?? 10_000;
  return {
    baseUrl,
    send(request, timeoutMs = defaultTimeout) {
      return new Promise((resolve, reject) => {
        const started = performance.now();
        const body =
          request.body === undefined
            ? undefined
            : Buffer.isBuffer(request.body)
              ? request.body
              : Buffer.from(request.body, 'utf8');
        const headers: Record<string, string | number> = { ...request.headers };
        if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length'))
          headers['content-length'] = body.length;
        const req = http.request(
          { host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', reject);
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              let json: unknown;
              try {
                json = text ? JSON.parse(text) : undefined;
              } catch {
                json = undefined;
              }
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                text,
                json,
                elapsedMs: performance.now() - started,
              });
            });
          },
        );
        req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

/** JSON request helper on a raw client, with the bearer token. */
export function jsonRequest(
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): RawRequest {
  return {
    method,
    path,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  };
}
