import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableCounts } from '../support/database.js';
import { issueApiToken } from '../support/api-tokens.js';
import { buildCustomerInput } from '../support/factories.js';
import {
  rsaKeyPair,
  startTestIdentityProvider,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TestIdentityProvider,
} from '../support/identity-provider.js';
import { startTestService, type TestService } from '../support/service.js';
import { createCustomer, expectFailure, expectSuccess } from '../rest/helpers.js';
import { errorCodes, graphql } from '../graphql/helpers.js';
import { bearer, challenge } from '../support/http-auth.js';
import { eventually } from '../support/eventually.js';

/** Scopes, environments, revocation and JWTs over REST: the RFC 6750 answers a client actually receives. */
let service: TestService;
let idp: TestIdentityProvider;
let customerId: string;
beforeAll(async () => {
  idp = await startTestIdentityProvider();
  service = await startTestService(idp.env);
  ({ customerId } = await createCustomer(service));
});
afterAll(async () => {
  await service?.stop();
  await idp?.close();
});

const now = () => Math.floor(Date.now() / 1000);
const NOT_VALID = 'The bearer token is not valid.';

describe('managed tokens over REST', () => {
  it('403 FORBIDDEN with error="insufficient_scope" and the scope needed, for a token lacking it; nothing written', async () => {
    const { token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read'],
    });
    expectSuccess(
      await service.call('GET', `/sandbox/customer/${customerId}`, { headers: bearer(token) }),
      'customer',
      200,
    );
    const before = await tableCounts(service.database.pool);
    const refused = await service.call('POST', '/sandbox/customer', {
      body: buildCustomerInput(),
      headers: bearer(token),
    });
    expectFailure(refused, 'customer', 403, 'FORBIDDEN');
    expect(refused.headers.get('www-authenticate')).toBe(
      challenge(
        'insufficient_scope',
        'The token lacks the scope this operation needs: customers:write.',
        'customers:write',
      ),
    );
    const audit = await service.call('GET', '/sandbox/audit-events', { headers: bearer(token) });
    expectFailure(audit, 'customer', 403, 'FORBIDDEN');
    expect(audit.headers.get('www-authenticate')).toContain('scope="audit:read"');
    expect(await tableCounts(service.database.pool)).toEqual(before);
  });

  it('a token bound to sandbox is refused on production-like (403 insufficient_scope), whatever its scopes', async () => {
    const { token } = await issueApiToken(service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'customers:write', 'accounts:read', 'accounts:write', 'audit:read'],
    });
    expectSuccess(
      await service.call('POST', '/sandbox/customer', { body: buildCustomerInput(), headers: bearer(token) }),
      'customer',
      201,
    );
    for (const [method, path] of [
      ['POST', '/production-like/customer'],
      ['GET', `/production-like/customer/${customerId}`],
      ['GET', '/production-like/audit-events'],
    ] as const) {
      const res = await service.call(method, path, {
        body: method === 'POST' ? buildCustomerInput() : undefined,
        headers: bearer(token),
      });
      expectFailure(res, 'customer', 403, 'FORBIDDEN');
      expect(res.headers.get('www-authenticate')).toBe(
        challenge('insufficient_scope', 'The token may not act in this environment.'),
      );
    }
  });

  it('a revoked token is answered 401 invalid_token once the change notification drops it from the cache', async () => {
    const { id, token } = await issueApiToken(service.database.pool, {
      environments: ['*'],
      scopes: ['customers:read'],
    });
    expectSuccess(
      await service.call('GET', `/sandbox/customer/${customerId}`, { headers: bearer(token) }),
      'customer',
      200,
    );
    // What `npm run token -- revoke` does, from another process.
    await service.database.pool.query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [id]);
    // The cached entry goes when the NOTIFY arrives (test/auth/token-revocation-fleet.test.ts), not before.
    const res = await eventually(
      () => service.call('GET', `/sandbox/customer/${customerId}`, { headers: bearer(token) }),
      (answer) => answer.status !== 200,
    );
    expectFailure(res, 'customer', 401, 'UNAUTHENTICATED');
    expect(res.headers.get('www-authenticate')).toBe(challenge('invalid_token', 'The bearer token has been revoked.'));
  });
});

