import type { CallResult, TestService } from '../../../test/support/service.js';

/**
 * GraphQL helpers for the reliability tests, written against issue 4's schema (schema.graphql:
 * customer(customerId), account(accountId), createAccount/updateAccount/deleteAccount …).
 */

export const GRAPHQL_MISSING =
  'The GraphQL endpoint POST /{environment}/graphql is not mounted on this branch (it answered with the REST ' +
  "router's ROUTE_NOT_FOUND). These tests cover the GraphQL half of issue 6 and fail until issue 4 lands; " +
  'they must never pass without the endpoint.';

/** Fails loudly unless /sandbox/graphql is a GraphQL endpoint: a 404 must never let these tests pass. */
export async function requireGraphqlEndpoint(
  post: (path: string, body: unknown) => Promise<{ status: number; json: unknown }>,
): Promise<void> {
  const probe = await post('/sandbox/graphql', { query: '{ __typename }' });
  const data = (probe.json as { data?: { __typename?: unknown } } | undefined)?.data;
  if (probe.status === 404 || data?.__typename !== 'Query')
    throw new Error(`${GRAPHQL_MISSING} Probe: HTTP ${probe.status}.`);
}

export async function graphql(
  service: TestService,
  query: string,
  variables?: Record<string, unknown>,
): Promise<CallResult> {
  return service.call('POST', '/sandbox/graphql', { body: { query, ...(variables && { variables }) } });
}

/** The data of a GraphQL answer that must have succeeded; anything else throws with the error codes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dataOf(result: CallResult): any {
  if (result.status !== 200 || !result.json || result.json.errors) {
    throw new Error(
      `GraphQL failed: HTTP ${result.status} ${JSON.stringify(result.json?.errors?.map((e: { extensions?: { code?: string } }) => e.extensions?.code) ?? result.text.slice(0, 200))}`,
    );
  }
  return result.json.data;
}

/** The `extensions.code` of each error of an answer. */
export const errorCodes = (result: CallResult): string[] =>
  ((result.json?.errors ?? []) as { extensions?: { code?: string } }[]).map(
    (error) => error.extensions?.code ?? '<none>',
  );

export const CREATE_ACCOUNT =
  'mutation ($input: CreateAccountInput!) { createAccount(input: $input) { accountId customerIds name currency } }';
export const UPDATE_ACCOUNT =
  'mutation ($id: ID!, $input: UpdateAccountInput!) { updateAccount(accountId: $id, input: $input) { accountId name currency } }';
export const DELETE_ACCOUNT = 'mutation ($id: ID!) { deleteAccount(accountId: $id) }';
export const CUSTOMER_LINKS =
  'query ($id: ID!) { customer(customerId: $id) { customerId accountIds accounts { accountId customerIds } } }';
export const ACCOUNT_LINKS =
  'query ($id: ID!) { account(accountId: $id) { accountId customerIds customers { customerId accountIds } } }';
