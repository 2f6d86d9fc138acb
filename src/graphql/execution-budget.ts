import type { ApolloServerPlugin } from '@apollo/server';
import {
  defaultFieldResolver,
  type FormattedExecutionResult,
  getNullableType,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  isListType,
  isObjectType,
} from 'graphql';
import { type Clock, systemClock } from '../clock.js';
import { ClientFacingError, errorResponseBody, GraphqlErrorCodes } from './error-mapping.js';

/**
 * What one operation may produce once it runs (issue 28). The cost limit (limits.ts) refuses an operation
 * before it runs from the most its lists can hold; these limits hold during execution whatever the data
 * (a customer linked before the accounts cap existed, a list the cost analysis does not model), so a
 * query can never take the process's memory: past one of them the answer is a single coded error.
 * - nodes: every field resolved and every item of every list (GRAPHQL_MAX_NODES), counted as they resolve;
 * - time: past the deadline (GRAPHQL_MAX_EXECUTION_MS) no further field resolves;
 * - bytes: the serialised answer (GRAPHQL_MAX_RESPONSE_BYTES).
 */
export interface ExecutionLimits {
  maxNodes: number;
  maxExecutionMs: number;
  maxResponseBytes: number;
}

/** One operation's count and deadline; resolvers reach it through the context (`budget`). */
export class ExecutionBudget {
  private nodes = 0;
  private cancelTimer: (() => void) | undefined;
  /** The limit the operation crossed; from then on every field refuses to resolve with it. */
  exceeded: ClientFacingError | undefined;

  constructor(
    private readonly limits: ExecutionLimits,
    private readonly clock: Pick<Clock, 'timer'> = systemClock,
  ) {}

  /** The deadline runs from the start of execution (parsing, validation and the cost estimate are bounded by the document's limits). */
  start(): void {
    // A timer rather than reading the clock per field: per field only a counter and a flag are touched.
    this.cancelTimer = this.clock.timer(this.limits.maxExecutionMs, () => {
      this.exceeded ??= new ClientFacingError(
        `The operation ran longer than ${this.limits.maxExecutionMs} ms (GRAPHQL_MAX_EXECUTION_MS) and was stopped. Ask for less, or retry later.`,
        { code: GraphqlErrorCodes.operationTimeout },
      );
    });
  }

  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  /** Counts `count` nodes; throws (the same error each time) once a limit is crossed. */
  charge(count: number): void {
    if (this.exceeded) throw this.exceeded;
    this.nodes += count;
    if (this.nodes > this.limits.maxNodes) {
      throw (this.exceeded = new ClientFacingError(
        `The operation resolves more than ${this.limits.maxNodes} fields and list items; at most ${this.limits.maxNodes} are allowed (GRAPHQL_MAX_NODES). Ask for smaller pages or fewer nested lists.`,
        { code: GraphqlErrorCodes.tooManyNodes },
      ));
    }
  }
}

interface BudgetedContext {
  budget?: ExecutionBudget;
}

/**
 * The relation lists, whose length the parent already holds (its id list): charged before their resolver
 * runs, because the resolver's loading is the work. Counted only once loaded, 3,000 customers' lists of
 * 3,000 accounts each would all be requested (9 million loads) before the first count came in.
 */
const SIZED_BY_PARENT: Record<string, string> = {
  'Customer.accounts': 'accountIds',
  'Account.customers': 'customerIds',
};

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null)?.then === 'function';
const lengthOf = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/**
 * Wraps every field's resolver (once, on the schema) so that it charges the context's budget: 1 per field,
 * and a list field the number of its items, before it resolves where the parent knows it, else once known. A context without a budget (subscriptions'
 * events) resolves as before.
 */
export function chargeResolvedNodes(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve: GraphQLFieldResolver<unknown, BudgetedContext> = field.resolve ?? defaultFieldResolver;
      if (!isListType(getNullableType(field.type))) {
        field.resolve = (source, args, context: BudgetedContext, info) => {
          context.budget?.charge(1);
          return resolve(source, args, context, info);
        };
        continue;
      }
      const idsKey = SIZED_BY_PARENT[`${type.name}.${field.name}`];
      if (idsKey !== undefined) {
        field.resolve = (source, args, context: BudgetedContext, info) => {
          context.budget?.charge(1 + lengthOf((source as Record<string, unknown> | null)?.[idsKey]));
          return resolve(source, args, context, info);
        };
        continue;
      }
      field.resolve = (source, args, context: BudgetedContext, info) => {
        const budget = context.budget;
        if (!budget) return resolve(source, args, context, info);
        budget.charge(1);
        const value = resolve(source, args, context, info);
        if (!isThenable(value)) {
          budget.charge(lengthOf(value));
          return value;
        }
        return Promise.resolve(value).then((items) => {
          budget.charge(lengthOf(items));
          return items;
        });
      };
    }
  }
  return schema;
}

/**
 * Starts each operation's deadline, and answers an operation that crossed a limit with that one error and
 * no data: the partial data, and the copies of the error every field still resolving raised, are dropped.
 */
export function executionBudgetPlugin<TContext extends BudgetedContext>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async executionDidStart({ contextValue }) {
          contextValue.budget?.start();
        },
        async willSendResponse({ contextValue, response }) {
          const budget = contextValue.budget;
          budget?.stop();
          if (budget?.exceeded && response.body.kind === 'single')
            response.body.singleResult = { data: null, errors: errorResponseBody(budget.exceeded).errors };
        },
      };
    },
  };
}

/**
 * Apollo's serialisation (its own is `JSON.stringify(result) + '\n'`), refusing an answer longer than
 * `maxBytes` with RESPONSE_TOO_LARGE. The node limit keeps the answer built before this small; this bounds
 * what long strings could still add.
 */
export function boundedStringify(maxBytes: number): (result: FormattedExecutionResult) => string {
  return (result) => {
    const text = `${JSON.stringify(result)}\n`;
    // A UTF-16 unit is at most 3 bytes of UTF-8: most answers need no byte count at all.
    if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return text;
    const refusal = new ClientFacingError(
      `The response is larger than ${maxBytes} bytes, the most allowed (GRAPHQL_MAX_RESPONSE_BYTES). Ask for smaller pages or fewer fields.`,
      { code: GraphqlErrorCodes.responseTooLarge },
    );
    return `${JSON.stringify({ data: null, errors: errorResponseBody(refusal).errors })}\n`;
  };
}
