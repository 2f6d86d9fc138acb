import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { metricSample as sample } from '../../support/metrics.js';
import { startTestService, type TestService } from '../../support/service.js';
import { type Closed, connect, followers, subscriptionUrl } from '../../support/subscription-client.js';

/**
 * Issue 28: WebSocket connections per principal and per client address, and subscriptions (event feed
 * followers) per instance, are bounded; refusals close with 4429 (connections, graphql-ws's "too many") or
 * answer SUBSCRIPTIONS_FULL (an operation), and every quota has its limit, use and refusals in /metrics.
 */
const METRICS_TOKEN = 'metrics-scraper-token-for-ws-quotas-01';
let service: TestService;
beforeAll(async () => {
  service = await startTestService({
    EVENT_SEQUENCER_INTERVAL_MS: '20',
    GRAPHQL_WS_MAX_CONNECTIONS_PER_PRINCIPAL: '2',
    GRAPHQL_WS_MAX_CONNECTIONS_PER_ADDRESS: '4',
    GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS: '3',
    METRICS_TOKEN,
  });
});
afterAll(async () => service?.stop());

interface Held {
  outcome: Promise<'acknowledged' | Closed>;
  close(): Promise<void>;
}

/** A raw connection kept open once acknowledged (the test closes it); or how it was closed. */
function hold(token: string): Held {
  const socket = new WebSocket(subscriptionUrl(service), 'graphql-transport-ws');
  const closed = new Promise<Closed>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
  );
  const outcome = new Promise<'acknowledged' | Closed>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })),
    );
    socket.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === 'connection_ack') resolve('acknowledged');
    });
    void closed.then(resolve);
  });
  return {
    outcome,
    async close() {
      socket.close(1000);
      await closed;
    },
  };
}

const scrape = async () =>
  (await service.call('GET', '/metrics', { auth: false, headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text;
const tokenFor = async (name: string) =>
  (await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['events:read'], name })).token;

describe('GraphQL WebSocket quotas', () => {
  it("closes a principal's connection beyond its quota, then an address's, with 4429 and the code; a closed one makes room", async () => {
    const [a, b, c] = [await tokenFor('ws-a'), await tokenFor('ws-b'), await tokenFor('ws-c')];
    const held: Held[] = [];
    const open = async (token: string) => {
      const connection = hold(token);
      held.push(connection);
      return connection.outcome;
    };
    try {
      expect(await open(a)).toBe('acknowledged');
      expect(await open(a)).toBe('acknowledged');
      const third = await open(a);
      expect(third).toEqual({
        code: 4429,
        reason: expect.stringMatching(/^TOO_MANY_CONNECTIONS: At most 2 connections may be open per token/),
      });
      // Another token from the same address still has room: 3 open, 4 allowed.
      expect(await open(b)).toBe('acknowledged');
      expect(await open(b)).toBe('acknowledged');
      // The address is full now, whoever connects.
      expect(await open(c)).toEqual({
        code: 4429,
        reason: expect.stringMatching(/^TOO_MANY_CONNECTIONS: At most 4 connections may be open from one address/),
      });
      await held[0]!.close();
      expect(await open(c)).toBe('acknowledged');

      const metrics = await scrape();
      expect(sample(metrics, 'quota_refusals_total', { quota: 'graphql_ws_connections_per_principal' })).toBe(1);
      expect(sample(metrics, 'quota_refusals_total', { quota: 'graphql_ws_connections_per_address' })).toBe(1);
      expect(sample(metrics, 'quota_limit', { quota: 'graphql_ws_connections_per_principal' })).toBe(2);
      expect(sample(metrics, 'quota_limit', { quota: 'graphql_ws_connections_per_address' })).toBe(4);
      expect(sample(metrics, 'quota_usage', { quota: 'graphql_ws_connections_per_address' })).toBe(4);
      expect(sample(metrics, 'quota_usage', { quota: 'graphql_ws_connections_per_principal' })).toBe(2);
    } finally {
      await Promise.all(held.map((connection) => connection.close()));
    }
  });

  it("refuses a subscription beyond the instance's followers with SUBSCRIPTIONS_FULL; a completed one makes room", async () => {
    const client = connect(service);
    try {
      const subscriptions = [0, 1, 2].map(() => client.subscribe('subscription { events { eventId } }'));
      await followers(service, 3);
      const refused = client.subscribe('subscription { events { eventId } }');
      await refused.done;
      expect(JSON.stringify(refused.failure ?? refused.results)).toContain('SUBSCRIPTIONS_FULL');
      subscriptions[0]!.unsubscribe();
      await followers(service, 2);
      client.subscribe('subscription { events { eventId } }');
      await followers(service, 3);

      const metrics = await scrape();
      expect(sample(metrics, 'quota_refusals_total', { quota: 'event_feed_followers' })).toBe(1);
      expect(sample(metrics, 'quota_limit', { quota: 'event_feed_followers' })).toBe(3);
      expect(sample(metrics, 'quota_usage', { quota: 'event_feed_followers' })).toBe(3);
    } finally {
      await client.dispose();
    }
  });
});
