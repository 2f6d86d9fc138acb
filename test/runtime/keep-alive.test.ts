import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';
import { startTestService, type TestService } from '../support/service.js';

/** HTTP_KEEP_ALIVE_TIMEOUT_MS: announced to clients and applied by the server to idle connections. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '2500' });
});
afterAll(async () => service?.stop());

describe('keep-alive timeout', () => {
  it('is announced in Keep-Alive, applied by the listener, and the server closes a connection idle for longer', async () => {
    // The configured time-out is the listener's: what node:http closes idle connections by.
    expect(service.httpServer.keepAliveTimeout).toBe(2500);
    // A raw socket: no client-side idle timeout can close it first.
    const url = new URL(service.url);
    const socket = net.connect(Number(url.port), url.hostname);
    let head = '';
    const answered = new Promise<void>((resolve) =>
      socket.on('data', (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (head.includes('\r\n\r\n')) resolve();
      }),
    );
    // Only a hung test's stop: the close is awaited, however long a loaded machine takes to get to it.
    const closedByServer = new Promise<number>((resolve, reject) => {
      const deadline = setTimeout(
        () => reject(new Error('the server kept the idle connection open')),
        HUNG_TEST_DEADLINE_MS,
      );
      socket.once('end', () => {
        clearTimeout(deadline);
        resolve(performance.now());
      });
    });
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    // Measured from before the request was sent: the server's idle timer starts later, so however slow the
    // machine, the connection cannot be closed sooner than the time-out after this (a lower bound only).
    const sent = performance.now();
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    await answered;
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toMatch(/\r\nKeep-Alive: timeout=2\r\n/i);
    const idleMs = (await closedByServer) - sent;
    socket.destroy();
    expect(idleMs).toBeGreaterThan(2000);
  });

  it('defaults to 65 s, above the usual 60 s idle timeout of load balancers', async () => {
    const { loadConfig } = await import('../../src/config/config.js');
    expect(loadConfig({ NODE_ENV: 'test' }).keepAliveTimeoutMs).toBe(65_000);
  });
});
