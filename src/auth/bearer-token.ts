import { createHmac, hash, hkdfSync, timingSafeEqual } from 'node:crypto';
import { ACCESS_SCOPES, type Principal } from '../domain/caller.js';

/** Why a bearer token proves nothing; request-context.ts turns each into a message and an RFC 6750 error. */
export type AuthenticationFailure = 'missing' | 'malformed' | 'invalid' | 'expired' | 'revoked';

/** What an Authorization header proves, if anything. */
export type Authentication = { ok: true; principal: Principal } | { ok: false; reason: AuthenticationFailure };

export interface Authenticator {
  /** Throws only when the answer cannot be known yet (SERVICE_UNAVAILABLE: database or identity provider down). */
  authenticate(authorizationHeader: string | undefined): Promise<Authentication>;
}

/** One kind of token (static, managed, JWT); the composite authenticator picks one by the token's shape. */
export interface TokenVerifier {
  verify(token: string): Promise<Authentication>;
}

const BEARER = /^Bearer ([\x21-\x7e]+)$/i;

/** The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1). */
export function parseBearer(header: string | undefined): { token: string } | { reason: 'missing' | 'malformed' } {
  if (header === undefined || header === '') return { reason: 'missing' };
  const match = BEARER.exec(header.trim());
  return match ? { token: match[1]! } : { reason: 'malformed' };
}

// One-shot hashing: createHash() builds a stream object per call, a visible share of a GET's CPU.
const digest = (token: string): Buffer => hash('sha256', token, 'buffer');

/**
 * The key that names static tokens' principals, derived (HKDF) from the deployment's blind-index key
 * (PII_BLIND_INDEX_KEY): the same on every instance and across restarts, so audit rows stay attributable,
 * and secret, so a label cannot be used to test guesses of a token offline, as an unkeyed digest prefix could
 * by anyone reading the audit trail.
 */
export const staticTokenLabelKey = (blindIndexKey: Uint8Array): Buffer =>
  Buffer.from(hkdfSync('sha256', blindIndexKey, Buffer.alloc(0), 'cas static token label v1', 32));

/** `static:` and 16 hex digits of HMAC-SHA-256(label key, token): 64 bits, unique among a handful of tokens. */
const principalIdOf = (token: string, labelKey: Uint8Array): string =>
  `static:${createHmac('sha256', labelKey).update(token).digest('hex').slice(0, 16)}`;

/** What each static token's principal is called (its id → its name), for records that keep only the id (the audit trail). */
export function staticPrincipalNames(
  tokens: readonly string[],
  labelKey: Uint8Array,
  names: readonly string[] = [],
): Map<string, string> {
  return new Map(tokens.map((token, i) => [principalIdOf(token, labelKey), staticTokenName(names, i)]));
}

const staticTokenName = (names: readonly string[], i: number): string => names[i] ?? `API_TOKENS entry ${i + 1}`;

/**
 * The static tokens of API_TOKENS: every scope in every environment. Only SHA-256 digests are kept in
 * memory, compared in constant time against every configured token, so neither timing nor a heap dump
 * reveals a token. A principal is named by a keyed label (staticTokenLabelKey), never by the token or an
 * unkeyed digest of it.
 */
export class StaticTokenAuthenticator implements Authenticator, TokenVerifier {
  private readonly digests: Buffer[];
  private readonly principalIds: Map<Buffer, string>;

  private readonly names: Map<Buffer, string>;

  /** `names[i]` names `tokens[i]` to the people using it ("development token"); by default its place in API_TOKENS. */
  constructor(tokens: readonly string[], labelKey: Uint8Array, names: readonly string[] = []) {
    this.digests = tokens.map(digest);
    this.principalIds = new Map(tokens.map((token, i) => [this.digests[i]!, principalIdOf(token, labelKey)]));
    this.names = new Map(tokens.map((_token, i) => [this.digests[i]!, staticTokenName(names, i)]));
  }

  async authenticate(header: string | undefined): Promise<Authentication> {
    const parsed = parseBearer(header);
    if ('reason' in parsed) return { ok: false, reason: parsed.reason };
    return this.verify(parsed.token);
  }

  async verify(token: string): Promise<Authentication> {
    const presented = digest(token);
    let match: Buffer | undefined;
    for (const candidate of this.digests) if (timingSafeEqual(candidate, presented)) match ??= candidate;
    if (!match) return { ok: false, reason: 'invalid' };
    return {
      ok: true,
      principal: {
        id: this.principalIds.get(match)!,
        kind: 'static-token',
        scopes: ACCESS_SCOPES,
        environments: '*',
        name: this.names.get(match)!,
      },
    };
  }
}
