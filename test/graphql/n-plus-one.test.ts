import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { createAccount, createCustomer, graphql } from './helpers.js';

/**
 * No N+1: the SQL statements of a nested read do not grow with the sizes of the lists. One customer has
 * N accounts, each shared with 2 further customers (3 in all), one of whom has an account of their own; the read goes
 * customer -> accounts -> customers -> accounts. The count is taken from the pg pool's own
 * instrumentation (every statement on every connection), reset just before the request. With look-ahead
 * (src/graphql/loaders.ts) the whole walk is one statement.
 */
let service: TestService;
beforeAll(async () => {
  // The query is deliberately expensive; the cost limit is not what this file tests.
  service = await startTestService({ GRAPHQL_MAX_COST: '10000000' });
});
afterAll(async () => service?.stop());

const NESTED = `query($id: ID!) {
  customer(customerId: $id) {
    customerId
    accounts {
      accountId
      customers {
        customerId
        accounts { accountId name }
      }
    }
  }
}`;

async function buildGraph(accounts: number): Promise<string> {
  const owner = await createCustomer(service, buildCustomerInput());
  const createShared = async (i: number) => {
    const [second, third] = await Promise.all([
      createCustomer(service, buildCustomerInput()),
      createCustomer(service, buildCustomerInput()),
    ]);
    await createAccount(service, buildAccountInput([owner, second, third], { name: `Account ${i}` }));
    // A second account for one co-owner, so the innermost level has records not loaded before.
    await createAccount(service, buildAccountInput([second], { name: `Own ${i}` }));
  };
  for (let i = 0; i < accounts; i += 10)
    await Promise.all(Array.from({ length: Math.min(10, accounts - i) }, (_, k) => createShared(i + k)));
  return owner;
}

async function statementsFor(owner: string, accounts: number): Promise<number> {
  service.statements.count = 0;
  const result = await graphql(service, NESTED, { id: owner });
  const statements = service.statements.count;
  expect(result.status).toBe(200);
  const customer = result.json.data.customer;
  expect(customer.accounts).toHaveLength(accounts);
  for (const account of customer.accounts) {
    expect(account.customers).toHaveLength(3);
    expect(account.customers[0].accounts).toHaveLength(accounts);
    expect(account.customers[1].accounts).toHaveLength(2);
    expect(account.customers[2].accounts).toHaveLength(1);
  }
  return statements;
}

describe('nested reads are batched per request (look-ahead and DataLoader)', () => {
  it('issues one statement for 50 accounts x 3 customers, and the same for 100', async () => {
    const small = await statementsFor(await buildGraph(50), 50);
    const large = await statementsFor(await buildGraph(100), 100);
    expect(small).toBeGreaterThan(0);
    expect(small).toBe(1);
    expect(large).toBe(small);
  }, 120_000);
});
