import { hash, type KeyObject } from 'node:crypto';
import {
  createRemoteJWKSet,
  errors,
  type ExportedJWKSCache,
  jwksCache,
  type JWTPayload,
  jwtVerify,
  type JWTVerifyGetKey,
  type RemoteJWKSet,
} from 'jose';
import { type Clock, systemClock } from '../clock.js';
import { authenticationUnavailable } from '../domain/errors.js';
import type { Principal } from '../domain/caller.js';
import { isAccessScope } from '../features/tokens/index.js';
import { BoundedCache } from './bounded-cache.js';
import type { Authentication, TokenVerifier } from './bearer-token.js';

export interface JwtVerifierOptions {
  issuer: string;
  audience: string;
  /** The identity provider's JWKS; exactly one of jwksUrl and publicKey. */
  jwksUrl?: URL | undefined;
  publicKey?: KeyObject | undefined;
  /** Asymmetric algorithms only (config.ts refuses `none` and HS*). */
  algorithms: readonly string[];
  clockToleranceS: number;
  /** Claim holding the scopes: a space-separated string (OAuth `scope`) or an array of strings. */
  scopesClaim: string;
  /** Claim holding the environments (string or array; "*" for all). */
  environmentsClaim: string;
  /** Minimum time between two JWKS fetches triggered by an unknown `kid` (jose's cooldown). */
  jwksCooldownMs?: number;
  /** A cached JWKS is refetched after this long even if every kid is known. */
  jwksCacheMaxAgeMs?: number;
  jwksTimeoutMs?: number;
  /** The `typ` header required (RFC 9068 §2.1: `at+jwt`; jose ignores case and an `application/` prefix); undefined: not checked. */
  requiredTyp?: string | undefined;
  /**
   * Refuse tokens issued (`iat`) longer ago than this, tokens without `iat`, and tokens whose `exp` lies further
   * than this after their `iat` (a ten-year token is refused at once, not only after this long); undefined:
   * only `exp` limits a token's life.
   */
  maxTokenAgeS?: number | undefined;
  /**
   * Verified tokens kept, each until the earliest of its `exp`, `maxAgeMs` after its verification and (with
   * maxTokenAgeS) its maximum age (AUTH_CACHE_MAX_ENTRIES, AUTH_CACHE_MAX_AGE_MS); undefined: every request
   * verifies the signature.
   */
  cache?: { maxEntries: number; maxAgeMs: number } | undefined;
  /** For the metrics: one look-up answered from the cache (true) or not (false). */
  onCacheLookup?: ((hit: boolean) => void) | undefined;
  /** Decides `exp`, `nbf` and `iat` (jose's currentDate) and the cache's expiry; systemClock by default. */
  clock?: Clock | undefined;
}

/** The JWKS could not be fetched or parsed: neither the token's validity nor its invalidity is known. */
class KeySourceUnavailable extends Error {}

const KEY_SOURCE_FAILURES = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JOSE_GENERIC', 'ERR_JWKS_INVALID']);

/**
 * The provider's keys as jose holds them. `held` is the key set jose fetched last, which jose itself writes
 * (its `jwksCache` option) at the moment it starts verifying with it; `fresh` is false once it is older than
 * jwksCacheMaxAgeMs, when jose would fetch again on the next verification.
 */
interface RemoteKeys {
  getKey: JWTVerifyGetKey;
  jwks: RemoteJWKSet;
  held: ExportedJWKSCache | Record<string, never>;
}

function remoteKeys(options: JwtVerifierOptions & { jwksUrl: URL }): RemoteKeys {
  const held: ExportedJWKSCache | Record<string, never> = {};
  const jwks = createRemoteJWKSet(options.jwksUrl, {
    cooldownDuration: options.jwksCooldownMs ?? 30_000,
    cacheMaxAge: options.jwksCacheMaxAgeMs ?? 10 * 60_000,
    timeoutDuration: options.jwksTimeoutMs ?? 3000,
    [jwksCache]: held,
  });
  const getKey: JWTVerifyGetKey = async (header, token) => {
    try {
      return await jwks(header, token);
    } catch (error) {
      // A missing kid or an unsupported key is the token's fault; a failed fetch is the provider's.
      if (!(error instanceof errors.JOSEError) || KEY_SOURCE_FAILURES.has(error.code))
        throw new KeySourceUnavailable('JWKS unavailable', { cause: error });
      throw error;
    }
  };
  return { getKey, jwks, held };
}

