import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

/** HTTP_KEEP_ALIVE_TIMEOUT_MS: announced to clients and applied by the server to idle connections. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '2500' });
});
afterAll(async () => service?.stop());

describe('keep-alive timeout', () => {
  it('is announced in Keep-Alive, and the server closes a connection idle for longer', async () => {
    // A raw socket: no client-side idle timeout can close it first.
    const url = new URL(service.url);
    const socket = net.connect(Number(url.port), url.hostname);
    let head = '';
    const answered = new Promise<number>((resolve) =>
      socket.on('data', (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (head.includes('\r\n\r\n')) resolve(performance.now());
      }),
    );
    const closedByServer = new Promise<number>((resolve) => socket.once('end', () => resolve(performance.now())));
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    const idleSince = await answered;
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toMatch(/\r\nKeep-Alive: timeout=2\r\n/i);
    const idleMs = (await closedByServer) - idleSince;
    socket.destroy();
    expect(idleMs).toBeGreaterThan(2000);
    expect(idleMs).toBeLessThan(10_000);
  });

  it('defaults to 65 s, above the usual 60 s idle timeout of load balancers', async () => {
    const { loadConfig } = await import('../../src/config/config.js');
    expect(loadConfig({ NODE_ENV: 'test' }).keepAliveTimeoutMs).toBe(65_000);
  });
});
