import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATE_CUSTOMER, createAccount, createCustomer, errorCodes, graphql } from './helpers.js';
import { tableCounts } from '../support/database.js';
import { issueApiToken } from '../support/api-tokens.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestIdentityProvider, type TestIdentityProvider } from '../support/identity-provider.js';
import { startTestService, type TestService } from '../support/service.js';
import { bearer, challenge, countRows } from '../support/http-auth.js';
import { eventually } from '../support/eventually.js';

/** The security features of issue 5 over GraphQL: the same rules and answers as REST, in GraphQL's format. */
let service: TestService;
let idp: TestIdentityProvider;
beforeAll(async () => {
  idp = await startTestIdentityProvider();
  service = await startTestService(idp.env);
});
afterAll(async () => {
  await service?.stop();
  await idp?.close();
});

const CREATE_WITH_KEY = `mutation($input: CreateCustomerInput!, $key: String) { createCustomer(input: $input, idempotencyKey: $key) { customerId firstName } }`;
const CREATE_ACCOUNT_WITH_KEY = `mutation($input: CreateAccountInput!, $key: String) { createAccount(input: $input, idempotencyKey: $key) { accountId name customerIds } }`;
const AUDIT = `query($first: Int, $after: String, $resourceId: ID, $operation: String, $from: String, $to: String) {
  auditEvents(first: $first, after: $after, resourceId: $resourceId, operation: $operation, from: $from, to: $to) {
    edges { cursor node { eventId operation resourceId } }
    nodes { eventId occurredAt principalId operation resourceType resourceId requestId idempotencyKey changedFields }
    pageInfo { hasNextPage endCursor }
  }
}`;

