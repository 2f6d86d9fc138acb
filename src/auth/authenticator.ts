import { type Clock, systemClock } from '../clock.js';
import type { OidcConfig } from '../config/oidc.js';
import {
  API_TOKEN_PREFIX,
  type ApiTokenStore,
  ManagedTokenAuthenticator,
  ManagedTokenCache,
  type TokenChanges,
} from '../features/tokens/index.js';
import {
  type Authentication,
  type Authenticator,
  parseBearer,
  StaticTokenAuthenticator,
  type TokenVerifier,
} from './bearer-token.js';
import { JwtAuthenticator } from './jwt.js';

/** Three base64url segments; the last may be empty (an unsigned `alg: none` token, which is refused). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** Longer bearer tokens are refused before any parsing or database work. */
export const MAX_BEARER_TOKEN_LENGTH = 8192;

/**
 * Routes each bearer token to the one provider its shape names, so a token is never tried against
 * several providers: JWT-shaped → the OIDC provider (when configured); `cas_…` → managed API tokens;
 * anything else → the static API_TOKENS. config.ts refuses static tokens that would be misrouted.
 */
export class CompositeAuthenticator implements Authenticator {
  constructor(
    private readonly providers: {
      static: TokenVerifier;
      managed?: TokenVerifier | undefined;
      jwt?: TokenVerifier | undefined;
    },
  ) {}

  async authenticate(header: string | undefined): Promise<Authentication> {
    const parsed = parseBearer(header);
    if ('reason' in parsed) return { ok: false, reason: parsed.reason };
    const { token } = parsed;
    if (token.length > MAX_BEARER_TOKEN_LENGTH) return { ok: false, reason: 'invalid' };
    if (this.providers.jwt && JWT_SHAPE.test(token)) return this.providers.jwt.verify(token);
    if (this.providers.managed && token.startsWith(API_TOKEN_PREFIX)) return this.providers.managed.verify(token);
    return this.providers.static.verify(token);
  }
}

/** The authenticator the service runs with (src/runtime.ts). */
export function createAuthenticator(deps: {
  staticTokens: readonly string[];
  /** What people call each static token (its principal's `name`); by default "API_TOKENS entry N". */
  staticTokenNames?: readonly string[];
  /** Names static tokens' principals (staticTokenLabelKey). */
  staticTokenLabelKey: Uint8Array;
  tokenStore?: ApiTokenStore | undefined;
  oidc?: OidcConfig | undefined;
  onTouchFailed?: (error: unknown) => void;
  /**
   * The authentication caches' bounds (AUTH_CACHE_MAX_ENTRIES, AUTH_CACHE_MAX_AGE_MS; docs/adr/0099-authentication-caches.md);
   * undefined: no cache, every request verifies its token in full.
   */
  cache?: { maxEntries: number; maxAgeMs: number } | undefined;
  /** Managed tokens' change notifications (the LISTEN connection); undefined: cached managed tokens live about a second. */
  tokenChanges?: TokenChanges | undefined;
  onCacheLookup?: (cache: 'managed_token' | 'jwt', hit: boolean) => void;
  clock?: Clock | undefined;
}): CompositeAuthenticator {
  const { cache } = deps;
  const managedCache =
    deps.tokenStore && cache && cache.maxEntries > 0
      ? new ManagedTokenCache({
          ...cache,
          changes: deps.tokenChanges,
          clock: deps.clock ?? systemClock,
          onLookup: (hit) => deps.onCacheLookup?.('managed_token', hit),
        })
      : undefined;
  return new CompositeAuthenticator({
    static: new StaticTokenAuthenticator(deps.staticTokens, deps.staticTokenLabelKey, deps.staticTokenNames),
    managed: deps.tokenStore
      ? new ManagedTokenAuthenticator(deps.tokenStore, {
          onTouchFailed: deps.onTouchFailed,
          cache: managedCache,
          clock: deps.clock,
        })
      : undefined,
    jwt: deps.oidc
      ? new JwtAuthenticator({
          issuer: deps.oidc.issuer,
          audience: deps.oidc.audience,
          jwksUrl: deps.oidc.jwksUrl,
          publicKey: deps.oidc.publicKey,
          algorithms: deps.oidc.algorithms,
          clockToleranceS: deps.oidc.clockToleranceS,
          scopesClaim: deps.oidc.scopesClaim,
          environmentsClaim: deps.oidc.environmentsClaim,
          jwksCooldownMs: deps.oidc.jwksCooldownS * 1000,
          requiredTyp: deps.oidc.requiredTyp,
          maxTokenAgeS: deps.oidc.maxTokenAgeS,
          cache,
          onCacheLookup: (hit) => deps.onCacheLookup?.('jwt', hit),
          clock: deps.clock,
        })
      : undefined,
  });
}
