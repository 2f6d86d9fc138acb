import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { eventually } from '../../support/eventually.js';
import { metricSample as sample } from '../../support/metrics.js';
import { startTestService, type TestService } from '../../support/service.js';
import { type Receiver, startReceiver } from './receiver.js';
import { fastDeliverySettings } from './settings.js';

/**
 * Issue 28: every change of who receives what is in the audit trail (REST and GraphQL here; the CLI in
 * cli.test.ts, PII rotation in test/pii/pii-rotation.test.ts), written with the change, never with
 * a secret or a URL; and an environment holds at most WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT endpoints,
 * however many creations race.
 */
const MAX_ENDPOINTS = 4;
const METRICS_TOKEN = 'metrics-scraper-token-for-quotas-01234';
let service: TestService;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  service = await startTestService({
    ...fastDeliverySettings([100]),
    ENVIRONMENTS: 'sandbox,production',
    WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT: String(MAX_ENDPOINTS),
    METRICS_TOKEN,
  });
});
afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

interface Audited {
  operation: string;
  resourceType: string;
  resourceId: string;
  principalId: string;
  requestId: string;
  changedFields: string[];
}

async function auditOf(resourceId: string, environment = 'sandbox'): Promise<{ events: Audited[]; text: string }> {
  const res = await service.call('GET', `/${environment}/audit-events?resourceId=${resourceId}&first=100`);
  expectSuccess(res, 'customer', 200);
  return { events: res.json.data.events, text: res.text };
}

describe('audit of webhook endpoint changes', () => {
  it('REST: create, update, disable, enable, rotate-secret, redeliver and delete each write one event with the change, naming fields only', async () => {
    const url = receiver.url('/audited?token=query-credential-1234');
    const created = await service.call('POST', '/sandbox/webhook-endpoint', {
      body: { url, eventTypes: ['customer.created'] },
    });
    expectSuccess(created, 'customer', 201);
    const { endpointId, secret } = created.json.data;
    const { customerId } = await createCustomer(service);
    const [delivered] = await receiver.waitFor('/audited?token=query-credential-1234', 1);
    const eventId = JSON.parse(delivered!.body).data.eventId;

    const steps: [string, string, unknown?][] = [
      ['PUT', `/sandbox/webhook-endpoint/${endpointId}`, { eventTypes: [] }],
      ['POST', `/sandbox/webhook-endpoint/${endpointId}/disable`],
      ['POST', `/sandbox/webhook-endpoint/${endpointId}/enable`],
      ['POST', `/sandbox/webhook-endpoint/${endpointId}/rotate-secret`],
      ['POST', `/sandbox/webhook-endpoint/${endpointId}/delivery/${eventId}/redeliver`],
      ['DELETE', `/sandbox/webhook-endpoint/${endpointId}`],
    ];
    const requestIds = [created.json.requestId];
    for (const [method, path, body] of steps) {
      const res = await service.call(method, path, body === undefined ? {} : { body });
      expect(res.status, res.text).toBeLessThan(300);
      requestIds.push(res.json.requestId);
    }
    // Refusals write nothing: an unknown endpoint, a disabled one's redelivery.
    expect((await service.call('POST', `/sandbox/webhook-endpoint/${endpointId}/disable`)).status).toBe(404);

    const { events, text } = await auditOf(endpointId);
    expect(events.map((event) => [event.operation, event.changedFields])).toEqual([
      ['webhook_endpoint.create', ['url', 'eventTypes']],
      ['webhook_endpoint.update', ['eventTypes']],
      ['webhook_endpoint.disable', ['enabled']],
      ['webhook_endpoint.enable', ['enabled']],
      ['webhook_endpoint.rotate_secret', ['secret']],
      ['webhook_endpoint.redeliver', []],
      ['webhook_endpoint.delete', []],
    ]);
    expect(events.map((event) => event.requestId)).toEqual(requestIds);
    for (const event of events)
      expect(event).toMatchObject({
        resourceType: 'webhook_endpoint',
        resourceId: endpointId,
        principalId: expect.stringMatching(/^static:/),
      });
    // Never a secret, never the URL (its path or query may be a credential).
    expect(text).not.toContain('whsec_');
    expect(text).not.toContain(secret.slice('whsec_'.length, 20));
    expect(text).not.toContain('query-credential');
    expect(text).not.toContain('/audited');
    // The customer's own trail is untouched by the endpoint's.
    expect((await auditOf(customerId)).events.map((event) => event.operation)).toEqual(['customer.create']);
    // The operation filter knows the new operations.
    const filtered = await service.call('GET', '/sandbox/audit-events?operation=webhook_endpoint.rotate_secret');
    expectSuccess(filtered, 'customer', 200);
    expect(filtered.json.data.events.map((event: Audited) => event.resourceId)).toContain(endpointId);
  });

  it('GraphQL: the mutations are audited the same way, and auditEvents answers them', async () => {
    const created = await graphql(
      service,
      'mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { endpointId } } }',
      {
        input: { url: receiver.url('/audited-graphql') },
      },
    );
    expect(created.json.errors).toBeUndefined();
    const { endpointId } = created.json.data.createWebhookEndpoint.endpoint;
    for (const mutation of [
      `mutation { disableWebhookEndpoint(endpointId: "${endpointId}") { enabled } }`,
      `mutation { rotateWebhookSecret(endpointId: "${endpointId}") { secret } }`,
      `mutation { deleteWebhookEndpoint(endpointId: "${endpointId}") }`,
    ]) {
      const result = await graphql(service, mutation);
      expect(result.json.errors, result.text).toBeUndefined();
    }
    const trail = await graphql(
      service,
      `{ auditEvents(resourceId: "${endpointId}") { nodes { operation resourceType resourceId changedFields } } }`,
    );
    expect(trail.json.errors).toBeUndefined();
    expect(trail.json.data.auditEvents.nodes).toEqual([
      {
        operation: 'webhook_endpoint.create',
        resourceType: 'webhook_endpoint',
        resourceId: endpointId,
        changedFields: ['url'],
      },
      {
        operation: 'webhook_endpoint.disable',
        resourceType: 'webhook_endpoint',
        resourceId: endpointId,
        changedFields: ['enabled'],
      },
      {
        operation: 'webhook_endpoint.rotate_secret',
        resourceType: 'webhook_endpoint',
        resourceId: endpointId,
        changedFields: ['secret'],
      },
      {
        operation: 'webhook_endpoint.delete',
        resourceType: 'webhook_endpoint',
        resourceId: endpointId,
        changedFields: [],
      },
    ]);
    expect(trail.text).not.toContain('whsec_');
  });
});

