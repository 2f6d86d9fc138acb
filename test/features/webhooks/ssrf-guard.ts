import { afterAll, beforeAll } from 'vitest';
import { startTestService, type TestService } from '../../support/service.js';

/** Webhook URLs the SSRF guard refuses at registration (src/features/webhooks/addresses.ts), each named for the test's title. */
export const REFUSED_WEBHOOK_URLS: readonly (readonly [name: string, url: string])[] = [
  ['loopback', 'http://127.0.0.1/hook'],
  ['private 10/8', 'http://10.1.2.3/hook'],
  ['private 192.168/16', 'https://192.168.0.10/hook'],
  ['cloud metadata (link-local)', 'http://169.254.169.254/latest/meta-data/'],
  ['Azure wire server', 'http://168.63.129.16/machine?comp=goalstate'],
  ['IPv6 loopback', 'http://[::1]:8443/hook'],
  ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/hook'],
  ['IPv4-mapped IPv6 private, in hex', 'https://[::ffff:a01:203]/hook'],
  ['IPv4-mapped IPv6 cloud metadata', 'http://[::ffff:169.254.169.254]/latest/meta-data/'],
  ['IPv4-translated IPv6 private', 'http://[::ffff:0:10.1.2.3]/hook'],
  ['NAT64 of a private address', 'http://[64:ff9b::10.1.2.3]/hook'],
  ['NAT64 of the Azure wire server', 'http://[64:ff9b::a83f:8110]/hook'],
  ['local-use NAT64', 'https://[64:ff9b:1::8.8.8.8]/hook'],
  ['IPv6 unique local', 'http://[fd00::1]/hook'],
  ['unspecified', 'http://0.0.0.0/hook'],
  ['a name resolving to loopback', 'http://localhost/hook'],
  ['a public address on port 8080', 'https://93.184.215.14:8080/hook'],
  ['a public address on port 22', 'http://93.184.215.14:22/hook'],
];

/**
 * A service of its own with the SSRF guard on (WEBHOOKS_ALLOW_PRIVATE_NETWORKS off, as in production), for the
 * tests of the describe block that calls this: the suites' main service allows private networks so that it can
 * deliver to their local receiver.
 */
export function serviceWithSsrfGuard(): () => TestService {
  let strict: TestService | undefined;
  beforeAll(async () => {
    strict = await startTestService({ WEBHOOKS_POLL_INTERVAL_MS: '50' });
  });
  afterAll(async () => strict?.stop());
  return () => strict!;
}
