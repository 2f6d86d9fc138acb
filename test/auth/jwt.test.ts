import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { exportJWK, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/auth/authenticator.js';
import { JwtAuthenticator, type JwtVerifierOptions } from '../../src/auth/jwt.js';
import { buildRequestContext } from '../../src/auth/request-context.js';
import { loadConfig } from '../../src/config/config.js';
import { configProblems } from '../support/config.js';
import { TEST_PII_ENV } from '../support/service.js';
import { createLogger } from '../../src/logging/logger.js';
import {
  rsaKeyPair,
  startTestIdentityProvider,
  TEST_AUDIENCE as AUDIENCE,
  TEST_ISSUER as ISSUER,
  type TestIdentityProvider,
} from '../support/identity-provider.js';
import { TEST_STATIC_TOKEN, TEST_LABEL_KEY } from '../support/static-token.js';

const keyB = rsaKeyPair();
const attacker = rsaKeyPair();

/** The provider's JWKS endpoint on 127.0.0.1; the tests change its keys and count its fetches. */
let jwks: TestIdentityProvider;
let keyA: { privateKey: KeyObject; publicKey: KeyObject };
let jwksUrl: URL;
beforeAll(async () => {
  jwks = await startTestIdentityProvider();
  keyA = jwks.signingKey;
  jwksUrl = jwks.jwksUrl;
});
afterAll(async () => jwks.close());

const publicJwk = (key: KeyObject, kid: string) => jwks.publicJwk(key, kid);
const sign: TestIdentityProvider['sign'] = (claims, options) => jwks.sign(claims, options);

const baseOptions = (): JwtVerifierOptions => ({
  issuer: ISSUER,
  audience: AUDIENCE,
  jwksUrl,
  algorithms: ['RS256'],
  clockToleranceS: 30,
  scopesClaim: 'scope',
  environmentsClaim: 'environments',
  jwksCooldownMs: 0,
});

const now = () => Math.floor(Date.now() / 1000);

describe('JWT bearer tokens (JWKS)', () => {
  it('accept a valid token: principal jwt:<sub> with scopes and environments from the claims', async () => {
    const result = await new JwtAuthenticator(baseOptions()).verify(await sign());
    expect(result).toEqual({
      ok: true,
      principal: {
        id: 'jwt:user-123',
        kind: 'jwt',
        scopes: ['customers:read', 'accounts:write'],
        environments: ['sandbox'],
      },
    });
  });

  it('read scopes and environments from configurable claims, as arrays or strings; unknown scopes are dropped', async () => {
    const verifier = new JwtAuthenticator({
      ...baseOptions(),
      scopesClaim: 'scp',
      environmentsClaim: 'https://cas.example/environments',
    });
    const token = await sign({
      scope: undefined,
      environments: undefined,
      scp: ['audit:read', 'admin'],
      'https://cas.example/environments': 'sandbox production-like',
    });
    expect(await verifier.verify(token)).toMatchObject({
      ok: true,
      principal: { scopes: ['audit:read'], environments: ['sandbox', 'production-like'] },
    });
    const none = await new JwtAuthenticator(baseOptions()).verify(
      await sign({ scope: undefined, environments: undefined }),
    );
    expect(none).toMatchObject({ ok: true, principal: { scopes: [], environments: [] } });
  });

  it("take the `name` claim as the principal's display name (a note's author) when it is 1–200 characters of text", async () => {
    const verifier = new JwtAuthenticator(baseOptions());
    expect(await verifier.verify(await sign({ name: '  Dana Agent ' }))).toMatchObject({
      ok: true,
      principal: { id: 'jwt:user-123', name: 'Dana Agent' },
    });
    for (const name of ['', '   ', 'x'.repeat(201), 'line\nbreak', 42, ['Dana']]) {
      const result = await verifier.verify(await sign({ name }));
      expect(result.ok).toBe(true);
      expect(result.ok && result.principal, JSON.stringify(name)).not.toHaveProperty('name');
    }
  });

  it('refuse an expired token (reason expired) and honour the bounded clock tolerance', async () => {
    const verifier = new JwtAuthenticator(baseOptions());
    expect(await verifier.verify(await sign({}, { exp: now() - 120 }))).toEqual({ ok: false, reason: 'expired' });
    expect(await verifier.verify(await sign({}, { exp: now() - 10 }))).toMatchObject({ ok: true });
  });

  it('refuse a token that is not yet valid beyond the tolerance', async () => {
    const verifier = new JwtAuthenticator(baseOptions());
    expect(await verifier.verify(await sign({}, { nbf: now() + 120 }))).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifier.verify(await sign({}, { nbf: now() + 10 }))).toMatchObject({ ok: true });
  });

  it('refuse a wrong audience, a wrong issuer, a missing exp or a missing sub', async () => {
    const verifier = new JwtAuthenticator(baseOptions());
    expect(await verifier.verify(await sign({}, { aud: 'another-service' }))).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifier.verify(await sign({}, { iss: 'https://evil.example/' }))).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await verifier.verify(await sign({}, { exp: null }))).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifier.verify(await sign({}, { sub: null }))).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuse alg: none, through the composite authenticator too', async () => {
    const unsigned = new UnsecuredJWT({ scope: 'customers:write', environments: '*' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('user-123')
      .setExpirationTime('5m')
      .encode();
    expect(unsigned.endsWith('.')).toBe(true);
    expect(await new JwtAuthenticator(baseOptions()).verify(unsigned)).toEqual({ ok: false, reason: 'invalid' });
    const composite = createAuthenticator({
      staticTokens: [TEST_STATIC_TOKEN],
      staticTokenLabelKey: TEST_LABEL_KEY,
      oidc: oidcConfig(),
    });
    expect(await composite.authenticate(`Bearer ${unsigned}`)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuse a tampered signature and a tampered payload', async () => {
    const verifier = new JwtAuthenticator(baseOptions());
    const [header, payload, signature] = (await sign()).split('.') as [string, string, string];
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(await verifier.verify(`${header}.${payload}.${flipped}`)).toEqual({ ok: false, reason: 'invalid' });
    const escalated = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload, 'base64url').toString()),
        scope: 'customers:write audit:read',
        environments: '*',
      }),
    ).toString('base64url');
    expect(await verifier.verify(`${header}.${escalated}.${signature}`)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuse a token signed by another key under a known kid', async () => {
    expect(await new JwtAuthenticator(baseOptions()).verify(await sign({}, { key: attacker.privateKey }))).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('refetch the JWKS when a token names an unknown kid (key rotation at the provider)', async () => {
    const verifier = new JwtAuthenticator(baseOptions());
    expect(await verifier.verify(await sign())).toMatchObject({ ok: true });
    const afterFirst = jwks.fetches;
    jwks.keys = [await publicJwk(keyA.publicKey, 'key-a'), await publicJwk(keyB.publicKey, 'key-b')];
    expect(await verifier.verify(await sign({}, { key: keyB.privateKey, kid: 'key-b' }))).toMatchObject({ ok: true });
    expect(jwks.fetches).toBe(afterFirst + 1);
    // A known kid is served from the cache.
    expect(await verifier.verify(await sign({}, { key: keyB.privateKey, kid: 'key-b' }))).toMatchObject({ ok: true });
    expect(jwks.fetches).toBe(afterFirst + 1);
    // A kid the provider does not have stays refused after the refetch.
    expect(await verifier.verify(await sign({}, { key: attacker.privateKey, kid: 'key-x' }))).toEqual({
      ok: false,
      reason: 'invalid',
    });
    jwks.keys = [await publicJwk(keyA.publicKey, 'key-a')];
  });

  it('do not refetch on every unknown kid: the cooldown stops a flood of made-up kids from hammering the provider', async () => {
    const verifier = new JwtAuthenticator({ ...baseOptions(), jwksCooldownMs: 30_000 });
    expect(await verifier.verify(await sign())).toMatchObject({ ok: true });
    const afterFirst = jwks.fetches;
    for (let i = 0; i < 5; i++)
      expect(await verifier.verify(await sign({}, { key: attacker.privateKey, kid: `made-up-${i}` }))).toEqual({
        ok: false,
        reason: 'invalid',
      });
    expect(jwks.fetches).toBe(afterFirst);
  });

  it('answer SERVICE_UNAVAILABLE (not 401) when the JWKS cannot be fetched', async () => {
    jwks.failing = true;
    try {
      await expect(new JwtAuthenticator(baseOptions()).verify(await sign())).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        kind: 'unavailable',
      });
    } finally {
      jwks.failing = false;
    }
  });
});