describe('webhook endpoints per environment (WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT)', () => {
  const scrape = async () =>
    (await service.call('GET', '/metrics', { auth: false, headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
      .text;

  it('of 12 concurrent creations exactly the room left succeeds; the others are WEBHOOK_ENDPOINT_LIMIT (409), audited nowhere, counted', async () => {
    const count = async () =>
      (
        await service.database.pool.query(
          "SELECT count(*)::int AS n FROM webhook_endpoints WHERE environment = 'production'",
        )
      ).rows[0].n as number;
    expect(await count()).toBe(0);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        service.call('POST', '/production/webhook-endpoint', { body: { url: receiver.url(`/limit-${i}`) } }),
      ),
    );
    const created = results.filter((res) => res.status === 201);
    const refused = results.filter((res) => res.status !== 201);
    expect(created).toHaveLength(MAX_ENDPOINTS);
    for (const res of refused) expectFailure(res, 'customer', 409, 'WEBHOOK_ENDPOINT_LIMIT');
    expect(refused[0]!.json.error.message).toContain(String(MAX_ENDPOINTS));
    expect(await count()).toBe(MAX_ENDPOINTS);
    const trail = (await service.call('GET', '/production/audit-events?operation=webhook_endpoint.create&first=100'))
      .json.data.events;
    expect(trail).toHaveLength(MAX_ENDPOINTS);

    // GraphQL meets the same limit, with the same code.
    const viaGraphql = await graphql(
      service,
      'mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }',
      { input: { url: receiver.url('/limit-gql') } },
      { environment: 'production' },
    );
    expect(errorCodes(viaGraphql)).toEqual(['WEBHOOK_ENDPOINT_LIMIT']);

    // Another environment has its own room; a deletion makes room again.
    expectSuccess(
      await service.call('POST', '/sandbox/webhook-endpoint', { body: { url: receiver.url('/limit-sandbox') } }),
      'customer',
      201,
    );
    expectSuccess(
      await service.call('DELETE', `/production/webhook-endpoint/${created[0]!.json.data.endpointId}`),
      'customer',
      200,
    );
    expectSuccess(
      await service.call('POST', '/production/webhook-endpoint', { body: { url: receiver.url('/limit-again') } }),
      'customer',
      201,
    );
    expectFailure(
      await service.call('POST', '/production/webhook-endpoint', { body: { url: receiver.url('/limit-full') } }),
      'customer',
      409,
      'WEBHOOK_ENDPOINT_LIMIT',
    );

    const metrics = await eventually(
      scrape,
      (text) =>
        sample(text, 'quota_refusals_total', { quota: 'webhook_endpoints_per_environment' }) === refused.length + 2,
    );
    expect(sample(metrics, 'quota_limit', { quota: 'webhook_endpoints_per_environment' })).toBe(MAX_ENDPOINTS);
  });
});
