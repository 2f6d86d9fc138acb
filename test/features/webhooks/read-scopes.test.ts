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

  it("a business's owner and an account's role changes are delivered, signed, as their readers may see them", async () => {
    const eventTypes = [
      'customer.beneficial_owner_added',
      'customer.beneficial_owner_removed',
      'account.relationship_changed',
    ];
    const [reader, writer] = await Promise.all(
      [['webhooks:write', 'customers:read', 'accounts:read'] as const, ['webhooks:write'] as const].map((scopes) =>
        issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: [...scopes] }),
      ),
    );
    const secrets: string[] = [];
    for (const [token, path] of [
      [reader!.token, '/owners'],
      [writer!.token, '/owners-ids'],
    ] as const) {
      const res = await service.call('POST', '/sandbox/webhook-endpoint', {
        auth: false,
        headers: { authorization: `Bearer ${token}` },
        body: { url: receiver.url(path), eventTypes },
      });
      expect(res.status, res.text).toBe(201);
      secrets.push(res.json.data.secret);
    }
    const created = async (body: unknown): Promise<string> => {
      const res = await service.call('POST', '/sandbox/customer', { body });
      expect(res.status, res.text).toBe(201);
      return res.json.data.customerId;
    };
    const business = buildBusinessInput({ legalName: 'Owned Webhooks LLC' });
    const businessId = await created(business);
    const owner = buildCustomerInput({ lastName: 'Ownerforwebhooks' });
    const ownerId = await created(owner);
    const added = await service.call('POST', `/sandbox/customer/${businessId}/beneficial-owner`, {
      body: { customerId: ownerId, prongs: ['OWNERSHIP', 'CONTROL'], ownershipPercentage: '30', title: 'CEO' },
    });
    expect(added.status, added.text).toBe(201);
    const account = await service.call('POST', '/sandbox/account', {
      body: {
        name: 'Owned operating',
        type: 'CHECKING',
        currency: 'USD',
        associatedCustomerIds: [businessId, ownerId],
      },
    });
    expect(account.status, account.text).toBe(201);
    const { accountId } = account.json.data;
    const role = await service.call('PUT', `/sandbox/account/${accountId}/customer/${ownerId}`, {
      body: { role: 'AUTHORIZED_SIGNER' },
    });
    expect(role.status, role.text).toBe(200);
    const removed = await service.call('DELETE', `/sandbox/customer/${businessId}/beneficial-owner/${ownerId}`);
    expect(removed.status, removed.text).toBe(200);

    const owned = { customerId: businessId, ownerCustomerId: ownerId, prongs: ['OWNERSHIP', 'CONTROL'] };
    const full = await delivered('/owners', secrets[0]!, 3);
    expect(full.map(({ payload }) => [payload.type, payload.data.data])).toEqual([
      ['customer.beneficial_owner_added', { ...owned, ownershipPercentage: '30.00', title: 'CEO' }],
      ['account.relationship_changed', { accountId, customerId: ownerId, role: 'AUTHORIZED_SIGNER' }],
      ['customer.beneficial_owner_removed', { ...owned, ownershipPercentage: '30.00', title: 'CEO' }],
    ]);
    // Without the read scopes: which records, never who owns how much nor which role.
    const idsOnly = await delivered('/owners-ids', secrets[1]!, 3);
    // (A link's ids are no record's fields: the role change says which customer of which account, not the role.)
    expect(idsOnly.map(({ payload }) => [payload.type, payload.data.data])).toEqual([
      [
        'customer.beneficial_owner_added',
        { customerId: businessId, changedFields: ['beneficialOwners'], requiredScope: 'customers:read' },
      ],
      ['account.relationship_changed', { accountId, customerId: ownerId }],
      [
        'customer.beneficial_owner_removed',
        { customerId: businessId, changedFields: ['beneficialOwners'], requiredScope: 'customers:read' },
      ],
    ]);
    for (const { raw } of idsOnly) {
      expect(raw).not.toContain('30.00');
      expect(raw).not.toContain('CEO');
      expect(raw).not.toContain('AUTHORIZED_SIGNER');
    }
    for (const { raw } of [...full, ...idsOnly]) {
      expect(raw).not.toContain(business.taxId);
      expect(raw).not.toContain(business.taxId.replace('-', ''));
      expect(raw).not.toContain(owner.socialSecurityNumber);
      expect(raw).not.toContain('Ownerforwebhooks');
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
