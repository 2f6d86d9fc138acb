import type { KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { authenticationUnavailable } from '../domain/errors.js';
import type { Principal } from '../domain/caller.js';
import { isAccessScope } from '../features/tokens/index.js';
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
}

/** The JWKS could not be fetched or parsed: neither the token's validity nor its invalidity is known. */
class KeySourceUnavailable extends Error {}

const KEY_SOURCE_FAILURES = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JOSE_GENERIC', 'ERR_JWKS_INVALID']);

function remoteKeys(options: JwtVerifierOptions & { jwksUrl: URL }): JWTVerifyGetKey {
  const jwks = createRemoteJWKSet(options.jwksUrl, {
    cooldownDuration: options.jwksCooldownMs ?? 30_000,
    cacheMaxAge: options.jwksCacheMaxAgeMs ?? 10 * 60_000,
    timeoutDuration: options.jwksTimeoutMs ?? 3000,
  });
  return async (header, token) => {
    try {
      return await jwks(header, token);
    } catch (error) {
      // A missing kid or an unsupported key is the token's fault; a failed fetch is the provider's.
      if (!(error instanceof errors.JOSEError) || KEY_SOURCE_FAILURES.has(error.code))
        throw new KeySourceUnavailable('JWKS unavailable', { cause: error });
      throw error;
    }
  };
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

  constructor(private readonly options: JwtVerifierOptions) {
    if ((options.jwksUrl === undefined) === (options.publicKey === undefined))
      throw new Error('JwtAuthenticator needs exactly one of jwksUrl and publicKey');
    this.key = options.jwksUrl ? remoteKeys({ ...options, jwksUrl: options.jwksUrl }) : options.publicKey!;
  }

  async verify(token: string): Promise<Authentication> {
    let payload: JWTPayload;
    try {
      const verifyOptions = {
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
      ({ payload } =
        typeof this.key === 'function'
          ? await jwtVerify(token, this.key, verifyOptions)
          : await jwtVerify(token, this.key, verifyOptions));
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
    if (iat > Math.floor(Date.now() / 1000) + this.options.clockToleranceS) return false;
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
