import { AsyncLocalStorage } from 'node:async_hooks';
import { ApolloServerErrorCode, unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { challengeHeaderFor } from '../auth/www-authenticate.js';
import { type DomainError, type ErrorCode, isDomainError } from '../domain/errors.js';
import type { Logger } from '../logging/logger.js';

/**
 * The one translation of failures into GraphQL errors. Every error a client sees leaves through
 * `formatGraphqlError` and is one of:
 * - a DomainError: `extensions.code` is the REST code, `extensions.details` the same details;
 * - an error this module's callers wrote for clients (`ClientFacingError`: limits, scalars, HTTP edge);
 * - a graphql-js / Apollo request error (syntax, validation, variables, bad request), its message
 *   rebuilt so that no submitted value can be echoed (values may be social security numbers);
 * - anything else: INTERNAL_ERROR with a fixed message, logged server-side without its message.
 * Every error carries `extensions.requestId`, the id in the X-Request-Id header and in the logs.
 */

/** Codes only the GraphQL surface produces, beside the domain's and Apollo's. */
export const GraphqlErrorCodes = {
  internal: 'INTERNAL_ERROR',
  malformedRequest: 'MALFORMED_REQUEST',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  documentTooLarge: 'DOCUMENT_TOO_LARGE',
  queryTooDeep: 'QUERY_TOO_DEEP',
  tooManyAliases: 'TOO_MANY_ALIASES',
  tooManyRootFields: 'TOO_MANY_ROOT_FIELDS',
  queryTooComplex: 'QUERY_TOO_COMPLEX',
} as const;

const INTERNAL_MESSAGE = 'An unexpected error occurred. Quote the requestId when reporting it.';

/**
 * An error whose message this service wrote and which never contains submitted values. With a `code`
 * it replaces whatever code Apollo would assign (e.g. a limit reported as a validation error).
 */
export class ClientFacingError extends GraphQLError {
  constructor(message: string, options: { code?: string; httpStatus?: number } = {}) {
    super(message, {
      extensions: {
        ...(options.code !== undefined && { code: options.code }),
        ...(options.httpStatus !== undefined && { http: { status: options.httpStatus } }),
      },
    });
    this.name = 'ClientFacingError';
  }
}

/** The request the current async work belongs to: lets formatting stamp ids and log without a context object. */
export interface ErrorScope {
  requestId: string;
  logger: Logger;
}
export const errorScope = new AsyncLocalStorage<ErrorScope>();

// HTTP status of domain errors raised before execution (auth and environment); execution errors stay 200.
const STATUS_BEFORE_EXECUTION: Partial<Record<DomainError['kind'], number>> = {
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  unavailable: 503,
  rate_limited: 429,
};

/**
 * A DomainError raised before execution (auth step, rate limits) as a GraphQLError with the HTTP status
 * REST would use; 401 and 403 carry the same `WWW-Authenticate` challenge as REST (RFC 6750).
 */
export function requestGraphqlError(error: DomainError): GraphQLError {
  const status = STATUS_BEFORE_EXECUTION[error.kind] ?? 400;
  const headers = new Map<string, string>();
  const challenge = challengeHeaderFor(error);
  if (challenge !== undefined) headers.set('www-authenticate', challenge);
  return new GraphQLError(error.message, { originalError: error, extensions: { code: error.code, http: { status, headers } } });
}

/**
 * `code` and `details` as in REST; a refused token or a missing scope also carries the RFC 6750 challenge
 * (`challenge: { error: "insufficient_scope", scope: "customers:write" }`), also when a single field was
 * refused and the response is a 200 with partial data.
 */
function domainExtensions(error: DomainError): Record<string, unknown> {
  const challenge = error.challenge && Object.keys(error.challenge).length > 0 ? { ...error.challenge } : undefined;
  return {
    code: error.code satisfies ErrorCode,
    ...(error.details !== undefined && { details: error.details }),
    ...(challenge !== undefined && { challenge }),
  };
}

/** Apollo's `formatError`: decides message and extensions of every error sent to a client. */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const scope = errorScope.getStore();
  const { message, extensions } = clientView(formatted, error, scope);
  return {
    message,
    ...(formatted.locations !== undefined && { locations: formatted.locations }),
    ...(formatted.path !== undefined && { path: formatted.path }),
    extensions: { ...extensions, ...(scope && { requestId: scope.requestId }) },
  };
}

