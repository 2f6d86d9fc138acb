import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { configuredVariables } from '../support/config.js';

describe('configuration documentation', () => {
  const variables = configuredVariables();

  it('finds the variables of the schema (the extraction itself works)', () => {
    expect(variables).toEqual(
      expect.arrayContaining([
        'NODE_ENV',
        'DATABASE_URL',
        'PII_BLIND_INDEX_KEY',
        'OIDC_ISSUER',
        'LOG_LEVEL',
        'LOG_PRETTY',
        'METRICS_TOKEN',
      ]),
    );
    expect(variables.length).toBeGreaterThanOrEqual(30);
  });

  it('.env.example names every variable, with an example line', () => {
    const example = readFileSync('.env.example', 'utf8');
    const missing = variables.filter((name) => !new RegExp(`^#? ?${name}=`, 'm').test(example));
    expect(missing).toEqual([]);
    const unknown = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)]
      .map((match) => match[1]!)
      .filter((name) => !variables.includes(name));
    expect(unknown).toEqual([]);
  });

  // docs/reference/configuration.md is generated from the schema (scripts/docs-reference.ts); test/docs/reference.test.ts
  // proves it current, and that it fails when a setting has no description or a description names no setting.
  it('the configuration reference has a row for every variable', () => {
    const reference = ['configuration.md', 'configuration-features.md']
      .map((page) => readFileSync(`docs/reference/${page}`, 'utf8'))
      .join('\n');
    expect(variables.filter((name) => !reference.includes(`| \`${name}\` |`))).toEqual([]);
  });

  it('the defaults the documentation states are the defaults the code applies', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      host: '127.0.0.1',
      port: 3000,
      databasePoolSize: 10,
      databaseConnectTimeoutMs: 2000,
      databaseStatementTimeoutMs: 5000,
      migrations: { lockTimeoutMs: 5000, attempts: 8 },
      heapGrowingPercent: 50,
      databasePreparedStatements: true,
      environments: ['sandbox'],
      logLevel: 'info',
      logPretty: true,
      bodyLimitBytes: 64 * 1024,
      shutdownTimeoutMs: 10_000,
      runMigrationsOnStart: true,
      idempotencyTtlHours: 24,
      metrics: { port: undefined, host: '127.0.0.1', token: undefined },
    });
    expect(loadConfig({ NODE_ENV: 'test' }).logPretty).toBe(false);
  });
});
