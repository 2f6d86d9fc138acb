import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { errorCodes, graphql } from './helpers.js';
import { connect } from '../support/subscription-client.js';

/** NODE_ENV=production: no introspection, no schema hints in errors, no explorers, no CORS grants by default. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ NODE_ENV: 'production' });
});
afterAll(async () => service?.stop());

describe('GraphQL in production mode', () => {
  it('refuses introspection', async () => {
    const result = await graphql(service, '{ __schema { types { name } } }');
    expect(result.status).toBe(400);
    expect(errorCodes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.json.errors[0].message).toMatch(/introspection/i);
  });

  it('gives no "Did you mean" hints about the schema', async () => {
    const result = await graphql(service, '{ customers { nodez { customerId } } }');
    expect(errorCodes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.json.errors[0].message).toBe('Cannot query field "nodez" on type "CustomerConnection".');
  });

  it("gives none over the subscriptions' WebSocket either", async () => {
    const client = connect(service);
    try {
      const subscription = client.subscribe('subscription { events { eventz } }');
      await subscription.done;
      expect(subscription.failure).toEqual([
        expect.objectContaining({
          message: 'Cannot query field "eventz" on type "Event".',
          extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }),
        }),
      ]);
    } finally {
      await client.dispose();
    }
  });

  it('still serves queries, and masks unexpected errors the same way', async () => {
    const result = await graphql(service, '{ customers(first: 1) { nodes { customerId } } }');
    expect(result.json).toEqual({ data: { customers: { nodes: [] } } });
  });

  it('shows neither the Sandbox landing page nor the GraphiQL explorer', async () => {
    const landing = await service.call('GET', '/sandbox/graphql', { auth: false, headers: { accept: 'text/html' } });
    expect(landing.headers.get('content-type')).not.toMatch(/text\/html/);
    expect(landing.text).not.toContain('embeddable-sandbox');
    expect((await service.call('GET', '/sandbox/graphiql', { auth: false })).status).toBe(404);
  });

  it('grants CORS to no origin unless CORS_ORIGINS says so', async () => {
    const preflight = await service.call('OPTIONS', '/sandbox/graphql', {
      auth: false,
      headers: { origin: 'https://studio.apollographql.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
