import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenResourceId } from '../../../src/features/tokens/api-token-audit.js';
import { generateApiToken, ManagedTokenAuthenticator } from '../../../src/features/tokens/api-tokens.js';
import { createAuthenticator } from '../../../src/auth/authenticator.js';
import { buildRequestContext } from '../../../src/auth/request-context.js';
import { PrismaApiTokenStore } from '../../../src/features/tokens/api-token.store.js';
import { createLogger } from '../../../src/logging/logger.js';
import { runningEmbeddedPostgresUrl, startEmbeddedPostgres } from '../../../src/db/postgres/embedded-postgres.js';
import { migrate, readMigrations } from '../../../src/db/migrations/migrations.js';
import { createPool } from '../../../src/db/connection/pool.js';
import { TEST_PII_ENV } from '../../support/service.js';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { TEST_STATIC_TOKEN, TEST_LABEL_KEY } from '../../support/static-token.js';

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');

let h: DomainHarness;
let store: PrismaApiTokenStore;
beforeAll(async () => {
  h = await createDomainHarness();
  store = new PrismaApiTokenStore(h.prisma);
});
afterAll(async () => h.close());

const logger = createLogger({ level: 'silent', pretty: false });
const environments = new Set(['sandbox', 'production-like']);

async function issue(environmentsOfToken: string[], scopes: string[]) {
  const generated = generateApiToken();
  await store.insert(
    {
      id: generated.id,
      name: 'test',
      secretHash: generated.secretHash,
      environments: environmentsOfToken,
      scopes,
      expiresAt: null,
      limits: null,
    },
    [],
  );
  return generated;
}

const contextFor = (authenticator: ReturnType<typeof createAuthenticator>, token: string, environment = 'sandbox') =>
  buildRequestContext(
    { requestId: 'r-1', environment, authorization: `Bearer ${token}`, logger },
    { environments, authenticator },
  );

describe('managed API tokens', () => {
  it('have the form cas_<id>_<secret> and store only a digest of the secret', async () => {
    const { id, token } = await issue(['sandbox'], ['customers:read']);
    expect(token).toMatch(/^cas_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const { rows } = await h.pool.query('SELECT * FROM api_tokens WHERE id = $1', [id]);
    const secret = token.split('_').slice(2).join('_');
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect((rows[0].secret_hash as Buffer).length).toBe(32);
  });

  it('authenticate with their scopes and environments, and record their last use', async () => {
    const { id, token } = await issue(['sandbox'], ['customers:read', 'accounts:write', 'not-a-scope']);
    const result = await new ManagedTokenAuthenticator(store).verify(token);
    expect(result).toEqual({
      ok: true,
      principal: {
        id: `token:${id}`,
        kind: 'api-token',
        // The token's name, as people read it (a case note's author, GraphQL viewer).
        name: 'test',
        scopes: ['customers:read', 'accounts:write'],
        environments: ['sandbox'],
      },
    });
    await expect.poll(async () => (await store.findById(id))?.lastUsedAt).not.toBeNull();
  });

  it('are refused with a wrong secret, an unknown id or a malformed shape', async () => {
    const { id, token } = await issue(['*'], ['customers:read']);
    const verifier = new ManagedTokenAuthenticator(store);
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect(await verifier.verify(flipped)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifier.verify(token.replace(id, 'ffffffffffffffff'))).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifier.verify(`${token}x`)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifier.verify("cas_' OR 1=1 --")).toEqual({ ok: false, reason: 'invalid' });
  });

  it('are bound to their environments by the request context (FORBIDDEN, insufficient_scope)', async () => {
    const authenticator = createAuthenticator({
      staticTokens: [TEST_STATIC_TOKEN],
      staticTokenLabelKey: TEST_LABEL_KEY,
      tokenStore: store,
    });
    const { id, token } = await issue(['sandbox'], ['customers:read']);
    const context = await contextFor(authenticator, token, 'sandbox');
    expect(context.caller.principal.id).toBe(`token:${id}`);
    await expect(contextFor(authenticator, token, 'production-like')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      kind: 'forbidden',
      requiredScope: undefined,
    });
    const everywhere = await issue(['*'], ['customers:read']);
    expect((await contextFor(authenticator, everywhere.token, 'production-like')).caller.principal.environments).toBe(
      '*',
    );
  });

  it('stop working on the very next request once revoked', async () => {
    const authenticator = createAuthenticator({
      staticTokens: [TEST_STATIC_TOKEN],
      staticTokenLabelKey: TEST_LABEL_KEY,
      tokenStore: store,
    });
    const { id, token } = await issue(['sandbox'], ['customers:read']);
    await contextFor(authenticator, token);
    expect(await store.revoke(id, new Date(), () => [])).toBe('revoked');
    await expect(contextFor(authenticator, token)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'The bearer token has been revoked.',
      challenge: { error: 'invalid_token' },
    });
    expect(await store.revoke(id, new Date(), () => [])).toBe('already-revoked');
    expect(await store.revoke('0000000000000000', new Date(), () => [])).toBe('not-found');
  });
});

