import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';

export interface TestIdentityProvider {
  issuer: string;
  /** The client (its redirect URI and where sign-out returns to), once the service's address is known. */
  start(client: { clientId: string; redirectUri: string; postLogoutRedirectUri: string; allowedOrigin: string }): void;
  stop(): Promise<void>;
}

export interface TestIdentityProviderOptions {
  /** The service's OIDC_AUDIENCE: the resource indicator the console sends, and the access token's `aud`. */
  audience: string;
  /** The scopes the provider may grant for the service (the `scope` claim of its access tokens). */
  scopes: readonly string[];
  /** The `environments` claim of every access token. */
  environments: readonly string[];
}

/**
 * A real OpenID Provider (panva's certified oidc-provider) on 127.0.0.1 for the console's sign-in tests: one
 * public client (PKCE S256 required, as for every public client; RP-initiated logout back to the console), JWT access tokens (RFC 9068) for the
 * service's audience through resource indicators (RFC 8707), CORS on the token endpoint for the console's
 * origin only, and its development login and consent pages (any login and password). Its address is known
 * before the client is (the service's OIDC_ISSUER must be set when the service starts, and the client's
 * redirect URI names the service), so it listens first and serves once `start` names the client.
 */
export async function listenTestIdentityProvider(options: TestIdentityProviderOptions): Promise<TestIdentityProvider> {
  let handler: Parameters<typeof createServer>[1] = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server: Server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  return {
    issuer,
    start({ clientId, redirectUri, postLogoutRedirectUri, allowedOrigin }) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            token_endpoint_auth_method: 'none',
            redirect_uris: [redirectUri],
            post_logout_redirect_uris: [postLogoutRedirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        jwks: { keys: [signingKey] },
        cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
        ttl: { AuthorizationCode: 60, Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
        findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
        features: {
          devInteractions: { enabled: true },
          resourceIndicators: {
            enabled: true,
            defaultResource: () => options.audience,
            useGrantedResource: () => true,
            getResourceServerInfo: (_ctx, resourceIndicator) => {
              if (resourceIndicator !== options.audience) throw new errors.InvalidTarget();
              return {
                scope: options.scopes.join(' '),
                audience: options.audience,
                accessTokenFormat: 'jwt',
                accessTokenTTL: 600,
                jwt: { sign: { alg: 'RS256' } },
              };
            },
          },
        },
        extraTokenClaims: () => ({ environments: [...options.environments] }),
        clientBasedCORS: (_ctx, origin) => origin === allowedOrigin,
      });
      // The development pages import a web font from Google; this machine is offline, and the pages are the
      // provider's, not the console's: served without it.
      provider.use(async (ctx, next) => {
        await next();
        if (typeof ctx.body === 'string' && ctx.type === 'text/html')
          ctx.body = ctx.body.replace(/@import url\(https:[^)]*\);/g, '');
      });
      handler = provider.callback();
    },
    stop: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
