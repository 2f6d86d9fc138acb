import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { configProblems } from '../support/config.js';
import { TEST_PII_ENV } from '../support/service.js';

const base = { API_TOKENS: 'a-5jqRnzXE31tXt_Kvy-Uk8HSQEXu-kraXoCUQUmJHcJfjSya0CPS29invA', ...TEST_PII_ENV };
const problems = (env: Record<string, string>) => configProblems({ ...base, ...env });

describe('GraphQL configuration', () => {
  it('defaults: explorers, introspection and Apollo Studio CORS outside production; none in production', () => {
    const development = loadConfig(base);
    expect(development.graphql).toEqual({
      introspection: true,
      explorer: true,
      maxDepth: 10,
      maxAliases: 30,
      maxRootFields: 20,
      maxCost: 25_000,
      maxTokens: 2000,
      maxNodes: 50_000,
      maxExecutionMs: 10_000,
      maxResponseBytes: 4 * 1024 * 1024,
      subscriptionPollIntervalMs: 1000,
      maxWsConnectionsPerPrincipal: 20,
      maxWsConnectionsPerAddress: 50,
      maxSubscriptionFollowers: 1000,
    });
    expect(development.corsOrigins).toEqual(['https://studio.apollographql.com']);
    const production = loadConfig({ ...base, NODE_ENV: 'production' });
    expect(production.graphql).toMatchObject({ introspection: false, explorer: false });
    expect(production.corsOrigins).toEqual([]);
  });

  it('every setting can be overridden', () => {
    const config = loadConfig({
      ...base,
      NODE_ENV: 'production',
      GRAPHQL_INTROSPECTION: 'true',
      GRAPHQL_EXPLORER: '1',
      GRAPHQL_MAX_DEPTH: '7',
      GRAPHQL_MAX_ALIASES: '0',
      GRAPHQL_MAX_ROOT_FIELDS: '2',
      GRAPHQL_MAX_COST: '100',
      GRAPHQL_MAX_TOKENS: '500',
      GRAPHQL_MAX_NODES: '1000',
      GRAPHQL_MAX_EXECUTION_MS: '2500',
      GRAPHQL_MAX_RESPONSE_BYTES: '512kb',
      GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS: '250',
      GRAPHQL_WS_MAX_CONNECTIONS_PER_PRINCIPAL: '3',
      GRAPHQL_WS_MAX_CONNECTIONS_PER_ADDRESS: '4',
      GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS: '5',
      CORS_ORIGINS: 'https://studio.apollographql.com, http://localhost:5173',
    });
    expect(config.graphql).toEqual({
      introspection: true,
      explorer: true,
      maxDepth: 7,
      maxAliases: 0,
      maxRootFields: 2,
      maxCost: 100,
      maxTokens: 500,
      maxNodes: 1000,
      maxExecutionMs: 2500,
      maxResponseBytes: 512 * 1024,
      subscriptionPollIntervalMs: 250,
      maxWsConnectionsPerPrincipal: 3,
      maxWsConnectionsPerAddress: 4,
      maxSubscriptionFollowers: 5,
    });
    expect(config.corsOrigins).toEqual(['https://studio.apollographql.com', 'http://localhost:5173']);
  });

  it('names the variable and the rule when a value is wrong', () => {
    expect(problems({ GRAPHQL_MAX_DEPTH: '0' })).toEqual([
      'GRAPHQL_MAX_DEPTH: GRAPHQL_MAX_DEPTH must be between 1 and 100',
    ]);
    expect(problems({ GRAPHQL_MAX_COST: 'lots' })).toEqual([
      'GRAPHQL_MAX_COST: GRAPHQL_MAX_COST must be a whole number',
    ]);
    expect(problems({ GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS: '5' })).toEqual([
      'GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS: GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS must be between 10 and 3600000',
    ]);
    expect(problems({ GRAPHQL_MAX_NODES: '10' })).toEqual([
      'GRAPHQL_MAX_NODES: GRAPHQL_MAX_NODES must be between 100 and 10000000',
    ]);
    expect(problems({ GRAPHQL_MAX_EXECUTION_MS: '1h' })).toEqual([
      'GRAPHQL_MAX_EXECUTION_MS: GRAPHQL_MAX_EXECUTION_MS must be a whole number',
    ]);
    expect(problems({ GRAPHQL_MAX_RESPONSE_BYTES: '1gb' })).toEqual([
      'GRAPHQL_MAX_RESPONSE_BYTES: GRAPHQL_MAX_RESPONSE_BYTES must look like 65536, 64kb or 1mb',
    ]);
    expect(problems({ GRAPHQL_MAX_RESPONSE_BYTES: '512mb' })).toEqual([
      'GRAPHQL_MAX_RESPONSE_BYTES: GRAPHQL_MAX_RESPONSE_BYTES must be between 1kb and 256mb',
    ]);
    expect(problems({ GRAPHQL_INTROSPECTION: 'yes' })).toEqual([
      'GRAPHQL_INTROSPECTION: GRAPHQL_INTROSPECTION must be true or false',
    ]);
    expect(problems({ CORS_ORIGINS: 'https://studio.apollographql.com/path' })[0]).toMatch(
      /^CORS_ORIGINS: CORS_ORIGINS must be a comma-separated list of origins/,
    );
    expect(problems({ CORS_ORIGINS: '*' })[0]).toMatch(/^CORS_ORIGINS/);
  });
});