describe('JWT bearer tokens: required typ (RFC 9068) and maximum age', () => {
  it('with requiredTyp at+jwt, accept at+jwt and application/at+jwt (any case), refuse JWT, another typ or none', async () => {
    const verifier = new JwtAuthenticator({ ...baseOptions(), requiredTyp: 'at+jwt' });
    for (const typ of ['at+jwt', 'application/at+jwt', 'AT+JWT'])
      expect(await verifier.verify(await sign({}, { typ }))).toMatchObject({ ok: true });
    for (const typ of ['JWT', 'id_token+jwt', null])
      expect(await verifier.verify(await sign({}, { typ }))).toEqual({ ok: false, reason: 'invalid' });
    // Without the setting the header is not looked at.
    expect(await new JwtAuthenticator(baseOptions()).verify(await sign({}, { typ: null }))).toMatchObject({ ok: true });
  });

  it('with maxTokenAgeS, refuse a token issued longer ago (beyond the tolerance), one without iat, and one issued in the future', async () => {
    const verifier = new JwtAuthenticator({ ...baseOptions(), maxTokenAgeS: 600 });
    expect(await verifier.verify(await sign({}, { iat: now() - 590, exp: now() + 10 }))).toMatchObject({ ok: true });
    expect(await verifier.verify(await sign({}, { iat: now() - 620, exp: now() - 20 }))).toMatchObject({ ok: true }); // within the 30 s tolerance
    expect(await verifier.verify(await sign({}, { iat: now() - 700, exp: now() - 100 }))).toEqual({
      ok: false,
      reason: 'expired',
    });
    // A lifetime (exp - iat) beyond the maximum age is refused however fresh the token is.
    expect(await verifier.verify(await sign({}, { iat: now(), exp: now() + 601 }))).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await verifier.verify(await sign({}, { iat: null }))).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifier.verify(await sign({}, { iat: now() + 120 }))).toEqual({ ok: false, reason: 'invalid' });
    // Without the setting an old iat (or none) is fine while exp holds.
    expect(await new JwtAuthenticator(baseOptions()).verify(await sign({}, { iat: now() - 86_400 }))).toMatchObject({
      ok: true,
    });
    expect(await new JwtAuthenticator(baseOptions()).verify(await sign({}, { iat: null }))).toMatchObject({ ok: true });
  });
});

