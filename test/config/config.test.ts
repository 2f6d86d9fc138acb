import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { DOCUMENT_LIMITS } from '../../src/features/verification/index.js';
import { configProblems } from '../support/config.js';

const key = () => randomBytes(32).toString('base64');
const piiEnv = () => ({ PII_KEYS: `k1:${key()}`, PII_ACTIVE_KEY: 'k1', PII_BLIND_INDEX_KEY: key() });
const staticToken = () => randomBytes(32).toString('base64url');
const productionEnv = () => ({ NODE_ENV: 'production', API_TOKENS: staticToken(), ...piiEnv() });

/** The problems loadConfig reports for `env`; fails the test if it accepts it. */
function problemsOf(env: Record<string, string | undefined>): string[] {
  expect(() => loadConfig(env)).toThrow(/^Invalid configuration:/);
  return configProblems(env);
}

describe('loadConfig', () => {
  it('has working defaults for development', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      host: '127.0.0.1',
      port: 3000,
      databaseUrl: undefined,
      dataDir: path.resolve('.data'),
      embeddedPostgresPort: undefined,
      embeddedPostgresRestartTimeoutMs: 60_000,
      databasePoolSize: 10,
      apiTokens: undefined,
      environments: ['sandbox'],
      pii: { keys: undefined, activeKeyId: undefined, blindIndexKey: undefined },
      logLevel: 'info',
      logPretty: true,
      bodyLimitBytes: 65536,
      runMigrationsOnStart: true,
    });
  });

  it('listens on loopback only outside production unless HOST says otherwise; on every interface in production', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig(productionEnv()).host).toBe('0.0.0.0');
    expect(loadConfig({ ...productionEnv(), HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });

  it('reads every variable it is given', () => {
    const pii = piiEnv();
    const [first, second] = [randomBytes(32).toString('hex'), randomBytes(32).toString('base64')];
    const config = loadConfig({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: 'postgresql://u:p@db:5432/cas',
      DATA_DIR: '/var/lib/cas',
      DATABASE_POOL_SIZE: '25',
      API_TOKENS: ` ${first} , ${second} `,
      ENVIRONMENTS: 'sandbox, production-like,sandbox',
      ...pii,
      PII_KEYS: `old:${key()},${pii.PII_KEYS}`,
      LOG_LEVEL: 'warn',
      LOG_PRETTY: 'false',
      BODY_LIMIT: '1mb',
      MIGRATE_ON_START: '0',
    });
    expect(config).toMatchObject({
      nodeEnv: 'production',
      host: '127.0.0.1',
      port: 0,
      databaseUrl: 'postgresql://u:p@db:5432/cas',
      dataDir: '/var/lib/cas',
      databasePoolSize: 25,
      apiTokens: [first, second],
      environments: ['sandbox', 'production-like'],
      logLevel: 'warn',
      logPretty: false,
      bodyLimitBytes: 1024 * 1024,
      runMigrationsOnStart: false,
    });
    expect([...config.pii.keys!.keys()]).toEqual(['old', 'k1']);
    expect(config.pii.activeKeyId).toBe('k1');
    expect(config.pii.blindIndexKey).toEqual(Buffer.from(pii.PII_BLIND_INDEX_KEY, 'base64'));
  });

  it('reads the embedded PostgreSQL restart time-out', () => {
    expect(loadConfig({ EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS: '15000' }).embeddedPostgresRestartTimeoutMs).toBe(15_000);
  });

  it("reads the authentication caches' bounds, with their defaults, and refuses bounds out of range", () => {
    expect(loadConfig({}).authCache).toEqual({ maxEntries: 10_000, maxAgeMs: 60_000 });
    expect(loadConfig({ AUTH_CACHE_MAX_ENTRIES: '0', AUTH_CACHE_MAX_AGE_MS: '1000' }).authCache).toEqual({
      maxEntries: 0,
      maxAgeMs: 1000,
    });
    expect(problemsOf({ AUTH_CACHE_MAX_ENTRIES: '-1', AUTH_CACHE_MAX_AGE_MS: '999' })).toEqual([
      'AUTH_CACHE_MAX_ENTRIES: AUTH_CACHE_MAX_ENTRIES must be a whole number',
      'AUTH_CACHE_MAX_AGE_MS: AUTH_CACHE_MAX_AGE_MS must be between 1000 and 3600000',
    ]);
    expect(problemsOf({ AUTH_CACHE_MAX_ENTRIES: '1000001' })).toEqual([
      'AUTH_CACHE_MAX_ENTRIES: AUTH_CACHE_MAX_ENTRIES must be between 0 and 1000000',
    ]);
  });

  it('reads the read replica settings, with their defaults', () => {
    const primary = 'postgresql://u:p@db:5432/cas';
    const replica = 'postgresql://u:p@db-replica:5432/cas';
    expect(loadConfig({ DATABASE_URL: primary }).databaseReplica).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URL: replica }).databaseReplica).toEqual({
      url: replica,
      maxWaitMs: 150,
      maxLagMs: 10_000,
      checkIntervalMs: 1000,
    });
    expect(
      loadConfig({
        DATABASE_URL: primary,
        DATABASE_REPLICA_URL: replica,
        DATABASE_REPLICA_MAX_WAIT_MS: '0',
        DATABASE_REPLICA_MAX_LAG_MS: '2000',
        DATABASE_REPLICA_CHECK_INTERVAL_MS: '250',
      }).databaseReplica,
    ).toEqual({ url: replica, maxWaitMs: 0, maxLagMs: 2000, checkIntervalMs: 250 });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', API_TOKENS: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      apiTokens: undefined,
    });
  });

  it.each([
    ['PORT', { PORT: 'eighty' }, /PORT must be a whole number/],
    ['PORT', { PORT: '65536' }, /PORT must be between 0 and 65535/],
    ['PORT', { PORT: '-1' }, /PORT must be a whole number/],
    [
      'DATABASE_URL',
      { DATABASE_URL: 'mysql://localhost/db' },
      /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/,
    ],
    ['ENVIRONMENTS', { ENVIRONMENTS: ',' }, /ENVIRONMENTS must name at least one environment/],
    ['ENVIRONMENTS', { ENVIRONMENTS: 'Sandbox' }, /ENVIRONMENTS entries must be lower-case/],
    ['ENVIRONMENTS', { ENVIRONMENTS: 'sandbox,graphql' }, /ENVIRONMENTS may not use a reserved name/],
    ['ENVIRONMENTS', { ENVIRONMENTS: 'console' }, /ENVIRONMENTS may not use a reserved name/],
    ['API_TOKENS', { API_TOKENS: 'short' }, /API_TOKENS entry 1 must be at least 43 characters long/],
    [
      'API_TOKENS',
      { API_TOKENS: `${'a'.repeat(30)} ${'b'.repeat(30)}` },
      /API_TOKENS entry 1 must use only base64\/base64url characters/,
    ],
    ['NODE_ENV', { NODE_ENV: 'staging' }, /NODE_ENV must be development, test or production/],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }, /LOG_LEVEL must be one of/],
    ['BODY_LIMIT', { BODY_LIMIT: '1gb' }, /BODY_LIMIT must look like/],
    ['MIGRATE_ON_START', { MIGRATE_ON_START: 'yes' }, /MIGRATE_ON_START must be true or false/],
    [
      'MIGRATION_LOCK_TIMEOUT_MS',
      { MIGRATION_LOCK_TIMEOUT_MS: '50' },
      /MIGRATION_LOCK_TIMEOUT_MS must be between 100 and 600000/,
    ],
    ['MIGRATION_ATTEMPTS', { MIGRATION_ATTEMPTS: '0' }, /MIGRATION_ATTEMPTS must be between 1 and 100/],
    ['HEAP_GROWING_PERCENT', { HEAP_GROWING_PERCENT: '1001' }, /HEAP_GROWING_PERCENT must be between 0 and 1000/],
    ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE must be between 1 and 200/],
    [
      'EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS',
      { EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS: '500' },
      /EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS must be between 1000 and 3600000/,
    ],
    [
      'EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS',
      { EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS: '1m' },
      /EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS must be a whole number/,
    ],
    [
      'EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS',
      { EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS: '5000', DATABASE_URL: 'postgresql://u:p@db:5432/cas' },
      /EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS applies only to the embedded PostgreSQL, but DATABASE_URL is set/,
    ],
    [
      'DATABASE_REPLICA_URL',
      { DATABASE_URL: 'postgresql://u:p@db:5432/cas', DATABASE_REPLICA_URL: 'db-replica:5432' },
      /DATABASE_REPLICA_URL must be a postgres:\/\/ or postgresql:\/\/ URL/,
    ],
    [
      'DATABASE_REPLICA_URL',
      { DATABASE_REPLICA_URL: 'postgresql://u:p@db-replica:5432/cas' },
      /DATABASE_REPLICA_URL needs DATABASE_URL/,
    ],
    [
      'DATABASE_REPLICA_URL',
      { DATABASE_URL: 'postgresql://u:p@db:5432/cas', DATABASE_REPLICA_URL: 'postgresql://u:p@db:5432/cas' },
      /DATABASE_REPLICA_URL must name the replica, not the primary/,
    ],
    [
      'DATABASE_REPLICA_MAX_WAIT_MS',
      { DATABASE_REPLICA_MAX_WAIT_MS: '100' },
      /DATABASE_REPLICA_MAX_WAIT_MS applies only to a read replica, but DATABASE_REPLICA_URL is not set/,
    ],
    [
      'DATABASE_REPLICA_MAX_WAIT_MS',
      {
        DATABASE_URL: 'postgresql://u:p@db:5432/cas',
        DATABASE_REPLICA_URL: 'postgresql://u:p@db-replica:5432/cas',
        DATABASE_REPLICA_MAX_WAIT_MS: '20000',
      },
      /DATABASE_REPLICA_MAX_WAIT_MS must be between 0 and 10000/,
    ],
    [
      'DATABASE_REPLICA_MAX_LAG_MS',
      { DATABASE_REPLICA_MAX_LAG_MS: '5000' },
      /DATABASE_REPLICA_MAX_LAG_MS applies only to a read replica/,
    ],
    [
      'DATABASE_REPLICA_CHECK_INTERVAL_MS',
      { DATABASE_REPLICA_CHECK_INTERVAL_MS: '10' },
      /DATABASE_REPLICA_CHECK_INTERVAL_MS must be between 50 and 60000/,
    ],
  ])('names %s when its value is bad', (variable, env, message) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(variable);
    expect(problems[0]).toMatch(message);
  });

  it.each([
    [
      'no kid',
      () => ({ ...piiEnv(), PII_KEYS: key() }),
      /PII_KEYS must be a comma-separated list of kid:base64key pairs/,
    ],
    ['an empty kid', () => ({ ...piiEnv(), PII_KEYS: `:${key()}` }), /PII_KEYS must be a comma-separated list/],
    [
      'a 16-byte key',
      () => ({ ...piiEnv(), PII_KEYS: `k1:${randomBytes(16).toString('base64')}` }),
      /PII_KEYS key "k1" must be 32 bytes/,
    ],
    [
      'a key that is not base64',
      () => ({ ...piiEnv(), PII_KEYS: `k1:${'!'.repeat(44)}` }),
      /PII_KEYS key "k1" must be 32 bytes encoded in base64/,
    ],
    [
      'the same kid twice',
      () => ({ ...piiEnv(), PII_KEYS: `k1:${key()},k1:${key()}` }),
      /PII_KEYS names key "k1" twice/,
    ],
    [
      'an active key that is not in PII_KEYS',
      () => ({ ...piiEnv(), PII_ACTIVE_KEY: 'k2' }),
      /PII_ACTIVE_KEY "k2" is not one of the keys in PII_KEYS/,
    ],
    ['no active key', () => ({ ...piiEnv(), PII_ACTIVE_KEY: undefined }), /PII_ACTIVE_KEY must name one of the keys/],
    ['an active key without keys', () => ({ PII_ACTIVE_KEY: 'k1' }), /PII_ACTIVE_KEY is set but PII_KEYS is not/],
    [
      'no blind index key',
      () => ({ ...piiEnv(), PII_BLIND_INDEX_KEY: undefined }),
      /PII_KEYS and PII_BLIND_INDEX_KEY must be set together/,
    ],
    [
      'a short blind index key',
      () => ({ ...piiEnv(), PII_BLIND_INDEX_KEY: randomBytes(31).toString('base64') }),
      /PII_BLIND_INDEX_KEY must be 32 bytes/,
    ],
  ])('rejects PII settings with %s', (_case, env, message) => {
    const problems = problemsOf(env());
    expect(problems.some((problem) => message.test(problem))).toBe(true);
  });

  describe('static tokens (API_TOKENS): at least 32 random bytes, no placeholders, named by position only', () => {
    const hex = randomBytes(32).toString('hex');
    const base64 = randomBytes(32).toString('base64');
    it.each([
      ['64 hex digits', hex],
      ['upper-case hex', hex.toUpperCase()],
      ['openssl rand -base64 32 (44 characters with padding)', base64],
      ['43 base64url characters', randomBytes(32).toString('base64url')],
      ['a prefix before 32 random bytes', `svc_${randomBytes(32).toString('base64url')}`],
    ])('accepts %s', (_, token) => {
      expect(loadConfig({ API_TOKENS: token }).apiTokens).toEqual([token]);
    });

    it.each([
      ['63 hex digits', hex.slice(0, 63), /entry 1 is hex and must have at least 64 digits/],
      [
        '42 base64 characters',
        randomBytes(32).toString('base64url').slice(0, 42),
        /entry 1 must be at least 43 characters long/,
      ],
      ['a 16-character value that used to pass', 'abcdefgh12345678', /entry 1 must be at least 43 characters/],
      [
        'characters outside base64',
        `${randomBytes(32).toString('base64url')}!`,
        /entry 1 must use only base64\/base64url characters/,
      ],
      [
        'the placeholder of deploy/k8s/secret.example.yaml',
        'CHANGE-ME-to-32-random-hex-characters-or-more',
        /entry 1 is a placeholder/,
      ],
      ['a placeholder word', `replace-with-${randomBytes(32).toString('base64url')}`, /entry 1 is a placeholder/],
      ['one repeated character', 'a'.repeat(64), /entry 1 is not random enough/],
      ['a repeated string', 'ab12'.repeat(16), /entry 1 is not random enough/],
      [
        'a run of 8 equal characters',
        `${randomBytes(32).toString('base64url')}00000000`,
        /entry 1 is not random enough/,
      ],
      ['an alphabet', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', /entry 1 is not random enough/],
    ])('refuses %s, naming the variable and the entry but never the value', (_, token, message) => {
      const problems = problemsOf({ API_TOKENS: `${token}` });
      expect(problems).toEqual([expect.stringMatching(message)]);
      expect(problems[0]).toMatch(/^API_TOKENS entry 1 /);
      expect(problems.join('\n')).not.toContain(token);
    });

    it('checks every placeholder this repository ships with', () => {
      for (const placeholder of [
        'replace-with-a-long-random-token-1',
        'replace-with-a-long-random-token-2',
        'CHANGE-ME-to-32-random-hex-characters-or-more',
      ]) {
        expect(problemsOf({ API_TOKENS: placeholder })).toHaveLength(1);
      }
      expect(problemsOf({ API_TOKENS: `${randomBytes(32).toString('hex')},short` })).toEqual([
        expect.stringMatching(/^API_TOKENS entry 2 /),
      ]);
    });
  });

  it('never echoes a rejected secret', () => {
    const secret = randomBytes(16).toString('base64');
    const problems = problemsOf({ ...piiEnv(), PII_KEYS: `k1:${secret}`, API_TOKENS: 'tiny-secret-x' });
    expect(problems.join('\n')).not.toContain(secret);
    expect(problems.join('\n')).not.toContain('tiny-secret-x');
  });

  it('refuses production without PII keys; API_TOKENS is optional there (managed tokens or OIDC, checked at startup)', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems).toEqual([
      'PII_KEYS, PII_ACTIVE_KEY and PII_BLIND_INDEX_KEY are required in production (NODE_ENV=production)',
    ]);
    expect(loadConfig({ ...productionEnv(), API_TOKENS: undefined })).toMatchObject({
      nodeEnv: 'production',
      apiTokens: undefined,
    });
    expect(loadConfig(productionEnv()).nodeEnv).toBe('production');
  });

  it('reports several problems at once', () => {
    const problems = problemsOf({
      PORT: 'x',
      DATABASE_URL: 'http://db',
      ENVIRONMENTS: 'UPPER',
      API_TOKENS: 'short',
      LOG_LEVEL: 'loud',
    });
    for (const variable of ['PORT', 'DATABASE_URL', 'ENVIRONMENTS', 'LOG_LEVEL']) {
      expect(problems.some((problem) => problem.startsWith(`${variable}:`))).toBe(true);
    }
    expect(problems.some((problem) => problem.startsWith('API_TOKENS entry 1 '))).toBe(true);
  });

  it('reports PII and production problems together with malformed variables', () => {
    const problems = problemsOf({ NODE_ENV: 'production', PORT: 'x', PII_KEYS: 'k1:short' });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT:/),
        expect.stringContaining('PII_KEYS key "k1" must be 32 bytes'),
        expect.stringContaining('PII_KEYS and PII_BLIND_INDEX_KEY must be set together'),
      ]),
    );
  });

  describe('behind a connection pooler in transaction mode', () => {
    const url = 'postgresql://cas_app:secret-pw@pgbouncer.internal:6432/cas';

    it("prepares named statements unless DATABASE_PREPARED_STATEMENTS=false or the URL says pgbouncer=true (Prisma's flag)", () => {
      expect(loadConfig({ DATABASE_URL: url }).databasePreparedStatements).toBe(true);
      expect(loadConfig({}).databasePreparedStatements).toBe(true);
      expect(
        loadConfig({
          DATABASE_URL: url,
          DATABASE_PREPARED_STATEMENTS: 'false',
          MIGRATE_ON_START: 'false',
          DATABASE_LISTEN: 'false',
        }).databasePreparedStatements,
      ).toBe(false);
      expect(
        loadConfig({ DATABASE_URL: `${url}?pgbouncer=true`, MIGRATE_ON_START: 'false', DATABASE_LISTEN: 'false' })
          .databasePreparedStatements,
      ).toBe(false);
      expect(loadConfig({ DATABASE_URL: `${url}?sslmode=require&pgbouncer=false` }).databasePreparedStatements).toBe(
        true,
      );
      expect(
        loadConfig({
          DATABASE_URL: `${url}?pgbouncer=true`,
          DATABASE_PREPARED_STATEMENTS: 'false',
          MIGRATE_ON_START: 'false',
          DATABASE_LISTEN: 'false',
        }).databasePreparedStatements,
      ).toBe(false);
    });

    it('refuses settings that contradict each other, without echoing the URL', () => {
      expect(problemsOf({ DATABASE_PREPARED_STATEMENTS: 'no' })).toEqual([
        'DATABASE_PREPARED_STATEMENTS: DATABASE_PREPARED_STATEMENTS must be true or false',
      ]);
      const contradiction = problemsOf({
        DATABASE_URL: `${url}?pgbouncer=true`,
        DATABASE_PREPARED_STATEMENTS: 'true',
        MIGRATE_ON_START: 'false',
      });
      expect(contradiction).toEqual([
        expect.stringContaining('DATABASE_PREPARED_STATEMENTS is true but DATABASE_URL says pgbouncer=true'),
      ]);
      const badFlag = problemsOf({ DATABASE_URL: `${url}?pgbouncer=yes` });
      expect(badFlag).toEqual(['DATABASE_URL: its pgbouncer parameter must be true or false']);
      expect([...contradiction, ...badFlag].join('\n')).not.toContain('secret-pw');
    });

    it('refuses to migrate on start through the pooler (session advisory lock), naming the way out', () => {
      for (const env of [
        { DATABASE_PREPARED_STATEMENTS: 'false' },
        { DATABASE_URL: `${url}?pgbouncer=true` },
        { DATABASE_PREPARED_STATEMENTS: 'false', MIGRATE_ON_START: 'true' },
      ]) {
        const problems = problemsOf({ DATABASE_URL: url, DATABASE_LISTEN: 'false', ...env });
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatch(
          /^MIGRATE_ON_START must be false when DATABASE_URL goes through a transaction-mode pooler/,
        );
        expect(problems[0]).toContain(
          'npm run db:migrate with DATABASE_URL pointing at the PostgreSQL primary directly',
        );
      }
    });
  });

  describe('where the wake-ups are LISTENed for (DATABASE_LISTEN, DATABASE_LISTEN_URL)', () => {
    const primary = 'postgresql://cas_app:secret-pw@db.internal:5432/cas';
    const pooler = 'postgresql://cas_app:secret-pw@pgbouncer.internal:6432/cas';
    const direct = 'postgresql://cas_listen:listen-pw@db.internal:5432/cas';

    it('listens by default, on DATABASE_URL (or the embedded server); DATABASE_LISTEN_URL names another way to the primary', () => {
      expect(loadConfig({})).toMatchObject({ databaseListen: true, databaseListenUrl: undefined });
      expect(loadConfig({ DATABASE_URL: primary })).toMatchObject({
        databaseListen: true,
        databaseListenUrl: undefined,
      });
      expect(loadConfig({ DATABASE_URL: primary, DATABASE_LISTEN: 'false' })).toMatchObject({
        databaseListen: false,
        databaseListenUrl: undefined,
      });
      expect(loadConfig({ DATABASE_URL: primary, DATABASE_LISTEN_URL: direct })).toMatchObject({
        databaseListen: true,
        databaseListenUrl: direct,
      });
      expect(
        loadConfig({ DATABASE_URL: primary, DATABASE_LISTEN: 'true', DATABASE_LISTEN_URL: direct }).databaseListenUrl,
      ).toBe(direct);
    });

    it('behind a transaction-mode pooler, refuses to start until the operator says where to listen, or that polling is enough', () => {
      for (const env of [
        { DATABASE_URL: pooler, DATABASE_PREPARED_STATEMENTS: 'false' },
        { DATABASE_URL: `${pooler}?pgbouncer=true` },
      ]) {
        const problems = problemsOf({ ...env, MIGRATE_ON_START: 'false' });
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatch(
          /^DATABASE_URL goes through a transaction-mode pooler .* through which LISTEN receives no notifications/,
        );
        expect(problems[0]).toContain(
          'set DATABASE_LISTEN_URL to a direct (or session-mode) connection to the PostgreSQL primary',
        );
        expect(problems[0]).toContain('or DATABASE_LISTEN=false');
        expect(problems[0]).not.toContain('secret-pw');
        expect(loadConfig({ ...env, MIGRATE_ON_START: 'false', DATABASE_LISTEN_URL: direct })).toMatchObject({
          databasePreparedStatements: false,
          databaseListen: true,
          databaseListenUrl: direct,
        });
        expect(loadConfig({ ...env, MIGRATE_ON_START: 'false', DATABASE_LISTEN: 'false' })).toMatchObject({
          databasePreparedStatements: false,
          databaseListen: false,
        });
      }
      // The migration command listens to nothing.
      expect(
        loadConfig({ DATABASE_URL: `${pooler}?pgbouncer=true` }, { databaseOnly: true }).databasePreparedStatements,
      ).toBe(false);
    });

    it('refuses a DATABASE_LISTEN_URL that cannot work or contradicts another setting, without echoing any URL', () => {
      const cases: [Record<string, string>, string][] = [
        [
          { DATABASE_LISTEN_URL: 'mysql://db.internal/cas', DATABASE_URL: primary },
          'DATABASE_LISTEN_URL: DATABASE_LISTEN_URL must be a postgres:// or postgresql:// URL',
        ],
        [{ DATABASE_LISTEN: 'maybe' }, 'DATABASE_LISTEN: DATABASE_LISTEN must be true or false'],
        [
          { DATABASE_URL: primary, DATABASE_LISTEN: 'false', DATABASE_LISTEN_URL: direct },
          'DATABASE_LISTEN_URL is set but DATABASE_LISTEN=false: unset one of them',
        ],
        [
          { DATABASE_LISTEN_URL: direct },
          'DATABASE_LISTEN_URL needs DATABASE_URL: with the embedded PostgreSQL the service listens on the embedded server itself',
        ],
        [
          {
            DATABASE_URL: pooler,
            DATABASE_PREPARED_STATEMENTS: 'false',
            MIGRATE_ON_START: 'false',
            DATABASE_LISTEN_URL: `${pooler}?pgbouncer=true`,
          },
          'DATABASE_LISTEN_URL says pgbouncer=true (a pooler in transaction mode), through which LISTEN receives nothing: point it at the PostgreSQL primary directly, or at a pooler in session mode',
        ],
        [
          { DATABASE_URL: primary, DATABASE_REPLICA_URL: direct, DATABASE_LISTEN_URL: direct },
          "DATABASE_LISTEN_URL must reach the primary (the server of DATABASE_URL), not the replica of DATABASE_REPLICA_URL: a standby refuses LISTEN and never receives the primary's notifications",
        ],
      ];
      for (const [env, problem] of cases) {
        const problems = problemsOf(env);
        expect(problems).toEqual([problem]);
        expect(problems.join('\n')).not.toMatch(/secret-pw|listen-pw/);
      }
    });
  });

  it('for the migration command (databaseOnly), needs no production tokens or keys, and ignores MIGRATE_ON_START', () => {
    const migration = loadConfig(
      { NODE_ENV: 'production', DATABASE_URL: 'postgresql://owner:pw@db:5432/cas' },
      { databaseOnly: true },
    );
    expect(migration).toMatchObject({ nodeEnv: 'production', apiTokens: undefined, pii: { keys: undefined } });
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://owner:pw@db:5432/cas?pgbouncer=true' }, { databaseOnly: true })
        .databasePreparedStatements,
    ).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgresql://owner:pw@db:5432/cas' })).toThrow(
      /PII_KEYS, PII_ACTIVE_KEY and PII_BLIND_INDEX_KEY are required in production/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', PORT: 'x' }, { databaseOnly: true })).toThrow(
      /PORT must be a whole number/,
    );
  });

  it('reports PII problems together with production problems', () => {
    const problems = problemsOf({ NODE_ENV: 'production', PII_KEYS: `k1:${key()}`, PII_ACTIVE_KEY: 'nope' });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('PII_ACTIVE_KEY "nope"'),
        expect.stringContaining('PII_BLIND_INDEX_KEY must be set together'),
      ]),
    );
  });
});

