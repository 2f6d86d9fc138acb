import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiJson } from '../../src/openapi/document.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import type { paths } from '../../packages/client/src/generated/rest.js';
import {
  OPERATIONS_FILE,
  operationFacts,
  REST_TYPES_FILE,
  restTypes,
} from '../../packages/client/scripts/generate-rest.js';
import { assertDocumentedResponse } from './response-contract.js';

/**
 * A client generated from the document (openapi-typescript types + openapi-fetch) drives the service:
 * if the document were too loose or wrong for client generation, this file would not compile or the
 * calls would not line up with the answers. The types are the TypeScript client's own
 * (packages/client/src/generated/rest.ts), generated once: bound to one environment, so its paths have
 * no `/{environment}` prefix and the environment is the end of the base URL, as in the client.
 */
describe('a typed client generated from openapi.json', () => {
  let service: TestService;
  let client: ReturnType<typeof createClient<paths>>;

  beforeAll(async () => {
    service = await startTestService();
    client = createClient<paths>({
      baseUrl: `${service.url}/sandbox`,
      headers: { Authorization: `Bearer ${service.token}` },
      // Every answer is also checked against the document, as test/support/service.ts does.
      fetch: async (request: Request) => {
        const response = await fetch(request);
        const text = await response.clone().text();
        assertDocumentedResponse(
          request.method,
          new URL(request.url).pathname,
          response.status,
          response.headers,
          text,
        );
        return response;
      },
    });
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('uses types that are up to date with openapi.json', async () => {
    expect(readFileSync(REST_TYPES_FILE, 'utf8'), 'stale client types: run npm run openapi').toBe(
      await restTypes(openApiJson()),
    );
    expect(readFileSync(OPERATIONS_FILE, 'utf8'), 'stale client operation facts: run npm run openapi').toBe(
      operationFacts(openApiJson()),
    );
  });

  it('creates and reads a customer and an account, and reads a typed error', async () => {
    const customerInput = buildCustomerInput({ firstName: 'Typed', lastName: 'Client' });
    const created = await client.POST('/customer', {
      params: { header: { 'Idempotency-Key': `typed-client-${Date.now()}` } },
      body: customerInput,
    });
    expect(created.response.status).toBe(201);
    const customerId = created.data!.data.customerId;
    expect(created.response.headers.get('location')).toBe(`/sandbox/customer/${customerId}`);
    expect(created.data!.log_ref_id).toBe(created.data!.requestId);

    const opened = await client.POST('/account', {
      body: buildAccountInput([customerId], { name: 'Typed Savings', type: 'SAVINGS' }),
    });
    expect(opened.response.status).toBe(201);
    const account = opened.data!.data;
    expect(account).toMatchObject({
      name: 'Typed Savings',
      type: 'SAVINGS',
      amount: 0,
      currency: 'USD',
      customers: [customerId],
      transactions: [],
      flags: [],
    });
    expect(opened.data!.logRefId).toBe(opened.data!.requestId);

    const customer = await client.GET('/customer/{customerId}', { params: { path: { customerId } } });
    expect(customer.data!.data).toMatchObject({
      customerId,
      firstName: 'Typed',
      lastName: 'Client',
      accountIds: [account.accountId],
    });

    const readAccount = await client.GET('/account/{accountId}', {
      params: { path: { accountId: account.accountId } },
    });
    expect(readAccount.data!.data).toEqual(account);

    const refused = await client.DELETE('/customer/{customerId}', { params: { path: { customerId } } });
    expect(refused.response.status).toBe(409);
    expect(refused.error!.error.code).toBe('CUSTOMER_HAS_ACCOUNTS');
  });

  it('moves money through the ledger: deposit, transfer, hold, reversal, the paged history and a typed refusal', async () => {
    const { data: customer } = await client.POST('/customer', { body: buildCustomerInput() });
    const customerId = customer!.data.customerId;
    const open = async () =>
      (await client.POST('/account', { body: buildAccountInput([customerId]) })).data!.data.accountId;
    const [from, to] = [await open(), await open()];
    const path = { accountId: from };

    const deposit = await client.POST('/account/{accountId}/transaction', {
      params: { path, header: { 'Idempotency-Key': `typed-deposit-${Date.now()}` } },
      body: { type: 'CREDIT', amount: 100, description: 'Typed deposit' },
    });
    expect(deposit.response.status).toBe(201);
    expect(deposit.data!.data).toMatchObject({ type: 'CREDIT', amount: 100, balanceAfter: 100, status: 'POSTED' });

    const transfer = await client.POST('/transfer', { body: { fromAccountId: from, toAccountId: to, amount: 40 } });
    expect(transfer.response.status).toBe(201);
    expect(transfer.data!.data.debit.balanceAfter).toBe(60);
    expect(transfer.data!.data.credit.accountId).toBe(to);

    const hold = await client.POST('/account/{accountId}/transaction', {
      params: { path },
      body: { type: 'DEBIT', amount: 10, hold: true },
    });
    const transactionId = hold.data!.data.transactionId;
    const posted = await client.POST('/account/{accountId}/transaction/{transactionId}/post', {
      params: { path: { ...path, transactionId } },
      body: { amount: 5 },
    });
    expect(posted.data!.data).toMatchObject({ status: 'POSTED', amount: 5, authorizedAmount: 10, balanceAfter: 55 });

    // Reversing the deposit takes the account below zero: only within its overdraft limit.
    const limited = await client.PUT('/account/{accountId}/overdraft-limit', {
      params: { path },
      body: { overdraftLimit: 50 },
    });
    expect(limited.response.status).toBe(200);
    const reversal = await client.POST('/account/{accountId}/transaction/{transactionId}/reverse', {
      params: { path: { ...path, transactionId: deposit.data!.data.transactionId } },
      body: {},
    });
    expect(reversal.response.status).toBe(201);
    expect(reversal.data!.data.reversesTransactionId).toBe(deposit.data!.data.transactionId);
    expect(reversal.data!.data.balanceAfter).toBe(-45);

    const page = await client.GET('/account/{accountId}/transaction', { params: { path, query: { limit: '2' } } });
    expect(page.data!.data.transactions.map((transaction) => transaction.transactionId)).toEqual([
      reversal.data!.data.transactionId,
      transactionId,
    ]);
    expect(page.data!.data.nextAfter).toBe(transactionId);

    const refused = await client.POST('/account/{accountId}/transaction', {
      params: { path },
      body: { type: 'DEBIT', amount: 5.01 },
    });
    expect(refused.response.status).toBe(409);
    expect(refused.error!.error.code).toBe('INSUFFICIENT_FUNDS');

    const frozen = await client.PUT('/account/{accountId}/flags/{flag}', {
      params: { path: { ...path, flag: 'FROZEN' } },
    });
    // A write's answer is the full account or, without accounts:read, its acknowledgment: this token reads too.
    const answer = frozen.data!.data;
    expect('flags' in answer ? answer.flags : answer).toEqual(['FROZEN']);
  });
});
