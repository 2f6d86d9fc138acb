import { ApolloServerErrorCode } from '@apollo/server/errors';
import fc from 'fast-check';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { REQUEST_ERROR_CODES } from '../../../../src/auth/errors.js';
import { ErrorCodes } from '../../../../src/domain/errors.js';
import { buildAccountInput, buildCustomerInput } from '../../../../test/support/factories.js';
import { ledgerViolations } from '../../../../test/support/ledger-invariants.js';
import { rowCounts, storageProblems } from '../consistency.js';
import { type FuzzOptions, type FuzzReport, runOnWorkers } from './fuzz-run.js';
import { GRAPHQL_MISSING } from '../graphql.js';
import { createRawClient, jsonRequest, type RawClient, type RawResponse } from '../http-client.js';
import { graphqlRequest, type GraphqlFuzzContext, type GraphqlFuzzRequest } from './graphql-requests.js';

/**
 * Runs the GraphQL fuzzer against a running service (issue 4's endpoint, POST/GET /{environment}/graphql).
 * Pass: no 5xx, every answer a GraphQL response (`data` and/or `errors`), every error with a message and a
 * documented `extensions.code` (never INTERNAL_ERROR), no personal value of the request echoed, and the
 * tables changed only by writes whose answer carried data.
 */

/**
 * Codes a GraphQL error may carry: the domain's (same as REST), Apollo's request errors, and the GraphQL
 * surface's own (src/graphql/error-mapping.ts on issue 4's branch: GraphqlErrorCodes, less INTERNAL_ERROR).
 */
export const GRAPHQL_ERROR_CODES = new Set<string>([
  ...ErrorCodes,
  ...REQUEST_ERROR_CODES,
  ...Object.values(ApolloServerErrorCode).filter((code) => code !== ApolloServerErrorCode.INTERNAL_SERVER_ERROR),
  'MALFORMED_REQUEST',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'DOCUMENT_TOO_LARGE',
  'QUERY_TOO_DEEP',
  'TOO_MANY_ALIASES',
  'TOO_MANY_ROOT_FIELDS',
  'QUERY_TOO_COMPLEX',
  // A GET whose URL names a secret-bearing input field (src/graphql/url-guard.ts): the fuzz sends SSNs in URLs too.
  'SENSITIVE_FIELD_IN_URL',
]);

export type GraphqlFuzzOptions = FuzzOptions;

export interface GraphqlFuzzReport extends FuzzReport {
  /** Answers that carried data (accepted operations). */
  answersWithData: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const increment = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

export function graphqlAnswerProblems(request: GraphqlFuzzRequest, response: RawResponse): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`status ${response.status}`);
  for (const secret of request.secrets)
    if (response.text.includes(secret)) problems.push('the answer contains an SSN of the request');
  const body = response.json;
  if (!isObject(body)) return [...problems, `not a JSON object: ${response.text.slice(0, 200)}`];
  const extra = Object.keys(body).filter((key) => !['data', 'errors', 'extensions'].includes(key));
  if (extra.length > 0) problems.push(`unexpected top-level keys ${extra.join(',')}`);
  if (!('data' in body) && !('errors' in body)) problems.push('neither data nor errors');
  if ('errors' in body) {
    if (!Array.isArray(body.errors) || body.errors.length === 0) problems.push('errors is not a non-empty array');
    else {
      for (const error of body.errors as unknown[]) {
        const code = isObject(error) && isObject(error.extensions) ? error.extensions.code : undefined;
        if (!isObject(error) || typeof error.message !== 'string' || error.message.length === 0)
          problems.push('an error without a message');
        else if (typeof code !== 'string' || !GRAPHQL_ERROR_CODES.has(code))
          problems.push(`error code ${String(code)} is not documented (${error.message.slice(0, 120)})`);
      }
    }
  }
  return problems;
}

const describe = (request: GraphqlFuzzRequest) =>
  `${request.kind}: ${request.method} ${request.path.slice(0, 300)} headers=${JSON.stringify(request.headers)} body=${JSON.stringify((request.body ?? '').slice(0, 400))}`;

async function introspect(client: RawClient, token: string) {
  const res = await client.send(jsonRequest('POST', '/sandbox/graphql', token, { query: getIntrospectionQuery() }));
  if (res.status === 404) throw new Error(`${GRAPHQL_MISSING} Introspection: HTTP 404.`);
  const data = (res.json as { data?: IntrospectionQuery } | undefined)?.data;
  if (res.status !== 200 || !data)
    throw new Error(
      `introspection failed (HTTP ${res.status}): the GraphQL fuzzer builds its documents from the served schema`,
    );
  return buildClientSchema(data);
}

