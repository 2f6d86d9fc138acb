import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { configProblems } from '../support/config.js';
import { eventually, HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * Slow clients and connection hoarding (src/http/server.ts): a request's headers and the whole request have
 * bounded time (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS; small here so the tests are quick), and one
 * address may hold HTTP_MAX_CONNECTIONS_PER_ADDRESS connections. Raw sockets: no client timeout or pool
 * interferes, and every wait is on the socket's own events.
 */
const CAP = 3;
let service: TestService;
let port: number;
beforeAll(async () => {
  service = await startTestService({
    HTTP_HEADERS_TIMEOUT_MS: '1000',
    HTTP_REQUEST_TIMEOUT_MS: '1500',
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(CAP),
  });
  port = Number(new URL(service.url).port);
});
afterAll(async () => service?.stop());

/**
 * A raw connection: everything the server sent, and a promise of its close. The deadline only stops a hung
 * test (minutes): whether the server closes a slow client is awaited, the time-outs it closes by are asserted
 * on the listener (`service.httpServer`).
 */
function open() {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let waiting: { until: (text: string) => boolean; resolve: () => void } | undefined;
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    if (waiting?.until(received)) waiting.resolve();
  });
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error('the server kept the connection open')), HUNG_TEST_DEADLINE_MS);
    socket.once('close', () => {
      clearTimeout(deadline);
      resolve(received);
    });
  });
  const connected = new Promise<void>((resolve) => socket.once('connect', resolve));
  return {
    socket,
    connected,
    closed,
    get received() {
      return received;
    },
    /** Sends a request and waits for its whole answer (a healthz answer is small: head and body in `received`). */
    async ask(request: string, until: (text: string) => boolean): Promise<string> {
      const start = received.length;
      const done = new Promise<void>((resolve) => (waiting = { until: (text) => until(text.slice(start)), resolve }));
      socket.write(request);
      await Promise.race([done, closed.then(() => undefined)]);
      return received.slice(start);
    },
  };
}

const HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
const complete = (text: string) => {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end));
  return length ? text.length >= end + 4 + Number(length[1]) : true;
};

describe('slow clients', () => {
  it('the listener applies the configured time-outs', () => {
    expect(service.httpServer.headersTimeout).toBe(1000);
    expect(service.httpServer.requestTimeout).toBe(1500);
  });

  it('a client dripping its headers is answered 408 and disconnected', async () => {
    const client = open();
    await client.connected;
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // One more header line every 100 ms, for ever: each byte arrives well within any idle timeout.
    const drip = setInterval(() => client.socket.writable && client.socket.write('X-Drip: 1\r\n'), 100);
    try {
      const received = await client.closed;
      expect(received === '' || received.startsWith('HTTP/1.1 408 ')).toBe(true);
    } finally {
      clearInterval(drip);
    }
  });

  it('an authenticated client dripping its body is answered 408 and disconnected', async () => {
    const client = open();
    await client.connected;
    client.socket.write(
      `POST /sandbox/customer HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${service.token}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{`,
    );
    const drip = setInterval(() => client.socket.writable && client.socket.write(' '), 100);
    try {
      const received = await client.closed;
      expect(received === '' || received.startsWith('HTTP/1.1 408 ')).toBe(true);
    } finally {
      clearInterval(drip);
    }
  });

  it('bounds receiving the request only: an idle kept-alive connection outlives the request timeout, and answers its next request', async () => {
    const idle = await openAnswered();
    // A second connection starts a request after the first went idle and never finishes its body: the server
    // answers it 408 once its request timeout (the longer of the two) has run out. Its close is the event that
    // shows both time-outs have run out for the idle connection too, had they applied to it; no clock decides.
    const stalled = open();
    await stalled.connected;
    stalled.socket.write(
      `POST /sandbox/customer HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${service.token}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{`,
    );
    const refused = await stalled.closed;
    expect(refused === '' || refused.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(await idle.ask(HEALTHZ, complete)).toMatch(/^HTTP\/1\.1 200 /);
    idle.socket.destroy();
    await idle.closed;
  });
});

/** A connection that was answered one request, and is idle. */
async function openAnswered(): Promise<ReturnType<typeof open>> {
  const client = open();
  await client.connected;
  expect(await client.ask(HEALTHZ, complete)).toMatch(/^HTTP\/1\.1 200 /);
  return client;
}

describe('connections per address', () => {
  it(`beyond ${CAP} open connections from one address, a connection is answered 503 TOO_MANY_CONNECTIONS and closed; the first ones keep working`, async () => {
    const first = Array.from({ length: CAP }, () => open());
    for (const client of first) expect(await client.ask(HEALTHZ, complete)).toMatch(/^HTTP\/1\.1 200 /);

    const extra = open();
    const refused = await extra.ask(HEALTHZ, complete);
    expect(refused).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused).toMatch(/\r\nRetry-After: 1\r\n/i);
    expect(refused).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toMatchObject({
      error: { code: 'TOO_MANY_CONNECTIONS' },
    });
    await extra.closed;

    // The service logs the refusal like any answer.
    const requestId = /\r\nX-Request-Id: ([^\r]+)\r\n/i.exec(refused)![1]!;
    expect(service.logLines.some((line) => line.includes(requestId) && line.includes('"status":503'))).toBe(true);

    for (const client of first) expect(await client.ask(HEALTHZ, complete)).toMatch(/^HTTP\/1\.1 200 /);

    // A closed connection frees its place (the server counts its own sockets' close).
    first[0]!.socket.destroy();
    await first[0]!.closed;
    const admitted = await eventually(
      async () => {
        const again = open();
        const answer = await again.ask(HEALTHZ, complete);
        again.socket.destroy();
        await again.closed;
        return answer;
      },
      (answer) => answer.startsWith('HTTP/1.1 200 '),
    );
    expect(admitted).toMatch(/^HTTP\/1\.1 200 /);
    for (const client of first.slice(1)) {
      client.socket.destroy();
      await client.closed;
    }
  });
});

describe('settings', () => {
  it('default to 15 s for headers, 30 s for the request, 256 connections per address (none behind a trusted proxy), and are validated together', () => {
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({
      headersTimeoutMs: 15_000,
      requestTimeoutMs: 30_000,
      maxConnectionsPerAddress: 256,
    });
    expect(loadConfig({ NODE_ENV: 'test', TRUST_PROXY_HOPS: '1' }).maxConnectionsPerAddress).toBe(0);
    expect(
      loadConfig({ NODE_ENV: 'test', TRUST_PROXY_HOPS: '1', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '500' })
        .maxConnectionsPerAddress,
    ).toBe(500);
    expect(configProblems({ NODE_ENV: 'test', HTTP_HEADERS_TIMEOUT_MS: '40000' }).join('\n')).toMatch(
      /HTTP_HEADERS_TIMEOUT_MS \(40000\) must not be longer than HTTP_REQUEST_TIMEOUT_MS \(30000\)/,
    );
    expect(configProblems({ NODE_ENV: 'test', HTTP_REQUEST_TIMEOUT_MS: '500' }).join('\n')).toMatch(
      /HTTP_REQUEST_TIMEOUT_MS must be between 1000 and 600000/,
    );
  });
});
