import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildSchema, type GraphQLSchema, parse, validate } from 'graphql';
import { assertNoSensitiveValues, buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/**
 * A release as its clients see it: its base URL, and its contract read from ITS OWN tree (the committed
 * openapi.json and schema.graphql; `npm run check:generated` keeps both equal to the code). Every REST answer
 * must have the status the release's document gives the operation's success and a body valid against that
 * status's schema; every GraphQL document is first validated against the release's schema, and must be
 * answered 200 with data and no errors. The smoke workload below only calls what the release's contract has.
 */

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsModule as unknown as FormatsPlugin);

type Json = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  literals: number;
  success: string;
}

export interface Contract {
  operations: Operation[];
  graphql: GraphQLSchema;
  has(method: string, template: string): boolean;
  hasMutation(name: string): boolean;
  check(method: string, pathname: string, status: number, body: unknown): void;
}

export function readContract(treeDir: string): Contract {
  const document = JSON.parse(readFileSync(path.join(treeDir, 'openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  };
  const id = `urn:cas-rollout:${treeDir}`;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: id });
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation?.responses) continue;
      const success = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status));
      if (success.length !== 1)
        throw new Error(
          `${method.toUpperCase()} ${template} documents ${success.length} success statuses; the workload expects exactly one`,
        );
      operations.push({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
        literals: template.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
        success: success[0]!,
      });
    }
  }
  operations.sort((a, b) => b.literals - a.literals);
  const validators = new Map<string, ValidateFunction>();
  const graphql = buildSchema(readFileSync(path.join(treeDir, 'schema.graphql'), 'utf8'));
  const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');
  return {
    operations,
    graphql,
    has: (method, template) =>
      operations.some((operation) => operation.method === method && operation.template === template),
    hasMutation: (name) => graphql.getMutationType()?.getFields()[name] !== undefined,
    check(method, pathname, status, body) {
      const operation = operations.find((candidate) => candidate.method === method && candidate.pattern.test(pathname));
      if (!operation) throw new Error(`${method} ${pathname} is not an operation of this release's openapi.json`);
      const where = `${method} ${pathname} (${operation.template})`;
      if (String(status) !== operation.success) {
        throw new Error(`${where} answered ${status}, not ${operation.success}: ${JSON.stringify(body).slice(0, 600)}`);
      }
      const key = `${operation.method} ${operation.template}`;
      let check = validators.get(key);
      if (!check) {
        const pointer = [
          'paths',
          operation.template,
          operation.method.toLowerCase(),
          'responses',
          operation.success,
          'content',
          'application/json',
          'schema',
        ]
          .map(escape)
          .join('/');
        check = ajv.compile({ $ref: `${id}#/${pointer}` });
        validators.set(key, check);
      }
      if (!check(body)) {
        const problems = (check.errors ?? [])
          .map((error) => `${error.instancePath || '/'} ${error.message}`)
          .join('; ');
        throw new Error(`${where} answered a body that does not match this release's document: ${problems}`);
      }
    },
  };
}

export class ReleaseClient {
  /** Operations called, as `METHOD template`, to list what the workload does not cover. */
  readonly called = new Set<string>();

  constructor(
    readonly name: string,
    readonly url: string,
    readonly contract: Contract,
    private readonly token: string,
  ) {}

  async rest(method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}): Promise<Any> {
    const response = await fetch(`${this.url}${pathname}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json: Any;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(
        `${this.name}: ${method} ${pathname} answered ${response.status} with a body that is not JSON: ${text.slice(0, 300)}`,
      );
    }
    try {
      assertNoSensitiveValues(text, `${this.name}'s answer to ${method} ${pathname}`);
      this.contract.check(method, pathname.split('?', 1)[0]!, response.status, json);
    } catch (error) {
      throw new Error(`${this.name}: ${(error as Error).message}`, { cause: error });
    }
    const operation = this.contract.operations.find(
      (candidate) => candidate.method === method && candidate.pattern.test(pathname.split('?', 1)[0]!),
    )!;
    this.called.add(`${operation.method} ${operation.template}`);
    return json.data;
  }

  async graphql(query: string, variables: Json = {}): Promise<Any> {
    const problems = validate(this.contract.graphql, parse(query));
    if (problems.length > 0) {
      throw new Error(
        `${this.name}: the workload's GraphQL document is not valid against this release's schema.graphql: ${problems.map((p) => p.message).join('; ')}`,
      );
    }
    const response = await fetch(`${this.url}/sandbox/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const text = await response.text();
    assertNoSensitiveValues(text, `${this.name}'s GraphQL answer`);
    const body = JSON.parse(text) as { data?: Any; errors?: unknown[] };
    if (response.status !== 200 || body.errors !== undefined || !body.data) {
      throw new Error(
        `${this.name}: GraphQL answered ${response.status}: ${text.slice(0, 800)}\nto: ${query.trim().split('\n')[0]}`,
      );
    }
    return body.data;
  }

  /** The documented operations the workload never called on this release. */
  uncovered(): string[] {
    return this.contract.operations
      .map((operation) => `${operation.method} ${operation.template}`)
      .filter((operation) => !this.called.has(operation));
  }
}

