import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { createCustomer } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { startTestService, type TestService } from '../../support/service.js';
import { type Received, type Receiver, startReceiver } from './receiver.js';
import { fastDeliverySettings } from './settings.js';
import { REFUSED_WEBHOOK_URLS, serviceWithSsrfGuard } from './ssrf-guard.js';
import { HUNG_TEST_DEADLINE_MS } from '../../support/eventually.js';

/**
 * GraphQL management of webhook endpoints, the twin of the REST routes tested in webhooks.test.ts: the same
 * WebhookService behind both, so the same scopes, rules and codes; deliveries are verified with the
 * Standard Webhooks reference library, with the secret GraphQL answered.
 */
let service: TestService;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  service = await startTestService(fastDeliverySettings([100, 200]));
});
afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

const ENDPOINT =
  'endpointId url eventTypes enabled disabledReason createdAt updatedAt failingSince previousSecretExpiresAt';
const UNKNOWN_ID = '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e';

async function gql(
  query: string,
  variables?: Record<string, unknown>,
  options: { headers?: Record<string, string>; environment?: string } = {},
) {
  const result = await graphql(service, query, variables, options);
  expect(result.status, result.text).toBe(200);
  return result;
}

async function register(
  path: string,
  eventTypes: string[] = ['customer.created'],
): Promise<{ endpointId: string; secret: string }> {
  const result = await gql(
    `mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { ${ENDPOINT} } } }`,
    {
      input: { url: receiver.url(path), eventTypes },
    },
  );
  expect(result.json.errors).toBeUndefined();
  const { secret, endpoint } = result.json.data.createWebhookEndpoint;
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
  expect(endpoint).toMatchObject({
    url: receiver.url(path),
    eventTypes,
    enabled: true,
    disabledReason: null,
    failingSince: null,
    previousSecretExpiresAt: null,
  });
  return { endpointId: endpoint.endpointId, secret };
}

const verified = (request: Received, secret: string) =>
  new Webhook(secret).verify(request.body, request.headers) as { type: string; data: { eventId: string } };