describe('scopes and environments', () => {
  it('a customers:read token can query but cannot run a mutation: FORBIDDEN with the challenge in extensions, nothing written', async () => {
    const customerId = await createCustomer(service, buildCustomerInput());
    await createAccount(service, buildAccountInput([customerId]));
    const { token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read'],
    });
    const read = await graphql(
      service,
      'query($id: ID!) { customer(customerId: $id) { customerId } }',
      { id: customerId },
      { headers: bearer(token) },
    );
    expect(read.json).toEqual({ data: { customer: { customerId } } });

    const before = await tableCounts(service.database.pool);
    const refused = await graphql(
      service,
      CREATE_CUSTOMER,
      { input: buildCustomerInput() },
      { headers: bearer(token) },
    );
    // A field refused by the domain is a GraphQL error in a 200 (partial results), like any other domain error.
    expect(refused.status).toBe(200);
    expect(refused.json.data).toBeNull();
    expect(errorCodes(refused)).toEqual(['FORBIDDEN']);
    expect(refused.json.errors[0].extensions.challenge).toEqual({
      error: 'insufficient_scope',
      scope: 'customers:write',
    });
    expect(refused.json.errors[0].message).toBe('The token lacks the scope this operation needs: customers:write.');
    expect(await tableCounts(service.database.pool)).toEqual(before);

    // Nested fields are checked too: accounts need accounts:read.
    const nested = await graphql(
      service,
      'query($id: ID!) { customer(customerId: $id) { customerId accounts { accountId } } }',
      { id: customerId },
      { headers: bearer(token) },
    );
    expect(errorCodes(nested)).toEqual(['FORBIDDEN']);
    expect(nested.json.errors[0].extensions.challenge).toEqual({ error: 'insufficient_scope', scope: 'accounts:read' });
  });

  it('node(id) answers what the token may read, for every combination of read scopes', async () => {
    const customerId = await createCustomer(service, buildCustomerInput());
    const accountId = await createAccount(service, buildAccountInput([customerId]));
    const NODE = 'query($id: ID!) { node(id: $id) { __typename id } }';
    const customer = { __typename: 'Customer', id: customerId };
    const account = { __typename: 'Account', id: accountId };
    const FORBIDDEN = 'FORBIDDEN';
    const cases: {
      scopes: ('customers:read' | 'accounts:read')[];
      forCustomer: object | typeof FORBIDDEN | null;
      forAccount: object | typeof FORBIDDEN | null;
    }[] = [
      { scopes: ['customers:read', 'accounts:read'], forCustomer: customer, forAccount: account },
      { scopes: ['customers:read'], forCustomer: customer, forAccount: null },
      { scopes: ['accounts:read'], forCustomer: null, forAccount: account },
      { scopes: [], forCustomer: FORBIDDEN, forAccount: FORBIDDEN },
    ];
    for (const { scopes, forCustomer, forAccount } of cases) {
      const { token } = await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes });
      for (const [id, expected] of [
        [customerId, forCustomer],
        [accountId, forAccount],
      ] as const) {
        const res = await graphql(service, NODE, { id }, { headers: bearer(token) });
        const label = `${scopes.join('+') || 'no read scope'} → ${id === customerId ? 'customer' : 'account'} id`;
        expect(res.status, label).toBe(200);
        if (expected === FORBIDDEN) {
          expect(res.json.data, label).toEqual({ node: null });
          expect(errorCodes(res), label).toEqual(['FORBIDDEN']);
          expect(res.json.errors[0].extensions.challenge, label).toEqual({
            error: 'insufficient_scope',
            scope: 'customers:read',
          });
        } else {
          expect(res.json, label).toEqual({ data: { node: expected } });
        }
      }
    }
  });

  it('a token bound to sandbox is refused on production-like: 403 with the same WWW-Authenticate as REST', async () => {
    const { token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read'],
    });
    const res = await graphql(service, '{ customers { nodes { customerId } } }', undefined, {
      environment: 'production-like',
      headers: bearer(token),
    });
    expect(res.status).toBe(403);
    expect(res.json).not.toHaveProperty('data');
    expect(errorCodes(res)).toEqual(['FORBIDDEN']);
    expect(res.json.errors[0].extensions.challenge).toEqual({ error: 'insufficient_scope' });
    expect(res.headers.get('www-authenticate')).toBe(
      challenge('insufficient_scope', 'The token may not act in this environment.'),
    );
    const rest = await service.call('GET', `/production-like/customer/${randomUUID()}`, { headers: bearer(token) });
    expect(rest.headers.get('www-authenticate')).toBe(res.headers.get('www-authenticate'));
  });

  it('a revoked token: 401 invalid_token with the challenge in the header and in extensions', async () => {
    const { id, token } = await issueApiToken(service.database.pool, {
      environments: ['*'],
      scopes: ['customers:read'],
    });
    expect(
      (await graphql(service, '{ customers { nodes { customerId } } }', undefined, { headers: bearer(token) })).status,
    ).toBe(200);
    await service.database.pool.query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [id]);
    // Refused once the change notification drops the cached token (docs/adr/0099-authentication-caches.md).
    const res = await eventually(
      () => graphql(service, '{ customers { nodes { customerId } } }', undefined, { headers: bearer(token) }),
      (answer) => answer.status !== 200,
    );
    expect(res.status).toBe(401);
    expect(errorCodes(res)).toEqual(['UNAUTHENTICATED']);
    expect(res.json.errors[0].extensions.challenge).toEqual({ error: 'invalid_token' });
    expect(res.headers.get('www-authenticate')).toBe(challenge('invalid_token', 'The bearer token has been revoked.'));
  });
});

