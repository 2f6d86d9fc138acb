import { ApolloServerErrorCode } from '@apollo/server/errors';
import {
  type DocumentNode,
  type ExecutionArgs,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type GraphQLSchema,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import type { RequestContext } from '../auth/request-context.js';
import type { HttpDependencies } from '../http/dependencies.js';
import { rateLimited } from '../http/rate-limit.js';
import { createGraphqlContext } from './context.js';
import { requestGraphqlError } from './error-mapping.js';
import { costEstimator, costLimitError, operationShapeRule } from './limits.js';

/**
 * Preparing one operation that arrived over WebSocket (src/graphql/websocket.ts), as Apollo does for an HTTP
 * request: parsed with the token limit, validated by graphql-js's rules and then the depth, alias and
 * root-field rule, its operation resolved and variables coerced, its cost estimated against the limit and
 * charged to the token's budget. Each refusal carries the code HTTP answers for it.
 */

export type PrepareOperation = (
  request: RequestContext,
  payload: SubscribePayload,
) => Promise<ExecutionArgs | readonly GraphQLError[]>;

/** The preparation of the operations of one schema: answers an operation's execution, or why not. */
export function operationPreparer(deps: HttpDependencies, schema: GraphQLSchema): PrepareOperation {
  const settings = deps.config.graphql;
  const costOf = costEstimator(schema);
  const shapeRule = operationShapeRule(settings, 'websocket');
  const hideSchemaDetails = deps.config.nodeEnv === 'production';

  return async function prepare(
    request: RequestContext,
    payload: SubscribePayload,
  ): Promise<ExecutionArgs | readonly GraphQLError[]> {
    let document: DocumentNode;
    try {
      document = parse(payload.query, { maxTokens: settings.maxTokens });
    } catch (error) {
      if (error instanceof GraphQLError) return [coded(error, ApolloServerErrorCode.GRAPHQL_PARSE_FAILED)];
      throw error;
    }
    const invalid = validate(schema, document, specifiedRules);
    if (invalid.length > 0) {
      // As Apollo's hideSchemaDetailsFromClientErrors does for HTTP in production: no "Did you mean …" hints.
      if (hideSchemaDetails)
        for (const error of invalid) error.message = error.message.replace(/ ?Did you mean(.+?)\?$/, '');
      return invalid.map((error) => coded(error, ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED));
    }
    // After the standard rules, as for HTTP: the shape rule only ever sees valid documents.
    const outOfShape = validate(schema, document, [shapeRule]);
    if (outOfShape.length > 0) return outOfShape;
    const operationName = payload.operationName ?? undefined;
    const operation = getOperationAST(document, operationName);
    if (!operation) {
      const message =
        operationName === undefined
          ? 'Must provide operation name if query contains multiple operations.'
          : `Unknown operation named "${operationName}".`;
      return [new GraphQLError(message, { extensions: { code: ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE } })];
    }
    const variables = payload.variables ?? {};
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 });
    if (coerced.errors) return coerced.errors.map((error) => coded(error, ApolloServerErrorCode.BAD_USER_INPUT));
    let cost: number | undefined;
    try {
      cost = costOf(document, operation, variables);
    } catch (error) {
      if (error instanceof GraphQLError) return [error];
      throw error;
    }
    const tooComplex = costLimitError(cost, settings.maxCost);
    if (tooComplex) return [tooComplex];
    // One point for the operation, as a request pays, plus its cost's share (src/graphql/rate-limit.ts).
    const budget = deps.rateLimits.principal;
    if (budget) {
      const state = await budget.consume(
        request.caller.principal.id,
        1 + Math.floor((cost ?? 0) / deps.rateLimits.graphqlCostPerPoint),
      );
      if (!state.allowed) return [requestGraphqlError(rateLimited(state.resetS))];
    }
    request.logger.debug('graphql subscription started');
    return {
      schema,
      document,
      operationName,
      variableValues: variables,
      contextValue: createGraphqlContext(request, deps.services, deps.environments),
    };
  };
}

/** graphql-js's errors carry no code; HTTP's get theirs from Apollo, these the same ones. */
function coded(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    originalError: error.originalError ?? null,
    extensions: { ...error.extensions, code },
  });
}
