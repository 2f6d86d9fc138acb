import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, expectSuccess } from '../../rest/helpers.js';
import { startTestService, type TestService } from '../../support/service.js';
import { type Receiver, startReceiver } from './receiver.js';
import { fastDeliverySettings } from './settings.js';
import { HUNG_TEST_DEADLINE_MS } from '../../support/eventually.js';

/**
 * Issue 28: a sandbox whose endpoints are tarpits (they accept the TCP connection and never answer) does not
 * delay production's deliveries. Four attempts in flight per instance, two environments: each environment's
 * share is 2, each endpoint's 1. Six sandbox tarpit endpoints would hold all four slots for the whole time-out
 * without the shares; with them, production's deliveries arrive while the tarpit still hangs.
 *
 * Reproduce the figures: npx vitest run test/features/webhooks/fairness.test.ts (they are printed).
 */
const TIMEOUT_MS = 8000;
const TARPITS = 6;
const DELIVERIES = 8;

interface Tarpit {
  url: string;
  /** Connections accepted so far, and open now. */
  accepted: number;
  open: number;
  mostOpenAtOnce: number;
  close(): Promise<void>;
}

/** A TCP server on 127.0.0.1 that accepts every connection and never writes a byte. */
async function startTarpit(): Promise<Tarpit> {
  const sockets = new Set<net.Socket>();
  const state = { accepted: 0, mostOpenAtOnce: 0 };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    state.accepted += 1;
    state.mostOpenAtOnce = Math.max(state.mostOpenAtOnce, sockets.size);
    socket.on('data', () => {}); // read the request, answer nothing
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/never-answers`,
    get accepted() {
      return state.accepted;
    },
    get open() {
      return sockets.size;
    },
    get mostOpenAtOnce() {
      return state.mostOpenAtOnce;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let service: TestService;
let receiver: Receiver;
let tarpit: Tarpit;
let secret: string;
beforeAll(async () => {
  receiver = await startReceiver();
  tarpit = await startTarpit();
  service = await startTestService({
    // No retry within the test: a tarpit's attempt times out once, its retry would come a minute later.
    ...fastDeliverySettings([60_000]),
    ENVIRONMENTS: 'sandbox,production',
    WEBHOOKS_CONCURRENCY: '4',
    WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  const created = await service.call('POST', '/production/webhook-endpoint', {
    body: { url: receiver.url('/production'), eventTypes: ['customer.created'] },
  });
  expectSuccess(created, 'customer', 201);
  secret = created.json.data.secret;
});
afterAll(async () => {
  await service?.stop();
  await tarpit?.close();
  await receiver?.close();
});

/** Creates production customers one after another; answers each delivery's commit-to-arrival time (ms). */
async function productionLatencies(count: number): Promise<number[]> {
  const already = receiver.received.filter((request) => request.path === '/production').length;
  const latencies: number[] = [];
  for (let i = 0; i < count; i += 1) {
    await createCustomer(service, {}, 'production');
    const requests = await receiver.waitFor('/production', already + i + 1, TIMEOUT_MS * 3);
    const request = requests[already + i]!;
    const payload = new Webhook(secret).verify(request.body, request.headers) as { timestamp: string };
    latencies.push(request.at - Date.parse(payload.timestamp));
  }
  return latencies;
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, max: sorted.at(-1)! };
};

describe('fair dispatching across environments', () => {
  it('delivers production while a sandbox tarpit hangs, well before the tarpit attempts time out', async () => {
    const without = await productionLatencies(DELIVERIES);

    for (let i = 0; i < TARPITS; i += 1) {
      expectSuccess(
        await service.call('POST', '/sandbox/webhook-endpoint', { body: { url: tarpit.url } }),
        'customer',
        201,
      );
    }
    await createCustomer(service); // one event for each tarpit endpoint
    for (const deadline = Date.now() + HUNG_TEST_DEADLINE_MS; tarpit.accepted < 2 && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const tarpitStarted = Date.now();
    expect(tarpit.open).toBe(2);

    const withTarpit = await productionLatencies(DELIVERIES);
    const finished = Date.now();

    // Every production delivery arrived while the sandbox's attempts were still hanging, long before their time-out.
    expect(finished - tarpitStarted).toBeLessThan(TIMEOUT_MS / 2);
    expect(tarpit.open).toBeGreaterThan(0);
    // The sandbox held its share, no more: the rest of its tarpit endpoints wait their turn.
    expect(tarpit.mostOpenAtOnce).toBe(2);
    expect(tarpit.accepted).toBe(2);

    const figures = { without: summary(without), withTarpit: summary(withTarpit) };
    // eslint-disable-next-line no-console
    console.log(
      `production commit-to-delivery, ms (${DELIVERIES} each): without tarpit median ${figures.without.median} max ${figures.without.max}; with ${TARPITS} sandbox tarpit endpoints median ${figures.withTarpit.median} max ${figures.withTarpit.max}`,
    );
    expect(figures.withTarpit.max).toBeLessThan(TIMEOUT_MS / 2);
  }, 60_000);
});