describe('npm run token (the CLI, as a process)', () => {
  const cli = (...args: string[]) =>
    run(TSX, ['src/cli/token.ts', ...args], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: h.database.url,
        ENVIRONMENTS: 'sandbox,production-like',
        API_TOKENS: TEST_STATIC_TOKEN,
      },
    });
  const failing = (...args: string[]) =>
    cli(...args).then(
      () => {
        throw new Error('expected the command to fail');
      },
      (error: { code: number; stderr: string; stdout: string }) => error,
    );

  it('creates a token printed once, lists it without secrets, revokes it', async () => {
    // Each process takes a second or two (TypeScript through tsx): independent runs go in parallel.
    const [json, human] = await Promise.all([
      cli(
        'create',
        '--env',
        'sandbox',
        '--scopes',
        'customers:read,customers:ssn_search,accounts:write',
        '--name',
        'mobile app',
        '--json',
      ),
      cli('create', '--env', '*', '--scopes', 'audit:read', '--name', 'auditor'),
    ]);
    const created = JSON.parse(json.stdout);
    expect(created).toMatchObject({
      name: 'mobile app',
      environments: ['sandbox'],
      scopes: ['customers:read', 'customers:ssn_search', 'accounts:write'],
      revokedAt: null,
    });
    expect(created.token).toMatch(new RegExp(`^cas_${created.id}_`));
    expect(human.stdout).toMatch(/shown this once/);
    const humanToken = /cas_[0-9a-f]{16}_[A-Za-z0-9_-]{43}/.exec(human.stdout)![0];

    const verifier = new ManagedTokenAuthenticator(store);
    expect(await verifier.verify(created.token)).toMatchObject({ ok: true });
    expect(await verifier.verify(humanToken)).toMatchObject({
      ok: true,
      principal: { environments: '*', scopes: ['audit:read'] },
    });

    const [listed, listedForHumans] = await Promise.all([cli('list', '--json'), cli('list')]);
    for (const output of [listed.stdout, listedForHumans.stdout]) {
      expect(output).not.toContain(created.token.slice(`cas_${created.id}_`.length));
      expect(output).not.toContain(humanToken.slice(21));
      expect(output).toContain(created.id);
    }

    const revoked = await cli('revoke', created.id);
    expect(revoked.stdout).toMatch(/Revoked token/);
    expect(await verifier.verify(created.token)).toEqual({ ok: false, reason: 'revoked' });
    expect(
      JSON.parse((await cli('list', '--json')).stdout).find((t: { id: string }) => t.id === created.id).revokedAt,
    ).not.toBeNull();
  }, 120_000); // five rounds of CLI processes, each a TypeScript start through tsx

  it('creates a token with an expiry and limits, lists them, and audits create and revoke (cli:token, one row per environment, no secret)', async () => {
    const before = Date.now();
    const created = JSON.parse(
      (
        await cli(
          'create',
          '--env',
          '*',
          '--scopes',
          'customers:read',
          '--name',
          'limited',
          '--expires-in',
          '90d',
          '--max-amount',
          '250.5',
          '--daily-limit',
          'USD:1000',
          '--daily-limit',
          'eur:500',
          '--json',
        )
      ).stdout,
    );
    const expiresAt = new Date(created.expiresAt).getTime();
    expect(expiresAt - before).toBeGreaterThanOrEqual(90 * 86_400_000 - 1000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(90 * 86_400_000);
    expect(created.limits).toEqual({ maxAmount: '250.5', daily: { USD: '1000', EUR: '500' } });
    expect(await new ManagedTokenAuthenticator(store).verify(created.token)).toMatchObject({
      ok: true,
      principal: { id: `token:${created.id}`, limits: { maxAmount: '250.5', daily: { USD: '1000', EUR: '500' } } },
    });

    const listed = (await cli('list')).stdout.split('\n').find((line) => line.startsWith(created.id))!;
    expect(listed).toContain(`expires ${created.expiresAt}`);
    expect(listed).toContain('last used 20'); // the verification above recorded a use
    expect(listed).toContain('limits=max 250.5,EUR 500/day,USD 1000/day');
    expect(await cli('revoke', created.id)).toMatchObject({ stdout: expect.stringMatching(/Revoked token/) });

    const { rows } = await h.pool.query(
      'SELECT * FROM audit_events WHERE resource_id = $1 ORDER BY operation, environment',
      [apiTokenResourceId(created.id)],
    );
    expect(rows.map((row) => [row.operation, row.environment, row.principal_id, row.resource_type])).toEqual([
      ['api_token.create', 'production-like', 'cli:token', 'api_token'],
      ['api_token.create', 'sandbox', 'cli:token', 'api_token'],
      ['api_token.revoke', 'production-like', 'cli:token', 'api_token'],
      ['api_token.revoke', 'sandbox', 'cli:token', 'api_token'],
    ]);
    expect(rows[0].changed_fields).toEqual(['name', 'environments', 'scopes', 'expiresAt', 'limits']);
    const secret = created.token.slice(`cas_${created.id}_`.length);
    const { rows: digest } = await h.pool.query(
      "SELECT encode(secret_hash, 'hex') AS hex FROM api_tokens WHERE id = $1",
      [created.id],
    );
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(JSON.stringify(rows)).not.toContain(digest[0].hex);
  }, 120_000);

  it('refuses a token that has expired like an unknown one', async () => {
    const generated = generateApiToken();
    await store.insert(
      {
        id: generated.id,
        name: 'expired',
        secretHash: generated.secretHash,
        environments: ['sandbox'],
        scopes: ['customers:read'],
        expiresAt: new Date(Date.now() - 1),
        limits: null,
      },
      [],
    );
    expect(await new ManagedTokenAuthenticator(store).verify(generated.token)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect((await store.findById(generated.id))?.lastUsedAt).toBeNull();
  });

  it('refuses bad input with a clear message and exit code 64', async () => {
    const [noScopes, badScope, badEnv, unknownId, badExpiry, badMax, badDaily] = await Promise.all([
      failing('create', '--env', 'sandbox', '--name', 'x'),
      failing('create', '--env', 'sandbox', '--scopes', 'customers:admin', '--name', 'x'),
      failing('create', '--env', 'staging', '--scopes', 'customers:read', '--name', 'x'),
      failing('revoke', 'ffffffffffffffff'),
      failing('create', '--env', 'sandbox', '--scopes', 'customers:read', '--name', 'x', '--expires-in', '90 days'),
      failing('create', '--env', 'sandbox', '--scopes', 'customers:read', '--name', 'x', '--max-amount', '0'),
      failing('create', '--env', 'sandbox', '--scopes', 'customers:read', '--name', 'x', '--daily-limit', 'XYZ:10'),
    ]);
    expect([badExpiry.code, badMax.code, badDaily.code]).toEqual([64, 64, 64]);
    expect(badExpiry.stderr).toMatch(/--expires-in must be/);
    expect(badMax.stderr).toMatch(/--max-amount: /);
    expect(badDaily.stderr).toMatch(/not an ISO 4217 currency code/);
    expect(noScopes.code).toBe(64);
    expect(noScopes.stderr).toMatch(/--scopes is required/);
    expect(badScope.stderr).toMatch(/unknown scope\(s\) customers:admin/);
    expect(badEnv.stderr).toMatch(/unknown environment\(s\) staging/);
    expect(unknownId.code).toBe(64);
    expect(unknownId.stderr).toMatch(/No token with id/);
  });
});