function clientView(formatted: GraphQLFormattedError, error: unknown, scope: ErrorScope | undefined): { message: string; extensions: Record<string, unknown> } {
  const original = unwrapResolverError(error);
  const cause = original instanceof GraphQLError && original.originalError ? original.originalError : original;
  if (isDomainError(cause)) return { message: cause.message, extensions: domainExtensions(cause) };

  const own = [original, cause].find((e): e is ClientFacingError => e instanceof ClientFacingError);
  const code = formatted.extensions?.code;
  if (own && typeof own.extensions.code === 'string') return { message: own.message, extensions: { code: own.extensions.code } };

  switch (code) {
    case ApolloServerErrorCode.GRAPHQL_PARSE_FAILED:
      // graphql-js gives the token limit no code of its own, only this text ("that" is its typo); tests pin it.
      if (/^Syntax Error: Document contains more (?:than|that) \d+ tokens\. Parsing aborted\.$/.test(formatted.message)) {
        return { message: 'The query document is too large (GRAPHQL_MAX_TOKENS); split it or send fewer fields.', extensions: { code: GraphqlErrorCodes.documentTooLarge } };
      }
      return { message: redactSyntaxError(formatted.message), extensions: { code } };
    case ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED:
      return { message: own ? own.message : redactValidationError(formatted.message), extensions: { code } };
    case ApolloServerErrorCode.BAD_USER_INPUT:
      return { message: redactVariableError(formatted.message, cause instanceof Error ? cause : undefined), extensions: { code } };
    case ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE:
      return { message: redactOperationName(formatted.message), extensions: { code } };
    case ApolloServerErrorCode.BAD_REQUEST:
    case ApolloServerErrorCode.PERSISTED_QUERY_NOT_FOUND:
    case ApolloServerErrorCode.PERSISTED_QUERY_NOT_SUPPORTED:
      // Apollo's own request-shape messages: fixed texts naming parameters, never their values.
      return { message: formatted.message, extensions: { code } };
    default:
      scope?.logger.error({ err: describeUnexpected(cause), path: formatted.path }, 'unexpected error in a GraphQL request');
      return { message: INTERNAL_MESSAGE, extensions: { code: GraphqlErrorCodes.internal } };
  }
}

/**
 * What may be logged about an unexpected error: its type, driver code and stack frames, but not its
 * message, which for database errors can contain SQL and parameter values.
 */
export function describeUnexpected(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    ...(typeof code === 'string' && { code }),
    stack: (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at ')).slice(0, 15),
  };
}

/** A name a client may have sent that is safe to repeat: an identifier, not something that looks like data. */
const isEchoableName = (name: string) => /^[_A-Za-z][_0-9A-Za-z]{0,63}$/.test(name) && (name.match(/\d/g)?.length ?? 0) < 4;
const TYPE_REF = String.raw`[_A-Za-z][_0-9A-Za-z]*|\[[_A-Za-z0-9\[\]!]+\]!?|[_A-Za-z][_0-9A-Za-z]*!`;

/** Token values ("found String "…"", "Unexpected Int "…"") are cut from syntax errors. */
export function redactSyntaxError(message: string): string {
  return message.replace(/ (Int|Float|String|BlockString|Name) "([\s\S]*)"\.$/, (whole, kind: string, value: string) =>
    kind === 'Name' && isEchoableName(value) ? whole : ` ${kind}.`,
  );
}

