import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { startService } from '../../src/runtime.js';
import { issueApiToken } from '../support/api-tokens.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { TEST_PII_ENV } from '../support/service.js';
import { memoryLogger } from '../runtime/process-helpers.js';

/**
 * API_TOKENS is optional in production, but a production service must have some way to authenticate a
 * request: without API_TOKENS and OIDC it starts only when a usable managed token exists (src/runtime.ts).
 */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function database(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  cleanups.push(() => db.drop());
  return db;
}

const productionConfig = (db: TestDatabase) =>
  loadConfig({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: db.url,
    LOG_LEVEL: 'warn',
    LOG_PRETTY: 'false',
    ...TEST_PII_ENV,
  });

async function start(db: TestDatabase) {
  const service = await startService(productionConfig(db), memoryLogger().logger);
  cleanups.push(() => service.stop());
  return service;
}

describe('a production service without API_TOKENS or OIDC', () => {
  it('refuses to start while no managed token can authenticate (none, or only revoked and expired ones)', async () => {
    const db = await database();
    await expect(start(db)).rejects.toThrow(
      /neither API_TOKENS nor OIDC_ISSUER needs at least one managed token that is neither revoked nor expired/,
    );

    const expired = await issueApiToken(db.pool, {
      environments: ['*'],
      scopes: ['customers:read'],
      expiresAt: new Date(Date.now() - 60_000),
    });
    const revoked = await issueApiToken(db.pool, { environments: ['*'], scopes: ['customers:read'] });
    await db.pool.query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [revoked.id]);
    expect(expired.id).not.toBe(revoked.id);
    await expect(start(db)).rejects.toThrow(/needs at least one managed token/);
  });

  it('starts with one usable managed token, and serves it', async () => {
    const db = await database();
    const { token } = await issueApiToken(db.pool, { environments: ['*'], scopes: ['customers:read'] });
    const service = await start(db);
    const res = await fetch(`${service.url}/sandbox/customer/00000000-0000-4000-8000-000000000000`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(404);
  });
});