/** A verified token's principal, and what it was verified with. */
interface CachedJwt {
  principal: Principal;
  /** The key id of its header, and that key (as JSON) in the key set it was verified with; undefined: no kid. */
  kid: string | undefined;
  keyJson: string | undefined;
  /** For a token without kid: the fetch of the key set it was verified with (jose's `uat`). */
  keysFetchedAt: number | undefined;
}

/** Each key of a fetched key set by its kid, as JSON: a key that disappears or changes under its kid no longer matches. */
function keysByKid(held: Partial<ExportedJWKSCache>): Map<string, string> {
  const byKid = new Map<string, string>();
  for (const key of held.jwks?.keys ?? []) if (typeof key.kid === 'string') byKid.set(key.kid, JSON.stringify(key));
  return byKid;
}

/** Strings of a claim that is a space-separated string or an array of strings; anything else is none. */
function claimList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/**
 * OIDC/OAuth access tokens as JWTs, verified with jose: signature under the configured public key or the
 * provider's JWKS (cached, refetched on an unknown kid), an algorithm allow-list, issuer, audience,
 * exp (required) and nbf with a bounded clock tolerance; when configured, the `typ` header (RFC 9068's
 * `at+jwt`, so an ID token or another JWT of the provider is not taken for an access token) and a maximum
 * age from `iat` (then required), which bounds the token's lifetime `exp - iat` too. An `iat` in the future
 * (beyond the clock tolerance) is refused in every mode. The principal is `jwt:<sub>`.
 */
export class JwtAuthenticator implements TokenVerifier {
  private readonly key: JWTVerifyGetKey | KeyObject;
  private readonly remote: RemoteKeys | undefined;
  private readonly clock: Clock;
  private readonly cache: BoundedCache<string, CachedJwt> | undefined;
  /** keysByKid of the key set fetched at `kidsFetchedAt`, recomputed once per fetch. */
  private kids = new Map<string, string>();
  private kidsFetchedAt: number | undefined;

  constructor(private readonly options: JwtVerifierOptions) {
    if ((options.jwksUrl === undefined) === (options.publicKey === undefined))
      throw new Error('JwtAuthenticator needs exactly one of jwksUrl and publicKey');
    this.remote = options.jwksUrl ? remoteKeys({ ...options, jwksUrl: options.jwksUrl }) : undefined;
    this.key = this.remote ? this.remote.getKey : options.publicKey!;
    this.clock = options.clock ?? systemClock;
    this.cache = options.cache && options.cache.maxEntries > 0 ? new BoundedCache(options.cache.maxEntries) : undefined;
  }

  /** Entries held now. */
  get cachedTokens(): number {
    return this.cache?.size ?? 0;
  }

  async verify(token: string): Promise<Authentication> {
    if (!this.cache) return this.verifyInFull(token);
    // The digest, not the token, is the key: a cache of bearer tokens would be a heap dump's treasure.
    const key = hash('sha256', token, 'base64url');
    const cached = this.cache.get(key, this.clock.now());
    const hit = cached !== undefined && this.stillSigned(cached);
    this.options.onCacheLookup?.(hit);
    if (hit) return { ok: true, principal: cached.principal };
    return this.verifyInFull(token, (verified) => this.remember(key, verified));
  }

  /**
   * Whether the key a cached token was verified with is still the provider's, as this instance knows the key
   * set: a token whose kid left the set (or now names another key) is verified again, and refused as it would
   * be without the cache. A key set older than jwksCacheMaxAgeMs is not trusted either: verifying in full lets
   * jose fetch it again, which is how a rotation is learnt when no token names an unknown kid.
   */
  private stillSigned(entry: CachedJwt): boolean {
    const remote = this.remote;
    if (!remote) return true;
    if (!remote.jwks.fresh) return false;
    const held = remote.held as Partial<ExportedJWKSCache>;
    if (entry.kid === undefined) return entry.keysFetchedAt === held.uat;
    return this.currentKids().get(entry.kid) === entry.keyJson;
  }

  private currentKids(): Map<string, string> {
    const held = this.remote!.held as Partial<ExportedJWKSCache>;
    if (held.uat !== this.kidsFetchedAt) {
      this.kids = keysByKid(held);
      this.kidsFetchedAt = held.uat;
    }
    return this.kids;
  }