describe('OIDC/JWT on GraphQL', () => {
  it('accepts a JWT: its scopes apply per field, its subject is the audited principal', async () => {
    const reader = await idp.sign({ scope: 'customers:read customers:write' }, { sub: 'graphql-user' });
    const res = await graphql(service, CREATE_CUSTOMER, { input: buildCustomerInput() }, { headers: bearer(reader) });
    expect(res.status).toBe(200);
    const customerId = res.json.data.createCustomer.customerId as string;
    const { rows } = await service.database.pool.query('SELECT principal_id FROM audit_events WHERE resource_id = $1', [
      customerId,
    ]);
    expect(rows).toEqual([{ principal_id: 'jwt:graphql-user' }]);
    const noAudit = await graphql(service, AUDIT, {}, { headers: bearer(reader) });
    expect(errorCodes(noAudit)).toEqual(['FORBIDDEN']);
  });

  it('refuses an expired JWT with 401 invalid_token', async () => {
    const expired = await idp.sign({}, { exp: Math.floor(Date.now() / 1000) - 120 });
    const res = await graphql(service, '{ customers { nodes { customerId } } }', undefined, {
      headers: bearer(expired),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(challenge('invalid_token', 'The bearer token has expired.'));
  });
});

describe('idempotency keys on create mutations', () => {
  it('createCustomer with the same key and input returns the same customer, marked in extensions.idempotentReplayed', async () => {
    const key = randomUUID();
    const input = buildCustomerInput();
    const before = await countRows(service, 'customers');
    const first = await graphql(service, CREATE_WITH_KEY, { input, key });
    expect(first.json.errors).toBeUndefined();
    expect(first.json.extensions?.idempotentReplayed).toBeUndefined();
    const retry = await graphql(service, CREATE_WITH_KEY, { input, key });
    expect(retry.json.errors).toBeUndefined();
    expect(retry.json.data.createCustomer.customerId).toBe(first.json.data.createCustomer.customerId);
    expect(retry.json.extensions.idempotentReplayed).toEqual(['createCustomer']);
    expect(await countRows(service, 'customers')).toBe(before + 1);

    // The key is shared with REST's Idempotency-Key: a retry may switch surfaces.
    const overRest = await service.call('POST', '/sandbox/customer', {
      body: input,
      headers: { 'idempotency-key': key },
    });
    expect(overRest.status).toBe(201);
    expect(overRest.headers.get('idempotent-replayed')).toBe('true');
    expect(overRest.json.data.customerId).toBe(first.json.data.createCustomer.customerId);
  });

  it('names the replayed field by its alias, and refuses two creations in one operation (one write per request)', async () => {
    const key = randomUUID();
    const input = buildCustomerInput();
    await graphql(service, CREATE_WITH_KEY, { input, key });
    const retried = await graphql(
      service,
      `
        mutation ($again: CreateCustomerInput!, $key: String) {
          retried: createCustomer(input: $again, idempotencyKey: $key) {
            customerId
          }
        }
      `,
      { again: input, key },
    );
    expect(retried.json.errors).toBeUndefined();
    expect(retried.json.extensions.idempotentReplayed).toEqual(['retried']);

    const before = await countRows(service, 'customers');
    const both = await graphql(
      service,
      `
        mutation ($one: CreateCustomerInput!, $two: CreateCustomerInput!) {
          one: createCustomer(input: $one) {
            customerId
          }
          two: createCustomer(input: $two) {
            customerId
          }
        }
      `,
      { one: buildCustomerInput(), two: buildCustomerInput() },
    );
    expect(errorCodes(both)).toEqual(['TOO_MANY_ROOT_FIELDS']);
    expect(await countRows(service, 'customers')).toBe(before);
  });

  it('createAccount replays the account as first created', async () => {
    const customerId = await createCustomer(service, buildCustomerInput());
    const key = randomUUID();
    const input = buildAccountInput([customerId]);
    const first = await graphql(service, CREATE_ACCOUNT_WITH_KEY, { input, key });
    const retry = await graphql(service, CREATE_ACCOUNT_WITH_KEY, { input, key });
    expect(retry.json.data).toEqual(first.json.data);
    expect(retry.json.extensions.idempotentReplayed).toEqual(['createAccount']);
    expect(await countRows(service, 'account_customers', 'customer_id = $1', [customerId])).toBe(1);
  });

  it('answers IDEMPOTENCY_KEY_REUSED for another input, VALIDATION_FAILED for a key over 255 characters', async () => {
    const key = randomUUID();
    await graphql(service, CREATE_WITH_KEY, { input: buildCustomerInput(), key });
    const before = await countRows(service, 'customers');
    const reused = await graphql(service, CREATE_WITH_KEY, { input: buildCustomerInput(), key });
    expect(errorCodes(reused)).toEqual(['IDEMPOTENCY_KEY_REUSED']);
    expect(reused.json.data).toBeNull();
    const tooLong = await graphql(service, CREATE_WITH_KEY, { input: buildCustomerInput(), key: 'k'.repeat(256) });
    expect(errorCodes(tooLong)).toEqual(['VALIDATION_FAILED']);
    expect(tooLong.json.errors[0].extensions.details.map((detail: { field: string }) => detail.field)).toEqual([
      'idempotencyKey',
    ]);
    expect(await countRows(service, 'customers')).toBe(before);
  });

  it('answers IDEMPOTENCY_KEY_IN_PROGRESS while another request holds the key', async () => {
    const key = randomUUID();
    const customerId = await createCustomer(service, buildCustomerInput());
    const blocker = await service.database.pool.connect();
    try {
      // The static token's principal id, as the audit trail recorded it.
      const { rows } = await service.database.pool.query<{ id: string }>(
        'SELECT principal_id AS id FROM audit_events WHERE resource_id = $1',
        [customerId],
      );
      await blocker.query('BEGIN');
      // Another instance's open transaction, holding the key of this token in sandbox.
      await blocker.query(
        "INSERT INTO idempotency_keys (principal_id, environment, key, operation, fingerprint, expires_at) VALUES ($1, 'sandbox', $2, 'customer.create', '\\x00', now() + interval '1 hour')",
        [rows[0]!.id, key],
      );
      const res = await graphql(service, CREATE_WITH_KEY, { input: buildCustomerInput(), key });
      expect(errorCodes(res)).toEqual(['IDEMPOTENCY_KEY_IN_PROGRESS']);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
  });
});

describe('Query.auditEvents', () => {
  it('pages through the trail with audit:read, filtered like REST, and cursors shared with REST', async () => {
    const { token: auditor } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['audit:read'],
    });
    const customerId = await createCustomer(service, buildCustomerInput());
    await graphql(
      service,
      'mutation($id: ID!) { updateCustomer(customerId: $id, input: { preferredName: "Bea" }) { customerId } }',
      { id: customerId },
    );

    const mine = await graphql(service, AUDIT, { resourceId: customerId }, { headers: bearer(auditor) });
    expect(mine.json.errors).toBeUndefined();
    const events = mine.json.data.auditEvents.nodes;
    expect(events.map((event: { operation: string }) => event.operation)).toEqual([
      'customer.create',
      'customer.update',
    ]);
    expect(events[1]).toMatchObject({
      resourceType: 'customer',
      resourceId: customerId,
      changedFields: ['preferredName'],
      idempotencyKey: null,
    });
    expect(events[1].principalId).toMatch(/^static:/);
    expect(mine.json.data.auditEvents.pageInfo).toEqual({ hasNextPage: false, endCursor: events[1].eventId });

    const firstPage = await graphql(service, AUDIT, { first: 2 }, { headers: bearer(auditor) });
    const { pageInfo, edges } = firstPage.json.data.auditEvents;
    expect(edges).toHaveLength(2);
    expect(pageInfo).toEqual({ hasNextPage: true, endCursor: edges[1].cursor });
    const nextOverGraphql = await graphql(
      service,
      AUDIT,
      { first: 2, after: pageInfo.endCursor },
      { headers: bearer(auditor) },
    );
    const nextOverRest = await service.call('GET', `/sandbox/audit-events?first=2&after=${pageInfo.endCursor}`, {
      headers: bearer(auditor),
    });
    expect(nextOverGraphql.json.data.auditEvents.nodes.map((event: { eventId: string }) => event.eventId)).toEqual(
      nextOverRest.json.data.events.map((event: { eventId: string }) => event.eventId),
    );

    const updates = await graphql(
      service,
      AUDIT,
      { operation: 'customer.update', to: new Date(Date.now() + 60_000).toISOString() },
      { headers: bearer(auditor) },
    );
    expect(
      updates.json.data.auditEvents.nodes.every(
        (event: { operation: string }) => event.operation === 'customer.update',
      ),
    ).toBe(true);
  });

  it('validates filters in the domain (VALIDATION_FAILED with details) and is refused without audit:read', async () => {
    const { token: auditor } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['audit:read'],
    });
    const bad = await graphql(
      service,
      AUDIT,
      { first: 5, operation: 'customer.read', from: 'yesterday' },
      { headers: bearer(auditor) },
    );
    expect(errorCodes(bad)).toEqual(['VALIDATION_FAILED']);
    expect(bad.json.errors[0].extensions.details.map((detail: { field: string }) => detail.field).sort()).toEqual([
      'from',
      'operation',
    ]);
    // A page size out of range is refused before the operation runs (with the cost estimate), on its own.
    const tooSmall = await graphql(
      service,
      AUDIT,
      { first: 0, operation: 'customer.read' },
      { headers: bearer(auditor) },
    );
    expect(tooSmall.json.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'first', code: 'OUT_OF_RANGE' }],
    });

    const { token: writer } = await issueApiToken(service.database.pool, {
      environments: ['*'],
      scopes: ['customers:read', 'customers:write', 'accounts:read', 'accounts:write'],
    });
    const refused = await graphql(service, AUDIT, {}, { headers: bearer(writer) });
    expect(refused.status).toBe(200);
    expect(refused.json.data).toBeNull();
    expect(errorCodes(refused)).toEqual(['FORBIDDEN']);
    expect(refused.json.errors[0].extensions.challenge).toEqual({ error: 'insufficient_scope', scope: 'audit:read' });
  });
});