describe('JWT bearer tokens: production hardening by default (NODE_ENV=production)', () => {
  const productionVerifier = (env: Record<string, string> = {}) =>
    createAuthenticator({
      staticTokens: [],
      staticTokenLabelKey: TEST_LABEL_KEY,
      oidc: loadConfig({ NODE_ENV: 'production', ...TEST_PII_ENV, ...jwks.env, ...env }).oidc,
    });
  const principalOf = async (verifier: ReturnType<typeof productionVerifier>, token: string) => {
    const result = await verifier.authenticate(`Bearer ${token}`);
    return result.ok ? 'accepted' : result.reason;
  };

  it('defaults to typ at+jwt and a one-hour maximum age in production only; none turns either off explicitly', () => {
    expect(loadConfig({ NODE_ENV: 'production', ...TEST_PII_ENV, ...jwks.env }).oidc).toMatchObject({
      requiredTyp: 'at+jwt',
      maxTokenAgeS: 3600,
    });
    expect(loadConfig({ NODE_ENV: 'development', ...jwks.env }).oidc).toMatchObject({
      requiredTyp: undefined,
      maxTokenAgeS: undefined,
    });
    expect(
      loadConfig({
        NODE_ENV: 'production',
        ...TEST_PII_ENV,
        ...jwks.env,
        OIDC_REQUIRED_TYP: 'none',
        OIDC_MAX_TOKEN_AGE_S: 'none',
      }).oidc,
    ).toMatchObject({
      requiredTyp: undefined,
      maxTokenAgeS: undefined,
    });
    expect(
      loadConfig({ NODE_ENV: 'production', ...TEST_PII_ENV, ...jwks.env, OIDC_MAX_TOKEN_AGE_S: '900' }).oidc,
    ).toMatchObject({ maxTokenAgeS: 900 });
    expect(
      configProblems({ NODE_ENV: 'production', ...TEST_PII_ENV, ...jwks.env, OIDC_MAX_TOKEN_AGE_S: 'forever' }).join(
        '\n',
      ),
    ).toMatch(/OIDC_MAX_TOKEN_AGE_S must be a whole number of seconds, or none/);
    expect(
      configProblems({ NODE_ENV: 'production', ...TEST_PII_ENV, ...jwks.env, OIDC_MAX_TOKEN_AGE_S: '0' }).join('\n'),
    ).toMatch(/OIDC_MAX_TOKEN_AGE_S must be between 1 and 2678400, or none/);
  });

  it('accepts a proper access token: typ at+jwt (or application/at+jwt), issued now, living an hour at most', async () => {
    const verifier = productionVerifier();
    expect(await principalOf(verifier, await sign({}, { typ: 'at+jwt', exp: now() + 3600 }))).toBe('accepted');
    expect(await principalOf(verifier, await sign({}, { typ: 'application/at+jwt', exp: now() + 300 }))).toBe(
      'accepted',
    );
  });

  it('refuses an ID-token-shaped JWT (typ JWT, matching audience) and one without typ', async () => {
    const verifier = productionVerifier();
    expect(await principalOf(verifier, await sign({ nonce: 'n-1', auth_time: now() }, { typ: 'JWT' }))).toBe('invalid');
    expect(await principalOf(verifier, await sign({}, { typ: null }))).toBe('invalid');
  });

  it('refuses a token whose exp is ten years out, even freshly issued, and one issued more than an hour ago', async () => {
    const verifier = productionVerifier();
    expect(await principalOf(verifier, await sign({}, { typ: 'at+jwt', exp: now() + 10 * 365 * 86_400 }))).toBe(
      'invalid',
    );
    expect(await principalOf(verifier, await sign({}, { typ: 'at+jwt', iat: now() - 2 * 3600, exp: now() + 60 }))).toBe(
      'expired',
    );
    expect(await principalOf(verifier, await sign({}, { typ: 'at+jwt', iat: null }))).toBe('invalid');
    // Opted out: the same ten-year token is taken (exp still bounds it).
    const optedOut = productionVerifier({ OIDC_MAX_TOKEN_AGE_S: 'none' });
    expect(await principalOf(optedOut, await sign({}, { typ: 'at+jwt', exp: now() + 10 * 365 * 86_400 }))).toBe(
      'accepted',
    );
  });

  it('refuses an iat in the future beyond the clock tolerance in every mode, with or without a maximum age', async () => {
    const tenDays = now() + 10 * 86_400;
    expect(
      await principalOf(productionVerifier(), await sign({}, { typ: 'at+jwt', iat: tenDays, exp: tenDays + 60 })),
    ).toBe('invalid');
    const plain = new JwtAuthenticator(baseOptions());
    expect(await plain.verify(await sign({}, { iat: tenDays, exp: tenDays + 60 }))).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await plain.verify(await sign({}, { iat: now() + 120 }))).toEqual({ ok: false, reason: 'invalid' });
    // Within the tolerance (30 s): a provider's clock a little ahead is no reason to refuse.
    expect(await plain.verify(await sign({}, { iat: now() + 10 }))).toMatchObject({ ok: true });
  });
});