describe('OIDC_REQUIRED_TYP and OIDC_MAX_TOKEN_AGE_S over REST', () => {
  let strict: TestService;
  beforeAll(async () => {
    strict = await startTestService({
      ...idp.env,
      OIDC_REQUIRED_TYP: 'at+jwt',
      OIDC_MAX_TOKEN_AGE_S: '300',
      OIDC_CLOCK_TOLERANCE_S: '5',
    });
  });
  afterAll(async () => strict?.stop());

  it('accepts an at+jwt access token issued within the age; refuses a plain JWT, a token without iat and an old one with 401 invalid_token, writing nothing', async () => {
    const writer = { scope: 'customers:write customers:read' };
    const good = await idp.sign(writer, { typ: 'at+jwt' });
    expectSuccess(
      await strict.call('POST', '/sandbox/customer', { body: buildCustomerInput(), headers: bearer(good) }),
      'customer',
      201,
    );
    const before = await tableCounts(strict.database.pool);
    const refused: [string, string, string][] = [
      ['a JWT typed JWT (e.g. an ID token)', await idp.sign(writer, { typ: 'JWT' }), NOT_VALID],
      ['a JWT without typ', await idp.sign(writer, { typ: null }), NOT_VALID],
      ['a JWT without iat', await idp.sign(writer, { typ: 'at+jwt', iat: null }), NOT_VALID],
      [
        'a JWT issued 10 minutes ago',
        await idp.sign(writer, { typ: 'at+jwt', iat: now() - 600, exp: now() + 600 }),
        'The bearer token has expired.',
      ],
    ];
    for (const [label, token, description] of refused) {
      const res = await strict.call('POST', '/sandbox/customer', {
        body: buildCustomerInput(),
        headers: bearer(token),
      });
      expectFailure(res, 'customer', 401, 'UNAUTHENTICATED');
      expect(res.headers.get('www-authenticate'), label).toBe(challenge('invalid_token', description));
      expect(res.text, label).not.toContain(token.split('.')[2]!);
    }
    expect(await tableCounts(strict.database.pool)).toEqual(before);
  });
});

describe('unknown environments cannot be enumerated', () => {
  const UNKNOWN = 'unknown-env';

  it('without a token, or with a refused one, an unknown environment answers 401 exactly as a configured one does', async () => {
    for (const headers of [{}, bearer('not-a-token-at-all-000')]) {
      const known = await service.call('GET', `/sandbox/customer/${customerId}`, { auth: false, headers });
      const unknown = await service.call('GET', `/${UNKNOWN}/customer/${customerId}`, { auth: false, headers });
      expectFailure(unknown, 'customer', 401, 'UNAUTHENTICATED');
      expect([unknown.status, unknown.json.error, unknown.headers.get('www-authenticate')]).toEqual([
        known.status,
        known.json.error,
        known.headers.get('www-authenticate'),
      ]);
      const anonymousGraphql = await graphql(service, '{ customers { nodes { customerId } } }', undefined, {
        environment: UNKNOWN,
        auth: false,
        headers,
      });
      expect(anonymousGraphql.status).toBe(401);
      expect(errorCodes(anonymousGraphql)).toEqual(['UNAUTHENTICATED']);
    }
  });

  it('a token bound to sandbox gets 403 on an unknown environment as on a configured one; a token for every environment gets 404 with no list', async () => {
    const bound = await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['customers:read'] });
    for (const environment of ['production-like', UNKNOWN]) {
      const res = await service.call('GET', `/${environment}/customer/${customerId}`, { headers: bearer(bound.token) });
      expectFailure(res, 'customer', 403, 'FORBIDDEN');
      expect(res.headers.get('www-authenticate')).toBe(
        challenge('insufficient_scope', 'The token may not act in this environment.'),
      );
    }
    const everywhere = await issueApiToken(service.database.pool, { environments: ['*'], scopes: ['customers:read'] });
    const before = await tableCounts(service.database.pool);
    const res = await service.call('GET', `/${UNKNOWN}/customer/${customerId}`, { headers: bearer(everywhere.token) });
    expectFailure(res, 'customer', 404, 'ENVIRONMENT_NOT_FOUND');
    expect(res.json.error.message).toBe('Unknown environment: the first path segment is not a configured environment.');
    expect(res.text).not.toMatch(/sandbox|production-like/);
    const viaGraphql = await graphql(service, '{ customers { nodes { customerId } } }', undefined, {
      environment: UNKNOWN,
      headers: bearer(everywhere.token),
    });
    expect(viaGraphql.status).toBe(404);
    expect(errorCodes(viaGraphql)).toEqual(['ENVIRONMENT_NOT_FOUND']);
    expect(viaGraphql.text).not.toMatch(/sandbox|production-like/);
    expect(await tableCounts(service.database.pool)).toEqual(before);
  });
});

