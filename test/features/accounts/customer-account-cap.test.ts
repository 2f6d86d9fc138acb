import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_LIMITS } from '../../../src/features/accounts/account.schemas.js';
import { CUSTOMER_LIMITS } from '../../../src/features/customers/customer.schemas.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { buildAccountInput } from '../../support/factories.js';
import { expectNoChange } from '../../support/database.js';
import { eventually } from '../../support/eventually.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * Issue 28: a customer holds at most CUSTOMER_LIMITS.accounts accounts, an account at most
 * ACCOUNT_LIMITS.associatedCustomers customers, both enforced by the database (the links' trigger,
 * migration 20261203010000_customer_account_cap), so GraphQL's cost analysis can count on them.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const CAP = CUSTOMER_LIMITS.accounts;

/** `count` accounts held by the customer alone, written with SQL (the trigger still checks them): fast set-up. */
async function giveAccounts(customerId: string, count: number): Promise<void> {
  await service.database.pool.query(
    `WITH made AS (
       INSERT INTO accounts (id, environment, type, name, currency)
       SELECT gen_random_uuid(), 'sandbox', 'CHECKING', 'Set-up ' || n, 'USD' FROM generate_series(1, $1::int) n RETURNING id
     )
     INSERT INTO account_customers (account_id, customer_id, environment, position) SELECT made.id, $2::uuid, 'sandbox', 0 FROM made`,
    [count, customerId],
  );
}

async function accountsOf(customerId: string): Promise<number> {
  const { rows } = await service.database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM account_customers WHERE customer_id = $1',
    [customerId],
  );
  return rows[0]!.n;
}

/**
 * Whether a session of this test's database waits for a lock: the service's statement reached the wait the
 * test holds it in (rather than sleeping for a while and hoping it did).
 */
async function aSessionWaitsForALock(): Promise<boolean> {
  const waiting = async () =>
    (
      await service.database.pool.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      )
    ).rowCount ?? 0;
  return (await eventually(waiting, (n) => n > 0)) > 0;
}

const createAccountOverRest = (customerIds: string[]) =>
  service.call('POST', '/sandbox/account', { body: buildAccountInput(customerIds) });

describe('the cap on accounts per customer', () => {
  it('is the number the database enforces: the trigger carries the domain constants', async () => {
    const { rows } = await service.database.pool.query<{ args: string }>(
      "SELECT encode(tgargs, 'escape') AS args FROM pg_trigger WHERE tgname = 'account_customers_limits'",
    );
    expect(rows[0]!.args.split('\\000').filter(Boolean)).toEqual([
      String(CUSTOMER_LIMITS.accounts),
      String(ACCOUNT_LIMITS.associatedCustomers),
    ]);
  });

  it(`refuses the ${CAP + 1}st account over REST and GraphQL with CUSTOMER_ACCOUNT_LIMIT, changing nothing`, async () => {
    const { customerId } = await createCustomer(service);
    const { customerId: other } = await createCustomer(service);
    await giveAccounts(customerId, CAP - 1);
    expectSuccess(await createAccountOverRest([customerId]), 'account', 201); // the 100th
    expect(await accountsOf(customerId)).toBe(CAP);

    const rest = await expectNoChange(service.database.pool, () => createAccountOverRest([other, customerId]));
    expectFailure(rest, 'account', 409, 'CUSTOMER_ACCOUNT_LIMIT');
    expect(rest.json.error.message).toContain(`at most ${CAP} accounts`);
    expect(rest.text).not.toContain(customerId); // the limit is named, never the submitted values

    const mutation = 'mutation($input: CreateAccountInput!) { createAccount(input: $input) { accountId } }';
    const viaGraphql = await expectNoChange(service.database.pool, () =>
      graphql(service, mutation, { input: buildAccountInput([customerId]) }),
    );
    expect(viaGraphql.status).toBe(200);
    expect(errorCodes(viaGraphql)).toEqual(['CUSTOMER_ACCOUNT_LIMIT']);
    expect(viaGraphql.json.errors[0].message).toContain(`at most ${CAP} accounts`);

    // Adding the customer to an account of someone else's is refused the same way, on both surfaces.
    const created = await createAccountOverRest([other]);
    const accountId = created.json.data.accountId as string;
    const added = await expectNoChange(service.database.pool, () =>
      service.call('POST', `/sandbox/account/${accountId}/customer`, { body: { customerId } }),
    );
    expectFailure(added, 'account', 409, 'CUSTOMER_ACCOUNT_LIMIT');
    const addMutation =
      'mutation($a: ID!, $c: ID!) { addAccountCustomer(accountId: $a, customerId: $c) { accountId } }';
    const addedViaGraphql = await expectNoChange(service.database.pool, () =>
      graphql(service, addMutation, { a: accountId, c: customerId }),
    );
    expect(errorCodes(addedViaGraphql)).toEqual(['CUSTOMER_ACCOUNT_LIMIT']);

    // With an idempotency key, the refusal stores nothing either: the corrected request may reuse the key.
    const keyed = await service.call('POST', '/sandbox/account', {
      body: buildAccountInput([customerId]),
      headers: { 'idempotency-key': 'cap-test-key' },
    });
    expectFailure(keyed, 'account', 409, 'CUSTOMER_ACCOUNT_LIMIT');
    const { rows } = await service.database.pool.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [
      'cap-test-key',
    ]);
    expect(rows).toEqual([]);
    expect(await accountsOf(customerId)).toBe(CAP);
  });

  it('is counted after the wait: a link committed while another waited for the customer is seen, and the second refused', async () => {
    const { customerId } = await createCustomer(service);
    await giveAccounts(customerId, CAP - 1);
    // Transaction 1 takes the last place and holds it, uncommitted.
    const first = await service.database.pool.connect();
    try {
      await first.query('BEGIN');
      await first.query(
        `WITH made AS (INSERT INTO accounts (id, environment, type, name, currency) VALUES (gen_random_uuid(), 'sandbox', 'CHECKING', 'Held', 'USD') RETURNING id)
         INSERT INTO account_customers (account_id, customer_id, environment, position) SELECT made.id, $1::uuid, 'sandbox', 0 FROM made`,
        [customerId],
      );
      // The service's creation for the same customer waits (the customer's advisory lock) instead of counting CAP - 1.
      let settled = false;
      const second = createAccountOverRest([customerId]).finally(() => (settled = true));
      expect(await aSessionWaitsForALock()).toBe(true);
      expect(settled).toBe(false);
      await first.query('COMMIT');
      expectFailure(await second, 'account', 409, 'CUSTOMER_ACCOUNT_LIMIT');
    } finally {
      first.release();
    }
    expect(await accountsOf(customerId)).toBe(CAP);
  });

  it('holds under concurrency: 20 creations racing for the last 10 places make exactly 10 accounts', async () => {
    const { customerId } = await createCustomer(service);
    await giveAccounts(customerId, CAP - 10);
    const results = await Promise.all(Array.from({ length: 20 }, () => createAccountOverRest([customerId])));
    expect(results.map((result) => result.status).sort()).toEqual([...Array(10).fill(201), ...Array(10).fill(409)]);
    expect(await accountsOf(customerId)).toBe(CAP);
  });

  it('holds under concurrency when the links come from adding the customer to existing accounts, and never deadlocks', async () => {
    const { customerId } = await createCustomer(service);
    const { customerId: second } = await createCustomer(service);
    await giveAccounts(customerId, CAP - 5);
    await giveAccounts(second, CAP - 5);
    const holders = await Promise.all(Array.from({ length: 12 }, () => createCustomer(service)));
    const accounts = await Promise.all(
      holders.map(
        async ({ customerId: holder }) => (await createAccountOverRest([holder])).json.data.accountId as string,
      ),
    );
    // Both customers onto every account, in opposite orders: the advisory locks are taken in id order.
    const adds = accounts.flatMap((accountId, i) =>
      (i % 2 === 0 ? [customerId, second] : [second, customerId]).map((id) =>
        service.call('POST', `/sandbox/account/${accountId}/customer`, { body: { customerId: id } }),
      ),
    );
    const statuses = (await Promise.all(adds)).map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 409)).toBe(true);
    expect(await accountsOf(customerId)).toBe(CAP);
    expect(await accountsOf(second)).toBe(CAP);
  });
});

