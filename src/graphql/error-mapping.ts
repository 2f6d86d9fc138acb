import { AsyncLocalStorage } from 'node:async_hooks';
import { ApolloServerErrorCode, unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { challengeFor } from '../auth/www-authenticate.js';
import {
  type CallerError,
  headersOf,
  type HttpError,
  internalError,
  isCallerError,
  logUnexpected,
  statusOf,
} from '../http/errors.js';
import type { Logger } from '../logging/logger.js';

/**
 * The one translation of failures into GraphQL errors. Statuses, HTTP failures and the answer to anything
 * unexpected come from the HTTP failure vocabulary REST uses too (src/http/errors.ts). Every error a client
 * sees leaves through `formatGraphqlError` and is one of:
 * - a DomainError or RequestError: `extensions.code` is the REST code, `extensions.details` the same details;
 * - an error this module's callers wrote for clients (`ClientFacingError`: limits, scalars, HTTP edge);
 * - a graphql-js / Apollo request error (syntax, validation, variables, bad request), its message
 *   rebuilt so that no submitted value can be echoed (values may be social security numbers);
 * - anything else: INTERNAL_ERROR with REST's fixed message, logged server-side without its message.
 * Every error carries `extensions.requestId`, the id in the X-Request-Id header and in the logs.
 */

/** Codes only the GraphQL surface produces, beside the domain's, HTTP's (src/http/errors.ts) and Apollo's. */
export const GraphqlErrorCodes = {
  documentTooLarge: 'DOCUMENT_TOO_LARGE',
  queryTooDeep: 'QUERY_TOO_DEEP',
  tooManyAliases: 'TOO_MANY_ALIASES',
  tooManyRootFields: 'TOO_MANY_ROOT_FIELDS',
  queryTooComplex: 'QUERY_TOO_COMPLEX',
  // Limits crossed during execution (execution-budget.ts): the answer is that one error and `data: null`.
  tooManyNodes: 'TOO_MANY_NODES',
  operationTimeout: 'OPERATION_TIMEOUT',
  responseTooLarge: 'RESPONSE_TOO_LARGE',
  subscriptionTooSlow: 'SUBSCRIPTION_TOO_SLOW',
  // A GraphQL URL (GET) naming a secret-bearing input field (url-guard.ts): refused before anything runs.
  sensitiveFieldInUrl: 'SENSITIVE_FIELD_IN_URL',
} as const;

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

const headerMap = (headers: Record<string, string>) =>
  new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/**
 * An error raised before execution (auth step, environment, rate limits) as a GraphQLError with the HTTP
 * status and headers REST would answer (src/http/errors.ts): 401 and 403 carry the same `WWW-Authenticate`
 * challenge (RFC 6750), 503 the same Retry-After. Execution errors stay in a 200.
 */
export function requestGraphqlError(error: CallerError): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { code: error.code, http: { status: statusOf(error), headers: headerMap(headersOf(error)) } },
  });
}

/** A failure of HTTP itself (reading the body, anything unexpected before Apollo) with REST's status, code and text. */
export function httpGraphqlError(error: HttpError): ClientFacingError {
  const graphqlError = new ClientFacingError(error.message, { code: error.code, httpStatus: error.status });
  if (Object.keys(error.headers).length > 0)
    (graphqlError.extensions.http as { headers?: Map<string, string> }).headers = headerMap(error.headers);
  return graphqlError;
}

/**
 * `code` and `details` as in REST; a refused token or a missing scope also carries the RFC 6750 challenge
 * (`challenge: { error: "insufficient_scope", scope: "customers:write" }`), also when a single field was
 * refused and the response is a 200 with partial data.
 */
