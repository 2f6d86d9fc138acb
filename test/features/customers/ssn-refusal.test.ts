import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { expectNoChange } from '../../support/database.js';
import { buildCustomerInput, type CustomerInput } from '../../support/factories.js';
import { bearer } from '../../support/http-auth.js';
import { type CallResult, startTestService, type TestService } from '../../support/service.js';

/** What a token without customers:read may select from a creation's answer: the record's identity (ADR 0087). */
const CREATE_CUSTOMER_IDENTITY =
  'mutation CreateCustomer($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId version } }';

/**
 * A creation refused because the SSN is on file tells the caller that this person is a customer, as a search by
 * SSN does. So the externalId is consulted first (a taken externalId answers EXTERNAL_ID_TAKEN whatever the SSN),
 * and an SSN refusal is audited (`customer.create.refused`, read through the audit API) and spends the SSN search
 * budget (SSN_SEARCH_RATE_LIMIT_PER_MINUTE, shared with POST /customer/search and searchCustomers).
 */
let service: TestService;
let onFile: CustomerInput & { externalId: string };
let onFileId: string;
let otherOnFile: CustomerInput;

const BUDGET = 3;

beforeAll(async () => {
  service = await startTestService({ SSN_SEARCH_RATE_LIMIT_PER_MINUTE: String(BUDGET) });
  onFile = { ...buildCustomerInput({ lastName: 'OnFile' }), externalId: `crm-${randomUUID()}` };
  const created = await service.call('POST', '/sandbox/customer', { body: onFile });
  expectSuccess(created, 'customer', 201);
  onFileId = created.json.data.customerId;
  otherOnFile = buildCustomerInput({ lastName: 'AlsoOnFile' });
  expectSuccess(await service.call('POST', '/sandbox/customer', { body: otherOnFile }), 'customer', 201);
});
afterAll(async () => service?.stop());

/** A token that may create customers (and search by SSN, to share the budget), and nothing else. */
const writer = () =>
  issueApiToken(service.database.pool, {
    environments: ['*'],
    scopes: ['customers:write', 'customers:ssn_search'],
    name: 'creator',
  });

const restCreate = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  service.call('POST', '/sandbox/customer', { body, headers: { ...bearer(token), ...headers } });
const gqlCreate = (token: string, input: unknown) =>
  graphql(
    service,
    'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customerId } }',
    { input },
    { headers: bearer(token) },
  );

/** The audit trail through the API (GET /{environment}/audit-events), read with the service's token (audit:read). */
async function refusalsOf(principalId: string): Promise<Record<string, unknown>[]> {
  const res = await service.call(
    'GET',
    `/sandbox/audit-events?operation=customer.create.refused&principalId=${encodeURIComponent(principalId)}&first=100`,
  );
  expectSuccess(res, 'customer', 200);
  return res.json.data.events;
}

