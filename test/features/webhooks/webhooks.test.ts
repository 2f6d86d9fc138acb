import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook } from '../../../src/features/webhooks/webhook-http.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { assertNoSensitiveValues } from '../../support/factories.js';
import { eventually } from '../../support/eventually.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { type Received, type Receiver, startReceiver } from './receiver.js';
import { ATTEMPT_TIMEOUT_MS, fastDeliverySettings } from './settings.js';
import { REFUSED_WEBHOOK_URLS, serviceWithSsrfGuard } from './ssrf-guard.js';

// Short retries: 4 attempts at most (at once, then after 100 ms, 200 ms and 1.5 s); an endpoint failing
// for 1.8 s without a success is disabled.
const RETRY_SCHEDULE = [100, 200, 1500];

let service: TestService;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  service = await startTestService(fastDeliverySettings(RETRY_SCHEDULE));
});
afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

interface Registered {
  endpointId: string;
  secret: string;
}

async function register(
  path: string,
  eventTypes: string[] = ['customer.created'],
  on: TestService = service,
): Promise<Registered> {
  const res = await on.call('POST', '/sandbox/webhook-endpoint', { body: { url: receiver.url(path), eventTypes } });
  expectSuccess(res, 'customer', 201);
  expect(res.json.data).toMatchObject({ url: receiver.url(path), eventTypes, enabled: true });
  expect(res.json.data.secret).toMatch(/^whsec_/);
  expect(res.headers.get('location')).toBe(`/sandbox/webhook-endpoint/${res.json.data.endpointId}`);
  return { endpointId: res.json.data.endpointId, secret: res.json.data.secret };
}

type Payload = {
  type: string;
  timestamp: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: { eventId: string; sequence: number; type: string; resourceId: string; data: any };
};

/** Verifies the delivery with the Standard Webhooks reference library; answers its payload. */
function verified(request: Received, secret: string): Payload {
  return new Webhook(secret).verify(request.body, request.headers) as Payload;
}

async function endpoint(endpointId: string, on: TestService = service) {
  const res = await on.call('GET', `/sandbox/webhook-endpoint/${endpointId}`);
  expectSuccess(res, 'customer', 200);
  return res.json.data;
}