/** Literal values in the document ("found 123456789", "cannot represent …: x") are cut from validation errors. */
export function redactValidationError(message: string): string {
  const rules: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^Expected value of type "([^"]{1,200})", found [\s\S]*$/, (m) => `Expected value of type "${m[1]}".`],
    [/^Enum "(\w+)" cannot represent [\s\S]*$/, (m) => `Expected a value of enum "${m[1]}".`],
    [/^Value "[\s\S]*" does not exist in "(\w+)" enum\.[\s\S]*$/, (m) => `Expected a value of enum "${m[1]}".`],
    [/^(\w+) cannot represent [\s\S]*$/, (m) => `Expected a value of type "${m[1]}".`],
  ];
  for (const [pattern, rewrite] of rules) {
    const match = pattern.exec(message);
    if (match) return rewrite(match);
  }
  return message;
}

/**
 * Variable coercion errors: graphql-js writes the submitted value into the message ("Variable "$input"
 * got invalid value { socialSecurityNumber: … }"). The message is rebuilt from parts that cannot carry
 * a value: the variable's name, the path of schema field names, and a reason from a fixed list.
 */
export function redactVariableError(message: string, reason: Error | undefined): string {
  const head = /^Variable "\$([_A-Za-z][_0-9A-Za-z]*)" /.exec(message);
  if (!head) return 'A variable has an invalid value.';
  const variable = head[1]!;
  const rest = message.slice(head[0].length);
  if (new RegExp(`^(of required type "(${TYPE_REF})" was not provided|of non-null type "(${TYPE_REF})" must not be null)\\.$`).test(rest)) return message;
  if (!rest.startsWith('got invalid value ') || !reason || reason.message === message || !message.endsWith(`; ${reason.message}`)) {
    return `Variable "$${variable}" has an invalid value.`;
  }
  const prefix = message.slice(0, message.length - reason.message.length - 2);
  const at = / at "([_A-Za-z][_0-9A-Za-z]*(?:\.[_A-Za-z][_0-9A-Za-z]*|\[\d+\])*)"$/.exec(prefix);
  return `Variable "$${variable}" has an invalid value${at ? ` at "${at[1]}"` : ''}: ${explainCoercionFailure(reason)}`;
}

function explainCoercionFailure(reason: Error): string {
  if (reason instanceof ClientFacingError) return reason.message;
  const text = reason.message;
  const rules: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^Expected type "(\w+)"( to be an object)?\./, (m) => m[0]],
    [new RegExp(`^Expected non-nullable type "(${TYPE_REF})" not to be null\\.$`), (m) => m[0]],
    [new RegExp(`^Field "(\\w+)" of required type "(${TYPE_REF})" was not provided\\.$`), (m) => m[0]],
    [/^Field "([\s\S]*)" is not defined by type "(\w+)"\./, (m) => (isEchoableName(m[1]!) ? `Field "${m[1]}" is not defined by type "${m[2]}".` : `A field is not defined by type "${m[2]}".`)],
    [/^Enum "(\w+)" cannot represent /, (m) => `Expected a value of enum "${m[1]}".`],
    [/^Value "[\s\S]*" does not exist in "(\w+)" enum\./, (m) => `Expected a value of enum "${m[1]}".`],
    [/^(\w+) cannot represent /, (m) => `Expected type "${m[1]}".`],
    [/^Exactly one key must be specified for OneOf type "(\w+)"\.$/, (m) => m[0]],
  ];
  for (const [pattern, explain] of rules) {
    const match = pattern.exec(text);
    if (match) return explain(match);
  }
  return 'The value does not match its type.';
}

/** `operationName` is free text from the client. */
export function redactOperationName(message: string): string {
  const match = /^Unknown operation named "([\s\S]*)"\.$/.exec(message);
  if (match && !isEchoableName(match[1]!)) return 'Unknown operation named in operationName.';
  return message;
}

/**
 * A body of the GraphQL response shape for errors answered before Apollo runs (unknown environment,
 * unparsable JSON, oversized body), formatted by the same rules.
 */
export function errorResponseBody(error: GraphQLError): { errors: GraphQLFormattedError[] } {
  const { http: _http, ...extensions } = error.extensions;
  return { errors: [formatGraphqlError({ message: error.message, extensions }, error)] };
}
