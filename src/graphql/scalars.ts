import { type GraphQLScalarTypeConfig, Kind } from 'graphql';
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
  throw new ClientFacingError('Decimal must be a string holding a decimal number such as "-12.50", at most 18 digits before the point and 6 after.');
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

const METADATA_SHAPE = 'Metadata must be an object of string values, e.g. {"orderId": "A-1"}.';

function metadataObject(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ClientFacingError(METADATA_SHAPE);
  const entries = Object.entries(value);
  if (entries.some(([, item]) => typeof item !== 'string')) throw new ClientFacingError(METADATA_SHAPE);
  return Object.fromEntries(entries) as Record<string, string>;
}

/**
 * The client's key-value pairs: an object of strings. The domain checks the limits (src/domain/metadata.ts),
 * with REST's messages; here only the shape, never echoing a key or value.
 */
const Metadata: ScalarBehaviour<Record<string, string>> = {
  serialize: metadataObject,
  parseValue: metadataObject,
  parseLiteral(ast) {
    if (ast.kind !== Kind.OBJECT) throw new ClientFacingError(METADATA_SHAPE);
    const entries = ast.fields.map((field) => {
      if (field.value.kind !== Kind.STRING) throw new ClientFacingError(METADATA_SHAPE);
      return [field.name.value, field.value.value] as const;
    });
    return Object.fromEntries(entries);
  },
};

export const scalarResolvers = { Decimal, SafeInt, Metadata };
