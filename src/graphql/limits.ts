import { ApolloServerErrorCode } from '@apollo/server/errors';
import type { ApolloServerPlugin, BaseContext, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import { type ComplexityEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getDirectiveValues,
  getVariableValues,
  type GraphQLSchema,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
  visit,
} from 'graphql';
import { validationFailed } from '../domain/errors.js';
import { PAGE_SIZE } from '../domain/pagination.js';
import { ClientFacingError, GraphqlErrorCodes, requestGraphqlError } from './error-mapping.js';

/**
 * Protection against expensive documents, each limit configurable (GRAPHQL_MAX_*), each with its own
 * error code. The document size limit is graphql-js's own `maxTokens` (Apollo `parseOptions`), applied
 * while parsing; the shape limits below run as a validation rule after the standard rules passed, so they
 * only ever see valid documents (known, acyclic fragments); the cost limit needs the variables and runs
 * once the operation is resolved.
 */
export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxRootFields: number;
  maxCost: number;
}

interface Shape {
  depth: number;
  aliases: number;
}

const isIntrospectionField = (name: string) => name.startsWith('__');

/**
 * Depth is the number of nested selection sets (`{ customer { accounts { name } } }` is 2). Introspection
 * fields are not counted, as graphql-depth-limit does: tools' introspection queries are deep by nature.
 */
function measure(selectionSet: SelectionSetNode, context: ValidationContext, fragments: Map<string, Shape>): Shape {
  let depth = 0;
  let aliases = 0;
  for (const selection of selectionSet.selections) {
    let inner: Shape = { depth: 0, aliases: 0 };
    if (selection.kind === Kind.FIELD) {
      if (selection.alias) aliases += 1;
      if (selection.selectionSet && !isIntrospectionField(selection.name.value)) {
        const child = measure(selection.selectionSet, context, fragments);
        inner = { depth: child.depth + 1, aliases: child.aliases };
      }
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = measure(selection.selectionSet, context, fragments);
    } else {
      inner = fragmentShape(context.getFragment(selection.name.value), context, fragments);
    }
    depth = Math.max(depth, inner.depth);
    aliases += inner.aliases;
  }
  return { depth, aliases };
}

function fragmentShape(
  fragment: FragmentDefinitionNode | null | undefined,
  context: ValidationContext,
  fragments: Map<string, Shape>,
): Shape {
  if (!fragment) return { depth: 0, aliases: 0 };
  const known = fragments.get(fragment.name.value);
  if (known) return known;
  const shape = measure(fragment.selectionSet, context, fragments);
  fragments.set(fragment.name.value, shape);
  return shape;
}

function rootFieldCount(selectionSet: SelectionSetNode, context: ValidationContext): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) count += isIntrospectionField(selection.name.value) ? 0 : 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT) count += rootFieldCount(selection.selectionSet, context);
    else {
      const fragment = context.getFragment(selection.name.value);
      if (fragment) count += rootFieldCount(fragment.selectionSet, context);
    }
  }
  return count;
}

/**
 * Where an operation arrived: subscriptions are served over WebSocket only (src/graphql/websocket.ts), and the
 * WebSocket serves subscriptions only (queries and mutations keep HTTP's rate limits, idempotency and metrics).
 */
export type Transport = 'http' | 'websocket';

/** Maximum depth, aliases and root fields, per operation; the operation types the transport serves. */
export function operationShapeRule(
  limits: Pick<QueryLimits, 'maxDepth' | 'maxAliases' | 'maxRootFields'>,
  transport: Transport = 'http',
): ValidationRule {
  return (context) => {
    const fragments = new Map<string, Shape>();
    return {
      OperationDefinition(operation) {
        const shape = measure(operation.selectionSet, context, fragments);
        const rootFields = rootFieldCount(operation.selectionSet, context);
        const limit = (code: string, message: string) =>
          context.reportError(new ClientFacingError(message, { code, httpStatus: 400 }));
        if (shape.depth > limits.maxDepth) {
          limit(
            GraphqlErrorCodes.queryTooDeep,
            `The operation is nested ${shape.depth} levels deep; at most ${limits.maxDepth} are allowed (GRAPHQL_MAX_DEPTH).`,
          );
        }
        if (shape.aliases > limits.maxAliases) {
          limit(
            GraphqlErrorCodes.tooManyAliases,
            `The operation uses ${shape.aliases} aliases; at most ${limits.maxAliases} are allowed (GRAPHQL_MAX_ALIASES).`,
          );
        }
        if (rootFields > limits.maxRootFields) {
          limit(
            GraphqlErrorCodes.tooManyRootFields,
            `The operation selects ${rootFields} root fields; at most ${limits.maxRootFields} are allowed (GRAPHQL_MAX_ROOT_FIELDS).`,
          );
        }
        // One write per request: with several non-null mutation fields, a later failure nulls the whole
        // `data`, and the client would never learn that an earlier write was committed.
        if (operation.operation === 'mutation' && rootFields > 1) {
          limit(
            GraphqlErrorCodes.tooManyRootFields,
            `A mutation operation may contain one field; this one has ${rootFields}. Send one write per request.`,
          );
        }
        // Over HTTP, graphql-js would only fail at execution time, as an unexpected error.
        if (transport === 'http' && operation.operation === 'subscription') {
          limit(
            ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
            'Subscriptions are served over WebSocket at this path (graphql-ws, subprotocol graphql-transport-ws), not over HTTP.',
          );
        }
        if (transport === 'websocket' && operation.operation !== 'subscription') {
          limit(
            ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
            'Over WebSocket this API serves subscriptions only; send queries and mutations over HTTP (POST to this path).',
          );
        }
        return false;
      },
    };
  };
}