describe('JWT bearer tokens (static public key)', () => {
  const staticOptions = (): JwtVerifierOptions => ({ ...baseOptions(), jwksUrl: undefined, publicKey: keyA.publicKey });

  it('accept a token signed by the configured key', async () => {
    expect(await new JwtAuthenticator(staticOptions()).verify(await sign({}, { kid: 'any' }))).toMatchObject({
      ok: true,
    });
  });

  it('refuse an HS256 token whose HMAC secret is the public key (algorithm confusion)', async () => {
    const publicPem = keyA.publicKey.export({ type: 'spki', format: 'pem' });
    const forged = await new SignJWT({ scope: 'customers:write', environments: '*' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('attacker')
      .setExpirationTime('5m')
      .sign(Buffer.from(publicPem));
    expect(await new JwtAuthenticator(staticOptions()).verify(forged)).toEqual({ ok: false, reason: 'invalid' });
    // Even if the allow-list were misconfigured to include HS256 (config.ts refuses it), a public key never verifies an HMAC.
    expect(await new JwtAuthenticator({ ...staticOptions(), algorithms: ['RS256', 'HS256'] }).verify(forged)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('refuse an algorithm outside the allow-list even with a valid signature', async () => {
    const ps256 = await new SignJWT({ scope: 'customers:read', environments: ['sandbox'] })
      .setProtectedHeader({ alg: 'PS256' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('u')
      .setExpirationTime('5m')
      .sign(keyA.privateKey);
    expect(await new JwtAuthenticator(staticOptions()).verify(ps256)).toEqual({ ok: false, reason: 'invalid' });
    expect(
      await new JwtAuthenticator({ ...staticOptions(), algorithms: ['RS256', 'PS256'] }).verify(ps256),
    ).toMatchObject({ ok: true });
  });
});

const oidcConfig = () => loadConfig({ NODE_ENV: 'test', ...jwks.env }).oidc;

describe('JWT bearer tokens in the request context', () => {
  const logger = createLogger({ level: 'silent', pretty: false });
  const environments = new Set(['sandbox', 'production-like']);
  const context = async (token: string, environment: string) =>
    buildRequestContext(
      { requestId: 'r-1', environment, authorization: `Bearer ${token}`, logger },
      {
        environments,
        authenticator: createAuthenticator({
          staticTokens: [TEST_STATIC_TOKEN],
          staticTokenLabelKey: TEST_LABEL_KEY,
          oidc: oidcConfig(),
        }),
      },
    );

  it('act in their environments only (FORBIDDEN insufficient_scope elsewhere)', async () => {
    const token = await sign();
    expect((await context(token, 'sandbox')).caller.principal).toMatchObject({ id: 'jwt:user-123', kind: 'jwt' });
    await expect(context(token, 'production-like')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      kind: 'forbidden',
      requiredScope: undefined,
    });
  });

  it('expired tokens are UNAUTHENTICATED with an invalid_token challenge', async () => {
    await expect(context(await sign({}, { exp: now() - 600 }), 'sandbox')).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'The bearer token has expired.',
      challenge: { error: 'invalid_token' },
    });
  });

  it('static API_TOKENS keep working next to OIDC', async () => {
    expect((await context(TEST_STATIC_TOKEN, 'production-like')).caller.principal).toMatchObject({
      kind: 'static-token',
      environments: '*',
    });
  });
});

describe('OIDC configuration', () => {
  const base = { NODE_ENV: 'test', OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: AUDIENCE };
  const problems = (env: Record<string, string>) => configProblems(env).join('\n');
  const pem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  it('accepts a JWKS URL or a public key (PEM, one-line PEM with \\n, or JWK) with defaults', async () => {
    const config = loadConfig({ ...base, OIDC_JWKS_URL: 'https://idp.example/jwks.json' }).oidc!;
    expect(config).toMatchObject({
      algorithms: ['RS256'],
      clockToleranceS: 30,
      scopesClaim: 'scope',
      environmentsClaim: 'environments',
    });
    expect(loadConfig({ ...base, OIDC_PUBLIC_KEY: pem(keyA.publicKey) }).oidc!.publicKey!.asymmetricKeyType).toBe(
      'rsa',
    );
    expect(
      loadConfig({ ...base, OIDC_PUBLIC_KEY: pem(keyA.publicKey).replaceAll('\n', '\\n') }).oidc!.publicKey,
    ).toBeDefined();
    const jwk = JSON.stringify(await exportJWK(ec.publicKey));
    expect(loadConfig({ ...base, OIDC_PUBLIC_KEY: jwk, OIDC_ALGORITHMS: 'ES256' }).oidc!.algorithms).toEqual(['ES256']);
    expect(loadConfig({ NODE_ENV: 'test' }).oidc).toBeUndefined();
    expect(config).toMatchObject({ requiredTyp: undefined, maxTokenAgeS: undefined });
    expect(
      loadConfig({
        ...base,
        OIDC_JWKS_URL: 'https://idp.example/jwks.json',
        OIDC_REQUIRED_TYP: 'at+jwt',
        OIDC_MAX_TOKEN_AGE_S: '3600',
      }).oidc,
    ).toMatchObject({
      requiredTyp: 'at+jwt',
      maxTokenAgeS: 3600,
    });
  });

  it('refuses dangerous or incomplete settings with clear messages', async () => {
    expect(problems({ ...base, OIDC_JWKS_URL: 'https://idp.example/jwks', OIDC_ALGORITHMS: 'RS256,none' })).toMatch(
      /must not include "none"/,
    );
    expect(problems({ ...base, OIDC_JWKS_URL: 'https://idp.example/jwks', OIDC_ALGORITHMS: 'HS256' })).toMatch(
      /HS256: shared-secret algorithms are not accepted/,
    );
    expect(problems({ ...base, OIDC_JWKS_URL: 'https://idp.example/jwks', OIDC_ALGORITHMS: 'XY999' })).toMatch(
      /XY999 is not supported/,
    );
    expect(problems({ NODE_ENV: 'test', OIDC_ISSUER: ISSUER, OIDC_JWKS_URL: 'https://idp.example/jwks' })).toMatch(
      /OIDC_AUDIENCE is required/,
    );
    expect(problems({ ...base })).toMatch(/exactly one of OIDC_JWKS_URL and OIDC_PUBLIC_KEY/);
    expect(
      problems({ ...base, OIDC_JWKS_URL: 'https://idp.example/jwks', OIDC_PUBLIC_KEY: pem(keyA.publicKey) }),
    ).toMatch(/exactly one of/);
    expect(problems({ ...base, OIDC_JWKS_URL: 'http://idp.example/jwks' })).toMatch(/must use https/);
    expect(
      problems({ ...base, OIDC_PUBLIC_KEY: keyA.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }),
    ).toMatch(/a private key is refused/);
    expect(problems({ ...base, OIDC_PUBLIC_KEY: JSON.stringify({ kty: 'oct', k: 'c2VjcmV0' }) })).toMatch(
      /private or shared-secret JWK is refused/,
    );
    expect(problems({ ...base, OIDC_PUBLIC_KEY: 'not a key' })).toMatch(/must be a PEM public key/);
    expect(problems({ ...base, OIDC_PUBLIC_KEY: pem(ec.publicKey) })).toMatch(
      /RS256 cannot be verified with the ec key/,
    );
    expect(problems({ ...base, OIDC_JWKS_URL: 'https://idp.example/jwks', OIDC_CLOCK_TOLERANCE_S: '3600' })).toMatch(
      /OIDC_CLOCK_TOLERANCE_S must be between 0 and 300/,
    );
    expect(problems({ NODE_ENV: 'test', OIDC_AUDIENCE: AUDIENCE })).toMatch(/without OIDC_ISSUER/);
    expect(problems({ NODE_ENV: 'test', OIDC_REQUIRED_TYP: 'at+jwt', OIDC_MAX_TOKEN_AGE_S: '60' })).toMatch(
      /OIDC_REQUIRED_TYP, OIDC_MAX_TOKEN_AGE_S set without OIDC_ISSUER/,
    );
    expect(problems({ ...base, OIDC_JWKS_URL: 'https://idp.example/jwks', OIDC_MAX_TOKEN_AGE_S: '0' })).toMatch(
      /OIDC_MAX_TOKEN_AGE_S must be between 1 and 2678400/,
    );
    expect(problems({ ...base, OIDC_JWKS_URL: 'https://idp.example/jwks', OIDC_REQUIRED_TYP: 'at jwt' })).toMatch(
      /OIDC_REQUIRED_TYP must be a media type/,
    );
    expect(
      problems({ ...base, OIDC_JWKS_URL: 'https://idp.example/jwks', API_TOKENS: 'aaaaaaaa.bbbbbbbb.cccccccc' }),
    ).toMatch(/must not look like JWTs/);
    expect(problems({ NODE_ENV: 'test', API_TOKENS: 'cas_0123456789abcdef_secretsecret' })).toMatch(
      /must not start with cas_/,
    );
  });
});
