import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { auditResolvers } from './audit.js';
import { resolvers } from './resolvers.js';
import { scalarResolvers } from './scalars.js';
import { subscriptionResolvers } from './subscriptions.js';
import { viewerResolvers } from './viewer.js';
import { webhookResolvers } from './webhooks.js';

/** schema.graphql at the top of the repository is the source of truth (same path from src/ and dist/). */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schema.graphql', import.meta.url));

export function buildGraphqlSchema(): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: readFileSync(SCHEMA_FILE, 'utf8'),
    resolvers: [resolvers, auditResolvers, webhookResolvers, subscriptionResolvers, scalarResolvers, viewerResolvers],
    // Every resolver in the map must name a field of the SDL, and every interface must be resolvable.
    resolverValidationOptions: { requireResolversToMatchSchema: 'error', requireResolversForResolveType: 'error' },
  });
}
