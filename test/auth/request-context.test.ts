import { describe, expect, it } from 'vitest';
import { createAuthenticator, MAX_BEARER_TOKEN_LENGTH } from '../../src/auth/authenticator.js';
import { buildRequestContext } from '../../src/auth/request-context.js';
import type { RequestError } from '../../src/auth/errors.js';
import { bearerChallengeHeader, challengeHeaderFor } from '../../src/auth/www-authenticate.js';
import { PrismaApiTokenStore } from '../../src/features/tokens/api-token.store.js';
import { withTranslatedErrors } from '../../src/db/sql/errors.js';
import { createPool } from '../../src/db/connection/pool.js';
import { createPrismaClient } from '../../src/db/connection/prisma-client.js';
import { forbidden, insufficientScope } from '../../src/domain/errors.js';
import { ACCESS_SCOPES } from '../../src/domain/caller.js';
import { createLogger } from '../../src/logging/logger.js';
import { TEST_STATIC_TOKEN, TEST_LABEL_KEY } from '../support/static-token.js';

const STATIC = TEST_STATIC_TOKEN;
const logger = createLogger({ level: 'silent', pretty: false });
const environments = new Set(['sandbox', 'production-like']);
const authenticator = createAuthenticator({ staticTokens: [STATIC], staticTokenLabelKey: TEST_LABEL_KEY });
const context = (authorization: string | undefined, environment = 'sandbox', auth = authenticator) =>
  buildRequestContext({ requestId: 'r-1', environment, authorization, logger }, { environments, authenticator: auth });
const failure = (authorization: string | undefined, environment = 'sandbox') =>
  context(authorization, environment).then(
    () => undefined,
    (error: RequestError) => error,
  );

describe('request context and RFC 6750 challenges', () => {
  it('gives static API_TOKENS every scope in every environment', async () => {
    for (const environment of environments) {
      expect((await context(`Bearer ${STATIC}`, environment)).caller.principal).toMatchObject({
        kind: 'static-token',
        scopes: ACCESS_SCOPES,
        environments: '*',
      });
    }
  });

  it('challenges without an error code when no credentials were sent', async () => {
    const error = (await failure(undefined))!;
    expect(error).toMatchObject({ code: 'UNAUTHENTICATED', kind: 'unauthenticated', challenge: {} });
    expect(bearerChallengeHeader(error.challenge!, error.message)).toBe('Bearer realm="customer-account-service"');
  });

  it('answers invalid_request for a header that is not Bearer <token>, invalid_token for a wrong token', async () => {
    expect(await failure(`Basic ${Buffer.from('a:b').toString('base64')}`)).toMatchObject({
      code: 'UNAUTHENTICATED',
      challenge: { error: 'invalid_request' },
    });
    expect(await failure('Bearer two words')).toMatchObject({ challenge: { error: 'invalid_request' } });
    const wrong = (await failure('Bearer not-the-right-token-at-all'))!;
    expect(wrong).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'The bearer token is not valid.',
      challenge: { error: 'invalid_token' },
    });
    expect(bearerChallengeHeader(wrong.challenge!, wrong.message)).toBe(
      'Bearer realm="customer-account-service", error="invalid_token", error_description="The bearer token is not valid."',
    );
  });

  it('refuses oversized tokens without looking them up', async () => {
    expect(await failure(`Bearer ${'a'.repeat(MAX_BEARER_TOKEN_LENGTH + 1)}`)).toMatchObject({
      challenge: { error: 'invalid_token' },
    });
  });

  it('authenticates before looking at the environment: an unknown one is 401 without a valid token, 404 (listing nothing) with one', async () => {
    expect(await failure(undefined, 'staging')).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await failure('Bearer not-the-right-token-at-all', 'staging')).toMatchObject({
      code: 'UNAUTHENTICATED',
      challenge: { error: 'invalid_token' },
    });
    const unknown = (await failure(`Bearer ${STATIC}`, 'staging'))!;
    expect(unknown).toMatchObject({ code: 'ENVIRONMENT_NOT_FOUND', kind: 'not_found' });
    expect(unknown.message).not.toMatch(/sandbox|production-like/);
  });

  it('renders insufficient_scope with the scope needed, and strips characters RFC 6750 forbids', () => {
    const error = insufficientScope('customers:write');
    expect(challengeHeaderFor(error)).toBe(
      'Bearer realm="customer-account-service", error="insufficient_scope", error_description="The token lacks the scope this operation needs: customers:write.", scope="customers:write"',
    );
    const odd = forbidden('say "hi" \\ bye\n');
    expect(challengeHeaderFor(odd)).toBe(
      'Bearer realm="customer-account-service", error="insufficient_scope", error_description="say hi  bye"',
    );
  });

  it('answers SERVICE_UNAVAILABLE, not 401, when the token database cannot be reached', async () => {
    const pool = createPool({
      connectionString: 'postgres://nobody:nothing@127.0.0.1:1/none',
      max: 1,
      connectTimeoutMs: 500,
      statementTimeoutMs: 1000,
    });
    const prisma = createPrismaClient(pool);
    try {
      const managed = createAuthenticator({
        staticTokens: [STATIC],
        staticTokenLabelKey: TEST_LABEL_KEY,
        tokenStore: withTranslatedErrors(new PrismaApiTokenStore(prisma)),
      });
      const token = `cas_0123456789abcdef_${'A'.repeat(43)}`;
      await expect(context(`Bearer ${token}`, 'sandbox', managed)).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        kind: 'unavailable',
      });
      // Static tokens need no database.
      expect((await context(`Bearer ${STATIC}`, 'sandbox', managed)).caller.principal.kind).toBe('static-token');
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
  });
});