function expectRetryAfter(res: CallResult): void {
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('creating a customer whose externalId is taken', () => {
  it('answers EXTERNAL_ID_TAKEN whether or not the SSN is on file (REST and GraphQL), writing, auditing and charging nothing', async () => {
    const { token, principalId } = await writer();
    const cases = {
      'the SSN of the externalId holder': onFile.socialSecurityNumber,
      "another customer's SSN": otherOnFile.socialSecurityNumber,
      'an SSN not on file': buildCustomerInput().socialSecurityNumber,
    };
    for (const [what, socialSecurityNumber] of Object.entries(cases)) {
      const body = { ...buildCustomerInput({ socialSecurityNumber }), externalId: onFile.externalId };
      const rest = await expectNoChange(service.database.pool, () => restCreate(token, body));
      expectFailure(rest, 'customer', 409, 'EXTERNAL_ID_TAKEN');
      const gql = await expectNoChange(service.database.pool, () => gqlCreate(token, body));
      expect(errorCodes(gql), what).toEqual(['EXTERNAL_ID_TAKEN']);
      expect(gql.json.data).toBeNull();
    }
    // More refusals than the budget, none of them an SSN refusal: the budget is whole.
    expect(await refusalsOf(principalId)).toEqual([]);
    for (let i = 0; i < BUDGET; i++)
      expectFailure(
        await restCreate(token, { ...onFile, externalId: `crm-${randomUUID()}` }),
        'customer',
        409,
        'CUSTOMER_ALREADY_EXISTS',
      );
  });
});

describe('creating a customer whose SSN is on file', () => {
  it('answers CUSTOMER_ALREADY_EXISTS and audits the refusal, without the number or the existing customer (REST and GraphQL)', async () => {
    const { token, principalId } = await writer();
    const body = {
      ...buildCustomerInput({ socialSecurityNumber: onFile.socialSecurityNumber }),
      externalId: `crm-${randomUUID()}`,
    };
    const rest = await restCreate(token, body, { 'idempotency-key': `refused-${randomUUID()}` });
    expectFailure(rest, 'customer', 409, 'CUSTOMER_ALREADY_EXISTS');
    const gql = await gqlCreate(
      token,
      buildCustomerInput({ socialSecurityNumber: onFile.socialSecurityNumber.replaceAll('-', '') }),
    );
    expect(errorCodes(gql)).toEqual(['CUSTOMER_ALREADY_EXISTS']);
    expect(gql.status).toBe(200);

    const events = await refusalsOf(principalId);
    expect(events).toHaveLength(2);
    expect(events.map((event) => event.requestId)).toEqual([rest.json.requestId, gql.headers.get('x-request-id')]);
    for (const event of events) {
      expect(event).toMatchObject({ principalId, operation: 'customer.create.refused', resourceType: 'customer' });
      expect(event.changedFields).toContain('socialSecurityNumber');
      expect(event.resourceId).not.toBe(onFileId);
      // No customer has the event's resource id: it is the id the refused customer would have had.
      expect((await service.call('GET', `/sandbox/customer/${event.resourceId as string}`)).status).toBe(404);
      const text = JSON.stringify(event);
      for (const secret of [onFile.socialSecurityNumber, onFile.socialSecurityNumber.replaceAll('-', ''), onFileId])
        expect(text).not.toContain(secret);
    }
    expect(events[0]!.idempotencyKey).toMatch(/^refused-/);
    // Nothing else was written: no customer, no creation's audit event.
    const creations = await service.call(
      'GET',
      `/sandbox/audit-events?operation=customer.create&principalId=${encodeURIComponent(principalId)}`,
    );
    expect(creations.json.data.events).toEqual([]);
  });

  it('spends the SSN search budget: beyond it 429 SSN_SEARCH_RATE_LIMITED with Retry-After (still audited), while creations and replays cost nothing', async () => {
    const { token, principalId } = await writer();
    // Creations that succeed (one with an idempotency key, replayed later) spend nothing of the budget.
    const key = `create-${randomUUID()}`;
    const keyed = buildCustomerInput();
    const first = await restCreate(token, keyed, { 'idempotency-key': key });
    expectSuccess(first, 'customer', 201);
    for (let i = 0; i < BUDGET + 1; i++) expectSuccess(await restCreate(token, buildCustomerInput()), 'customer', 201);

    // One search by SSN and two refusals (REST, GraphQL) spend the budget of 3 together.
    expectSuccess(
      await service.call('POST', '/sandbox/customer/search', {
        body: { socialSecurityNumber: onFile.socialSecurityNumber },
        headers: bearer(token),
      }),
      'customer',
      200,
    );
    expectFailure(
      await restCreate(token, buildCustomerInput({ socialSecurityNumber: onFile.socialSecurityNumber })),
      'customer',
      409,
      'CUSTOMER_ALREADY_EXISTS',
    );
    expect(
      errorCodes(
        await gqlCreate(token, buildCustomerInput({ socialSecurityNumber: otherOnFile.socialSecurityNumber })),
      ),
    ).toEqual(['CUSTOMER_ALREADY_EXISTS']);

    const limited = await restCreate(token, buildCustomerInput({ socialSecurityNumber: onFile.socialSecurityNumber }));
    expectFailure(limited, 'customer', 429, 'SSN_SEARCH_RATE_LIMITED');
    expectRetryAfter(limited);
    const limitedGql = await gqlCreate(
      token,
      buildCustomerInput({ socialSecurityNumber: otherOnFile.socialSecurityNumber }),
    );
    expect(limitedGql.status).toBe(429);
    expect(errorCodes(limitedGql)).toEqual(['SSN_SEARCH_RATE_LIMITED']);
    expectRetryAfter(limitedGql);
    // The number was consulted for each of them: every refusal is in the trail, the limited ones too.
    expect(await refusalsOf(principalId)).toHaveLength(4);

    // The budget limits only what consults the SSN's answer: a new customer, a replay and an externalId clash still pass.
    expectSuccess(await restCreate(token, buildCustomerInput()), 'customer', 201);
    const replay = await restCreate(token, keyed, { 'idempotency-key': key });
    expectSuccess(replay, 'customer', 201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json.data.customerId).toBe(first.json.data.customerId);
    expectFailure(await restCreate(token, { ...onFile }), 'customer', 409, 'EXTERNAL_ID_TAKEN');
    const gqlFresh = await graphql(
      service,
      CREATE_CUSTOMER_IDENTITY,
      { input: buildCustomerInput() },
      { headers: bearer(token) },
    );
    expect(gqlFresh.json.errors).toBeUndefined();

    // Another token has its own budget.
    const other = await writer();
    expectFailure(
      await restCreate(other.token, buildCustomerInput({ socialSecurityNumber: onFile.socialSecurityNumber })),
      'customer',
      409,
      'CUSTOMER_ALREADY_EXISTS',
    );
  });
});
