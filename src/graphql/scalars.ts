import { type GraphQLScalarTypeConfig, Kind, valueFromASTUntyped } from 'graphql';
import { ClientFacingError } from './error-mapping.js';

/**
 * Behaviour of the custom scalars; names and descriptions come from schema.graphql (graphql-tools merges
 * these functions into the SDL's types). Their errors never contain the offending value: a document
 * locator number sent where it does not belong must not be echoed back.
 */
type ScalarBehaviour<T> = Pick<GraphQLScalarTypeConfig<T, T>, 'serialize' | 'parseValue' | 'parseLiteral'>;

const DECIMAL = /^-?\d{1,18}(\.\d{1,6})?$/;

function decimal(value: unknown): string {
  if (typeof value === 'string' && DECIMAL.test(value)) return value;
  throw new ClientFacingError(
    'Decimal must be a string holding a decimal number such as "-12.50", at most 18 digits before the point and 6 after.',
  );
}

/** Exact decimal as a string: account balances are DECIMAL(24,6), beyond what a Float can hold exactly. */
const Decimal: ScalarBehaviour<string> = {
  serialize: decimal,
  parseValue: decimal,
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING) return decimal(ast.value);
    throw new ClientFacingError('Decimal must be written as a string, e.g. "12.50".');
  },
};

function safeInt(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new ClientFacingError('SafeInt must be a whole number between -9007199254740991 and 9007199254740991.');
}

/** Whole numbers beyond GraphQL's 32-bit Int, up to 2^53 - 1 (document locator numbers). */
const SafeInt: ScalarBehaviour<number> = {
  serialize: safeInt,
  parseValue: safeInt,
  parseLiteral(ast) {
    if (ast.kind === Kind.INT) return safeInt(Number(ast.value));
    throw new ClientFacingError('SafeInt must be a whole number, written without quotes.');
  },
};

const METADATA_SHAPE = 'Metadata must be a JSON object of string keys and string values, e.g. {"tier": "gold"}.';

function metadataObject(value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ClientFacingError(METADATA_SHAPE);
}

/**
 * A client's key-value pairs. Only the shape (an object) is checked here; the domain checks keys and values
 * (src/domain/metadata.ts) and answers VALIDATION_FAILED with one detail per problem, as REST does.
 */
const Metadata: ScalarBehaviour<Record<string, unknown>> = {
  serialize: metadataObject,
  parseValue: metadataObject,
  parseLiteral(ast, variables) {
    if (ast.kind === Kind.OBJECT) return metadataObject(valueFromASTUntyped(ast, variables));
    throw new ClientFacingError(METADATA_SHAPE);
  },
};

export const scalarResolvers = { Decimal, SafeInt, Metadata };