/** What one run of the workload wrote, for the other release to read back. */
export interface Written {
  by: string;
  customerId: string;
  accountId: string;
  otherAccountId: string;
  /** The balance of `accountId` right after the run. */
  amount: number;
  graphqlCustomerId: string;
  graphqlAccountId: string;
  webhookEndpointId?: string;
}

/**
 * Writes and reads every resource the release's contract has, over REST and GraphQL: customers (create, get,
 * update, delete), accounts (create, get, update, flags, overdraft limit), holders (add, remove), money (a
 * deposit with an idempotency key and its replay, a hold posted, a hold voided, a reversal, a transfer, the
 * transaction list and one transaction), the audit trail, and webhook endpoints when the release has them
 * (create, get, update, disable, enable, rotate, attempts, delete). Events are checked by the caller once
 * numbered. Every answer is checked against the release's own contract.
 */
export async function smokeWorkload(client: ReleaseClient, label: string): Promise<Written> {
  const contract = client.contract;
  const env = '/sandbox';
  const holder = (
    await client.rest('POST', `${env}/customer`, buildCustomerInput({ preferredName: `${label} holder` }))
  ).customerId as string;
  const customerId = (await client.rest('POST', `${env}/customer`, buildCustomerInput({ preferredName: label })))
    .customerId as string;
  const customer = await client.rest('GET', `${env}/customer/${customerId}`);
  if (customer.preferredName !== label)
    throw new Error(`${client.name}: GET customer answered preferredName ${customer.preferredName}, not ${label}`);
  await client.rest('PUT', `${env}/customer/${customerId}`, {
    preferredName: `${label} updated`,
    emails: ['rollout@example.com'],
  });

  const account = await client.rest(
    'POST',
    `${env}/account`,
    buildAccountInput([customerId], { name: `${label} checking` }),
  );
  const accountId = account.accountId as string;
  const otherAccountId = (
    await client.rest(
      'POST',
      `${env}/account`,
      buildAccountInput([customerId], { name: `${label} savings`, type: 'SAVINGS' }),
    )
  ).accountId as string;
  await client.rest('POST', `${env}/account/${accountId}/customer`, { customerId: holder });
  await client.rest('PUT', `${env}/account/${accountId}`, { name: `${label} everyday`, currency: 'USD' });
  await client.rest('PUT', `${env}/account/${accountId}/flags/DEBITS_BLOCKED`);
  await client.rest('DELETE', `${env}/account/${accountId}/flags/DEBITS_BLOCKED`);
  await client.rest('PUT', `${env}/account/${accountId}/overdraft-limit`, { overdraftLimit: 50 });

  const key = { 'idempotency-key': `rollout-${label}-${customerId}` };
  const deposit = await client.rest(
    'POST',
    `${env}/account/${accountId}/transaction`,
    { type: 'CREDIT', amount: 100, description: 'rollout deposit' },
    key,
  );
  const replay = await client.rest(
    'POST',
    `${env}/account/${accountId}/transaction`,
    { type: 'CREDIT', amount: 100, description: 'rollout deposit' },
    key,
  );
  if (replay.transactionId !== deposit.transactionId)
    throw new Error(`${client.name}: the idempotent replay of a deposit created another transaction`);
  const hold = await client.rest('POST', `${env}/account/${accountId}/transaction`, {
    type: 'DEBIT',
    amount: 20,
    hold: true,
  });
  await client.rest('POST', `${env}/account/${accountId}/transaction/${hold.transactionId}/post`, { amount: 15 });
  const voided = await client.rest(
    'POST',
    `${env}/account/${accountId}/transaction/${(await client.rest('POST', `${env}/account/${accountId}/transaction`, { type: 'DEBIT', amount: 5, hold: true })).transactionId}/void`,
  );
  if (voided.status !== 'VOIDED') throw new Error(`${client.name}: a voided hold is ${voided.status}`);
  const small = await client.rest('POST', `${env}/account/${accountId}/transaction`, { type: 'CREDIT', amount: 1.25 });
  await client.rest('POST', `${env}/account/${accountId}/transaction/${small.transactionId}/reverse`, {
    description: 'rollout reversal',
  });
  await client.rest('POST', `${env}/transfer`, {
    fromAccountId: accountId,
    toAccountId: otherAccountId,
    amount: 30,
    description: 'rollout transfer',
  });
  await client.rest('GET', `${env}/account/${accountId}/transaction/${deposit.transactionId}`);
  const page = await client.rest('GET', `${env}/account/${accountId}/transaction?limit=20`);
  if (page.transactions.length < 5)
    throw new Error(
      `${client.name}: the transaction list has ${page.transactions.length} transactions, expected at least 5`,
    );
  const read = await client.rest('GET', `${env}/account/${accountId}`);
  // 100 deposited, 15 of a 20 hold posted, the 5 hold voided, 1.25 credited and reversed, 30 transferred out.
  if (read.amount !== 55 || !read.customers.includes(holder))
    throw new Error(`${client.name}: the account reads ${JSON.stringify(read)}`);
  await client.rest('DELETE', `${env}/account/${accountId}/customer/${holder}`);
  await client.rest('DELETE', `${env}/customer/${holder}`);
  await client.rest('GET', `${env}/audit-events?first=5`);

  // A throw-away account, deleted (its balance is zero).
  const spare = (
    await client.rest('POST', `${env}/account`, buildAccountInput([customerId], { name: `${label} spare` }))
  ).accountId as string;
  await client.rest('DELETE', `${env}/account/${spare}`);

  // GraphQL: the same resources through the other surface.
  const created = await client.graphql(
    `mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId preferredName } }`,
    { input: buildCustomerInput({ preferredName: `${label} gql` }) },
  );
  const graphqlCustomerId = created.createCustomer.customerId as string;
  await client.graphql(
    `mutation ($id: ID!) { updateCustomer(customerId: $id, input: { preferredName: "${label} gql updated" }) { customerId preferredName } }`,
    { id: graphqlCustomerId },
  );
  const graphqlAccountId = (
    await client.graphql(
      `mutation ($input: CreateAccountInput!) { createAccount(input: $input) { accountId amount } }`,
      {
        input: buildAccountInput([graphqlCustomerId], { name: `${label} gql checking` }),
      },
    )
  ).createAccount.accountId as string;
  const gqlHolder = (
    await client.graphql(`mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId } }`, {
      input: buildCustomerInput(),
    })
  ).createCustomer.customerId as string;
  await client.graphql(
    `mutation ($a: ID!, $c: ID!) { addAccountCustomer(accountId: $a, customerId: $c) { accountId customerIds } }`,
    { a: graphqlAccountId, c: gqlHolder },
  );
  await client.graphql(
    `mutation ($a: ID!) { postTransaction(accountId: $a, input: { type: CREDIT, amount: "40" }, idempotencyKey: "rollout-gql-${graphqlAccountId}") { transactionId status } }`,
    { a: graphqlAccountId },
  );
  await client.graphql(
    `mutation ($from: ID!, $to: ID!) { transfer(input: { fromAccountId: $from, toAccountId: $to, amount: "10" }) { transferId debit { transactionId } credit { transactionId } } }`,
    {
      from: graphqlAccountId,
      to: accountId,
    },
  );
  const gqlRead = await client.graphql(
    `query ($a: ID!, $c: ID!) {
       account(accountId: $a) { accountId amount customerIds customers { customerId preferredName } transactions(first: 10) { nodes { transactionId type amount } } balance { posted available } }
       customer(customerId: $c) { customerId preferredName accounts { accountId } }
     }`,
    { a: graphqlAccountId, c: graphqlCustomerId },
  );
  if (Number(gqlRead.account.amount) !== 30 || gqlRead.customer.accounts.length !== 1)
    throw new Error(`${client.name}: GraphQL reads ${JSON.stringify(gqlRead)}`);
  await client.graphql(
    `mutation ($a: ID!, $c: ID!) { removeAccountCustomer(accountId: $a, customerId: $c) { accountId } }`,
    { a: graphqlAccountId, c: gqlHolder },
  );
  await client.graphql(`mutation ($c: ID!) { deleteCustomer(customerId: $c) }`, { c: gqlHolder });
  await client.graphql(
    `query { events(first: 5) { events { eventId type sequence } nextAfter } customers(first: 5) { nodes { customerId } } accounts(first: 5) { nodes { accountId } } }`,
  );

  let webhookEndpointId: string | undefined;
  if (contract.has('POST', '/{environment}/webhook-endpoint')) {
    // `.invalid` never resolves (RFC 2606): accepted at creation, and nothing leaves the machine. Each endpoint ends
    // disabled (no deliveries are fanned out to a disabled one), so the other release's writes queue nothing for it.
    const endpoint = await client.rest('POST', `${env}/webhook-endpoint`, {
      url: `https://rollout.invalid/${label}`,
      eventTypes: ['account.deleted'],
    });
    webhookEndpointId = endpoint.endpointId as string;
    await client.rest('POST', `${env}/webhook-endpoint/${webhookEndpointId}/disable`);
    await client.rest('GET', `${env}/webhook-endpoint/${webhookEndpointId}`);
    await client.rest('PUT', `${env}/webhook-endpoint/${webhookEndpointId}`, {
      eventTypes: ['account.deleted', 'customer.deleted'],
    });
    await client.rest('POST', `${env}/webhook-endpoint/${webhookEndpointId}/rotate-secret`);
    await client.rest('GET', `${env}/webhook-endpoint/${webhookEndpointId}/attempts?limit=5`);
    await client.rest('POST', `${env}/webhook-endpoint/${webhookEndpointId}/enable`);
    await client.rest('POST', `${env}/webhook-endpoint/${webhookEndpointId}/disable`);
    const doomed = await client.rest('POST', `${env}/webhook-endpoint`, {
      url: `https://rollout.invalid/${label}/doomed`,
      eventTypes: ['account.deleted'],
    });
    await client.rest('DELETE', `${env}/webhook-endpoint/${doomed.endpointId}`);
  }
  if (contract.hasMutation('createWebhookEndpoint')) {
    const gqlEndpoint = await client.graphql(
      `mutation { createWebhookEndpoint(input: { url: "https://rollout.invalid/${label}/gql", eventTypes: ["account.deleted"] }) { endpoint { endpointId enabled } } }`,
    );
    const e = gqlEndpoint.createWebhookEndpoint.endpoint.endpointId as string;
    await client.graphql(`mutation ($e: ID!) { disableWebhookEndpoint(endpointId: $e) { endpointId enabled } }`, { e });
    await client.graphql(
      `query ($e: ID!) { webhookEndpoint(endpointId: $e) { endpointId url eventTypes enabled } webhookEndpoints { endpointId } }`,
      { e },
    );
  }
  return {
    by: client.name,
    customerId,
    accountId,
    otherAccountId,
    amount: 55 + 10,
    graphqlCustomerId,
    graphqlAccountId,
    webhookEndpointId,
  };
}

