import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, type JWK, type JWTPayload, SignJWT } from 'jose';

export const TEST_ISSUER = 'https://idp.test.example/';
export const TEST_AUDIENCE = 'customer-account-service';

export const rsaKeyPair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

export interface SignOptions {
  key?: KeyObject;
  kid?: string;
  iss?: string;
  aud?: string;
  /** Seconds since the epoch; null leaves exp out. Default: in 5 minutes. */
  exp?: number | null;
  nbf?: number;
  /** null leaves sub out. Default: user-123. */
  sub?: string | null;
  /** The `typ` header; null leaves it out. Default: JWT. */
  typ?: string | null;
  /** Seconds since the epoch; null leaves iat out. Default: now. */
  iat?: number | null;
}

export interface TestIdentityProvider {
  jwksUrl: URL;
  /** The env vars that point the service at this provider. */
  env: Record<string, string>;
  /** The keys the JWKS endpoint serves; replace to rotate. */
  keys: JWK[];
  /** JWKS requests served so far. */
  fetches: number;
  /** When true the endpoint answers 503. */
  failing: boolean;
  signingKey: { privateKey: KeyObject; publicKey: KeyObject };
  /** An RS256 token with `scope` "customers:read accounts:write" and environments ["sandbox"] unless overridden. */
  sign(claims?: JWTPayload, options?: SignOptions): Promise<string>;
  publicJwk(key: KeyObject, kid: string): Promise<JWK>;
  close(): Promise<void>;
}

/** An OIDC provider's JWKS endpoint on 127.0.0.1, for tests of JWT bearer tokens. */
export async function startTestIdentityProvider(): Promise<TestIdentityProvider> {
  const signingKey = rsaKeyPair();
  const publicJwk = async (key: KeyObject, kid: string): Promise<JWK> => ({
    ...(await exportJWK(key)),
    kid,
    alg: 'RS256',
    use: 'sig',
  });
  const server = createServer((_request, response) => {
    provider.fetches += 1;
    if (provider.failing) {
      response.writeHead(503).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: provider.keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`);
  const provider: TestIdentityProvider = {
    jwksUrl,
    env: {
      OIDC_ISSUER: TEST_ISSUER,
      OIDC_AUDIENCE: TEST_AUDIENCE,
      OIDC_JWKS_URL: jwksUrl.href,
      OIDC_JWKS_COOLDOWN_S: '0',
    },
    keys: [await publicJwk(signingKey.publicKey, 'key-a')],
    fetches: 0,
    failing: false,
    signingKey,
    publicJwk,
    async sign(claims = {}, options = {}) {
      const jwt = new SignJWT({ scope: 'customers:read accounts:write', environments: ['sandbox'], ...claims })
        .setProtectedHeader({
          alg: 'RS256',
          kid: options.kid ?? 'key-a',
          ...(options.typ !== null && { typ: options.typ ?? 'JWT' }),
        })
        .setIssuer(options.iss ?? TEST_ISSUER)
        .setAudience(options.aud ?? TEST_AUDIENCE);
      if (options.iat !== null) jwt.setIssuedAt(options.iat);
      if (options.sub !== null) jwt.setSubject(options.sub ?? 'user-123');
      if (options.exp !== null) jwt.setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 300);
      if (options.nbf !== undefined) jwt.setNotBefore(options.nbf);
      return jwt.sign(options.key ?? signingKey.privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return provider;
}