async function deliveries(
  endpointId: string,
  on: TestService = service,
): Promise<{ status: string; attempts: number; sequence: string }[]> {
  const { rows } = await on.database.pool.query(
    'SELECT status, attempts, sequence::text FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY sequence',
    [endpointId],
  );
  return rows;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function attemptsOf(endpointId: string, on: TestService = service): Promise<any[]> {
  const res = await on.call('GET', `/sandbox/webhook-endpoint/${endpointId}/attempts?limit=20`);
  expectSuccess(res, 'customer', 200);
  return res.json.data.attempts;
}

/** Whether the endpoint's pending retry has fallen due (its next_attempt_at passed, by the database's clock). */
async function retryDue(endpointId: string): Promise<boolean> {
  const { rows } = await service.database.pool.query<{ due: boolean }>(
    'SELECT bool_and(next_attempt_at <= now()) AS due FROM webhook_deliveries WHERE endpoint_id = $1 AND next_attempt_at IS NOT NULL',
    [endpointId],
  );
  return rows[0]?.due === true;
}

describe('webhook delivery (Standard Webhooks)', () => {
  it('delivers customer.created after a create, signed, with the customer as its endpoint answers it', async () => {
    const { endpointId, secret } = await register('/created');
    const { customerId } = await createCustomer(service);
    const [request] = await receiver.waitFor('/created', 1);
    const payload = verified(request!, secret);
    expect(payload.type).toBe('customer.created');
    expect(request!.headers['webhook-id']).toBe(payload.data.eventId);
    expect(Number(request!.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(payload.data.resourceId).toBe(customerId);
    const customer = await service.call('GET', `/sandbox/customer/${customerId}`);
    expect(payload.data.data).toEqual(customer.json.data);
    const event = await service.call('GET', `/sandbox/event/${payload.data.eventId}`);
    expect(payload.data).toEqual(event.json.data);
    expect(payload.timestamp).toBe(event.json.data.occurredAt);
    assertNoSensitiveValues(request!.body, 'a webhook body');

    const attempts = await eventually(
      async () => (await service.call('GET', `/sandbox/webhook-endpoint/${endpointId}/attempts`)).json.data.attempts,
      (list: unknown[]) => list.length === 1,
    );
    expect(attempts).toEqual([
      expect.objectContaining({ eventId: payload.data.eventId, statusCode: 200, succeeded: true, error: null }),
    ]);
    expect(await deliveries(endpointId)).toEqual([
      { status: 'delivered', attempts: 1, sequence: String(payload.data.sequence) },
    ]);
  });

  it('never answers or stores the secret in clear after its creation', async () => {
    const { endpointId, secret } = await register('/secret-check');
    const got = await service.call('GET', `/sandbox/webhook-endpoint/${endpointId}`);
    expect(got.text).not.toContain('whsec_');
    expect(Object.keys(got.json.data).sort()).toEqual([
      'createdAt',
      'disabledReason',
      'enabled',
      'endpointId',
      'eventTypes',
      'failingSince',
      'previousSecretExpiresAt',
      'updatedAt',
      'url',
    ]);
    const { rows } = await service.database.pool.query(
      'SELECT row_to_json(w)::text AS row FROM webhook_endpoints w WHERE id = $1',
      [endpointId],
    );
    const key = secret.slice('whsec_'.length);
    expect(rows[0].row).not.toContain(key);
    expect(rows[0].row).not.toContain(Buffer.from(key, 'base64').toString('hex'));
    expect(service.logLines.join('\n')).not.toContain(key);
  });

  it('retries a receiver that answers 500 on the schedule, then gives up (exhausted) and disables the endpoint after a whole window of failures', async () => {
    receiver.on('/fails', () => ({ status: 500, body: `Internal error ${'x'.repeat(10_000)}` }));
    const { endpointId, secret } = await register('/fails');
    await createCustomer(service);
    const requests = await receiver.waitFor('/fails', 4);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    for (const request of requests) verified(request, secret);
    const gaps = requests.slice(1).map((request, i) => request.at - requests[i]!.at);
    RETRY_SCHEDULE.forEach((delay, i) => expect(gaps[i]).toBeGreaterThanOrEqual(delay - 5));
    const [delivery] = await eventually(
      () => deliveries(endpointId),
      ([first]) => first?.status === 'exhausted',
    );
    expect(delivery).toMatchObject({ status: 'exhausted', attempts: 4 });
    // Exhausted is final (no next attempt is due): the four requests are all there will be.
    expect(receiver.received.filter((request) => request.path === '/fails')).toHaveLength(4);

    const attempts = (await service.call('GET', `/sandbox/webhook-endpoint/${endpointId}/attempts?limit=10`)).json.data
      .attempts;
    expect(attempts).toHaveLength(4);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ statusCode: 500, succeeded: false });
      expect(attempt.error).toMatch(/^HTTP 500: Internal error x+/);
      expect(attempt.error.length).toBeLessThanOrEqual(200);
    }
    const disabled = await endpoint(endpointId);
    expect(disabled).toMatchObject({
      enabled: false,
      disabledReason: 'Every attempt failed for a whole retry window.',
    });
    expect(disabled.failingSince).not.toBeNull();
  });

  it('honours Retry-After on 429 instead of the schedule', async () => {
    receiver.on('/busy', (nth) => (nth === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    const { endpointId } = await register('/busy');
    await createCustomer(service);
    const requests = await receiver.waitFor('/busy', 2);
    // The schedule says 100 ms; the receiver asked for 1 s.
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(
      (
        await eventually(
          () => deliveries(endpointId),
          ([first]) => first?.status === 'delivered',
        )
      )[0]!.status,
    ).toBe('delivered');
  });

  it('disables the endpoint on 410 Gone; nothing more is sent until it is enabled again', async () => {
    receiver.on('/gone', (nth) => (nth === 1 ? { status: 410 } : { status: 200 }));
    const { endpointId } = await register('/gone');
    await createCustomer(service);
    await receiver.waitFor('/gone', 1);
    // The attempt and the endpoint's disabling are recorded by one statement (the store's complete): once the
    // attempt is there, the endpoint is disabled, with no wait on the clock. (Waiting for `enabled === false`
    // with a 10 s deadline failed on a busy machine: the 410 took more than the attempt's 1 s time-out to come
    // back, the attempt counted as a time-out, the retry got 200, and the endpoint was never disabled.)
    const [first] = await eventually(
      () => attemptsOf(endpointId),
      (list) => list.length >= 1,
    );
    expect(first).toMatchObject({ statusCode: 410, succeeded: false });
    expect(await endpoint(endpointId)).toMatchObject({
      enabled: false,
      disabledReason: 'The endpoint answered 410 Gone.',
    });

    // Nothing while disabled: once the pending retry is due, a customer created now reaches another endpoint,
    // so a claim ran after the retry fell due and a fan-out after the event, and neither reached this one.
    await eventually(
      () => retryDue(endpointId),
      (due) => due,
    );
    await register('/gone-witness');
    const { customerId } = await createCustomer(service);
    const [witnessed] = await receiver.waitFor('/gone-witness', 1);
    expect((JSON.parse(witnessed!.body) as Payload).data.resourceId).toBe(customerId);
    expect(receiver.received.filter((request) => request.path === '/gone')).toHaveLength(1);
    expect(await deliveries(endpointId)).toEqual([expect.objectContaining({ attempts: 1 })]);

    const enabled = await service.call('POST', `/sandbox/webhook-endpoint/${endpointId}/enable`);
    expectSuccess(enabled, 'customer', 200);
    expect(enabled.json.data).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    // The retry that was waiting goes now; the customer created while disabled has no delivery: it is never sent.
    const requests = await receiver.waitFor('/gone', 2);
    expect(requests[1]!.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id']);
    const [delivery, ...others] = await eventually(
      () => deliveries(endpointId),
      ([only]) => only?.status === 'delivered',
    );
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(others).toEqual([]);
    expect(receiver.received.filter((request) => request.path === '/gone')).toHaveLength(2);
  });

  it('makes first attempts one at a time per endpoint, in sequence order, even when some fail and are retried', async () => {
    // First attempts only: a retry may overlap a later event's first attempt (docs/adr/0036-webhooks-standard-at-least-once.md).
    let firstsInFlight = 0;
    let overlapped = false;
    receiver.on('/ordered', (nth, request) => {
      if (nth === 1) {
        firstsInFlight += 1;
        if (firstsInFlight > 1) overlapped = true;
        setTimeout(() => (firstsInFlight -= 1), 15);
      }
      const sequence = (JSON.parse(request.body) as Payload).data.sequence;
      // Every other event fails its first attempt: its retry must not hold the others back.
      return { status: nth === 1 && sequence % 2 === 1 ? 503 : 200, delayMs: 15 };
    });
    const { endpointId, secret } = await register('/ordered');
    await Promise.all(Array.from({ length: 12 }, () => createCustomer(service)));
    const firstAttempts = new Map<string, number>();
    const requests = await eventually(
      async () => receiver.received.filter((request) => request.path === '/ordered'),
      (list) => {
        for (const request of list)
          if (!firstAttempts.has(request.headers['webhook-id']!))
            firstAttempts.set(request.headers['webhook-id']!, verified(request, secret).data.sequence);
        return firstAttempts.size === 12;
      },
    );
    expect(firstAttempts.size).toBe(12);
    const order = [...firstAttempts.values()];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(overlapped).toBe(false);
    const all = await eventually(
      () => deliveries(endpointId),
      (list) => list.length === 12 && list.every((delivery) => delivery.status === 'delivered'),
    );
    expect(all.every((delivery) => delivery.status === 'delivered')).toBe(true);
    expect(requests.length).toBeGreaterThanOrEqual(12);
  });

  it('redelivers an event on request, with the same webhook-id', async () => {
    const { endpointId, secret } = await register('/again');
    await createCustomer(service);
    const [first] = await receiver.waitFor('/again', 1);
    const eventId = verified(first!, secret).data.eventId;
    await eventually(
      () => deliveries(endpointId),
      ([delivery]) => delivery?.status === 'delivered',
    );
    const res = await service.call('POST', `/sandbox/webhook-endpoint/${endpointId}/delivery/${eventId}/redeliver`);
    expectSuccess(res, 'customer', 200);
    expect(res.json.data).toEqual({ endpointId, eventId });
    const requests = await receiver.waitFor('/again', 2);
    expect(requests[1]!.headers['webhook-id']).toBe(eventId);
    expect(verified(requests[1]!, secret).data.eventId).toBe(eventId);

    expectFailure(
      await service.call(
        'POST',
        `/sandbox/webhook-endpoint/${endpointId}/delivery/0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e/redeliver`,
      ),
      'customer',
      404,
      'EVENT_NOT_FOUND',
    );
    expectFailure(
      await service.call(
        'POST',
        `/sandbox/webhook-endpoint/0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e/delivery/${eventId}/redeliver`,
      ),
      'customer',
      404,
      'WEBHOOK_ENDPOINT_NOT_FOUND',
    );
    expectSuccess(await service.call('POST', `/sandbox/webhook-endpoint/${endpointId}/disable`), 'customer', 200);
    expectFailure(
      await service.call('POST', `/sandbox/webhook-endpoint/${endpointId}/delivery/${eventId}/redeliver`),
      'customer',
      409,
      'WEBHOOK_ENDPOINT_DISABLED',
    );
  });

  it('signs with both secrets during a rotation overlap: the old secret and the new one both verify', async () => {
    const { endpointId, secret: oldSecret } = await register('/rotate');
    const rotated = await service.call('POST', `/sandbox/webhook-endpoint/${endpointId}/rotate-secret`);
    expectSuccess(rotated, 'customer', 200);
    const newSecret: string = rotated.json.data.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    expect(Date.parse(rotated.json.data.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(3500_000);
    await createCustomer(service);
    const [request] = await receiver.waitFor('/rotate', 1);
    expect(request!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verified(request!, oldSecret).type).toBe('customer.created');
    expect(verified(request!, newSecret).type).toBe('customer.created');
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request!.body, request!.headers),
    ).toThrow();
  });

  it('manages endpoints: update, filter by type, delete; validates input; needs the webhooks scopes', async () => {
    const { endpointId } = await register('/managed');
    const updated = await service.call('PUT', `/sandbox/webhook-endpoint/${endpointId}`, { body: { eventTypes: [] } });
    expectSuccess(updated, 'customer', 200);
    expect(updated.json.data.eventTypes).toEqual([]);
    expectFailure(
      await service.call('PUT', `/sandbox/webhook-endpoint/${endpointId}`, { body: {} }),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await service.call('POST', '/sandbox/webhook-endpoint', { body: { url: 'ftp://example.com/' } }),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await service.call('POST', '/sandbox/webhook-endpoint', { body: { url: 'https://user:pw@example.com/' } }),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await service.call('POST', '/sandbox/webhook-endpoint', {
        body: { url: 'https://example.com/', eventTypes: ['customer.exploded'] },
      }),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
    // Other environments do not see it.
    expectFailure(
      await service.call('GET', `/production-like/webhook-endpoint/${endpointId}`),
      'customer',
      404,
      'WEBHOOK_ENDPOINT_NOT_FOUND',
    );
    expectSuccess(await service.call('DELETE', `/sandbox/webhook-endpoint/${endpointId}`), 'customer', 200);
    expectFailure(
      await service.call('GET', `/sandbox/webhook-endpoint/${endpointId}`),
      'customer',
      404,
      'WEBHOOK_ENDPOINT_NOT_FOUND',
    );
    expectFailure(
      await service.call('GET', '/sandbox/webhook-endpoint/not-a-uuid'),
      'customer',
      404,
      'WEBHOOK_ENDPOINT_NOT_FOUND',
    );

    const { token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['webhooks:read', 'events:read'],
    });
    const headers = { authorization: `Bearer ${token}` };
    expectFailure(
      await service.call('POST', '/sandbox/webhook-endpoint', { body: { url: receiver.url('/x') }, headers }),
      'customer',
      403,
      'FORBIDDEN',
    );
    const { endpointId: other } = await register('/readable');
    expectSuccess(await service.call('GET', `/sandbox/webhook-endpoint/${other}`, { headers }), 'customer', 200);
  });
});

describe('an attempt the receiver does not answer (WEBHOOKS_TIMEOUT_MS)', () => {
  // Its own service: a short time-out, and retries enough that a busy machine's slow answers cannot exhaust them.
  const TIMEOUT_MS = 2000;
  let slow: TestService;
  beforeAll(async () => {
    slow = await startTestService({
      ...fastDeliverySettings([100, 100, 100, 100, 100, 100]),
      WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS),
    });
  });
  afterAll(async () => {
    await slow?.stop();
  });

  it('counts a receiver that does not answer within the time-out as a failure, and retries it', async () => {
    receiver.on('/slow', (nth) => (nth === 1 ? { hang: true } : { status: 204 }));
    const { endpointId } = await register('/slow', ['customer.created'], slow);
    await createCustomer(slow);
    const [delivery] = await eventually(
      () => deliveries(endpointId, slow),
      ([first]) => first?.status === 'delivered',
    );
    const attempts = await attemptsOf(endpointId, slow); // newest first
    expect(delivery).toMatchObject({ status: 'delivered', attempts: attempts.length });
    expect(attempts.at(-1)).toMatchObject({
      statusCode: null,
      succeeded: false,
      error: `timed out after ${TIMEOUT_MS} ms`,
    });
    expect(attempts.at(-1).latencyMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(attempts[0]).toMatchObject({ statusCode: 204, succeeded: true });
    // The receiver answers every retry at once; only on a busy machine may one of them time out too, never fail otherwise.
    for (const attempt of attempts.slice(1, -1))
      expect(attempt).toMatchObject({ statusCode: null, succeeded: false, error: `timed out after ${TIMEOUT_MS} ms` });
    expect((await endpoint(endpointId, slow)).failingSince).toBeNull();
  });
});

describe('the SSRF guard (WEBHOOKS_ALLOW_PRIVATE_NETWORKS off)', () => {
  const strict = serviceWithSsrfGuard();

  it.each(REFUSED_WEBHOOK_URLS)('refuses to register %s', async (_name, url) => {
    const res = await strict().call('POST', '/sandbox/webhook-endpoint', { body: { url } });
    expectFailure(res, 'customer', 400, 'WEBHOOK_URL_NOT_ALLOWED');
    expect(res.text).not.toContain(url);
  });

  it('refuses at delivery time too: the connection only goes to an address the guard checked', async () => {
    // A generous time-out: the refusals come before any connection, and the last request must not time out on a busy machine.
    const options = { timeoutMs: ATTEMPT_TIMEOUT_MS, allowPrivateNetworks: false };
    // Only this path: earlier tests' endpoints may still be retried into the same receiver meanwhile.
    const reachedSsrf = () => receiver.received.filter((request) => request.path === '/ssrf').length;
    const before = reachedSsrf();
    const byName = await sendWebhook(receiver.url('/ssrf').replace('127.0.0.1', 'localhost'), {}, '{}', options);
    expect(byName).toMatchObject({ succeeded: false, statusCode: null });
    expect(byName.error).toMatch(/^refused: the host resolves to a loopback address/);
    const byAddress = await sendWebhook(receiver.url('/ssrf'), {}, '{}', options);
    expect(byAddress.error).toBe('refused: the address is loopback');
    const mapped = await sendWebhook(receiver.url('/ssrf').replace('127.0.0.1', '[::ffff:7f00:1]'), {}, '{}', options);
    expect(mapped.error).toBe('refused: the address is loopback');
    expect(reachedSsrf()).toBe(before);
    // The same request with the flag on reaches the receiver: the refusals above were the guard's.
    expect(
      (await sendWebhook(receiver.url('/ssrf'), {}, '{}', { ...options, allowPrivateNetworks: true })).statusCode,
    ).toBe(200);
  });
});
