import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import pg from 'pg';
import { createPrismaClient } from '../../src/db/connection/prisma-client.js';
import { ACCESS_SCOPES, type Principal } from '../../src/domain/caller.js';
import { apiTokenAuditEvents, generateApiToken, PrismaApiTokenStore } from '../../src/features/tokens/index.js';
import type { BenchAuth } from './options.js';
import { BENCH_ENVIRONMENT } from './seed.js';

/** The bearer the load generator sends, and what the service's environment needs to accept it. */
export interface BenchCredentials {
  mode: BenchAuth;
  bearer: string;
  /** Added to the service's environment (API_TOKENS, or the OIDC settings that verify the JWT). */
  serviceEnv: Record<string, string>;
}

/** Who the audit trail names for the bench's token: the bench's setup, as `npm run token` names `cli:token`. */
const BENCH_SETUP: Principal = { id: 'cli:bench', kind: 'static-token', scopes: [], environments: '*' };
const JWT_ISSUER = 'https://bench.invalid';
const JWT_AUDIENCE = 'customer-account-service';
/** A full run takes about an hour; the token outlives it, and the service is told the same age limit. */
const JWT_LIFETIME_S = 6 * 60 * 60;

/**
 * The credentials the run's load uses. `managed` creates a token with every scope in the bench database through
 * the token feature's own store and audit events, as `npm run token -- create` does (src/cli/token.ts), so the
 * service looks it up as it looks up its clients' tokens. `jwt` signs an RFC 9068 access token with an ES256 key
 * made for this run, and configures the service (OIDC_PUBLIC_KEY) to verify it. `static` is an API_TOKENS entry.
 */
export async function benchCredentials(mode: BenchAuth, databaseUrl: string): Promise<BenchCredentials> {
  if (mode === 'static') {
    const bearer = `bench_${randomBytes(32).toString('base64url')}`;
    return { mode, bearer, serviceEnv: { API_TOKENS: bearer } };
  }
  if (mode === 'jwt') {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const bearer = await new SignJWT({ scope: ACCESS_SCOPES.join(' '), environments: [BENCH_ENVIRONMENT] })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject('bench-load')
      .setIssuedAt()
      .setExpirationTime(`${JWT_LIFETIME_S}s`)
      .sign(privateKey);
    return {
      mode,
      bearer,
      serviceEnv: {
        OIDC_ISSUER: JWT_ISSUER,
        OIDC_AUDIENCE: JWT_AUDIENCE,
        OIDC_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        OIDC_ALGORITHMS: 'ES256',
        OIDC_MAX_TOKEN_AGE_S: String(JWT_LIFETIME_S),
      },
    };
  }
  // A pool of its own: the client's disconnect must not end the bench's.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const prisma = createPrismaClient(pool);
  try {
    const { id, token, secretHash } = generateApiToken();
    const audit = apiTokenAuditEvents({
      actor: BENCH_SETUP,
      requestId: randomUUID(),
      operation: 'api_token.create',
      tokenId: id,
      tokenEnvironments: [BENCH_ENVIRONMENT],
      configuredEnvironments: [BENCH_ENVIRONMENT],
      changedFields: ['name', 'environments', 'scopes'],
    });
    await new PrismaApiTokenStore(prisma).insert(
      {
        id,
        name: 'bench load',
        secretHash,
        environments: [BENCH_ENVIRONMENT],
        scopes: [...ACCESS_SCOPES],
        expiresAt: null,
        limits: null,
      },
      audit,
    );
    return { mode, bearer: token, serviceEnv: {} };
  } finally {
    await prisma.$disconnect();
    await pool.end();
  }
}