describe('npm run token with the embedded database a running service started', () => {
  it('shares that server (from DATA_DIR) instead of refusing to start a second one', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-token-cli-'));
    const embedded = await startEmbeddedPostgres({ dataDir, settings: { fsync: 'off', synchronous_commit: 'off' } });
    try {
      // What the running service did on start: its tables exist.
      const pool = createPool({
        connectionString: embedded.url,
        max: 1,
        connectTimeoutMs: 5000,
        statementTimeoutMs: 60_000,
      });
      await migrate(pool, readMigrations()).finally(() => pool.end());
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        API_TOKENS: TEST_STATIC_TOKEN,
        ENVIRONMENTS: 'sandbox',
        ...TEST_PII_ENV,
      };
      delete env.DATABASE_URL;
      const created = await run(
        TSX,
        [
          'src/cli/token.ts',
          'create',
          '--name',
          'embedded',
          '--env',
          'sandbox',
          '--scopes',
          'customers:read',
          '--json',
        ],
        { env },
      );
      const { id } = JSON.parse(created.stdout) as { id: string };
      const listed = await run(TSX, ['src/cli/token.ts', 'list', '--json'], { env });
      expect(listed.stdout).toContain(id);
      // The server is still the one this test started: the CLI neither stopped nor replaced it.
      expect(runningEmbeddedPostgresUrl(dataDir)).toBe(embedded.url);
    } finally {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
