import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';

/** A refusal from the API as the console shows it: its stable code and its message. */
export interface ApiProblem {
  code: string;
  message: string;
}

interface GraphqlErrorLike {
  message?: unknown;
  extensions?: { code?: unknown; details?: unknown } | null;
}

const fromGraphqlError = (error: GraphqlErrorLike | undefined): ApiProblem | undefined =>
  error && typeof error.message === 'string'
    ? { code: typeof error.extensions?.code === 'string' ? error.extensions.code : 'ERROR', message: error.message }
    : undefined;

/** A refusal of a REST request (the envelope's `error`), for the few things GraphQL does not answer (files). */
export class RestProblem extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The first error of a failed operation. A refusal before the operation runs (401, 403, 429) arrives as an
 * HTTP error whose body is still a GraphQL response: its code is read from there, never swallowed.
 */
export function apiProblem(error: unknown): ApiProblem {
  if (error instanceof RestProblem) return { code: error.code, message: error.message };
  if (CombinedGraphQLErrors.is(error)) {
    const problem = fromGraphqlError(error.errors[0] as GraphqlErrorLike | undefined);
    if (problem) return problem;
  }
  if (ServerError.is(error)) {
    try {
      const body = JSON.parse(error.bodyText) as { errors?: GraphqlErrorLike[] };
      const problem = fromGraphqlError(body.errors?.[0]);
      if (problem) return problem;
    } catch {
      // not JSON: fall through to the status
    }
    return { code: `HTTP_${error.statusCode}`, message: error.message };
  }
  return { code: 'NETWORK_ERROR', message: error instanceof Error ? error.message : String(error) };
}

/**
 * The refusal's details by the input field they name (`extensions.details[].field`, e.g. `taxId`, `emails[0]`),
 * so a form shows each next to its field; details without a field stay in the refusal's message.
 */
export function fieldProblems(error: unknown): ReadonlyMap<string, ApiProblem> {
  const problems = new Map<string, ApiProblem>();
  if (!CombinedGraphQLErrors.is(error)) return problems;
  for (const graphqlError of error.errors as GraphqlErrorLike[]) {
    const details = graphqlError.extensions?.details;
    if (!Array.isArray(details)) continue;
    for (const detail of details as { field?: unknown; code?: unknown; message?: unknown }[]) {
      if (typeof detail.field !== 'string' || problems.has(detail.field)) continue;
      problems.set(detail.field, {
        code: typeof detail.code === 'string' ? detail.code : 'INVALID',
        message: typeof detail.message === 'string' ? detail.message : '',
      });
    }
  }
  return problems;
}
