import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { defaultFieldResolver, type GraphQLFieldResolver, GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { type RecordKind, requireReadable } from '../domain/answer-shape.js';
import type { GraphqlContext } from './context.js';
import { resolverMaps } from './resolvers.js';

/** schema.graphql at the top of the repository is the source of truth (same path from src/ and dist/). */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schema.graphql', import.meta.url));

export function buildGraphqlSchema(): GraphQLSchema {
  return withRecordFieldsShaped(
    makeExecutableSchema({
      typeDefs: readFileSync(SCHEMA_FILE, 'utf8'),
      resolvers: resolverMaps,
      // Every resolver in the map must name a field of the SDL, and every interface must be resolvable.
      resolverValidationOptions: { requireResolversToMatchSchema: 'error', requireResolversForResolveType: 'error' },
    }),
  );
}

/**
 * The fields of a record beyond its identity, and the scope that reads it: every field of `Customer` but `id`,
 * `customerId` and `version` needs `customers:read`, every field of `Account` but `id`, `accountId` and `version`
 * needs `accounts:read`, wherever the record is answered (a mutation's answer, a nested record, a subscription),
 * also the fields its parent already carries (`Account.transactions`' first page, `balance`). A mutation made with
 * its write scope alone answers the identity (src/domain/answer-shape.ts); any other field is FORBIDDEN naming the
 * read scope. The write itself has been made then: the error's `path` goes below the mutation's field.
 * A beneficial owner (`BeneficialOwner`, `BusinessOwnership`) is the business's data: `customers:read` but its ids.
 * A verification (`Verification`, `VerificationCheck`, `VerificationDocument`) needs `verification:read` but its ids.
 */
const RECORD_TYPES: Readonly<Record<string, { kind: RecordKind; identity: ReadonlySet<string> }>> = {
  Customer: { kind: 'customer', identity: new Set(['id', 'customerId', 'version']) },
  Account: { kind: 'account', identity: new Set(['id', 'accountId', 'version']) },
  // Who owns or controls a business is customer data (docs/adr/0097): a write answers the ids alone.
  BeneficialOwner: { kind: 'customer', identity: new Set(['customerId']) },
  BusinessOwnership: { kind: 'customer', identity: new Set(['businessCustomerId']) },
  // A verification is read with its own scope (docs/adr/0101): a check request or a decision answers the id alone.
  Verification: { kind: 'verification', identity: new Set(['customerId']) },
  VerificationCheck: { kind: 'verification', identity: new Set(['checkId']) },
  // A document's metadata (docs/adr/0103): a review made without verification:read answers its id alone.
  VerificationDocument: { kind: 'verification', identity: new Set(['documentId']) },
};

/** Wraps each shaped field's resolver with the one check (an `includes` on the caller's scopes, before the resolver runs). */
function withRecordFieldsShaped(schema: GraphQLSchema): GraphQLSchema {
  for (const [typeName, { kind, identity }] of Object.entries(RECORD_TYPES)) {
    const type = schema.getType(typeName);
    if (!(type instanceof GraphQLObjectType)) throw new Error(`schema.graphql has no object type ${typeName}`);
    for (const field of Object.values(type.getFields())) {
      if (identity.has(field.name)) continue;
      const resolve: GraphQLFieldResolver<unknown, GraphqlContext> = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context: GraphqlContext, info) => {
        requireReadable(context.caller, kind);
        return resolve(source, args, context, info);
      };
    }
  }
  return schema;
}
