import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HUNG_TEST_DEADLINE_MS } from '../../support/eventually.js';

/** One request a test receiver got: path, headers and the raw body (the signature covers these bytes). */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** What the receiver answers: a status, headers, a body, after a delay; `hang` never answers. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  hang?: boolean;
}

/** Answers the nth request (1-based) carrying this webhook-id on this path. */
export type Behaviour = (nth: number, request: Received) => Answer;

/** A real HTTP receiver on 127.0.0.1: each path behaves as told (200 by default) and records every request. */
export interface Receiver {
  url: (path: string) => string;
  received: Received[];
  on(path: string, behaviour: Behaviour): void;
  /** The requests to `path`, once `count` of them arrived (fails after `timeoutMs`, by default only a hung test's minutes). */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  const seen = new Map<string, number>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const request: Received = {
        path: req.url ?? '/',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(request);
      const key = `${request.path} ${headers['webhook-id']}`;
      const nth = (seen.get(key) ?? 0) + 1;
      seen.set(key, nth);
      const behaviour: Behaviour = behaviours.get(request.path) ?? (() => ({}));
      const answer = behaviour(nth, request);
      if (answer.hang) {
        hanging.add(res);
        return;
      }
      setTimeout(() => {
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? 'ok');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path, behaviour) => behaviours.set(path, behaviour),
    async waitFor(path, count, timeoutMs = HUNG_TEST_DEADLINE_MS) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter((request) => request.path === path);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline)
          throw new Error(`${path}: ${matching.length} of ${count} requests arrived within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
