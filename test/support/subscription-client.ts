import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { assertNoSensitiveValues } from './factories.js';
import type { TestService } from './service.js';
import { HUNG_TEST_DEADLINE_MS } from './eventually.js';

/** ws://host:port/{environment}/graphql of a running service. */
export const subscriptionUrl = (service: { url: string }, environment = 'sandbox') =>
  `${service.url.replace(/^http/, 'ws')}/${environment}/graphql`;

export interface Closed {
  code: number;
  reason: string;
}

export interface TestClient {
  client: Client;
  /** Every message the server sent, raw, in order (each already checked for SSNs and DLNs). */
  messages: string[];
  /** Close events of the socket, in order. */
  closes: Closed[];
  subscribe(query: string, variables?: Record<string, unknown>): Subscription;
  dispose(): Promise<void>;
}

export interface Subscription {
  /** `next` payloads, in order. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  results: any[];
  /** The `error` message's errors, or the socket's close event, when the operation failed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  failure: any;
  /** Resolves when the operation completed or failed. */
  done: Promise<void>;
  /** The first `count` results, once they arrived (fails after `timeoutMs`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  take(count: number, timeoutMs?: number): Promise<any[]>;
  unsubscribe(): void;
}

/**
 * A real graphql-ws client (the npm package's `createClient` over the `ws` package) against the service,
 * without retries: a refused or closed connection is the test's to see.
 */
export function connect(
  service: { url: string; token?: string },
  options: { environment?: string; connectionParams?: Record<string, unknown> } = {},
): TestClient {
  const messages: string[] = [];
  const closes: Closed[] = [];
  const client = createClient({
    url: subscriptionUrl(service, options.environment),
    webSocketImpl: WebSocket,
    connectionParams: options.connectionParams ?? { authorization: `Bearer ${service.token}` },
    retryAttempts: 0,
    lazy: true,
    on: {
      message: (message) => {
        const text = JSON.stringify(message);
        assertNoSensitiveValues(text, 'a GraphQL subscription message');
        messages.push(text);
      },
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string };
        closes.push({ code, reason: String(reason) });
      },
    },
  });
  return {
    client,
    messages,
    closes,
    subscribe(query, variables) {
      const results: unknown[] = [];
      const subscription: Subscription = {
        results,
        failure: undefined,
        done: undefined as unknown as Promise<void>,
        take: undefined as never,
        unsubscribe: () => undefined,
      };
      subscription.done = new Promise<void>((resolve) => {
        subscription.unsubscribe = client.subscribe(
          { query, ...(variables && { variables }) },
          {
            next: (value) => results.push(value),
            error: (error) => {
              subscription.failure = error;
              resolve();
            },
            complete: resolve,
          },
        );
      });
      subscription.take = async (count, timeoutMs = HUNG_TEST_DEADLINE_MS) => {
        const deadline = Date.now() + timeoutMs;
        while (results.length < count) {
          if (Date.now() > deadline)
            throw new Error(
              `${results.length} of ${count} subscription results arrived within ${timeoutMs} ms: ${JSON.stringify(results)}`,
            );
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return results.slice(0, count);
      };
      return subscription;
    },
    dispose: async () => {
      await client.dispose();
    },
  };
}

/** Waits until the service has `count` subscriptions following the event feed (their start is fixed). */
export async function followers(
  service: Pick<TestService, 'subscriptions'>,
  count: number,
  timeoutMs = HUNG_TEST_DEADLINE_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (service.subscriptions.followers() !== count) {
    if (Date.now() > deadline)
      throw new Error(`${service.subscriptions.followers()} subscriptions follow the event feed, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A raw WebSocket speaking the protocol by hand, for what a library client hides: the close code and
 * reason a `connection_init` gets.
 */
export async function rawInit(
  service: { url: string },
  payload: unknown,
  options: { environment?: string; protocol?: string | null } = {},
): Promise<Closed | 'acknowledged'> {
  // `protocol: null` offers no subprotocol at all.
  const protocol = options.protocol === undefined ? 'graphql-transport-ws' : options.protocol;
  const socket =
    protocol === null
      ? new WebSocket(subscriptionUrl(service, options.environment))
      : new WebSocket(subscriptionUrl(service, options.environment), protocol);
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', ...(payload !== undefined && { payload }) })),
    );
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string };
      if (message.type === 'connection_ack') {
        socket.close(1000);
        resolve('acknowledged');
      }
    });
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') }));
  });
}

/** The status of a WebSocket upgrade the server refused (404 for an unknown path or environment). */
export function refusedUpgrade(url: string): Promise<{ status: number; body: string }> {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  return new Promise((resolve, reject) => {
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    socket.on('open', () => reject(new Error('the upgrade was accepted')));
    socket.on('error', () => undefined);
  });
}
