import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * Webhook receivers for the fault scripts: real HTTP servers on 127.0.0.1 that verify every request with
 * the Standard Webhooks reference library (`standardwebhooks`), record it in one arrival order shared by
 * every receiver of the process, and answer as their behaviour says (200, 500, 429 with Retry-After, slow,
 * or not at all until told). A request counts as arrived once its body is complete: a request cut off by
 * the sender's death is counted apart (`cutOff`), it was never whole.
 */

/** What a receiver answers to one request. */
export type AnswerKind = 'ok' | 'error-500' | 'retry-after-429' | 'slow-ok' | 'too-slow' | 'held';

export interface Arrival {
  /** Arrival order across every receiver of this process (one event loop: a total order). */
  index: number;
  receiver: string;
  path: string;
  /** Date.now() when the body was complete. */
  at: number;
  webhookId: string;
  /** 1 for the first whole request of this (path, webhook-id), 2 for the second, … */
  nth: number;
  verified: boolean;
  verifyError?: string;
  /** The verified body. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  payload?: { type: string; timestamp: string; data: any };
  answer: AnswerKind;
  status: number | null;
  /** Date.now() when the answer was written (null: never, e.g. held until the sender died). */
  answeredAt: number | null;
}

export interface ReceiverBehaviour {
  /** The answer to a request, given how many whole requests of this (path, webhook-id) came before it. */
  answer(path: string, nth: number): AnswerKind;
}

export interface WebhookReceiver {
  name: string;
  url(path: string): string;
  /** The endpoint's secret (`whsec_…`), once registered: requests to `path` are verified with it. */
  setSecret(path: string, secret: string): void;
  /** The next first request (nth 1) to `path` is held open, unanswered; resolves when one is. */
  holdNext(path: string): Promise<Arrival>;
  /** Requests held or being answered slowly right now. */
  open(): number;
  cutOff(): number;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  behaviour?: ReceiverBehaviour;
  /** How long a 'slow-ok' answer waits, and a 'too-slow' one (set above the service's WEBHOOKS_TIMEOUT_MS). */
  slowMs?: number;
  tooSlowMs?: number;
  /** The Retry-After of a 429, in seconds. */
  retryAfterSeconds?: number;
}

const always200: ReceiverBehaviour = { answer: () => 'ok' };

/** Every arrival at every receiver of this process, in arrival order. */
export const arrivals: Arrival[] = [];

export async function startWebhookReceiver(name: string, options: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const behaviour = options.behaviour ?? always200;
  const verifiers = new Map<string, Webhook>();
  const seen = new Map<string, number>();
  const holds = new Map<string, (arrival: Arrival) => void>();
  const openResponses = new Set<http.ServerResponse>();
  let cutOff = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let complete = false;
    res.on('error', () => undefined);
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('close', () => {
      if (!complete) cutOff += 1;
    });
    req.on('end', () => {
      complete = true;
      const at = Date.now();
      const path = req.url ?? '/';
      const headers: Record<string, string> = {};
      for (const [header, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[header] = value;
      const body = Buffer.concat(chunks).toString('utf8');
      const webhookId = headers['webhook-id'] ?? '';
      const key = `${path} ${webhookId}`;
      const nth = (seen.get(key) ?? 0) + 1;
      seen.set(key, nth);
      const arrival: Arrival = {
        index: arrivals.length,
        receiver: name,
        path,
        at,
        webhookId,
        nth,
        verified: false,
        answer: 'ok',
        status: null,
        answeredAt: null,
      };
      const verifier = verifiers.get(path);
      try {
        if (!verifier) throw new Error(`no secret registered for ${path}`);
        arrival.payload = verifier.verify(body, headers) as Arrival['payload'];
        arrival.verified = true;
      } catch (error) {
        arrival.verifyError = (error as Error).message;
      }
      arrivals.push(arrival);

      const hold = nth === 1 ? holds.get(path) : undefined;
      arrival.answer = hold ? 'held' : arrival.verified ? behaviour.answer(path, nth) : 'ok';
      if (hold) {
        holds.delete(path);
        openResponses.add(res);
        res.on('close', () => openResponses.delete(res));
        hold(arrival);
        return;
      }
      const answer = (status: number, headers: Record<string, string> = {}) => {
        openResponses.delete(res);
        arrival.status = status;
        arrival.answeredAt = Date.now();
        res.writeHead(status, { 'content-type': 'text/plain', ...headers });
        res.end(status < 300 ? 'ok' : 'not now');
      };
      switch (arrival.answer) {
        case 'error-500':
          return answer(500);
        case 'retry-after-429':
          return answer(429, { 'retry-after': String(options.retryAfterSeconds ?? 1) });
        case 'slow-ok':
        case 'too-slow': {
          openResponses.add(res);
          setTimeout(
            () => answer(200),
            arrival.answer === 'slow-ok' ? (options.slowMs ?? 200) : (options.tooSlowMs ?? 2000),
          );
          return;
        }
        default:
          // An unverifiable request is answered 200 too: the script counts it as a failure, the sender need not retry it.
          return answer(200);
      }
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    name,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    setSecret: (path, secret) => verifiers.set(path, new Webhook(secret)),
    holdNext: (path) => new Promise((resolve) => holds.set(path, resolve)),
    open: () => openResponses.size,
    cutOff: () => cutOff,
    async close() {
      for (const res of openResponses) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