/**
 * What an environment's lists hold at most, by the name `@listSize(sizedBy:)` gives them (`accountsPerCustomer`,
 * `customersPerAccount`: the link bounds, src/features/links). Absent: the assumed sizes (the caps) count.
 */
export type ListBounds = Readonly<Record<string, number>>;

/**
 * Cost of a field carrying `@listSize` (schema.graphql): one item's cost times the slicing argument
 * (`first`) when given (its default when absent or null), else the environment's bound when `bounds` has the
 * field's `sizedBy` (at least 1), else the assumed size. Other fields cost 1 plus their children.
 */
function listSizeEstimator(schema: GraphQLSchema, bounds?: ListBounds): ComplexityEstimator {
  const directive = schema.getDirective('listSize');
  return ({ field, args, childComplexity }) => {
    if (!directive || !field.astNode) return undefined;
    const values = getDirectiveValues(directive, field.astNode) as
      { assumedSize?: number; slicingArguments?: string[]; sizedBy?: string } | undefined;
    if (!values) return undefined;
    // An explicit null asks for the default page (`first ?? default` in every resolver): count the argument's default.
    const given = (name: string): unknown =>
      args[name] ?? field.args.find((argument) => argument.name === name)?.defaultValue;
    const slices = (values.slicingArguments ?? [])
      .map((name) => ({ name, value: given(name) }))
      .filter((slice): slice is { name: string; value: number } => typeof slice.value === 'number');
    const outOfRange = slices.find(({ value }) => !Number.isInteger(value) || value < 1 || value > PAGE_SIZE.max);
    if (outOfRange) throw new SliceOutOfRange(outOfRange.name);
    const bound = values.sizedBy === undefined ? undefined : bounds?.[values.sizedBy];
    return (
      (1 + childComplexity) *
      (slices[0]?.value ?? (bound === undefined ? undefined : Math.max(1, bound)) ?? values.assumedSize ?? 1)
    );
  };
}

/**
 * A page size (`first`) outside 1–PAGE_SIZE.max anywhere in the document. Found while estimating, so the
 * operation is refused before it runs: a mutation whose nested list asks for too much must not write and then
 * answer no data (its non-null root field nulled by the nested error).
 */
class SliceOutOfRange extends Error {
  constructor(readonly argument: string) {
    super(`${argument} out of range`);
  }
}

/** What happens with an accepted operation's cost (the rate limit charges it: src/graphql/rate-limit.ts). */
export type CostListener<TContext extends BaseContext> = (
  cost: number,
  request: GraphQLRequestContextDidResolveOperation<TContext>,
) => Promise<void>;

/** The bounds that `@listSize(sizedBy:)` names in the schema, each at its least (0, counted as 1): the lowest cost bounds can give. */
function leastBounds(schema: GraphQLSchema): ListBounds {
  const directive = schema.getDirective('listSize');
  const least: Record<string, number> = {};
  if (!directive) return least;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const sizedBy =
        field.astNode && (getDirectiveValues(directive, field.astNode) as { sizedBy?: string } | undefined)?.sizedBy;
      if (typeof sizedBy === 'string') least[sizedBy] = 0;
    }
  }
  return least;
}

/** Names of the arguments any `@listSize` directive of the schema slices by (`first`). */
function slicingArgumentNames(schema: GraphQLSchema): Set<string> {
  const names = new Set<string>();
  const directive = schema.getDirective('listSize');
  if (!directive) return names;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.astNode) continue;
      const values = getDirectiveValues(directive, field.astNode) as { slicingArguments?: string[] } | undefined;
      for (const name of values?.slicingArguments ?? []) names.add(name);
    }
  }
  return names;
}

/**
 * The variables whose values can change a document's cost: those used in a slicing argument or in a
 * directive (@skip, @include). Others (ids, inputs) cannot, so their values need not key the cache.
 */
function costVariables(document: DocumentNode, slicing: ReadonlySet<string>): string[] {
  const names = new Set<string>();
  const collect = (value: ValueNode) =>
    visit(value, {
      Variable(node) {
        names.add(node.name.value);
      },
    });
  visit(document, {
    Field(node) {
      for (const argument of node.arguments ?? []) if (slicing.has(argument.name.value)) collect(argument.value);
    },
    Directive(node) {
      for (const argument of node.arguments ?? []) collect(argument.value);
    },
  });
  return [...names].sort();
}