/** Reads what another release wrote, through this release's REST and GraphQL. */
export async function readBack(client: ReleaseClient, written: Written): Promise<void> {
  const where = `${client.name} reading what ${written.by} wrote`;
  const customer = await client.rest('GET', `/sandbox/customer/${written.customerId}`);
  if (!customer.accountIds.includes(written.accountId))
    throw new Error(`${where}: customer ${JSON.stringify(customer)}`);
  const account = await client.rest('GET', `/sandbox/account/${written.accountId}`);
  if (account.amount !== written.amount)
    throw new Error(`${where}: account amount ${account.amount}, expected ${written.amount}`);
  await client.rest('GET', `/sandbox/account/${written.otherAccountId}/transaction?limit=5`);
  const gql = await client.graphql(
    `query ($a: ID!, $c: ID!) { account(accountId: $a) { accountId amount } customer(customerId: $c) { customerId accounts { accountId } } }`,
    {
      a: written.graphqlAccountId,
      c: written.graphqlCustomerId,
    },
  );
  if (gql.account?.accountId !== written.graphqlAccountId || gql.customer?.accounts.length !== 1)
    throw new Error(`${where}: GraphQL answered ${JSON.stringify(gql)}`);
  if (written.webhookEndpointId && client.contract.has('GET', '/{environment}/webhook-endpoint/{endpointId}')) {
    await client.rest('GET', `/sandbox/webhook-endpoint/${written.webhookEndpointId}`);
  }
}

/**
 * Pages through GET /sandbox/event until the events of every resource id given are there (they are readable once
 * a sequencer, of either release, has numbered them), then checks one of them by id.
 */
export async function expectEvents(
  client: ReleaseClient,
  resourceIds: string[],
  timeoutMs = HUNG_TEST_DEADLINE_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = new Map<string, string>();
    for (let after = 0; ;) {
      const page = await client.rest('GET', `/sandbox/event?after=${after}&limit=100`);
      for (const event of page.events as { eventId: string; resourceId: string }[])
        seen.set(event.resourceId, event.eventId);
      if (page.events.length === 0) break;
      after = page.nextAfter;
    }
    const missing = resourceIds.filter((id) => !seen.has(id));
    if (missing.length === 0) {
      await client.rest('GET', `/sandbox/event/${seen.get(resourceIds[0]!)}`);
      return;
    }
    if (Date.now() > deadline)
      throw new Error(`${client.name}: no event for ${missing.join(', ')} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
