import { isDeepStrictEqual } from 'node:util';
import type pg from 'pg';
import { POSTGRAPHILE_NESTED_QUERY, RequestFactory, SERVICE_NESTED_QUERY } from '../load/requests.js';
import type { BenchContext } from './context.js';
import type { RunningServer } from './processes.js';
import { BENCH_ENVIRONMENT } from './seed.js';

/**
 * Before a contender's numbers mean anything, its answers must be the same data: the service and the
 * raw floor must return the same JSON, the service and PostGraphile the same nested tree (checked
 * against the tables directly). A failed check is reported beside the figures, never hidden.
 */

interface HttpAnswer {
  status: number;
  body: unknown;
}

async function call(ctx: BenchContext, server: RunningServer, method: 'GET' | 'POST' | 'PUT', urlPath: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const response = await fetch(server.baseUrl + urlPath, {
    method,
    headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

const describeFailure = (name: string, answer: HttpAnswer): string => {
  if (typeof answer.body !== 'object' || answer.body === null) return `${name} answered HTTP ${answer.status} (not JSON)`;
  const code = (answer.body as { error?: { code?: string } }).error?.code;
  const errors = (answer.body as { errors?: { message?: string }[] }).errors;
  return `${name} answered HTTP ${answer.status}${code ? ` ${code}` : ''}${errors?.[0]?.message ? `: ${errors[0].message}` : ''}`;
};

/** The service's REST answer against the raw floor's, for a few records: same keys, same data. */
export async function checkSameRestJson(
  ctx: BenchContext,
  service: RunningServer,
  floor: RunningServer,
  resource: 'customer' | 'account',
  ids: string[],
): Promise<string> {
  for (const id of ids) {
    const urlPath = `/${BENCH_ENVIRONMENT}/${resource}/${id}`;
    const [ours, reference] = await Promise.all([call(ctx, service, 'GET', urlPath), call(ctx, floor, 'GET', urlPath)]);
    if (reference.status !== 200) return describeFailure('raw floor', reference);
    if (ours.status !== 200) return describeFailure('service', ours);
    const oursKeys = Object.keys(ours.body as object).sort();
    const referenceKeys = Object.keys(reference.body as object).sort();
    if (!isDeepStrictEqual(oursKeys, referenceKeys)) return `envelope keys differ: service [${oursKeys.join(', ')}], raw floor [${referenceKeys.join(', ')}]`;
    const oursData = (ours.body as { data: Record<string, unknown> }).data;
    const referenceData = (reference.body as { data: Record<string, unknown> }).data;
    for (const key of new Set([...Object.keys(oursData), ...Object.keys(referenceData)])) {
      if (!isDeepStrictEqual(oursData[key], referenceData[key])) return `data.${key} differs for ${resource} ${id}`;
    }
  }
  return `same JSON as the raw floor (${ids.length} ${resource}s)`;
}

/** customer → accounts → customers → accounts, reduced to ids: what both GraphQL servers must return. */
export interface NestedTree {
  customerId: string;
  accounts: { accountId: string; customers: { customerId: string; accountIds: string[] }[] }[];
}

export async function expectedNestedTree(pool: pg.Pool, customerId: string): Promise<NestedTree> {
  const { rows } = await pool.query<{ account_id: string; customer_id: string; position: number; created_at: Date }>(
    'SELECT account_id::text, customer_id::text, position, created_at FROM account_customers WHERE environment = $1',
    [BENCH_ENVIRONMENT],
  );
  const accountsOf = (id: string) =>
    rows
      .filter((row) => row.customer_id === id)
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.account_id.localeCompare(b.account_id))
      .map((row) => row.account_id);
  const customersOf = (id: string) =>
    rows
      .filter((row) => row.account_id === id)
      .sort((a, b) => a.position - b.position)
      .map((row) => row.customer_id);
  return {
    customerId,
    accounts: accountsOf(customerId).map((accountId) => ({
      accountId,
      customers: customersOf(accountId).map((id) => ({ customerId: id, accountIds: accountsOf(id) })),
    })),
  };
}

interface ServiceNested {
  customerId: string;
  accounts: { accountId: string; customers: { customerId: string; accounts: { accountId: string }[] }[] }[];
}

interface PostGraphileNested {
  rowId: string;
  accountCustomersByCustomerIdAndEnvironment: {
    nodes: {
      accountByAccountIdAndEnvironment: {
        rowId: string;
        accountCustomersByAccountIdAndEnvironment: {
          nodes: { customerByCustomerIdAndEnvironment: { rowId: string; accountCustomersByCustomerIdAndEnvironment: { nodes: { accountId: string }[] } } }[];
        };
      };
    }[];
  };
}

function fromService(customer: ServiceNested): NestedTree {
  return {
    customerId: customer.customerId,
    accounts: customer.accounts.map((account) => ({
      accountId: account.accountId,
      customers: account.customers.map((c) => ({ customerId: c.customerId, accountIds: c.accounts.map((a) => a.accountId) })),
    })),
  };
}

function fromPostGraphile(customer: PostGraphileNested): NestedTree {
  return {
    customerId: customer.rowId,
    accounts: customer.accountCustomersByCustomerIdAndEnvironment.nodes.map(({ accountByAccountIdAndEnvironment: account }) => ({
      accountId: account.rowId,
      customers: account.accountCustomersByAccountIdAndEnvironment.nodes.map(({ customerByCustomerIdAndEnvironment: c }) => ({
        customerId: c.rowId,
        accountIds: c.accountCustomersByCustomerIdAndEnvironment.nodes.map((link) => link.accountId),
      })),
    })),
  };
}

/** Sorted at every level: "same data" whatever order a server lists it in. */
function canonical(tree: NestedTree): NestedTree {
  return {
    customerId: tree.customerId,
    accounts: tree.accounts
      .map((a) => ({ accountId: a.accountId, customers: a.customers.map((c) => ({ ...c, accountIds: [...c.accountIds].sort() })).sort((x, y) => x.customerId.localeCompare(y.customerId)) }))
      .sort((x, y) => x.accountId.localeCompare(y.accountId)),
  };
}

export type GraphqlFlavour = 'service' | 'postgraphile';

export function nestedRequest(flavour: GraphqlFlavour, customerId: string): { query: string; variables: { id: string } } {
  return { query: flavour === 'service' ? SERVICE_NESTED_QUERY : POSTGRAPHILE_NESTED_QUERY, variables: { id: customerId } };
}

export async function checkNestedTree(ctx: BenchContext, server: RunningServer, flavour: GraphqlFlavour, customerIds: string[]): Promise<string> {
  for (const customerId of customerIds) {
    const answer = await call(ctx, server, 'POST', `/${BENCH_ENVIRONMENT}/graphql`, nestedRequest(flavour, customerId));
    const body = answer.body as { data?: { customer?: ServiceNested | null; customerByRowId?: PostGraphileNested | null }; errors?: unknown[] } | null;
    if (answer.status !== 200 || body?.errors !== undefined || !body?.data) return describeFailure(flavour, answer);
    const node = flavour === 'service' ? body.data.customer : body.data.customerByRowId;
    if (!node) return `${flavour} returned no customer for ${customerId}`;
    const tree = flavour === 'service' ? fromService(node as ServiceNested) : fromPostGraphile(node as PostGraphileNested);
    const expected = await expectedNestedTree(ctx.benchPool, customerId);
    if (isDeepStrictEqual(tree, expected)) continue;
    if (isDeepStrictEqual(canonical(tree), canonical(expected))) return `same data as the tables, in another order (customer ${customerId})`;
    return `data differs from the tables for customer ${customerId}`;
  }
  return `same nested data as the tables (${customerIds.length} customers)`;
}

/**
 * One create and one update through the service before the write scenarios: the create must answer
 * 201 with an id and leave a row with sealed personal data, the update 200 with the new value.
 */
export async function checkWrites(ctx: BenchContext, service: RunningServer, scenario: 'rest-post-customer' | 'rest-put-customer'): Promise<string> {
  const factory = new RequestFactory(BENCH_ENVIRONMENT, { customerIds: ctx.data.customerIds, accountIds: [], nestedCustomerIds: [] }, ctx.nextSsnSequence);
  const request = factory.build(scenario);
  ctx.nextSsnSequence = factory.ssnSequencesUsed + 1;
  const answer = await call(ctx, service, request.method as 'POST' | 'PUT', request.path!, JSON.parse(request.body as string), request.headers as Record<string, string> | undefined);
  const data = (answer.body as { data?: { customerId?: string; preferredName?: string } } | null)?.data;
  if (scenario === 'rest-post-customer') {
    if (answer.status !== 201 || typeof data?.customerId !== 'string') return describeFailure('service', answer);
    const { rows } = await ctx.benchPool.query<{ sealed: boolean }>(
      'SELECT octet_length(ssn_ciphertext) > 16 AND octet_length(ssn_blind_index) = 32 AS sealed FROM customers WHERE id = $1',
      [data.customerId],
    );
    return rows[0]?.sealed ? 'created: 201, row stored with sealed SSN' : `created ${data.customerId} but no sealed row found`;
  }
  const sent = (JSON.parse(request.body as string) as { preferredName: string }).preferredName;
  if (answer.status !== 200 || data?.preferredName !== sent) return describeFailure('service', answer);
  return 'updated: 200 with the new values';
}

export interface StatementProbe {
  accounts: number;
  statements: number | null;
  status: number;
}

/** SQL statements one request costs, for customers with 1, 2, … accounts: constant is the goal. */
export async function probeStatements(
  ctx: BenchContext,
  server: RunningServer,
  request: (customerId: string) => { method: 'GET' | 'POST'; path: string; body?: unknown },
): Promise<StatementProbe[]> {
  const probes: StatementProbe[] = [];
  if (!ctx.db.statements.exact) return probes;
  for (const { accounts, customerId } of ctx.data.probeCustomers) {
    const { method, path, body } = request(customerId);
    await ctx.db.statements.reset();
    const answer = await call(ctx, server, method, path, body);
    probes.push({ accounts, statements: await ctx.db.statements.read(), status: answer.status });
  }
  return probes;
}