describe('the cap on customers per account', () => {
  it('is counted after the wait: the adding statement counted with the snapshot it took before waiting for the account', async () => {
    const holders = await Promise.all(
      Array.from({ length: ACCOUNT_LIMITS.associatedCustomers + 1 }, () => createCustomer(service)),
    );
    const ids = holders.map((holder) => holder.customerId);
    const created = await createAccountOverRest(ids.slice(0, -2));
    const accountId = created.json.data.accountId as string;
    const first = await service.database.pool.connect();
    try {
      // Transaction 1 locks the account as the adding statement does, and adds the 20th customer.
      await first.query('BEGIN');
      await first.query('SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
      await first.query(
        "INSERT INTO account_customers (account_id, customer_id, environment, position) VALUES ($1, $2, 'sandbox', 19)",
        [accountId, ids.at(-2)],
      );
      // The service's addition of a 21st waits for the account; its own count (19) predates the commit, the trigger's does not.
      const second = service.call('POST', `/sandbox/account/${accountId}/customer`, {
        body: { customerId: ids.at(-1) },
      });
      expect(await aSessionWaitsForALock()).toBe(true);
      await first.query('COMMIT');
      expectFailure(await second, 'account', 409, 'ACCOUNT_CUSTOMER_LIMIT');
    } finally {
      first.release();
    }
    const { rows } = await service.database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM account_customers WHERE account_id = $1',
      [accountId],
    );
    expect(rows[0]!.n).toBe(ACCOUNT_LIMITS.associatedCustomers);
  });

  it(`holds under concurrency: 15 customers added at once to an account with ${ACCOUNT_LIMITS.associatedCustomers - 5} make it ${ACCOUNT_LIMITS.associatedCustomers}`, async () => {
    const start = await Promise.all(
      Array.from({ length: ACCOUNT_LIMITS.associatedCustomers - 5 }, () => createCustomer(service)),
    );
    const created = await createAccountOverRest(start.map((customer) => customer.customerId));
    expectSuccess(created, 'account', 201);
    const accountId = created.json.data.accountId as string;
    const joining = await Promise.all(Array.from({ length: 15 }, () => createCustomer(service)));
    const results = await Promise.all(
      joining.map(({ customerId }) =>
        service.call('POST', `/sandbox/account/${accountId}/customer`, { body: { customerId } }),
      ),
    );
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    for (const refused of results.filter((result) => result.status !== 200))
      expectFailure(refused, 'account', 409, 'ACCOUNT_CUSTOMER_LIMIT');
    const { rows } = await service.database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM account_customers WHERE account_id = $1',
      [accountId],
    );
    expect(rows[0]!.n).toBe(ACCOUNT_LIMITS.associatedCustomers);
  });
});