async function attempts(endpointId: string, count: number) {
  for (const deadline = Date.now() + HUNG_TEST_DEADLINE_MS; ;) {
    const result = await gql(
      'query ($id: ID!) { webhookEndpoint(endpointId: $id) { attempts(first: 10) { attemptId eventId attemptedAt statusCode latencyMs succeeded error } } }',
      { id: endpointId },
    );
    const list = result.json.data.webhookEndpoint.attempts;
    if (list.length >= count || Date.now() > deadline) return list;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('webhook endpoints over GraphQL', () => {
  it('createWebhookEndpoint answers the secret once; deliveries are signed with it; attempts are listed under the endpoint', async () => {
    const { endpointId, secret } = await register('/gql-created');
    await createCustomer(service);
    const [request] = await receiver.waitFor('/gql-created', 1);
    const payload = verified(request!, secret);
    expect(payload.type).toBe('customer.created');
    expect(await attempts(endpointId, 1)).toEqual([
      expect.objectContaining({ eventId: payload.data.eventId, statusCode: 200, succeeded: true, error: null }),
    ]);

    // The endpoint's own type has no secret field: asking for it is a validation error, not a null.
    const secretField = await graphql(service, 'query ($id: ID!) { webhookEndpoint(endpointId: $id) { secret } }', {
      id: endpointId,
    });
    expect(errorCodes(secretField)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const read = await gql(
      `query ($id: ID!) { webhookEndpoint(endpointId: $id) { ${ENDPOINT} } webhookEndpoints { endpointId } }`,
      { id: endpointId },
    );
    expect(read.text).not.toContain('whsec_');
    expect(read.text).not.toContain(secret.slice('whsec_'.length));
    expect(read.json.data.webhookEndpoints.map((endpoint: { endpointId: string }) => endpoint.endpointId)).toContain(
      endpointId,
    );

    // The same endpoint as REST answers it.
    const rest = await service.call('GET', `/sandbox/webhook-endpoint/${endpointId}`);
    expect(read.json.data.webhookEndpoint).toEqual(rest.json.data);
  });

  it('manages endpoints like REST: update, validation, environments, delete, not found', async () => {
    const { endpointId } = await register('/gql-managed');
    const updated = await gql(
      `mutation ($id: ID!) { updateWebhookEndpoint(endpointId: $id, input: { eventTypes: [] }) { ${ENDPOINT} } }`,
      { id: endpointId },
    );
    expect(updated.json.data.updateWebhookEndpoint.eventTypes).toEqual([]);

    const refusal = async (query: string, variables: Record<string, unknown>) => {
      const result = await gql(query, variables);
      expect(result.json.data).toBeNull();
      return result.json.errors[0].extensions;
    };
    const create = 'mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }';
    const update =
      'mutation ($id: ID!, $input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(endpointId: $id, input: $input) { endpointId } }';
    expect(await refusal(update, { id: endpointId, input: {} })).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await refusal(update, { id: endpointId, input: { url: null } })).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [expect.objectContaining({ field: 'url' })],
    });
    expect(await refusal(create, { input: { url: 'ftp://example.com/' } })).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [expect.objectContaining({ field: 'url' })],
    });
    expect(await refusal(create, { input: { url: 'https://user:pw@example.com/' } })).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(
      await refusal(create, { input: { url: 'https://example.com/', eventTypes: ['customer.exploded'] } }),
    ).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await refusal(update, { id: UNKNOWN_ID, input: { eventTypes: [] } })).toMatchObject({
      code: 'WEBHOOK_ENDPOINT_NOT_FOUND',
    });

    // Other environments do not see it.
    const elsewhere = await gql(
      'query ($id: ID!) { webhookEndpoint(endpointId: $id) { endpointId } webhookEndpoints { endpointId } }',
      { id: endpointId },
      { environment: 'production-like' },
    );
    expect(elsewhere.json.data.webhookEndpoint).toBeNull();
    expect(
      elsewhere.json.data.webhookEndpoints.map((endpoint: { endpointId: string }) => endpoint.endpointId),
    ).not.toContain(endpointId);
    expect(
      errorCodes(
        await gql(
          'mutation ($id: ID!) { deleteWebhookEndpoint(endpointId: $id) }',
          { id: endpointId },
          { environment: 'production-like' },
        ),
      ),
    ).toEqual(['WEBHOOK_ENDPOINT_NOT_FOUND']);

    expect(
      (await gql('mutation ($id: ID!) { deleteWebhookEndpoint(endpointId: $id) }', { id: endpointId })).json.data,
    ).toEqual({ deleteWebhookEndpoint: endpointId });
    expect(
      (await gql('query ($id: ID!) { webhookEndpoint(endpointId: $id) { endpointId } }', { id: endpointId })).json.data
        .webhookEndpoint,
    ).toBeNull();
    expect(
      (await gql('{ webhookEndpoint(endpointId: "not-a-uuid") { endpointId } }')).json.data.webhookEndpoint,
    ).toBeNull();
    expect(
      await refusal('mutation ($id: ID!) { deleteWebhookEndpoint(endpointId: $id) }', { id: endpointId }),
    ).toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    expect(await refusal('mutation { enableWebhookEndpoint(endpointId: "not-a-uuid") { enabled } }', {})).toMatchObject(
      { code: 'WEBHOOK_ENDPOINT_NOT_FOUND' },
    );
    expect(
      (await gql('query ($id: ID!) { webhookEndpoint(endpointId: $id) { endpointId } }', { id: UNKNOWN_ID })).json.data
        .webhookEndpoint,
    ).toBeNull();
  });

  it('rejects an attempts page outside 1 to 100 with VALIDATION_FAILED, as REST does', async () => {
    const { endpointId } = await register('/gql-page');
    // Refused before the operation runs (with the cost estimate), as an operation over the cost limit is: 400.
    const result = await graphql(
      service,
      'query ($id: ID!) { webhookEndpoint(endpointId: $id) { attempts(first: 0) { attemptId } } }',
      { id: endpointId },
    );
    expect(result.status).toBe(400);
    expect(errorCodes(result)).toEqual(['VALIDATION_FAILED']);
  });

  it('needs webhooks:read to read and webhooks:write to change, as REST', async () => {
    const { endpointId } = await register('/gql-scoped');
    const { token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['webhooks:read', 'events:read'],
    });
    const headers = { authorization: `Bearer ${token}` };
    const read = await gql(
      'query ($id: ID!) { webhookEndpoint(endpointId: $id) { endpointId attempts { attemptId } } }',
      { id: endpointId },
      { headers },
    );
    expect(read.json.data.webhookEndpoint.endpointId).toBe(endpointId);
    for (const mutation of [
      'mutation { createWebhookEndpoint(input: { url: "https://example.com/x" }) { secret } }',
      `mutation { disableWebhookEndpoint(endpointId: "${endpointId}") { enabled } }`,
      `mutation { rotateWebhookSecret(endpointId: "${endpointId}") { secret } }`,
      `mutation { deleteWebhookEndpoint(endpointId: "${endpointId}") }`,
    ]) {
      const refused = await gql(mutation, undefined, { headers });
      expect(refused.json.errors[0].extensions).toMatchObject({
        code: 'FORBIDDEN',
        challenge: { error: 'insufficient_scope', scope: 'webhooks:write' },
      });
    }
    const { token: accountsToken } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['accounts:read'],
    });
    const list = await gql('{ webhookEndpoints { endpointId } }', undefined, {
      headers: { authorization: `Bearer ${accountsToken}` },
    });
    expect(list.json.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', challenge: { scope: 'webhooks:read' } });
  });

  it('rotateWebhookSecret answers a new secret; deliveries then carry both signatures', async () => {
    const { endpointId, secret: oldSecret } = await register('/gql-rotate');
    const rotated = await gql(
      `mutation ($id: ID!) { rotateWebhookSecret(endpointId: $id) { secret endpoint { ${ENDPOINT} } } }`,
      { id: endpointId },
    );
    const { secret: newSecret, endpoint } = rotated.json.data.rotateWebhookSecret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    expect(Date.parse(endpoint.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(3500_000);
    await createCustomer(service);
    const [request] = await receiver.waitFor('/gql-rotate', 1);
    expect(request!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verified(request!, oldSecret).type).toBe('customer.created');
    expect(verified(request!, newSecret).type).toBe('customer.created');
  });

  it("disables, enables and redelivers, with REST's refusals", async () => {
    const { endpointId, secret } = await register('/gql-again');
    await createCustomer(service);
    const [first] = await receiver.waitFor('/gql-again', 1);
    const eventId = verified(first!, secret).data.eventId;
    await attempts(endpointId, 1);

    const redeliver =
      'mutation ($id: ID!, $event: ID!) { redeliverWebhook(endpointId: $id, eventId: $event) { endpointId eventId } }';
    expect((await gql(redeliver, { id: endpointId, event: eventId.toUpperCase() })).json.data.redeliverWebhook).toEqual(
      { endpointId, eventId },
    );
    const requests = await receiver.waitFor('/gql-again', 2);
    expect(requests[1]!.headers['webhook-id']).toBe(eventId);
    expect(errorCodes(await gql(redeliver, { id: endpointId, event: UNKNOWN_ID }))).toEqual(['EVENT_NOT_FOUND']);
    expect(errorCodes(await gql(redeliver, { id: UNKNOWN_ID, event: eventId }))).toEqual([
      'WEBHOOK_ENDPOINT_NOT_FOUND',
    ]);

    const disabled = await gql(
      'mutation ($id: ID!) { disableWebhookEndpoint(endpointId: $id) { enabled disabledReason } }',
      { id: endpointId },
    );
    expect(disabled.json.data.disableWebhookEndpoint).toEqual({
      enabled: false,
      disabledReason: 'Disabled by a client.',
    });
    expect(errorCodes(await gql(redeliver, { id: endpointId, event: eventId }))).toEqual(['WEBHOOK_ENDPOINT_DISABLED']);
    const enabled = await gql(
      'mutation ($id: ID!) { enableWebhookEndpoint(endpointId: $id) { enabled disabledReason failingSince } }',
      { id: endpointId },
    );
    expect(enabled.json.data.enableWebhookEndpoint).toEqual({
      enabled: true,
      disabledReason: null,
      failingSince: null,
    });
  });
});

describe('webhook endpoints over GraphQL: the SSRF guard (WEBHOOKS_ALLOW_PRIVATE_NETWORKS off)', () => {
  const strict = serviceWithSsrfGuard();

  it.each(REFUSED_WEBHOOK_URLS)(
    'refuses to register %s with WEBHOOK_URL_NOT_ALLOWED, without echoing the URL',
    async (_name, url) => {
      const result = await graphql(
        strict(),
        'mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }',
        { input: { url } },
      );
      expect(errorCodes(result)).toEqual(['WEBHOOK_URL_NOT_ALLOWED']);
      expect(result.json.errors[0].extensions.details).toEqual([
        expect.objectContaining({ field: 'url', code: 'WEBHOOK_URL_NOT_ALLOWED' }),
      ]);
      expect(result.text).not.toContain(url);
    },
  );
});
