import { z } from 'zod';
import { booleanFlag, byteSize, commaList, integer, type Settings } from './settings.js';

/** Apollo Sandbox (studio.apollographql.com) calls the API from the browser; allowed outside production by default. */
export const APOLLO_STUDIO_ORIGIN = 'https://studio.apollographql.com';

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

/** The browsers' access (CORS) and GraphQL's switches and limits. */
export const graphqlEnv = {
  CORS_ORIGINS: z
    .string()
    .transform(commaList)
    .refine(
      (origins) => origins.every(isOrigin),
      'CORS_ORIGINS must be a comma-separated list of origins such as https://studio.apollographql.com (scheme, host and optional port; no path)',
    )
    .optional(),
  GRAPHQL_INTROSPECTION: booleanFlag('GRAPHQL_INTROSPECTION').optional(),
  GRAPHQL_EXPLORER: booleanFlag('GRAPHQL_EXPLORER').optional(),
  GRAPHQL_MAX_DEPTH: integer('GRAPHQL_MAX_DEPTH', 1, 100).default(10),
  GRAPHQL_MAX_ALIASES: integer('GRAPHQL_MAX_ALIASES', 0, 1000).default(30),
  GRAPHQL_MAX_ROOT_FIELDS: integer('GRAPHQL_MAX_ROOT_FIELDS', 1, 1000).default(20),
  // Costs are upper bounds since issue 28 (every list counted at the most it can hold): a page of 100
  // customers with their account ids costs 20,200, which the former 5000 (with 10 accounts assumed) let in as 2,200.
  GRAPHQL_MAX_COST: integer('GRAPHQL_MAX_COST', 1, 1_000_000_000_000).default(25_000),
  GRAPHQL_MAX_TOKENS: integer('GRAPHQL_MAX_TOKENS', 100, 1_000_000).default(2000),
  GRAPHQL_MAX_NODES: integer('GRAPHQL_MAX_NODES', 100, 10_000_000).default(50_000),
  GRAPHQL_MAX_EXECUTION_MS: integer('GRAPHQL_MAX_EXECUTION_MS', 100, 600_000).default(10_000),
  GRAPHQL_MAX_RESPONSE_BYTES: byteSize('GRAPHQL_MAX_RESPONSE_BYTES', 1, 256).default(4 * 1024 * 1024),
  GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS: integer('GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS', 10, 3_600_000).default(
    1000,
  ),
  GRAPHQL_WS_MAX_CONNECTIONS_PER_PRINCIPAL: integer('GRAPHQL_WS_MAX_CONNECTIONS_PER_PRINCIPAL', 1, 100_000).default(20),
  GRAPHQL_WS_MAX_CONNECTIONS_PER_ADDRESS: integer('GRAPHQL_WS_MAX_CONNECTIONS_PER_ADDRESS', 1, 100_000).default(50),
  GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS: integer('GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS', 1, 1_000_000).default(1000),
};

export const graphqlConfig = (raw: Settings<typeof graphqlEnv>, nodeEnv: string) => ({
  /** Browser origins allowed to call the API cross-origin (CORS), e.g. Apollo Sandbox's. */
  corsOrigins: raw.CORS_ORIGINS ?? (nodeEnv === 'production' ? [] : [APOLLO_STUDIO_ORIGIN]),
  graphql: {
    /** Schema introspection; off in production unless asked for. */
    introspection: raw.GRAPHQL_INTROSPECTION ?? nodeEnv !== 'production',
    /** Apollo Sandbox landing page and the offline GraphiQL explorer; off in production unless asked for. */
    explorer: raw.GRAPHQL_EXPLORER ?? nodeEnv !== 'production',
    maxDepth: raw.GRAPHQL_MAX_DEPTH,
    maxAliases: raw.GRAPHQL_MAX_ALIASES,
    maxRootFields: raw.GRAPHQL_MAX_ROOT_FIELDS,
    maxCost: raw.GRAPHQL_MAX_COST,
    maxTokens: raw.GRAPHQL_MAX_TOKENS,
    /** Fields resolved plus list items, per operation, counted during execution (src/graphql/execution-budget.ts). */
    maxNodes: raw.GRAPHQL_MAX_NODES,
    /** How long an operation's execution may run before no further field resolves. */
    maxExecutionMs: raw.GRAPHQL_MAX_EXECUTION_MS,
    /** The largest answer, serialised, in bytes. */
    maxResponseBytes: raw.GRAPHQL_MAX_RESPONSE_BYTES,
    /** How often the subscriptions' event feed reads the outbox besides being woken (the fallback for events other instances numbered). */
    subscriptionPollIntervalMs: raw.GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS,
    /** Open WebSocket connections one principal (token) may have on an instance; more are closed with 4429. */
    maxWsConnectionsPerPrincipal: raw.GRAPHQL_WS_MAX_CONNECTIONS_PER_PRINCIPAL,
    /** Open WebSocket connections one client address may have on an instance, authenticated or not. */
    maxWsConnectionsPerAddress: raw.GRAPHQL_WS_MAX_CONNECTIONS_PER_ADDRESS,
    /** Subscriptions (event feed followers) open at once on an instance, all connections together. */
    maxSubscriptionFollowers: raw.GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS,
  },
});

export type GraphqlConfig = ReturnType<typeof graphqlConfig>['graphql'];
