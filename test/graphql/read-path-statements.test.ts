import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { createAccount, createCustomer, graphql } from './helpers.js';

/**
 * The SQL statements each nested read of a frontend sends (the pg pool's own count, every statement on every
 * connection, reset just before the request), at default settings: the figures docs/adr/0089 reports. Data: 20
 * households, each two customers with a joint account and one account of the first customer's own. An operation
 * over the cost limit at the caps reads the environment's link bounds first (one statement by primary key).
 */
let service: TestService;
let customerId: string;
let jointId: string;
beforeAll(async () => {
  service = await startTestService();
  const households = [];
  for (let i = 0; i < 20; i += 5) {
    households.push(
      ...(await Promise.all(
        Array.from({ length: 5 }, async () => {
          const [first, second] = await Promise.all([
            createCustomer(service, buildCustomerInput()),
            createCustomer(service, buildCustomerInput()),
          ]);
          const joint = await createAccount(service, buildAccountInput([first, second], { name: 'Joint' }));
          await createAccount(service, buildAccountInput([first], { name: 'Own' }));
          return { first, joint };
        }),
      )),
    );
  }
  customerId = households[0]!.first;
  jointId = households[0]!.joint;
}, 120_000);
afterAll(async () => service?.stop());

async function statementsOf(
  query: string,
  variables: Record<string, unknown>,
): Promise<{ statements: number; data: unknown }> {
  service.statements.count = 0;
  const result = await graphql(service, query, variables);
  const statements = service.statements.count;
  expect(result.json.errors).toBeUndefined();
  return { statements, data: result.json.data };
}

export const CARD_QUERY =
  'query($id: ID!) { customer(customerId: $id) { accounts { accountId customers { customerId accounts { accountId } } } } }';

describe('SQL statements per nested read', () => {
  it('customer { accounts { customers } }: one', async () => {
    const { statements } = await statementsOf(
      'query($id: ID!) { customer(customerId: $id) { customerId accounts { accountId customers { customerId lastName } } } }',
      { id: customerId },
    );
    expect(statements).toBe(1);
  });

  it("the design card's query, answered at default settings: the bounds, and one walk", async () => {
    const { statements, data } = await statementsOf(CARD_QUERY, { id: customerId });
    expect(statements).toBe(2);
    const accounts = (data as { customer: { accounts: { customers: { accounts: unknown[] }[] }[] } }).customer.accounts;
    expect(accounts).toHaveLength(2);
    expect(accounts.flatMap((account) => account.customers)).toHaveLength(3);
  });

  // A page of `customers` is two statements of its own (the typed API: customers, then their links).
  it('customers(first: 20) { accounts { customers } }: the bounds, the page, and one walk below it', async () => {
    const { statements, data } = await statementsOf(
      '{ customers(first: 20) { nodes { customerId accounts { accountId name customers { customerId lastName } } } } }',
      {},
    );
    expect((data as { customers: { nodes: unknown[] } }).customers.nodes).toHaveLength(20);
    expect(statements).toBe(4);
  });

  it('customers(first: 20) { accounts { customers { accounts } } }: the bounds, the page, and one walk below it', async () => {
    const { statements } = await statementsOf(
      '{ customers(first: 20) { nodes { customerId accounts { accountId customers { customerId accounts { accountId name } } } } } }',
      {},
    );
    expect(statements).toBe(4);
  });

  it('account { customers { accounts } }: one (within the limit at the caps)', async () => {
    const { statements } = await statementsOf(
      'query($id: ID!) { account(accountId: $id) { accountId customers { customerId lastName accounts { accountId name } } } }',
      { id: jointId },
    );
    expect(statements).toBe(1);
  });
});
