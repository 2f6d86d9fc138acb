import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

/** HTTP_KEEP_ALIVE_TIMEOUT_MS: announced to clients and applied to idle connections. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '2500' });
});
afterAll(async () => service?.stop());

function get(agent: http.Agent): Promise<{ keepAlive: string | undefined; socket: import('node:net').Socket }> {
  const url = new URL('/healthz', service.url);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: url.pathname, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ keepAlive: String(res.headers['keep-alive']), socket: req.socket! }));
    });
    req.on('error', reject);
  });
}

describe('keep-alive timeout', () => {
  it('is announced in Keep-Alive and closes a connection idle for longer', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(agent);
      expect(first.keepAlive).toBe('timeout=2');
      const closed = new Promise<number>((resolve) => {
        const idleSince = performance.now();
        first.socket.once('close', () => resolve(performance.now() - idleSince));
      });
      expect(await closed).toBeGreaterThan(2000);
    } finally {
      agent.destroy();
    }
  });

  it('defaults to 65 s, above the usual 60 s idle timeout of load balancers', async () => {
    const { loadConfig } = await import('../../src/config/config.js');
    expect(loadConfig({ NODE_ENV: 'test' }).keepAliveTimeoutMs).toBe(65_000);
  });
});
