import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JwtAuthenticator, type JwtVerifierOptions } from '../../src/auth/jwt.js';
import { ManualClock } from '../support/clock.js';
import {
  rsaKeyPair,
  startTestIdentityProvider,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TestIdentityProvider,
} from '../support/identity-provider.js';

/**
 * The JWT verification cache (docs/adr/0099-authentication-caches.md): a verified token is answered from memory
 * until its `exp` or the cache's age bound, never once the key that signed it has left the provider's key set.
 * Time is an input: a ManualClock decides both the cache's ages and jose's `exp`/`nbf`/`iat` checks.
 */
let idp: TestIdentityProvider;
beforeAll(async () => {
  idp = await startTestIdentityProvider();
});
afterAll(async () => idp?.close());
beforeEach(async () => {
  idp.keys = [await idp.publicJwk(idp.signingKey.publicKey, 'key-a')];
});

const MAX_AGE_MS = 60_000;

function verifier(options: Partial<JwtVerifierOptions> = {}) {
  // At a whole second: JWT times are seconds, so each advance below lands where the test says, not a rounding away.
  const clock = new ManualClock(Math.floor(Date.now() / 1000) * 1000);
  const lookups: boolean[] = [];
  const jwt = new JwtAuthenticator({
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
    jwksUrl: idp.jwksUrl,
    algorithms: ['RS256'],
    clockToleranceS: 0,
    scopesClaim: 'scope',
    environmentsClaim: 'environments',
    jwksCooldownMs: 0,
    cache: { maxEntries: 100, maxAgeMs: MAX_AGE_MS },
    onCacheLookup: (hit) => lookups.push(hit),
    clock,
    ...options,
  });
  const seconds = () => Math.floor(clock.now() / 1000);
  /** A token issued now on this clock (the provider's default iat is the machine's now). */
  const sign: TestIdentityProvider['sign'] = (claims, signOptions) =>
    idp.sign(claims, { iat: seconds(), exp: seconds() + 300, ...signOptions });
  return { jwt, clock, lookups, seconds, sign };
}

describe('the JWT verification cache', () => {
  it('answers a verified token from memory, with the same principal; a refusal is not kept', async () => {
    const { jwt, lookups, sign } = verifier();
    const token = await sign();
    const first = await jwt.verify(token);
    expect(first).toMatchObject({
      ok: true,
      principal: { id: 'jwt:user-123', scopes: ['customers:read', 'accounts:write'] },
    });
    expect(await jwt.verify(token)).toEqual(first);
    expect(lookups).toEqual([false, true]);

    const forged = await sign({}, { key: rsaKeyPair().privateKey });
    expect(await jwt.verify(forged)).toEqual({ ok: false, reason: 'invalid' });
    expect(await jwt.verify(forged)).toEqual({ ok: false, reason: 'invalid' });
    expect(jwt.cachedTokens).toBe(1);
  });

  it("never past the token's exp, nor past AUTH_CACHE_MAX_AGE_MS after its verification", async () => {
    const { jwt, clock, lookups, seconds, sign } = verifier();
    const shortLived = await sign({}, { iat: seconds(), exp: seconds() + 30 });
    const longLived = await sign({}, { iat: seconds(), exp: seconds() + 3600, sub: 'long' });
    await jwt.verify(shortLived);
    await jwt.verify(longLived);
    clock.advance(29_000);
    expect(await jwt.verify(shortLived)).toMatchObject({ ok: true });
    clock.advance(1000);
    expect(await jwt.verify(shortLived)).toEqual({ ok: false, reason: 'expired' });
    expect(lookups).toEqual([false, false, true, false]);

    clock.advance(MAX_AGE_MS - 30_000 - 1);
    expect(await jwt.verify(longLived)).toMatchObject({ ok: true });
    clock.advance(1);
    expect(await jwt.verify(longLived)).toMatchObject({ ok: true });
    expect(lookups.slice(4)).toEqual([true, false]);
  });

  it('with a maximum token age, not past iat + that age either', async () => {
    const { jwt, clock, lookups, seconds, sign } = verifier({ maxTokenAgeS: 20 });
    const token = await sign({}, { iat: seconds(), exp: seconds() + 20 });
    await jwt.verify(token);
    clock.advance(19_999);
    expect(await jwt.verify(token)).toMatchObject({ ok: true });
    clock.advance(1);
    expect(await jwt.verify(token)).toEqual({ ok: false, reason: 'expired' });
    expect(lookups).toEqual([false, true, false]);
  });

  it('does not serve a token whose key left the key set (rotation), nor one whose kid now names another key', async () => {
    const { jwt, lookups, sign } = verifier();
    const signedByA = await sign();
    expect(await jwt.verify(signedByA)).toMatchObject({ ok: true });
    expect(await jwt.verify(signedByA)).toMatchObject({ ok: true });

    // The provider rotates to key-b; the first token naming it makes jose fetch the key set again.
    const keyB = rsaKeyPair();
    idp.keys = [await idp.publicJwk(keyB.publicKey, 'key-b')];
    expect(await jwt.verify(await sign({}, { key: keyB.privateKey, kid: 'key-b' }))).toMatchObject({ ok: true });
    expect(await jwt.verify(signedByA)).toEqual({ ok: false, reason: 'invalid' });
    expect(lookups).toEqual([false, true, false, false]);

    // key-a comes back, but under its kid a different key: the old entry must not match it.
    const signedByOldA = await sign({}, { sub: 'old-a' });
    const keyA2 = rsaKeyPair();
    idp.keys = [await idp.publicJwk(idp.signingKey.publicKey, 'key-a')];
    expect(await jwt.verify(signedByOldA)).toMatchObject({ ok: true });
    idp.keys = [await idp.publicJwk(keyA2.publicKey, 'key-a'), await idp.publicJwk(keyB.publicKey, 'key-c')];
    expect(await jwt.verify(await sign({}, { key: keyB.privateKey, kid: 'key-c' }))).toMatchObject({ ok: true });
    expect(await jwt.verify(signedByOldA)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('does not trust a key set older than its maximum age: every token is verified in full, the set fetched again', async () => {
    const { jwt, lookups, sign } = verifier({ jwksCacheMaxAgeMs: 0 });
    const token = await sign();
    const before = idp.fetches;
    expect(await jwt.verify(token)).toMatchObject({ ok: true });
    expect(await jwt.verify(token)).toMatchObject({ ok: true });
    expect(lookups).toEqual([false, false]);
    expect(idp.fetches).toBe(before + 2);
  });

  it('holds AUTH_CACHE_MAX_ENTRIES tokens at most, the least recently used leaving first; 0 holds none', async () => {
    const { jwt, lookups, sign } = verifier({ cache: { maxEntries: 2, maxAgeMs: MAX_AGE_MS } });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((sub) => sign({}, { sub })));
    for (const token of [a!, b!, a!, c!, a!, c!, b!]) expect(await jwt.verify(token)).toMatchObject({ ok: true });
    expect(lookups).toEqual([false, false, true, false, true, true, false]);
    expect(jwt.cachedTokens).toBe(2);

    const none = verifier({ cache: { maxEntries: 0, maxAgeMs: MAX_AGE_MS } });
    await none.jwt.verify(a!);
    await none.jwt.verify(a!);
    expect(none.jwt.cachedTokens).toBe(0);
  });
});