async function seed(client: RawClient, token: string): Promise<{ customerIds: string[]; accountIds: string[] }> {
  const customerIds: string[] = [];
  for (let i = 0; i < 3; i++)
    customerIds.push(
      (
        (await client.send(jsonRequest('POST', '/sandbox/customer', token, buildCustomerInput()))).json as {
          data: { customerId: string };
        }
      ).data.customerId,
    );
  const accountIds: string[] = [];
  for (const customers of [[customerIds[0]!], [customerIds[0]!, customerIds[1]!]]) {
    accountIds.push(
      (
        (await client.send(jsonRequest('POST', '/sandbox/account', token, buildAccountInput(customers)))).json as {
          data: { accountId: string };
        }
      ).data.accountId,
    );
  }
  return { customerIds, accountIds };
}

export async function runGraphqlFuzz(options: GraphqlFuzzOptions): Promise<GraphqlFuzzReport> {
  const client = createRawClient(options.baseUrl, { maxSockets: options.workers * 2, timeoutMs: 15_000 });
  try {
    const schema = await introspect(client, options.token);
    const ids = await seed(client, options.token);
    const context: GraphqlFuzzContext = { token: options.token, schema, environment: 'sandbox', ...ids };
    const before = await rowCounts(options.pool);
    const auditBefore = new Set(
      (await options.pool.query<{ id: string }>('SELECT id::text AS id FROM audit_events')).rows.map((row) => row.id),
    );
    const report: GraphqlFuzzReport = {
      requests: 0,
      statusCounts: {},
      errorCodes: {},
      kinds: {},
      answersWithData: 0,
      serverErrors: 0,
      maxLatencyMs: 0,
      before,
      after: before,
      problems: [],
      seed: options.seed,
    };
    const withData = new Set<string>();
    // Request id → the error codes of answers without data, to explain a write stored for one of them.
    const withoutData = new Map<string, string>();
    // fast-check's reports carry the counterexample; these first failures say what was wrong, briefly.
    const failures: string[] = [];

    const property = fc.asyncProperty(graphqlRequest(context), async (request) => {
      let response: RawResponse;
      try {
        response = await client.send({
          method: request.method,
          path: request.path,
          headers: request.headers,
          ...(request.body !== undefined && { body: request.body }),
        });
      } catch (error) {
        throw new Error(`no answer (${(error as Error).message}) to ${describe(request)}`, { cause: error });
      }
      report.requests += 1;
      if (report.requests % 1000 === 0) options.onProgress?.(report.requests);
      increment(report.statusCounts, String(response.status));
      increment(report.kinds, request.kind);
      if (response.status >= 500) report.serverErrors += 1;
      report.maxLatencyMs = Math.max(report.maxLatencyMs, response.elapsedMs);
      const body = response.json as { data?: unknown; errors?: { extensions?: { code?: string } }[] } | undefined;
      for (const error of body?.errors ?? []) increment(report.errorCodes, String(error.extensions?.code));
      if (response.status === 200 && isObject(body?.data) && Object.values(body.data).some((v) => v !== null)) {
        withData.add(String(response.headers['x-request-id']));
        report.answersWithData += 1;
      } else
        withoutData.set(
          String(response.headers['x-request-id']),
          `${request.kind} ${(body?.errors ?? []).map((e) => e.extensions?.code).join('+')}`,
        );
      const problems = graphqlAnswerProblems(request, response);
      if (problems.length > 0)
        failures.push(`${problems.join('; ')} (HTTP ${response.status}) for ${describe(request).slice(0, 600)}`);
      if (problems.length > 0)
        throw new Error(
          `${problems.join('; ')}\n  answer: ${response.status} ${response.text.slice(0, 300)}\n  request: ${describe(request)}`,
        );
    });

    await runOnWorkers(property, options, report, failures);

    report.after = await rowCounts(options.pool);
    const rows = (
      await options.pool.query<{ id: string; request_id: string; operation: string }>(
        'SELECT id::text AS id, request_id, operation FROM audit_events',
      )
    ).rows.filter((row) => !auditBefore.has(row.id));
    const orphans = rows.filter((row) => !withData.has(row.request_id));
    if (orphans.length > 0) {
      // E.g. a document with two mutations whose second fails: non-null root fields null the whole `data`, hiding the first's committed write.
      const examples = orphans
        .slice(0, 3)
        .map((r) => `${r.operation} answered "${withoutData.get(r.request_id) ?? 'no data'}"`);
      report.problems.push(
        `${orphans.length} writes stored for requests whose answer carried no data: ${examples.join('; ')}`,
      );
    }
    const count = (operation: string) => rows.filter((row) => row.operation === operation).length;
    const explained = {
      customers: before.customers + count('customer.create') - count('customer.delete'),
      accounts: before.accounts + count('account.create') - count('account.delete'),
    };
    if (explained.customers !== report.after.customers || explained.accounts !== report.after.accounts) {
      report.problems.push(
        `row counts ${JSON.stringify(report.after)} are not explained by the audit trail ${JSON.stringify(explained)}`,
      );
    }
    report.problems.push(...(await ledgerViolations(options.pool)));
    report.problems.push(...(await storageProblems(options.pool)));
    return report;
  } finally {
    client.close();
  }
}