  private remember(key: string, verified: { principal: Principal; payload: JWTPayload; kid: string | undefined }) {
    const { payload, kid, principal } = verified;
    const now = this.clock.now();
    const held = this.remote?.held as Partial<ExportedJWKSCache> | undefined;
    const keyJson = kid !== undefined && held ? this.currentKids().get(kid) : undefined;
    // A kid the held key set no longer has (it was fetched again meanwhile): not kept.
    if (held && kid !== undefined && keyJson === undefined) return;
    let until = Math.min(now + this.options.cache!.maxAgeMs, payload.exp! * 1000);
    if (this.options.maxTokenAgeS !== undefined && payload.iat !== undefined)
      until = Math.min(until, (payload.iat + this.options.maxTokenAgeS) * 1000);
    this.cache!.set(key, { principal, kid, keyJson, keysFetchedAt: held?.uat }, until, now);
  }

  private async verifyInFull(
    token: string,
    onVerified?: (verified: { principal: Principal; payload: JWTPayload; kid: string | undefined }) => void,
  ): Promise<Authentication> {
    let payload: JWTPayload;
    let kid: string | undefined;
    try {
      const verifyOptions = {
        currentDate: new Date(this.clock.now()),
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: [...this.options.algorithms],
        clockTolerance: this.options.clockToleranceS,
        requiredClaims: ['exp', 'sub'],
        // jose refuses a missing or other typ, and, with maxTokenAge, a missing iat, an iat older than the
        // age (JWTExpired: answered as an expired token) or in the future, each beyond the clock tolerance.
        ...(this.options.requiredTyp !== undefined && { typ: this.options.requiredTyp }),
        ...(this.options.maxTokenAgeS !== undefined && { maxTokenAge: this.options.maxTokenAgeS }),
      };
      // Two calls rather than a union: jose types the key-function and the key overloads separately.
      const verified =
        typeof this.key === 'function'
          ? await jwtVerify(token, this.key, verifyOptions)
          : await jwtVerify(token, this.key, verifyOptions);
      payload = verified.payload;
      kid = verified.protectedHeader.kid;
    } catch (error) {
      if (error instanceof KeySourceUnavailable) throw authenticationUnavailable();
      if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
      return { ok: false, reason: 'invalid' };
    }
    if (!this.withinTimeBounds(payload)) return { ok: false, reason: 'invalid' };
    const subject = payload.sub;
    if (typeof subject !== 'string' || subject.length === 0 || subject.length > 255)
      return { ok: false, reason: 'invalid' };
    const environments = claimList(payload[this.options.environmentsClaim]);
    const name = displayName(payload.name);
    const principal: Principal = {
      id: `jwt:${subject}`,
      kind: 'jwt',
      scopes: [...new Set(claimList(payload[this.options.scopesClaim]).filter(isAccessScope))],
      environments: environments.includes('*') ? '*' : environments,
      ...(name !== undefined && { name }),
    };
    onVerified?.({ principal, payload, kid });
    return { ok: true, principal };
  }

  /**
   * What jose checks only with maxTokenAge, checked always: a token issued in the future (beyond the clock
   * tolerance) is refused. With a maximum age, a lifetime (`exp - iat`) longer than that age is refused too:
   * such a token is not one this service's policy would let live, however fresh it is (jose has read both
   * claims as numbers; `exp` is required).
   */
  private withinTimeBounds(payload: JWTPayload): boolean {
    const { iat, exp } = payload;
    if (iat === undefined) return true;
    if (iat > Math.floor(this.clock.now() / 1000) + this.options.clockToleranceS) return false;
    return this.options.maxTokenAgeS === undefined || exp === undefined || exp - iat <= this.options.maxTokenAgeS;
  }
}

/**
 * The OIDC `name` claim as a principal's display name (a case note's author, docs/adr/0105): 1 to 200 characters
 * without control characters, trimmed; anything else is no name (the author is then shown by the subject).
 */
function displayName(claim: unknown): string | undefined {
  if (typeof claim !== 'string') return undefined;
  const name = claim.trim();
  return name.length >= 1 && name.length <= 200 && !/\p{Cc}/u.test(name) ? name : undefined;
}