describe('verification settings (docs/adr/0101)', () => {
  it('answer checks with the sandbox outside production, after 2 s, applied every second', () => {
    const ungated = { http: undefined, required: [], documentMaxBytes: DOCUMENT_LIMITS.maxBytes };
    expect(loadConfig({}).verification).toEqual({
      provider: 'sandbox',
      sandboxDelayMs: 2000,
      jobIntervalMs: 1000,
      ...ungated,
    });
    expect(
      loadConfig({ VERIFICATION_SANDBOX_DELAY_MS: '0', VERIFICATION_JOB_INTERVAL_MS: '250' }).verification,
    ).toEqual({ provider: 'sandbox', sandboxDelayMs: 0, jobIntervalMs: 250, ...ungated });
  });

  it('have no provider in production by default, and refuse the sandbox there (its magic names would verify anyone)', () => {
    expect(loadConfig(productionEnv()).verification.provider).toBe('none');
    expect(loadConfig({ ...productionEnv(), VERIFICATION_PROVIDER: 'none' }).verification.provider).toBe('none');
    expect(problemsOf({ ...productionEnv(), VERIFICATION_PROVIDER: 'sandbox' })).toEqual([
      'VERIFICATION_PROVIDER must not be sandbox in production (NODE_ENV=production): its outcomes come from magic names',
    ]);
  });

  it('name the variable of a value out of range or unknown', () => {
    expect(problemsOf({ VERIFICATION_PROVIDER: 'vendor' })).toEqual([
      expect.stringContaining('VERIFICATION_PROVIDER must be one of sandbox, http, none'),
    ]);
    expect(problemsOf({ VERIFICATION_SANDBOX_DELAY_MS: '3600001' })).toEqual([
      expect.stringContaining('VERIFICATION_SANDBOX_DELAY_MS must be between 0 and 3600000'),
    ]);
    expect(problemsOf({ VERIFICATION_JOB_INTERVAL_MS: '50' })).toEqual([
      expect.stringContaining('VERIFICATION_JOB_INTERVAL_MS must be between 100 and 3600000'),
    ]);
  });
});