function callerExtensions(error: CallerError): Record<string, unknown> {
  const found = challengeFor(error);
  const challenge = found && Object.keys(found).length > 0 ? { ...found } : undefined;
  const details = 'details' in error ? error.details : undefined;
  return {
    code: error.code,
    ...(details !== undefined && { details }),
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

function clientView(
  formatted: GraphQLFormattedError,
  error: unknown,
  scope: ErrorScope | undefined,
): { message: string; extensions: Record<string, unknown> } {
  const original = unwrapResolverError(error);
  const cause = original instanceof GraphQLError && original.originalError ? original.originalError : original;
  if (isCallerError(cause)) return { message: cause.message, extensions: callerExtensions(cause) };

  const own = [original, cause].find((e): e is ClientFacingError => e instanceof ClientFacingError);
  const code = formatted.extensions?.code;
  if (own && typeof own.extensions.code === 'string')
    return { message: own.message, extensions: { code: own.extensions.code } };

  switch (code) {
    case ApolloServerErrorCode.GRAPHQL_PARSE_FAILED:
      // graphql-js gives the token limit no code of its own, only this text ("that" is its typo); tests pin it.
      if (
        /^Syntax Error: Document contains more (?:than|that) \d+ tokens\. Parsing aborted\.$/.test(formatted.message)
      ) {
        return {
          message: 'The query document is too large (GRAPHQL_MAX_TOKENS); split it or send fewer fields.',
          extensions: { code: GraphqlErrorCodes.documentTooLarge },
        };
      }
      return { message: redactSyntaxError(formatted.message), extensions: { code } };
    case ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED:
      return { message: own ? own.message : redactValidationError(formatted.message), extensions: { code } };
    case ApolloServerErrorCode.BAD_USER_INPUT: {
      const message = redactVariableError(formatted.message, cause instanceof Error ? cause : undefined);
      const details = variableErrorDetails(message);
      return { message, extensions: { code, ...(details && { details }) } };
    }
    case ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE:
      return { message: redactOperationName(formatted.message), extensions: { code } };
    case ApolloServerErrorCode.BAD_REQUEST:
    case ApolloServerErrorCode.PERSISTED_QUERY_NOT_FOUND:
    case ApolloServerErrorCode.PERSISTED_QUERY_NOT_SUPPORTED:
      // Apollo's own request-shape messages: fixed texts naming parameters, never their values.
      return { message: formatted.message, extensions: { code } };
    default: {
      if (scope) logUnexpected(scope.logger, cause, { path: formatted.path });
      const internal = internalError();
      return { message: internal.message, extensions: { code: internal.code } };
    }
  }
}

/** A name a client may have sent that is safe to repeat: an identifier, not something that looks like data. */
const isEchoableName = (name: string) =>
  /^[_A-Za-z][_0-9A-Za-z]{0,63}$/.test(name) && (name.match(/\d/g)?.length ?? 0) < 4;
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
  if (
    new RegExp(
      `^(of required type "(${TYPE_REF})" was not provided|of non-null type "(${TYPE_REF})" must not be null)\\.$`,
    ).test(rest)
  )
    return message;
  if (
    !rest.startsWith('got invalid value ') ||
    !reason ||
    reason.message === message ||
    !message.endsWith(`; ${reason.message}`)
  ) {
    return `Variable "$${variable}" has an invalid value.`;
  }
  const prefix = message.slice(0, message.length - reason.message.length - 2);
  const at = / at "([_A-Za-z][_0-9A-Za-z]*(?:\.[_A-Za-z][_0-9A-Za-z]*|\[\d+\])*)"$/.exec(prefix);
  return `Variable "$${variable}" has an invalid value${at ? ` at "${at[1]}"` : ''}: ${explainCoercionFailure(reason)}`;
}

/**
 * The redacted message's place in the input as a REST-like detail (`field` the path below the variable, as a
 * domain refusal names it: `ownershipPercentage`, `addresses[0].zip`), so a form shows the refusal next to its
 * field. Only names from the schema reach it (redactVariableError keeps no value); none without a place.
 */
export function variableErrorDetails(
  message: string,
): { field: string; code: 'INVALID_VALUE'; message: string }[] | undefined {
  const match = /^Variable "\$([_A-Za-z][_0-9A-Za-z]*)" has an invalid value at "([^"]+)": ([\s\S]+)$/.exec(message);
  if (!match) return undefined;
  const [, variable, at, reason] = match as unknown as [string, string, string, string];
  const below = at.startsWith(`${variable}.`)
    ? at.slice(variable.length + 1)
    : at.startsWith(`${variable}[`)
      ? at.slice(variable.length)
      : at;
  return [{ field: below === '' ? variable : below, code: 'INVALID_VALUE', message: reason }];
}

function explainCoercionFailure(reason: Error): string {
  if (reason instanceof ClientFacingError) return reason.message;
  const text = reason.message;
  const rules: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^Expected type "(\w+)"( to be an object)?\./, (m) => m[0]],
    [new RegExp(`^Expected non-nullable type "(${TYPE_REF})" not to be null\\.$`), (m) => m[0]],
    [new RegExp(`^Field "(\\w+)" of required type "(${TYPE_REF})" was not provided\\.$`), (m) => m[0]],
    [
      /^Field "([\s\S]*)" is not defined by type "(\w+)"\./,
      (m) =>
        isEchoableName(m[1]!)
          ? `Field "${m[1]}" is not defined by type "${m[2]}".`
          : `A field is not defined by type "${m[2]}".`,
    ],
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