describe('OIDC/JWT bearer tokens over REST (JWKS served by the test)', () => {
  it('accepts a valid token with its scopes: reads allowed, customer creation refused (403, scope customers:write)', async () => {
    const token = await idp.sign();
    expectSuccess(
      await service.call('GET', `/sandbox/customer/${customerId}`, { headers: bearer(token) }),
      'customer',
      200,
    );
    const refused = await service.call('POST', '/sandbox/customer', {
      body: buildCustomerInput(),
      headers: bearer(token),
    });
    expectFailure(refused, 'customer', 403, 'FORBIDDEN');
    expect(refused.headers.get('www-authenticate')).toContain('scope="customers:write"');
    const writer = await idp.sign({ scope: 'customers:write' }, { sub: 'writer-1' });
    const created = await service.call('POST', '/sandbox/customer', {
      body: buildCustomerInput(),
      headers: bearer(writer),
    });
    expectSuccess(created, 'customer', 201);
    const { rows } = await service.database.pool.query('SELECT principal_id FROM audit_events WHERE resource_id = $1', [
      created.json.data.customerId,
    ]);
    expect(rows).toEqual([{ principal_id: 'jwt:writer-1' }]);
  });

  const publicPem = () => idp.signingKey.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const attacks: [string, () => Promise<string>, string][] = [
    ['an expired token', () => idp.sign({}, { exp: now() - 120 }), 'The bearer token has expired.'],
    ['a token not yet valid', () => idp.sign({}, { nbf: now() + 120 }), NOT_VALID],
    ['a token for another audience', () => idp.sign({}, { aud: 'another-service' }), NOT_VALID],
    ['a token from another issuer', () => idp.sign({}, { iss: 'https://evil.example/' }), NOT_VALID],
    [
      'an unsigned token (alg: none)',
      async () =>
        new UnsecuredJWT({ scope: 'customers:write', environments: '*' })
          .setIssuer(TEST_ISSUER)
          .setAudience(TEST_AUDIENCE)
          .setSubject('attacker')
          .setExpirationTime('5m')
          .encode(),
      NOT_VALID,
    ],
    [
      'an HS256 token whose HMAC secret is the public key (algorithm confusion)',
      () =>
        new SignJWT({ scope: 'customers:write', environments: '*' })
          .setProtectedHeader({ alg: 'HS256', kid: 'key-a' })
          .setIssuer(TEST_ISSUER)
          .setAudience(TEST_AUDIENCE)
          .setSubject('attacker')
          .setExpirationTime('5m')
          .sign(Buffer.from(publicPem())),
      NOT_VALID,
    ],
    [
      'a token whose payload was changed under the original signature',
      async () => {
        const [header, , signature] = (await idp.sign()).split('.');
        const escalated = Buffer.from(
          JSON.stringify({
            scope: 'customers:write audit:read',
            environments: '*',
            iss: TEST_ISSUER,
            aud: TEST_AUDIENCE,
            sub: 'user-123',
            exp: now() + 300,
          }),
        ).toString('base64url');
        return `${header}.${escalated}.${signature}`;
      },
      NOT_VALID,
    ],
    [
      'a token signed by another key under the known kid',
      () => idp.sign({}, { key: rsaKeyPair().privateKey }),
      NOT_VALID,
    ],
  ];
  for (const [label, forge, description] of attacks) {
    it(`answers 401 invalid_token to ${label}, and writes nothing`, async () => {
      const token = await forge();
      const before = await tableCounts(service.database.pool);
      const res = await service.call('POST', '/sandbox/customer', {
        body: buildCustomerInput(),
        headers: bearer(token),
      });
      expectFailure(res, 'customer', 401, 'UNAUTHENTICATED');
      expect(res.headers.get('www-authenticate')).toBe(challenge('invalid_token', description));
      expect(await tableCounts(service.database.pool)).toEqual(before);
    });
  }
});