describe('the http verification provider and the gates (docs/adr/0104)', () => {
  const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const http = (url: string) => ({
    VERIFICATION_PROVIDER: 'http',
    VERIFICATION_HTTP_URL: url,
    VERIFICATION_HTTP_TOKEN: 'vendor-token-0123456789',
    VERIFICATION_CALLBACK_SECRET: SECRET,
  });

  it('takes a vendor over https, with bounded time-outs and retries', () => {
    expect(loadConfig({ ...productionEnv(), ...http('https://kyc.example/v1/checks') }).verification.http).toEqual({
      url: 'https://kyc.example/v1/checks',
      token: 'vendor-token-0123456789',
      callbackSecret: SECRET,
      timeoutMs: 10_000,
      retries: 4,
      resultTimeoutMs: 86_400_000,
    });
    expect(problemsOf({ ...http('https://kyc.example'), VERIFICATION_HTTP_RESULT_TIMEOUT_S: '59' })).toEqual([
      expect.stringContaining('VERIFICATION_HTTP_RESULT_TIMEOUT_S must be between 60 and 2592000'),
    ]);
    expect(problemsOf({ ...http('https://kyc.example'), VERIFICATION_HTTP_RETRIES: '11' })).toEqual([
      expect.stringContaining('VERIFICATION_HTTP_RETRIES must be between 0 and 10'),
    ]);
    expect(problemsOf({ ...http('https://kyc.example'), VERIFICATION_HTTP_TIMEOUT_MS: '60001' })).toEqual([
      expect.stringContaining('VERIFICATION_HTTP_TIMEOUT_MS must be between 100 and 60000'),
    ]);
  });

  it('needs the URL, the token and a Standard Webhooks secret', () => {
    expect(problemsOf({ VERIFICATION_PROVIDER: 'http' })).toEqual([
      'VERIFICATION_HTTP_URL is required when VERIFICATION_PROVIDER is http',
      'VERIFICATION_HTTP_TOKEN is required when VERIFICATION_PROVIDER is http',
      'VERIFICATION_CALLBACK_SECRET is required when VERIFICATION_PROVIDER is http',
    ]);
    expect(problemsOf({ ...http('https://kyc.example'), VERIFICATION_CALLBACK_SECRET: 'not-a-secret' })).toEqual([
      expect.stringContaining('VERIFICATION_CALLBACK_SECRET must be a Standard Webhooks secret'),
    ]);
  });

  it('allows plain http only to a loopback address outside production', () => {
    expect(loadConfig(http('http://127.0.0.1:8080/checks')).verification.http?.url).toBe(
      'http://127.0.0.1:8080/checks',
    );
    const plain =
      'VERIFICATION_HTTP_URL must be https (plain http only to a loopback address outside production): the call carries personal data';
    expect(problemsOf(http('http://kyc.example/checks'))).toEqual([plain]);
    expect(problemsOf({ ...productionEnv(), ...http('http://127.0.0.1:8080/checks') })).toEqual([plain]);
  });

  it('caps a document at 10 MiB by default; VERIFICATION_DOCUMENT_MAX_BYTES lowers it, from 1 KiB, never raises it', () => {
    expect(loadConfig({}).verification.documentMaxBytes).toBe(10 * 1024 * 1024);
    expect(loadConfig({ VERIFICATION_DOCUMENT_MAX_BYTES: '1024' }).verification.documentMaxBytes).toBe(1024);
    expect(loadConfig({ VERIFICATION_DOCUMENT_MAX_BYTES: '5mb' }).verification.documentMaxBytes).toBe(5 * 1024 * 1024);
    expect(loadConfig({ VERIFICATION_DOCUMENT_MAX_BYTES: '10485760' }).verification.documentMaxBytes).toBe(10485760);
    for (const value of ['1023', '10485761', '11mb', '0'])
      expect(problemsOf({ VERIFICATION_DOCUMENT_MAX_BYTES: value })).toEqual([
        expect.stringContaining('VERIFICATION_DOCUMENT_MAX_BYTES must be between 1kb and 10mb'),
      ]);
    for (const value of ['5 MiB', '-1', '1e6'])
      expect(problemsOf({ VERIFICATION_DOCUMENT_MAX_BYTES: value })).toEqual([
        expect.stringContaining('VERIFICATION_DOCUMENT_MAX_BYTES must look like 65536, 64kb or 1mb'),
      ]);
  });

  it('gates no environment by default, and only configured ones', () => {
    expect(loadConfig({}).verification.required).toEqual([]);
    expect(
      loadConfig({ ENVIRONMENTS: 'sandbox,production', VERIFICATION_REQUIRED: 'production' }).verification.required,
    ).toEqual(['production']);
    expect(problemsOf({ ENVIRONMENTS: 'sandbox', VERIFICATION_REQUIRED: 'sandbox,live' })).toEqual([
      'VERIFICATION_REQUIRED names environments that are not in ENVIRONMENTS: live',
    ]);
  });
});
