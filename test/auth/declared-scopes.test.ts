import {
  buildSchema,
  type GraphQLField,
  GraphQLObjectType,
  getDirectiveValues,
  getNullableType,
  isListType,
} from 'graphql';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_SCOPES, type AccessScope } from '../../src/domain/caller.js';
import { REST_ROUTES, takesIdempotencyKey } from '../../src/rest/routes.js';
import { issueApiToken } from '../support/api-tokens.js';
import { expectNoChange } from '../support/database.js';
import { buildCustomerInput } from '../support/factories.js';
import { buildBusinessInput } from '../features/businesses/support.js';
import { startTestService, type CallResult, type TestService } from '../support/service.js';
import { connect, followers } from '../support/subscription-client.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/**
 * Least privilege, derived from the declarations themselves: every REST route of the route table and every
 * root field of schema.graphql (`@requiresScope`) is called with a token that lacks exactly its declared
 * scope (refused: 403 / FORBIDDEN naming that scope, nothing written) and with a token that holds that
 * scope alone (it works). A new route or field without a case here, or a declaration that is not the scope
 * the domain enforces, fails this file.
 */

let service: TestService;
const tokens = new Map<string, string>();

beforeAll(async () => {
  service = await startTestService({ WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true', EVENT_SEQUENCER_INTERVAL_MS: '20' });
  for (const scope of ACCESS_SCOPES) {
    tokens.set(
      `only:${scope}`,
      (await issueApiToken(service.database.pool, { environments: ['*'], scopes: [scope], name: `only ${scope}` }))
        .token,
    );
    const others = ACCESS_SCOPES.filter((other) => other !== scope);
    tokens.set(
      `without:${scope}`,
      (
        await issueApiToken(service.database.pool, {
          environments: ['*'],
          scopes: [...others],
          name: `without ${scope}`,
        })
      ).token,
    );
  }
});
afterAll(async () => service?.stop());

const only = (scope: AccessScope) => tokens.get(`only:${scope}`)!;
const without = (scope: AccessScope) => tokens.get(`without:${scope}`)!;

// ---- Fixtures, written with the service's static token (every scope) --------------------------------

async function ok(result: Promise<CallResult>, what: string): Promise<CallResult> {
  const res = await result;
  if (res.status >= 300) throw new Error(`fixture ${what}: ${res.status} ${res.text}`);
  return res;
}

let products = 0;
const productCode = () => `SCOPES_${++products}`;

const fixtures = {
  async customer(): Promise<string> {
    return (await ok(service.call('POST', '/sandbox/customer', { body: buildCustomerInput() }), 'customer')).json.data
      .customerId;
  },
  async business(): Promise<string> {
    return (await ok(service.call('POST', '/sandbox/customer', { body: buildBusinessInput() }), 'business')).json.data
      .customerId;
  },
  /** A business with one beneficial owner (CONTROL). */
  async ownedBusiness(): Promise<{ businessId: string; ownerId: string }> {
    const [businessId, ownerId] = [await fixtures.business(), await fixtures.customer()];
    const body = { customerId: ownerId, prongs: ['CONTROL'] };
    await ok(service.call('POST', `/sandbox/customer/${businessId}/beneficial-owner`, { body }), 'beneficial owner');
    return { businessId, ownerId };
  },
  /** A customer whose verification awaits a person's decision (NEEDS_REVIEW, set as the sandbox's `Review` would). */
  /** An account the end of day found DORMANT (set as its `dormancy` step would). */
  async dormantAccount(): Promise<string> {
    const accountId = await fixtures.account();
    await service.database.pool.query(
      `UPDATE accounts SET activity_status = 'DORMANT', activity_status_at = now() WHERE id = $1`,
      [accountId],
    );
    return accountId;
  },
  async inReview(): Promise<string> {
    const customerId = await fixtures.customer();
    await service.database.pool.query(
      `INSERT INTO customer_verifications (customer_id, environment, status) VALUES ($1, 'sandbox', 'NEEDS_REVIEW')`,
      [customerId],
    );
    return customerId;
  },
  /** A customer with a verification document uploaded by the static token (so any other token may review it). */
  async document(): Promise<{ customerId: string; documentId: string }> {
    const customerId = await fixtures.customer();
    const res = await ok(
      service.call('POST', `/sandbox/customer/${customerId}/document?type=ID_DOCUMENT`, {
        rawBody: PDF,
        headers: { 'content-type': 'application/pdf' },
      }),
      'document',
    );
    return { customerId, documentId: res.json.data.documentId };
  },
  /** A product with a flat rate, under a code no other fixture has. */
  async product(): Promise<string> {
    const code = productCode();
    const body = {
      code,
      name: 'Scopes',
      accountType: 'SAVINGS',
      currency: 'USD',
      interest: {
        annualRate: '0.01',
        dayCount: 'ACTUAL_365',
        balanceBasis: 'END_OF_DAY',
        compounding: 'DAILY',
        posting: 'MONTHLY',
      },
    };
    await ok(service.call('POST', '/sandbox/product', { body }), 'product');
    return code;
  },
  async account(customerIds?: string[]): Promise<string> {
    const holders = customerIds ?? [await fixtures.customer()];
    const body = { associatedCustomerIds: holders, name: 'Scopes', currency: 'USD', type: 'CHECKING' };
    return (await ok(service.call('POST', '/sandbox/account', { body }), 'account')).json.data.accountId;
  },
  /** A new account's first number, in full (the static token holds accounts:numbers:read). */
  async accountNumber(): Promise<{ accountId: string; accountNumberId: string; accountNumber: string }> {
    const accountId = await fixtures.account();
    const res = await ok(service.call('GET', `/sandbox/account/${accountId}/account-numbers`), 'account numbers');
    const [first] = res.json.data.accountNumbers as { accountNumberId: string; accountNumber: string }[];
    return { accountId, accountNumberId: first!.accountNumberId, accountNumber: first!.accountNumber };
  },
  async transaction(accountId: string, body: Record<string, unknown>): Promise<string> {
    const res = await ok(
      service.call('POST', `/sandbox/account/${accountId}/transaction`, {
        body,
        headers: { 'idempotency-key': randomUUID() },
      }),
      'transaction',
    );
    return res.json.data.transactionId;
  },
  async fundedAccount(): Promise<string> {
    const accountId = await fixtures.account();
    await fixtures.transaction(accountId, { type: 'CREDIT', amount: 100 });
    return accountId;
  },
  async transfer(): Promise<string> {
    const body = { fromAccountId: await fixtures.fundedAccount(), toAccountId: await fixtures.account(), amount: 2 };
    return (await ok(service.call('POST', '/sandbox/transfer', { body }), 'transfer')).json.data.transferId;
  },
  async hold(accountId: string): Promise<string> {
    return fixtures.transaction(accountId, { type: 'DEBIT', amount: 5, hold: true });
  },
  async endpoint(): Promise<string> {
    // Nothing listens on the discard port: deliveries fail and are retried, which no case here looks at.
    const body = { url: 'http://127.0.0.1:9/scopes', eventTypes: ['customer.created'] };
    return (await ok(service.call('POST', '/sandbox/webhook-endpoint', { body }), 'endpoint')).json.data.endpointId;
  },
  async eventId(): Promise<string> {
    await fixtures.customer();
    for (const deadline = Date.now() + HUNG_TEST_DEADLINE_MS; Date.now() < deadline;) {
      const res = await ok(service.call('GET', '/sandbox/event?after=0&limit=1'), 'events');
      const first = res.json.data.events[0];
      if (first) return first.eventId;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('no event was numbered');
  },
};

// ---- REST: one case per route of the route table ---------------------------------------------------

interface RestCase {
  params?: Record<string, string>;
  body?: unknown;
  /** A raw body (a verification document) with its Content-Type, instead of JSON. */
  raw?: { body: string; contentType: string };
  query?: Record<string, string>;
}

/** The smallest content a PDF's magic number accepts: enough for the document routes. */
const PDF = '%PDF-1.4\n% declared scopes\n%%EOF\n';

const REST_CASES: Record<string, () => Promise<RestCase>> = {
  createCustomer: async () => ({ body: buildCustomerInput() }),
  listCustomers: async () => ({ query: { lastName: 'a', limit: '5' } }),
  searchCustomers: async () => ({ body: { lastName: 'a' } }),
  getCustomer: async () => ({ params: { customerId: await fixtures.customer() } }),
  updateCustomer: async () => ({ params: { customerId: await fixtures.customer() }, body: { preferredName: 'Sam' } }),
  deleteCustomer: async () => ({ params: { customerId: await fixtures.customer() } }),
  listBeneficialOwners: async () => ({ params: { customerId: await fixtures.business() } }),
  addBeneficialOwner: async () => ({
    params: { customerId: await fixtures.business() },
    body: { customerId: await fixtures.customer(), prongs: ['CONTROL'] },
  }),
  removeBeneficialOwner: async () => {
    const { businessId, ownerId } = await fixtures.ownedBusiness();
    return { params: { customerId: businessId, ownerCustomerId: ownerId } };
  },
  getVerification: async () => ({ params: { customerId: await fixtures.customer() } }),
  requestVerificationCheck: async () => ({ params: { customerId: await fixtures.customer() } }),
  uploadVerificationDocument: async () => ({
    params: { customerId: await fixtures.customer() },
    query: { type: 'PROOF_OF_ADDRESS' },
    raw: { body: PDF, contentType: 'application/pdf' },
  }),
  getVerificationDocument: async () => ({ params: await fixtures.document() }),
  getVerificationDocumentContent: async () => ({ params: await fixtures.document() }),
  reviewVerificationDocument: async () => ({ params: await fixtures.document(), body: { status: 'APPROVED' } }),
  decideVerification: async () => ({
    params: { customerId: await fixtures.inReview() },
    body: { outcome: 'VERIFIED', reason: 'Documents match.' },
  }),
  createAccount: async () => ({
    body: { associatedCustomerIds: [await fixtures.customer()], name: 'New', currency: 'USD', type: 'SAVINGS' },
  }),
  listAccounts: async () => ({ query: { currency: 'USD', limit: '5' } }),
  getAccount: async () => ({ params: { accountId: await fixtures.account() } }),
  updateAccount: async () => ({
    params: { accountId: await fixtures.account() },
    body: { name: 'Renamed', currency: 'EUR' },
  }),
  deleteAccount: async () => ({ params: { accountId: await fixtures.account() } }),
  addAccountCustomer: async () => ({
    params: { accountId: await fixtures.account() },
    body: { customerId: await fixtures.customer() },
  }),
  removeAccountCustomer: async () => {
    const [first, second] = [await fixtures.customer(), await fixtures.customer()];
    return { params: { accountId: await fixtures.account([first, second]), customerId: second } };
  },
  setAccountCustomerRole: async () => {
    const [first, second] = [await fixtures.customer(), await fixtures.customer()];
    return {
      params: { accountId: await fixtures.account([first, second]), customerId: second },
      body: { role: 'BENEFICIARY' },
    };
  },
  setAccountFlag: async () => ({
    params: { accountId: await fixtures.account(), flag: 'FROZEN' },
    body: { reason: 'Fraud review' },
  }),
  liftAccountFlag: async () => {
    const accountId = await fixtures.account();
    await ok(service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`), 'freeze');
    return { params: { accountId, flag: 'FROZEN' }, body: { reason: 'Customer confirmed' } };
  },
  listAccountFlags: async () => ({ params: { accountId: await fixtures.account() } }),
  clearAccountFlag: async () => {
    const accountId = await fixtures.account();
    await ok(service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`), 'freeze');
    return { params: { accountId, flag: 'FROZEN' } };
  },
  setOverdraftLimit: async () => ({ params: { accountId: await fixtures.account() }, body: { overdraftLimit: 250 } }),
  postTransaction: async () => ({
    params: { accountId: await fixtures.account() },
    body: { type: 'CREDIT', amount: 10 },
  }),
  listTransactions: async () => ({ params: { accountId: await fixtures.fundedAccount() }, query: { limit: '5' } }),
  getTransaction: async () => {
    const accountId = await fixtures.account();
    return {
      params: { accountId, transactionId: await fixtures.transaction(accountId, { type: 'CREDIT', amount: 3 }) },
    };
  },
  postHold: async () => {
    const accountId = await fixtures.fundedAccount();
    return { params: { accountId, transactionId: await fixtures.hold(accountId) }, body: {} };
  },
  voidHold: async () => {
    const accountId = await fixtures.fundedAccount();
    return { params: { accountId, transactionId: await fixtures.hold(accountId) } };
  },
  reverseTransaction: async () => {
    const accountId = await fixtures.account();
    return {
      params: { accountId, transactionId: await fixtures.transaction(accountId, { type: 'CREDIT', amount: 7 }) },
      body: {},
    };
  },
  createTransfer: async () => ({
    body: { fromAccountId: await fixtures.fundedAccount(), toAccountId: await fixtures.account(), amount: 12 },
  }),
  getTransfer: async () => ({ params: { transferId: await fixtures.transfer() } }),
  getBalanceAsOf: async () => ({
    params: { accountId: await fixtures.fundedAccount() },
    query: { asOf: new Date().toISOString() },
  }),
  getBalanceHistory: async () => ({
    params: { accountId: await fixtures.fundedAccount() },
    query: { from: '2026-01-01T00:00:00Z', to: '2026-01-03T00:00:00Z', interval: 'day' },
  }),
  getStatement: async () => ({
    params: { accountId: await fixtures.fundedAccount() },
    query: { from: '2026-01-01T00:00:00Z', to: new Date().toISOString() },
  }),
  exportLedgerEntries: async () => ({ query: { to: new Date().toISOString() } }),
  listEvents: async () => ({ query: { after: '0', limit: '5' } }),
  getEvent: async () => ({ params: { eventId: await fixtures.eventId() } }),
  listCustomerEvents: async () => ({ params: { customerId: await fixtures.customer() }, query: { limit: '5' } }),
  listAccountEvents: async () => ({ params: { accountId: await fixtures.account() }, query: { limit: '5' } }),
  createWebhookEndpoint: async () => ({ body: { url: 'http://127.0.0.1:9/created', eventTypes: ['account.created'] } }),
  getWebhookEndpoint: async () => ({ params: { endpointId: await fixtures.endpoint() } }),
  updateWebhookEndpoint: async () => ({ params: { endpointId: await fixtures.endpoint() }, body: { eventTypes: [] } }),
  deleteWebhookEndpoint: async () => ({ params: { endpointId: await fixtures.endpoint() } }),
  listWebhookAttempts: async () => ({ params: { endpointId: await fixtures.endpoint() }, query: { limit: '5' } }),
  rotateWebhookSecret: async () => ({ params: { endpointId: await fixtures.endpoint() } }),
  enableWebhookEndpoint: async () => ({ params: { endpointId: await fixtures.endpoint() } }),
  disableWebhookEndpoint: async () => ({ params: { endpointId: await fixtures.endpoint() } }),
  redeliverWebhook: async () => ({
    params: { endpointId: await fixtures.endpoint(), eventId: await fixtures.eventId() },
  }),
  listAuditEvents: async () => ({ query: { first: '5' } }),
  addCustomerNote: async () => ({ params: { customerId: await fixtures.customer() }, body: { text: 'Called back.' } }),
  listCustomerNotes: async () => ({ params: { customerId: await fixtures.customer() }, query: { limit: '5' } }),
  addAccountNote: async () => ({ params: { accountId: await fixtures.account() }, body: { text: 'Fee dispute.' } }),
  listAccountNotes: async () => ({ params: { accountId: await fixtures.account() }, query: { limit: '5' } }),
  closeAccount: async () => ({ params: { accountId: await fixtures.account() }, body: { reason: 'CUSTOMER_REQUEST' } }),
  reopenAccount: async () => {
    const accountId = await fixtures.account();
    await ok(service.call('POST', `/sandbox/account/${accountId}/close`, { body: { reason: 'OTHER' } }), 'close');
    return { params: { accountId } };
  },
  archiveCustomer: async () => ({ params: { customerId: await fixtures.customer() }, body: { reason: 'DUPLICATE' } }),
  reactivateAccount: async () => ({ params: { accountId: await fixtures.dormantAccount() } }),
  listEscheatment: async () => ({ query: { state: 'NY', limit: '5' } }),
  getAccountInterest: async () => {
    const body = {
      associatedCustomerIds: [await fixtures.customer()],
      name: 'Interest',
      currency: 'USD',
      type: 'SAVINGS',
      productCode: await fixtures.product(),
    };
    const res = await ok(service.call('POST', '/sandbox/account', { body }), 'account on a product');
    return { params: { accountId: res.json.data.accountId } };
  },
  listAccountFees: async () => ({ params: { accountId: await fixtures.account() }, query: { limit: '5' } }),
  getCustomerTaxForm1099Int: async () => ({ params: { customerId: await fixtures.customer(), year: '2025' } }),
  listAccountNumbers: async () => ({ params: { accountId: await fixtures.account() } }),
  addAccountNumber: async () => ({ params: { accountId: await fixtures.account() }, body: {} }),
  updateAccountNumber: async () => {
    const { accountId, accountNumberId } = await fixtures.accountNumber();
    return { params: { accountId, accountNumberId }, body: { inboundAchDebits: 'BLOCKED' } };
  },
  lookupAccountNumber: async () => ({
    body: { routingNumber: '011000015', accountNumber: (await fixtures.accountNumber()).accountNumber },
  }),
  createProduct: async () => ({
    body: { code: productCode(), name: 'Scopes', accountType: 'CHECKING', currency: 'USD' },
  }),
  listProducts: async () => ({ query: { limit: '5' } }),
  getProduct: async () => ({ params: { code: await fixtures.product() } }),
  changeProductRate: async () => ({
    params: { code: await fixtures.product() },
    body: { annualRate: '0.02', effectiveFrom: '2099-01-01' },
  }),
  getClock: async () => ({}),
  // A day each time (refused calls change nothing): nothing in this file turns on the sandbox's time.
  advanceClock: async () => ({ body: { days: 1 } }),
  listEndOfDay: async () => ({ query: { from: '2026-12-01', to: '2026-12-31' } }),
};

function restCall(route: (typeof REST_ROUTES)[number], request: RestCase, token: string): Promise<CallResult> {
  const path = route.path.replace(/:(\w+)/g, (_match, name: string) =>
    name === 'environment' ? 'sandbox' : encodeURIComponent(request.params?.[name] ?? `<${name} missing>`),
  );
  const query = request.query ? `?${new URLSearchParams(request.query)}` : '';
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (takesIdempotencyKey(route)) headers['idempotency-key'] = randomUUID();
  return service.call(route.method, path + query, {
    auth: false,
    headers,
    ...(request.body !== undefined && { body: request.body }),
    ...(request.raw && { rawBody: request.raw.body, headers: { ...headers, 'content-type': request.raw.contentType } }),
  });
}

describe('REST: every route needs exactly the scope the route table declares', () => {
  it('has a case for every route (a new route must be added here)', () => {
    expect(Object.keys(REST_CASES).sort()).toEqual(REST_ROUTES.map((route) => route.operationId).sort());
  });

  for (const route of REST_ROUTES) {
    it(`${route.operationId} (${route.method} ${route.path}): refused without ${route.scope}, served with it alone`, async () => {
      const request = await REST_CASES[route.operationId]!();
      const refused = await expectNoChange(service.database.pool, () => restCall(route, request, without(route.scope)));
      expect(refused.status, refused.text).toBe(403);
      expect(refused.json[route.family === 'customer' ? 'log_ref_id' : 'logRefId']).toEqual(expect.any(String));
      expect(refused.json.error ?? refused.json).toMatchObject({ code: 'FORBIDDEN' });
      expect(refused.headers.get('www-authenticate')).toContain(`scope="${route.scope}"`);

      const served = await restCall(route, request, only(route.scope));
      expect(served.status, served.text).toBe(route.success.status);
    });
  }
});

/** The same routes with a `socialSecurityNumber` in the body: their own operation, needing the route's `ssnScope`. */
const REST_SSN_CASES: Record<string, () => Promise<RestCase>> = {
  searchCustomers: async () => ({ body: { socialSecurityNumber: '123-45-6789' } }),
};

describe('REST: a route whose body names an SSN needs exactly the ssnScope the route table declares, and not its scope', () => {
  const ssnRoutes = REST_ROUTES.filter(
    (route): route is (typeof REST_ROUTES)[number] & { ssnScope: AccessScope } =>
      'ssnScope' in route && route.ssnScope !== undefined,
  );

  it('has a case for every route declaring an ssnScope', () => {
    expect(Object.keys(REST_SSN_CASES).sort()).toEqual(ssnRoutes.map((route) => route.operationId).sort());
  });

  for (const route of ssnRoutes) {
    it(`${route.operationId} with an SSN: refused without ${route.ssnScope} (even with ${route.scope}), served with it alone`, async () => {
      const request = await REST_SSN_CASES[route.operationId]!();
      for (const token of [without(route.ssnScope), only(route.scope)]) {
        const refused = await expectNoChange(service.database.pool, () => restCall(route, request, token));
        expect(refused.status, refused.text).toBe(403);
        expect(refused.json.error ?? refused.json).toMatchObject({ code: 'FORBIDDEN' });
        expect(refused.headers.get('www-authenticate')).toContain(`scope="${route.ssnScope}"`);
      }
      const served = await restCall(route, request, only(route.ssnScope));
      expect(served.status, served.text).toBe(route.success.status);
    });
  }
});

// ---- GraphQL: one case per root field of the schema ---------------------------------------------------

const schema = buildSchema(readFileSync('schema.graphql', 'utf8'));
const requiresScope = schema.getDirective('requiresScope')!;

/**
 * Root fields resolved per kind of record (Relay's `node`): each kind needs its own read scope; and the
 * caller's own grants (`viewer`), which need none. Both tested below.
 */
const PER_KIND_FIELDS = new Set(['Query.node', 'Query.viewer']);

interface GraphqlCase {
  document: string;
  variables?: Record<string, unknown>;
}

const ACCOUNT_ID_ONLY = '{ accountId }';
const TRANSACTION_ID_ONLY = '{ transactionId }';

const GRAPHQL_CASES: Record<string, () => Promise<GraphqlCase>> = {
  'Query.customer': async () => ({
    document: 'query($id: ID!) { customer(customerId: $id) { customerId } }',
    variables: { id: await fixtures.customer() },
  }),
  'Query.account': async () => ({
    document: `query($id: ID!) { account(accountId: $id) ${ACCOUNT_ID_ONLY} }`,
    variables: { id: await fixtures.account() },
  }),
  'Query.customers': async () => ({ document: '{ customers(first: 2) { nodes { customerId } } }' }),
  'Query.searchCustomers': async () => ({
    document:
      'query($input: CustomerSearchInput!) { searchCustomers(input: $input, first: 2) { nodes { customerId } } }',
    variables: { input: { lastName: 'a' } },
  }),
  'Query.accounts': async () => ({ document: `{ accounts(first: 2) { nodes ${ACCOUNT_ID_ONLY} } }` }),
  'Query.auditEvents': async () => ({ document: '{ auditEvents(first: 2) { nodes { eventId } } }' }),
  'Query.events': async () => ({ document: '{ events(first: 2) { events { eventId } } }' }),
  'Query.transaction': async () => {
    const accountId = await fixtures.account();
    return {
      document: `query($a: ID!, $t: ID!) { transaction(accountId: $a, transactionId: $t) ${TRANSACTION_ID_ONLY} }`,
      variables: { a: accountId, t: await fixtures.transaction(accountId, { type: 'CREDIT', amount: 1 }) },
    };
  },
  'Query.transfer': async () => ({
    document: 'query($id: ID!) { transfer(transferId: $id) { transferId } }',
    variables: { id: await fixtures.transfer() },
  }),
  'Query.event': async () => ({
    document: 'query($id: ID!) { event(eventId: $id) { eventId } }',
    variables: { id: await fixtures.eventId() },
  }),
  'Query.webhookEndpoints': async () => ({ document: '{ webhookEndpoints { endpointId } }' }),
  'Query.webhookEndpoint': async () => ({
    document: 'query($id: ID!) { webhookEndpoint(endpointId: $id) { endpointId } }',
    variables: { id: await fixtures.endpoint() },
  }),
  'Mutation.createCustomer': async () => ({
    // The identity only: the customer's other fields need customers:read (test/auth/answer-shape.test.ts).
    document: 'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId version } }',
    variables: { input: buildCustomerInput() },
  }),
  'Mutation.createBusinessCustomer': async () => {
    const { customerType: _business, ...input } = buildBusinessInput();
    return {
      document:
        'mutation($input: CreateBusinessCustomerInput!) { createBusinessCustomer(input: $input) { customerId version } }',
      variables: { input },
    };
  },
  'Mutation.updateCustomer': async () => ({
    document: 'mutation($id: ID!) { updateCustomer(customerId: $id, input: { preferredName: "Sam" }) { customerId } }',
    variables: { id: await fixtures.customer() },
  }),
  'Mutation.deleteCustomer': async () => ({
    document: 'mutation($id: ID!) { deleteCustomer(customerId: $id) }',
    variables: { id: await fixtures.customer() },
  }),
  'Mutation.addBeneficialOwner': async () => ({
    // The owner's id only: its other fields need customers:read, as a customer's do.
    document:
      'mutation($b: ID!, $o: ID!) { addBeneficialOwner(businessCustomerId: $b, input: { customerId: $o, prongs: [CONTROL] }) { customerId } }',
    variables: { b: await fixtures.business(), o: await fixtures.customer() },
  }),
  // The ids only: a check's and a verification's other fields need verification:read.
  'Mutation.requestVerificationCheck': async () => ({
    document: 'mutation($id: ID!) { requestVerificationCheck(customerId: $id) { checkId } }',
    variables: { id: await fixtures.customer() },
  }),
  'Mutation.decideVerification': async () => ({
    document:
      'mutation($id: ID!) { decideVerification(customerId: $id, input: { outcome: VERIFIED, reason: "Documents match." }) { customerId } }',
    variables: { id: await fixtures.inReview() },
  }),
  'Mutation.reviewDocument': async () => {
    const { customerId, documentId } = await fixtures.document();
    return {
      document:
        'mutation($c: ID!, $d: ID!) { reviewDocument(customerId: $c, documentId: $d, input: { status: APPROVED }) { documentId } }',
      variables: { c: customerId, d: documentId },
    };
  },
  'Mutation.removeBeneficialOwner': async () => {
    const { businessId, ownerId } = await fixtures.ownedBusiness();
    return {
      document: 'mutation($b: ID!, $o: ID!) { removeBeneficialOwner(businessCustomerId: $b, ownerCustomerId: $o) }',
      variables: { b: businessId, o: ownerId },
    };
  },
  'Mutation.addCustomerNote': async () => ({
    document: 'mutation($id: ID!) { addCustomerNote(customerId: $id, text: "Called back.") { noteId } }',
    variables: { id: await fixtures.customer() },
  }),
  'Mutation.addAccountNote': async () => ({
    document: 'mutation($id: ID!) { addAccountNote(accountId: $id, text: "Fee dispute.") { noteId } }',
    variables: { id: await fixtures.account() },
  }),
  'Mutation.createAccount': async () => ({
    document: `mutation($input: CreateAccountInput!) { createAccount(input: $input) ${ACCOUNT_ID_ONLY} }`,
    variables: {
      input: { associatedCustomerIds: [await fixtures.customer()], name: 'New', currency: 'USD', type: 'CHECKING' },
    },
  }),
  'Mutation.updateAccount': async () => ({
    document: `mutation($id: ID!) { updateAccount(accountId: $id, input: { name: "Renamed", currency: "EUR" }) ${ACCOUNT_ID_ONLY} }`,
    variables: { id: await fixtures.account() },
  }),
  'Mutation.deleteAccount': async () => ({
    document: 'mutation($id: ID!) { deleteAccount(accountId: $id) }',
    variables: { id: await fixtures.account() },
  }),
  'Mutation.addAccountCustomer': async () => ({
    document: `mutation($a: ID!, $c: ID!) { addAccountCustomer(accountId: $a, customerId: $c) ${ACCOUNT_ID_ONLY} }`,
    variables: { a: await fixtures.account(), c: await fixtures.customer() },
  }),
  'Mutation.removeAccountCustomer': async () => {
    const [first, second] = [await fixtures.customer(), await fixtures.customer()];
    return {
      document: `mutation($a: ID!, $c: ID!) { removeAccountCustomer(accountId: $a, customerId: $c) ${ACCOUNT_ID_ONLY} }`,
      variables: { a: await fixtures.account([first, second]), c: second },
    };
  },
  'Mutation.setAccountRelationship': async () => {
    const [first, second] = [await fixtures.customer(), await fixtures.customer()];
    return {
      document: `mutation($a: ID!, $c: ID!) { setAccountRelationship(accountId: $a, customerId: $c, role: BENEFICIARY) ${ACCOUNT_ID_ONLY} }`,
      variables: { a: await fixtures.account([first, second]), c: second },
    };
  },
  'Mutation.setAccountFlag': async () => ({
    document: `mutation($id: ID!) { setAccountFlag(accountId: $id, flag: FROZEN) ${ACCOUNT_ID_ONLY} }`,
    variables: { id: await fixtures.account() },
  }),
  'Mutation.clearAccountFlag': async () => {
    const accountId = await fixtures.account();
    await ok(service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`), 'freeze');
    return {
      document: `mutation($id: ID!) { clearAccountFlag(accountId: $id, flag: FROZEN) ${ACCOUNT_ID_ONLY} }`,
      variables: { id: accountId },
    };
  },
  'Mutation.closeAccount': async () => ({
    document: `mutation($id: ID!) { closeAccount(accountId: $id, reason: CUSTOMER_REQUEST) ${ACCOUNT_ID_ONLY} }`,
    variables: { id: await fixtures.account() },
  }),
  'Mutation.reopenAccount': async () => {
    const accountId = await fixtures.account();
    await ok(service.call('POST', `/sandbox/account/${accountId}/close`, { body: { reason: 'OTHER' } }), 'close');
    return {
      document: `mutation($id: ID!) { reopenAccount(accountId: $id) ${ACCOUNT_ID_ONLY} }`,
      variables: { id: accountId },
    };
  },
  'Mutation.archiveCustomer': async () => ({
    document: 'mutation($id: ID!) { archiveCustomer(customerId: $id, reason: DUPLICATE) { customerId } }',
    variables: { id: await fixtures.customer() },
  }),
  'Mutation.addAccountNumber': async () => ({
    document: 'mutation($id: ID!) { addAccountNumber(accountId: $id) { id last4 } }',
    variables: { id: await fixtures.account() },
  }),
  'Mutation.updateAccountNumber': async () => {
    const { accountId, accountNumberId } = await fixtures.accountNumber();
    return {
      document:
        'mutation($a: ID!, $n: ID!) { updateAccountNumber(accountId: $a, accountNumberId: $n, status: DISABLED) { id status } }',
      variables: { a: accountId, n: accountNumberId },
    };
  },
  'Mutation.lookupAccountNumber': async () => ({
    document:
      'mutation($n: String!) { lookupAccountNumber(input: { routingNumber: "011000015", accountNumber: $n }) { accountId } }',
    variables: { n: (await fixtures.accountNumber()).accountNumber },
  }),
  'Mutation.reactivateAccount': async () => ({
    document: `mutation($id: ID!) { reactivateAccount(accountId: $id) ${ACCOUNT_ID_ONLY} }`,
    variables: { id: await fixtures.dormantAccount() },
  }),
  'Mutation.setOverdraftLimit': async () => ({
    document: `mutation($id: ID!) { setOverdraftLimit(accountId: $id, overdraftLimit: "250") ${ACCOUNT_ID_ONLY} }`,
    variables: { id: await fixtures.account() },
  }),
  'Mutation.postTransaction': async () => ({
    document: `mutation($id: ID!) { postTransaction(accountId: $id, input: { type: CREDIT, amount: "10" }) ${TRANSACTION_ID_ONLY} }`,
    variables: { id: await fixtures.account() },
  }),
  'Mutation.postHold': async () => {
    const accountId = await fixtures.fundedAccount();
    return {
      document: `mutation($a: ID!, $t: ID!) { postHold(accountId: $a, transactionId: $t) ${TRANSACTION_ID_ONLY} }`,
      variables: { a: accountId, t: await fixtures.hold(accountId) },
    };
  },
  'Mutation.voidHold': async () => {
    const accountId = await fixtures.fundedAccount();
    return {
      document: `mutation($a: ID!, $t: ID!) { voidHold(accountId: $a, transactionId: $t) ${TRANSACTION_ID_ONLY} }`,
      variables: { a: accountId, t: await fixtures.hold(accountId) },
    };
  },
  'Mutation.reverseTransaction': async () => {
    const accountId = await fixtures.account();
    return {
      document: `mutation($a: ID!, $t: ID!) { reverseTransaction(accountId: $a, transactionId: $t) ${TRANSACTION_ID_ONLY} }`,
      variables: { a: accountId, t: await fixtures.transaction(accountId, { type: 'CREDIT', amount: 4 }) },
    };
  },
  'Mutation.transfer': async () => ({
    document: 'mutation($input: TransferInput!) { transfer(input: $input) { transferId } }',
    variables: {
      input: { fromAccountId: await fixtures.fundedAccount(), toAccountId: await fixtures.account(), amount: '12' },
    },
  }),
  'Mutation.createWebhookEndpoint': async () => ({
    document:
      'mutation { createWebhookEndpoint(input: { url: "http://127.0.0.1:9/graphql-created" }) { endpoint { endpointId } } }',
  }),
  'Mutation.updateWebhookEndpoint': async () => ({
    document: 'mutation($id: ID!) { updateWebhookEndpoint(endpointId: $id, input: { eventTypes: [] }) { endpointId } }',
    variables: { id: await fixtures.endpoint() },
  }),
  'Mutation.deleteWebhookEndpoint': async () => ({
    document: 'mutation($id: ID!) { deleteWebhookEndpoint(endpointId: $id) }',
    variables: { id: await fixtures.endpoint() },
  }),
  'Mutation.enableWebhookEndpoint': async () => ({
    document: 'mutation($id: ID!) { enableWebhookEndpoint(endpointId: $id) { endpointId } }',
    variables: { id: await fixtures.endpoint() },
  }),
  'Mutation.disableWebhookEndpoint': async () => ({
    document: 'mutation($id: ID!) { disableWebhookEndpoint(endpointId: $id) { endpointId } }',
    variables: { id: await fixtures.endpoint() },
  }),
  'Mutation.rotateWebhookSecret': async () => ({
    document: 'mutation($id: ID!) { rotateWebhookSecret(endpointId: $id) { endpoint { endpointId } } }',
    variables: { id: await fixtures.endpoint() },
  }),
  'Mutation.redeliverWebhook': async () => ({
    document: 'mutation($id: ID!, $e: ID!) { redeliverWebhook(endpointId: $id, eventId: $e) { eventId } }',
    variables: { id: await fixtures.endpoint(), e: await fixtures.eventId() },
  }),
  'Query.products': async () => ({ document: '{ products(first: 2) { nodes { code } } }' }),
  'Query.product': async () => ({
    document: 'query($code: String!) { product(code: $code) { code } }',
    variables: { code: await fixtures.product() },
  }),
  'Mutation.createProduct': async () => ({
    document: 'mutation($input: CreateProductInput!) { createProduct(input: $input) { code } }',
    variables: { input: { code: productCode(), name: 'Scopes', accountType: 'CHECKING', currency: 'USD' } },
  }),
  'Mutation.changeProductRate': async () => ({
    document:
      'mutation($code: String!) { changeProductRate(code: $code, input: { annualRate: "0.02", effectiveFrom: "2099-01-01" }) { code } }',
    variables: { code: await fixtures.product() },
  }),
  'Query.clock': async () => ({ document: '{ clock { now businessDate } }' }),
  'Query.endOfDay': async () => ({ document: '{ endOfDay(from: "2026-12-01", to: "2026-12-31") { businessDate } }' }),
  'Query.escheatment': async () => ({
    document: '{ escheatment(state: "NY", first: 5) { accounts { accountId } pageInfo { hasNextPage } } }',
  }),
  'Mutation.advanceClock': async () => ({ document: 'mutation { advanceClock(days: 1) { to businessDaysRun } }' }),
  'Subscription.accountUpdated': async () => ({
    document: `subscription($id: ID!) { accountUpdated(accountId: $id) ${ACCOUNT_ID_ONLY} }`,
    variables: { id: await fixtures.account() },
  }),
  'Subscription.transactionPosted': async () => ({
    document: `subscription($id: ID!) { transactionPosted(accountId: $id) ${TRANSACTION_ID_ONLY} }`,
    variables: { id: await fixtures.account() },
  }),
  'Subscription.events': async () => ({ document: 'subscription { events { eventId } }' }),
};

const rootFields = (['Query', 'Mutation', 'Subscription'] as const).flatMap((typeName) => {
  const type = schema.getType(typeName) as GraphQLObjectType;
  return Object.values(type.getFields()).map((field) => ({ key: `${typeName}.${field.name}`, typeName, field }));
});

function declaredScope(field: GraphQLField<unknown, unknown>): AccessScope | undefined {
  const values = field.astNode ? getDirectiveValues(requiresScope, field.astNode) : undefined;
  return values?.scope as AccessScope | undefined;
}

/** The scope the field needs instead when its input names a social security number (`ssnScope`), if it declares one. */
function declaredSsnScope(field: GraphQLField<unknown, unknown>): AccessScope | undefined {
  const values = field.astNode ? getDirectiveValues(requiresScope, field.astNode) : undefined;
  return values?.ssnScope as AccessScope | undefined;
}

/** The same root fields with a `socialSecurityNumber` in the input. */
const GRAPHQL_SSN_CASES: Record<string, () => Promise<GraphqlCase>> = {
  'Query.searchCustomers': async () => ({
    document:
      'query($input: CustomerSearchInput!) { searchCustomers(input: $input, first: 2) { nodes { customerId } } }',
    variables: { input: { socialSecurityNumber: '123-45-6789' } },
  }),
};

const post = (body: GraphqlCase, token: string) =>
  service.call('POST', '/sandbox/graphql', {
    auth: false,
    headers: { authorization: `Bearer ${token}` },
    body: { query: body.document, variables: body.variables },
  });

async function subscribe(body: GraphqlCase, token: string) {
  const client = connect({ url: service.url, token }, { connectionParams: { authorization: `Bearer ${token}` } });
  const subscription = client.subscribe(body.document, body.variables);
  return { client, subscription };
}

describe('GraphQL: every root field needs exactly the scope its @requiresScope declares', () => {
  it('every root field declares one known scope (Relay`s node aside) and has a case here', () => {
    for (const { key, field } of rootFields) {
      if (PER_KIND_FIELDS.has(key)) continue;
      expect(ACCESS_SCOPES, `${key} declares no known scope`).toContain(declaredScope(field));
    }
    expect(Object.keys(GRAPHQL_CASES).sort()).toEqual(
      rootFields
        .map(({ key }) => key)
        .filter((key) => !PER_KIND_FIELDS.has(key))
        .sort(),
    );
  });

  for (const { key, typeName, field } of rootFields.filter(({ key }) => !PER_KIND_FIELDS.has(key))) {
    const scope = declaredScope(field)!;
    it(`${key}: refused without ${scope}, served with it alone`, async () => {
      const request = await GRAPHQL_CASES[key]!();
      if (typeName === 'Subscription') {
        // No other subscription of this file is open between cases.
        await followers(service, 0);
        const refused = await subscribe(request, without(scope));
        await refused.subscription.done;
        // A refused operation answers one result carrying the error, then completes.
        expect(refused.subscription.results[0]?.errors?.[0]?.extensions).toMatchObject({
          code: 'FORBIDDEN',
          challenge: { scope },
        });
        await refused.client.dispose();

        const served = await subscribe(request, only(scope));
        await followers(service, 1);
        expect(served.subscription.failure).toBeUndefined();
        served.subscription.unsubscribe();
        await served.client.dispose();
        await followers(service, 0);
        return;
      }
      const refused = await expectNoChange(service.database.pool, () => post(request, without(scope)));
      expect(refused.json.errors?.[0]?.extensions, refused.text).toMatchObject({
        code: 'FORBIDDEN',
        challenge: { scope },
      });
      expect(refused.json.data?.[field.name] ?? null).toBeNull();

      const served = await post(request, only(scope));
      expect(served.json.errors, served.text).toBeUndefined();
      expect(served.json.data[field.name]).not.toBeNull();
    });
  }

  const ssnFields = rootFields.filter(({ field }) => declaredSsnScope(field) !== undefined);

  it('every root field declaring an ssnScope declares a known one and has an SSN case here', () => {
    for (const { key, field } of ssnFields)
      expect(ACCESS_SCOPES, `${key} declares no known ssnScope`).toContain(declaredSsnScope(field));
    expect(Object.keys(GRAPHQL_SSN_CASES).sort()).toEqual(ssnFields.map(({ key }) => key).sort());
  });

  for (const { key, field } of ssnFields) {
    const scope = declaredScope(field)!;
    const ssnScope = declaredSsnScope(field)!;
    it(`${key} with an SSN: refused without ${ssnScope} (even with ${scope}), served with it alone`, async () => {
      const request = await GRAPHQL_SSN_CASES[key]!();
      for (const token of [without(ssnScope), only(scope)]) {
        const refused = await expectNoChange(service.database.pool, () => post(request, token));
        expect(refused.json.errors?.[0]?.extensions, refused.text).toMatchObject({
          code: 'FORBIDDEN',
          challenge: { scope: ssnScope },
        });
        expect(refused.json.data?.[field.name] ?? null).toBeNull();
      }
      const served = await post(request, only(ssnScope));
      expect(served.json.errors, served.text).toBeUndefined();
      expect(served.json.data[field.name]).not.toBeNull();
    });
  }

  it('node: a customer needs customers:read, an account accounts:read; neither scope is refused', async () => {
    const customerId = await fixtures.customer();
    const accountId = await fixtures.account();
    const node = (id: string, token: string) =>
      post({ document: 'query($id: ID!) { node(id: $id) { id __typename } }', variables: { id } }, token);
    expect((await node(customerId, only('customers:read'))).json.data.node).toEqual({
      id: customerId,
      __typename: 'Customer',
    });
    expect((await node(accountId, only('accounts:read'))).json.data.node).toEqual({
      id: accountId,
      __typename: 'Account',
    });
    expect((await node(accountId, only('customers:read'))).json.data.node).toBeNull();
    expect((await node(customerId, only('accounts:read'))).json.data.node).toBeNull();
    const neither = await node(customerId, only('events:read'));
    expect(neither.json.errors?.[0]?.extensions).toMatchObject({
      code: 'FORBIDDEN',
      challenge: { scope: 'customers:read' },
    });
  });

  it('viewer: any accepted token reads its own scopes and environments, and nothing else; no token is refused', async () => {
    const viewer = (token: string, environment = 'sandbox') =>
      service.call('POST', `/${environment}/graphql`, {
        auth: false,
        headers: { authorization: `Bearer ${token}` },
        body: { query: '{ viewer { scopes environments } }' },
      });
    for (const scope of ACCESS_SCOPES) {
      const res = await viewer(only(scope));
      expect(res.json.data.viewer, scope).toEqual({ scopes: [scope], environments: ['sandbox', 'production-like'] });
    }
    expect((await viewer(without('audit:read'))).json.data.viewer.scopes).toEqual(
      ACCESS_SCOPES.filter((scope) => scope !== 'audit:read'),
    );
    expect((await viewer(service.token)).json.data.viewer).toEqual({
      scopes: [...ACCESS_SCOPES],
      environments: ['sandbox', 'production-like'],
    });
    const onlyHere = await issueApiToken(service.database.pool, {
      environments: ['production-like'],
      scopes: ['accounts:read'],
      name: 'one environment',
    });
    expect((await viewer(onlyHere.token, 'production-like')).json.data.viewer).toEqual({
      scopes: ['accounts:read'],
      environments: ['production-like'],
    });
    expect((await viewer(onlyHere.token)).json.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    // Who it is, as a person reads it: the managed token's name, a static token's place in API_TOKENS.
    const who = async (token: string, environment = 'sandbox') =>
      (
        await service.call('POST', `/${environment}/graphql`, {
          auth: false,
          headers: { authorization: `Bearer ${token}` },
          body: { query: '{ viewer { name principalId } }' },
        })
      ).json.data.viewer;
    expect(await who(onlyHere.token, 'production-like')).toEqual({
      name: 'one environment',
      principalId: expect.stringMatching(/^token:[0-9a-f]{16}$/),
    });
    expect(await who(service.token)).toEqual({
      name: 'API_TOKENS entry 1',
      principalId: expect.stringMatching(/^static:[0-9a-f]{16}$/),
    });
    const anonymous = await service.call('POST', '/sandbox/graphql', {
      auth: false,
      body: { query: '{ viewer { scopes } }' },
    });
    expect(anonymous.status).toBe(401);
  });
});

// ---- GraphQL: object fields that declare a scope of their own (below an entry point) -----------------

/** Each object field declaring `@requiresScope`, reached through its record's root field (which needs its own read scope). */
const NESTED_CASES: Record<string, { parentScope: AccessScope; request: () => Promise<GraphqlCase> }> = {
  'Customer.recentEvents': {
    parentScope: 'customers:read',
    request: async () => ({
      document: 'query($id: ID!) { customer(customerId: $id) { customerId recentEvents(first: 2) { eventId } } }',
      variables: { id: await fixtures.customer() },
    }),
  },
  'Customer.verification': {
    parentScope: 'customers:read',
    request: async () => ({
      document: 'query($id: ID!) { customer(customerId: $id) { customerId verification { status } } }',
      variables: { id: await fixtures.customer() },
    }),
  },
  'Customer.taxForm1099Int': {
    parentScope: 'customers:read',
    request: async () => ({
      document: 'query($id: ID!) { customer(customerId: $id) { customerId taxForm1099Int(year: 2025) { taxYear } } }',
      variables: { id: await fixtures.customer() },
    }),
  },
  'Account.recentEvents': {
    parentScope: 'accounts:read',
    request: async () => ({
      document: 'query($id: ID!) { account(accountId: $id) { accountId recentEvents(first: 2) { eventId } } }',
      variables: { id: await fixtures.account() },
    }),
  },
  'Customer.notes': {
    parentScope: 'customers:read',
    request: async () => ({
      document: 'query($id: ID!) { customer(customerId: $id) { customerId notes(first: 2) { nodes { noteId } } } }',
      variables: { id: await fixtures.customer() },
    }),
  },
  'Customer.timeline': {
    parentScope: 'customers:read',
    request: async () => ({
      document: 'query($id: ID!) { customer(customerId: $id) { customerId timeline(first: 2) { nodes { id } } } }',
      variables: { id: await fixtures.customer() },
    }),
  },
  'Account.accountNumbers': {
    parentScope: 'accounts:read',
    request: async () => ({
      document: 'query($id: ID!) { account(accountId: $id) { accountId accountNumbers { id last4 } } }',
      variables: { id: await fixtures.account() },
    }),
  },
  'Account.notes': {
    parentScope: 'accounts:read',
    request: async () => ({
      document: 'query($id: ID!) { account(accountId: $id) { accountId notes(first: 2) { nodes { noteId } } } }',
      variables: { id: await fixtures.account() },
    }),
  },
  'Account.product': {
    parentScope: 'accounts:read',
    request: async () => {
      const productCode = await fixtures.product();
      const body = {
        associatedCustomerIds: [await fixtures.customer()],
        name: 'Scopes',
        currency: 'USD',
        type: 'SAVINGS',
        productCode,
      };
      const accountId = (await ok(service.call('POST', '/sandbox/account', { body }), 'account on a product')).json.data
        .accountId;
      return {
        document: 'query($id: ID!) { account(accountId: $id) { accountId product { code } } }',
        variables: { id: accountId },
      };
    },
  },
};

const nestedFields = Object.values(schema.getTypeMap())
  .filter(
    (type): type is GraphQLObjectType =>
      type instanceof GraphQLObjectType &&
      !type.name.startsWith('__') &&
      !['Query', 'Mutation', 'Subscription'].includes(type.name),
  )
  .flatMap((type) => Object.values(type.getFields()).map((field) => ({ key: `${type.name}.${field.name}`, field })))
  .filter(({ field }) => declaredScope(field) !== undefined);

describe('GraphQL: every object field that declares @requiresScope needs exactly that scope', () => {
  it('has a case for every such field', () => {
    expect(Object.keys(NESTED_CASES).sort()).toEqual(nestedFields.map(({ key }) => key).sort());
  });

  for (const { key, field } of nestedFields) {
    const scope = declaredScope(field)!;
    it(`${key}: refused without ${scope} (the field null, its record answered), served with it and its record's read scope`, async () => {
      const { parentScope, request } = NESTED_CASES[key]!;
      const body = await request();
      const parentField = key.startsWith('Customer.') ? 'customer' : 'account';
      const refused = await post(body, without(scope));
      expect(refused.json.errors?.[0]?.extensions, refused.text).toMatchObject({
        code: 'FORBIDDEN',
        challenge: { scope },
      });
      expect(refused.json.data[parentField][field.name]).toBeNull();

      const both = (
        await issueApiToken(service.database.pool, {
          environments: ['*'],
          scopes: [parentScope, scope],
          name: `${parentScope} ${scope}`,
        })
      ).token;
      const served = await post(body, both);
      expect(served.json.errors, served.text).toBeUndefined();
      // A list (recent events) or a record (a verification): answered, not null.
      expect(served.json.data[parentField][field.name]).toEqual(expect.any(Object));
      // A list (`recentEvents`) or a connection (`notes`): answered, not null.
      expect(served.json.data[parentField][field.name]).toEqual(
        expect.any(isListType(getNullableType(field.type)) ? Array : Object),
      );
    });
  }
});
