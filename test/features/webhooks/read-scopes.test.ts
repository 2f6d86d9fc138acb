import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '../../support/api-tokens.js';
import { buildCustomerInput } from '../../support/factories.js';
import { buildBusinessInput } from '../businesses/support.js';
import { startTestService, type TestService } from '../../support/service.js';
import { type Receiver, startReceiver } from './receiver.js';
import { fastDeliverySettings } from './settings.js';

/**
 * A webhook endpoint receives what the token that registered (or last re-pointed) it could read directly
 * (docs/adr/0002-events-respect-read-scopes.md): the deliveries are verified with the reference
 * `standardwebhooks` library, as a receiver would.
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

async function register(token: string, path: string): Promise<string> {
  const res = await service.call('POST', '/sandbox/webhook-endpoint', {
    auth: false,
    headers: { authorization: `Bearer ${token}` },
    body: { url: receiver.url(path), eventTypes: ['customer.created', 'customer.updated'] },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.data.secret;
}

async function delivered(path: string, secret: string, count: number) {
  const requests = await receiver.waitFor(path, count);
  return requests.map((request) => ({
    raw: request.body,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    payload: new Webhook(secret).verify(request.body, request.headers) as any,
  }));
}

describe('webhook deliveries and the registrant`s read scopes', () => {
  it('an endpoint registered with webhooks:write alone receives ids and changed field names, never the customer', async () => {
    const writer = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['webhooks:write'],
    });
    const secret = await register(writer.token, '/ids-only');
    const input = buildCustomerInput({ lastName: 'Notforwebhooks' });
    const { customerId } = (await service.call('POST', '/sandbox/customer', { body: input })).json.data;

    const [delivery] = await delivered('/ids-only', secret, 1);
    expect(delivery!.payload.data.data).toEqual({
      customerId,
      changedFields: expect.arrayContaining(['lastName', 'emails']),
      requiredScope: 'customers:read',
    });
    expect(delivery!.raw).not.toContain('Notforwebhooks');
    expect(delivery!.raw).not.toContain(input.firstName);
  });

  it('an endpoint registered by a token with customers:read receives the customer', async () => {
    const reader = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['webhooks:write', 'customers:read'],
    });
    const secret = await register(reader.token, '/records');
    const { customerId } = (
      await service.call('POST', '/sandbox/customer', { body: buildCustomerInput({ lastName: 'Forwebhooks' }) })
    ).json.data;

    const [delivery] = await delivered('/records', secret, 1);
    expect(delivery!.payload.data.data).toMatchObject({ customerId, lastName: 'Forwebhooks' });
  });

  it("a business's deliveries carry it as its REST answer shows it, never its tax id; ids alone without customers:read", async () => {
    const [reader, writer] = await Promise.all(
      [['webhooks:write', 'customers:read'] as const, ['webhooks:write'] as const].map((scopes) =>
        issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: [...scopes] }),
      ),
    );
    const [readerSecret, writerSecret] = [
      await register(reader!.token, '/business'),
      await register(writer!.token, '/business-ids'),
    ];
    const input = buildBusinessInput({ legalName: 'Webhooked Holdings LLC' });
    const { customerId } = (await service.call('POST', '/sandbox/customer', { body: input })).json.data;
    const rest = (await service.call('GET', `/sandbox/customer/${customerId}`)).json.data;

    const [delivery] = await delivered('/business', readerSecret, 1);
    expect(delivery!.payload.type).toBe('customer.created');
    expect(delivery!.payload.data.data).toEqual(rest);
    const [idsOnly] = await delivered('/business-ids', writerSecret, 1);
    expect(idsOnly!.payload.data.data).toMatchObject({ customerId, requiredScope: 'customers:read' });
    expect(idsOnly!.raw).not.toContain('Webhooked');
    for (const { raw } of [delivery!, idsOnly!]) {
      expect(raw).not.toContain(input.taxId);
      expect(raw).not.toContain(input.taxId.replace('-', ''));
    }
  });

  it('re-pointing an endpoint records the read scopes of the token that re-pointed it', async () => {
    const reader = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['webhooks:write', 'customers:read'],
    });
    const writer = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['webhooks:write'],
    });
    const created = await service.call('POST', '/sandbox/webhook-endpoint', {
      auth: false,
      headers: { authorization: `Bearer ${reader.token}` },
      body: { url: receiver.url('/before'), eventTypes: ['customer.created'] },
    });
    const { endpointId, secret } = created.json.data;
    const repointed = await service.call('PUT', `/sandbox/webhook-endpoint/${endpointId}`, {
      auth: false,
      headers: { authorization: `Bearer ${writer.token}` },
      body: { url: receiver.url('/after') },
    });
    expect(repointed.status, repointed.text).toBe(200);
    const { customerId } = (
      await service.call('POST', '/sandbox/customer', { body: buildCustomerInput({ lastName: 'Repointed' }) })
    ).json.data;

    const [delivery] = await delivered('/after', secret, 1);
    expect(delivery!.payload.data.data).toMatchObject({ customerId, requiredScope: 'customers:read' });
    expect(delivery!.raw).not.toContain('Repointed');
  });
});
