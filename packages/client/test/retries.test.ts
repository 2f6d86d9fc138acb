import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CasApiError, createClient, unwrap } from '@customer-account-service/client';

/**
 * Retry and read-your-writes rules against a tiny local HTTP server that answers what each test scripts: the
 * honest way to produce 429, 503, dropped connections and consistency tokens on demand.
 */
type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'drop';
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  at: number;
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function scripted(answers: Answer[]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, at: Date.now() });
      const answer = answers.shift() ?? { status: 500 };
      if (answer === 'drop') return req.socket.destroy();
      res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

const envelope = (data: object) => ({ data, success: true, error: null, requestId: 'r', log_ref_id: 'r' });
const failure = (code: string) => ({
  data: null,
  success: false,
  error: { code, message: code },
  requestId: 'r',
  log_ref_id: 'r',
});
const customer = { customerId: '0193a5c5-5a97-7260-9c1e-8daecf406b87' };
const client = (url: string, retry = {}) =>
  createClient({ baseUrl: url, token: 'secret-token', environment: 'sandbox', retry: { baseDelayMs: 1, ...retry } });

describe('retries', () => {
  it('retries a 429 after its Retry-After, then answers the success', async () => {
    const { url, seen } = await scripted([
      { status: 429, headers: { 'Retry-After': '1' }, body: failure('RATE_LIMITED') },
      { status: 201, body: envelope(customer) },
    ]);
    const created = await unwrap(client(url).POST('/customer', { body: {} as never }));
    expect(created).toEqual(customer);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at, 'waited the Retry-After second').toBeGreaterThanOrEqual(950);
    expect(seen[1]!.headers['idempotency-key']).toBe(seen[0]!.headers['idempotency-key']);
    expect(seen[0]!.headers.authorization).toBe('Bearer secret-token');
    expect(seen[0]!.path).toBe('/sandbox/customer');
  });

  it('retries a 503 of a read and of a keyed write, but not of a write without a key', async () => {
    const unavailable: Answer = { status: 503, headers: { 'Retry-After': '0' }, body: failure('SERVICE_UNAVAILABLE') };
    const reads = await scripted([
      unavailable,
      unavailable,
      { status: 200, body: envelope({ ...customer, firstName: 'A' }) },
    ]);
    expect(await unwrap(client(reads.url).GET('/customer/{customerId}', { params: { path: customer } }))).toMatchObject(
      { firstName: 'A' },
    );
    expect(reads.seen).toHaveLength(3);
    await new Promise((resolve) => server!.close(resolve));

    const update = await scripted([unavailable, { status: 200, body: envelope(customer) }]);
    const refused = await unwrap(
      client(update.url).PUT('/customer/{customerId}', { params: { path: customer }, body: {} }),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CasApiError);
    expect(refused).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfterS: 0 });
    expect(update.seen).toHaveLength(1);
  });

  it('stops after the attempts allowed, and at once when Retry-After is longer than it accepts', async () => {
    const limited: Answer = { status: 429, headers: { 'Retry-After': '0' }, body: failure('RATE_LIMITED') };
    const bounded = await scripted([limited, limited, limited, limited]);
    await expect(unwrap(client(bounded.url, { attempts: 3 }).GET('/customer'))).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    expect(bounded.seen).toHaveLength(3);
    await new Promise((resolve) => server!.close(resolve));

    const long = await scripted([{ status: 429, headers: { 'Retry-After': '3600' }, body: failure('RATE_LIMITED') }]);
    await expect(unwrap(client(long.url).GET('/customer'))).rejects.toMatchObject({ status: 429, retryAfterS: 3600 });
    expect(long.seen).toHaveLength(1);
  });

  it('retries a dropped connection only where an Idempotency-Key makes it safe', async () => {
    const keyed = await scripted(['drop', { status: 201, body: envelope(customer) }]);
    expect(await unwrap(client(keyed.url).POST('/customer', { body: {} as never }))).toEqual(customer);
    expect(keyed.seen.map((request) => request.headers['idempotency-key'])).toEqual([
      expect.any(String),
      keyed.seen[0]!.headers['idempotency-key'],
    ]);
    await new Promise((resolve) => server!.close(resolve));

    // Adding a holder takes no key: after a dropped connection nobody knows whether it ran, so the error surfaces.
    const unkeyed = await scripted(['drop', { status: 200, body: envelope({}) }]);
    await expect(
      client(unkeyed.url).POST('/account/{accountId}/customer', {
        params: { path: { accountId: customer.customerId } },
        body: customer,
      }),
    ).rejects.toThrow();
    expect(unkeyed.seen).toHaveLength(1);
  });
});

describe('read-your-writes', () => {
  it('carries the consistency token a write answered to the following reads, REST and GraphQL', async () => {
    const { url, seen } = await scripted([
      { status: 201, headers: { 'Consistency-Token': 'v1.0000000000000a' }, body: envelope(customer) },
      { status: 200, body: envelope({ ...customer }) },
      { status: 200, body: { data: { customer: null } } },
      { status: 200, headers: { 'Consistency-Token': 'v1.0000000000000b' }, body: envelope(customer) },
      { status: 200, body: envelope({ ...customer }) },
    ]);
    const cas = client(url);
    await unwrap(cas.POST('/customer', { body: {} as never }));
    expect(seen[0]!.headers['consistency-token']).toBeUndefined();
    await unwrap(cas.GET('/customer/{customerId}', { params: { path: customer } }));
    expect(seen[1]!.headers['consistency-token']).toBe('v1.0000000000000a');
    await cas.graphql(
      { toString: () => 'query Q($id: ID!) { customer(customerId: $id) { customerId } }' },
      { id: customer.customerId },
    );
    expect(seen[2]).toMatchObject({ method: 'POST', path: '/sandbox/graphql' });
    expect(seen[2]!.headers['consistency-token']).toBe('v1.0000000000000a');
    await unwrap(cas.PUT('/customer/{customerId}', { params: { path: customer }, body: {} }));
    expect(seen[3]!.headers['consistency-token'], 'a write presents none').toBeUndefined();
    await unwrap(cas.GET('/customer/{customerId}', { params: { path: customer } }));
    expect(seen[4]!.headers['consistency-token'], "the newer write's token").toBe('v1.0000000000000b');
    expect(cas.consistencyToken).toBe('v1.0000000000000b');
    // Another environment's client starts without one.
    expect(cas.withEnvironment('production-like').consistencyToken).toBeUndefined();
  });
});