/** Costs remembered per document (Apollo's document cache hands back the same parsed object) and key. */
const MAX_COSTS_PER_DOCUMENT = 64;

/**
 * The estimated cost of an operation; undefined when its variables are invalid (execution reports them).
 * Throws VALIDATION_FAILED (a GraphQLError) when a page size (`first`) is outside 1–PAGE_SIZE.max.
 * The estimate walks the whole document; it is made once per document, operation and values of the
 * variables that can change it, and then looked up.
 */
export type CostEstimator = (
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  bounds?: ListBounds,
) => number | undefined;

export function costEstimator(schema: GraphQLSchema): CostEstimator {
  const simple = simpleEstimator({ defaultComplexity: 1 });
  const atCaps = [listSizeEstimator(schema), simple];
  const slicing = slicingArgumentNames(schema);
  const variablesByDocument = new WeakMap<DocumentNode, string[]>();
  const costsByDocument = new WeakMap<DocumentNode, Map<string, number>>();

  return (document, operation, variables, bounds) => {
    let names = variablesByDocument.get(document);
    if (!names) variablesByDocument.set(document, (names = costVariables(document, slicing)));
    const key = JSON.stringify([
      operation.name?.value ?? null,
      bounds ?? null,
      ...names.map((name) => (name in variables ? variables[name] : '(absent)')),
    ]);
    const estimators = bounds ? [listSizeEstimator(schema, bounds), simple] : atCaps;
    let costs = costsByDocument.get(document);
    const known = costs?.get(key);
    if (known !== undefined) return known;
    // Invalid variables are reported by execution (BAD_USER_INPUT, values redacted); estimating with
    // them would only produce a second, less precise error.
    if (getVariableValues(schema, operation.variableDefinitions ?? [], variables).errors) return undefined;
    let cost: number;
    try {
      cost = getComplexity({ schema, query: document, operationName: operation.name?.value, variables, estimators });
    } catch (error) {
      if (error instanceof SliceOutOfRange) {
        throw requestGraphqlError(
          validationFailed([
            { field: error.argument, code: 'OUT_OF_RANGE', message: `Must be between 1 and ${PAGE_SIZE.max}.` },
          ]),
        );
      }
      cost = Number.POSITIVE_INFINITY; // too many nodes to even estimate
    }
    if (!costs) costsByDocument.set(document, (costs = new Map()));
    if (costs.size < MAX_COSTS_PER_DOCUMENT) costs.set(key, cost);
    return cost;
  };
}

/** QUERY_TOO_COMPLEX when `cost` is over the limit (GRAPHQL_MAX_COST); undefined when it is within. */
export function costLimitError(cost: number | undefined, maxCost: number): ClientFacingError | undefined {
  if (cost === undefined || cost <= maxCost) return undefined;
  return new ClientFacingError(
    `The operation's estimated cost is ${Number.isFinite(cost) ? cost : 'too large to compute'}; at most ${maxCost} is allowed (GRAPHQL_MAX_COST). Ask for smaller pages or fewer nested lists.`,
    { code: GraphqlErrorCodes.queryTooComplex, httpStatus: 400 },
  );
}

/** The environment's list bounds for a request (one read by primary key), or undefined where there are none to read. */
export type BoundsReader<TContext extends BaseContext> = (
  request: GraphQLRequestContextDidResolveOperation<TContext>,
) => Promise<ListBounds | undefined>;

/**
 * Refuses an operation whose estimated cost exceeds the limit, before any resolver runs. The estimate counts
 * every list at the most it can hold (the caps); only an operation over the limit at the caps is estimated again
 * with the environment's bounds (`readBounds`, docs/adr/0089), so an operation within it reads nothing more. An
 * accepted operation's cost goes to `onCost` (the rate limit).
 */
export function costLimitPlugin<TContext extends BaseContext>(
  schema: GraphQLSchema,
  maxCost: number,
  onCost?: CostListener<TContext>,
  readBounds?: BoundsReader<TContext>,
): ApolloServerPlugin<TContext> {
  const costOf = costEstimator(schema);
  const least = leastBounds(schema);
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(requestContext) {
          const { request, document, operation } = requestContext;
          if (!operation) return;
          let cost = costOf(document, operation, request.variables ?? {});
          // Bounds are read only when they could bring the cost within the limit: not for an operation whose
          // lists are not sized by them, nor one over the limit even with every bounded list holding one item.
          const variables = request.variables ?? {};
          if (
            readBounds &&
            cost !== undefined &&
            cost > maxCost &&
            (costOf(document, operation, variables, least) ?? cost) <= maxCost
          ) {
            // Unreadable bounds leave the caps' estimate, which refuses: the safe side.
            const bounds = await readBounds(requestContext).catch(() => undefined);
            if (bounds) cost = costOf(document, operation, variables, bounds) ?? cost;
          }
          const refusal = costLimitError(cost, maxCost);
          if (refusal) throw refusal;
          if (cost !== undefined) await onCost?.(cost, requestContext);
        },
      };
    },
  };
}
