import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../rest/helpers.js';
import { startTestService, type TestService } from '../support/service.js';
import { errorCodes, graphql } from './helpers.js';
import { ManualClock } from '../support/clock.js';
import { eventually } from '../support/eventually.js';

/**
 * The limits that hold while an operation runs (src/graphql/execution-budget.ts), set small so a readable
 * query crosses each: fields and list items resolved, the answer's size, the execution's deadline. Past one,
 * the answer is that coded error alone, with `data: null`.
 */
let service: TestService;
let slow: TestService;
// The deadline's clock: it moves only when the test advances it, so the deadline passes at the test's word.
const clock = new ManualClock();
beforeAll(async () => {
  [service, slow] = await Promise.all([
    startTestService({ GRAPHQL_MAX_NODES: '100', GRAPHQL_MAX_RESPONSE_BYTES: '2kb' }),
    startTestService({ GRAPHQL_MAX_EXECUTION_MS: '200' }, { clock }),
  ]);
});
afterAll(async () => Promise.all([service?.stop(), slow?.stop()]));

/** A customer holding `count` accounts with 100-character names, written with SQL. */
async function customerWithAccounts(target: TestService, count: number): Promise<string> {
  const { customerId } = await createCustomer(target);
  await target.database.pool.query(
    `WITH made AS (
       INSERT INTO accounts (id, environment, type, name, currency)
       SELECT gen_random_uuid(), 'sandbox', 'CHECKING', rpad('Account ' || n, 100, '.'), 'USD' FROM generate_series(1, $1::int) n RETURNING id
     )
     INSERT INTO account_customers (account_id, customer_id, environment, position) SELECT made.id, $2::uuid, 'sandbox', 0 FROM made`,
    [count, customerId],
  );
  return customerId;
}

const expectOnly = (result: Awaited<ReturnType<typeof graphql>>, code: string, message: RegExp) => {
  expect(result.status).toBe(200);
  expect(errorCodes(result), result.text.slice(0, 500)).toEqual([code]);
  expect(result.json.errors[0].message).toMatch(message);
  expect(result.json.errors[0].extensions.requestId).toBe(result.headers.get('x-request-id'));
  expect(result.json.data).toBeNull();
};

describe('execution limits', () => {
  it('nodes: fields and list items past GRAPHQL_MAX_NODES end the operation with TOO_MANY_NODES', async () => {
    const customerId = await customerWithAccounts(service, 60);
    const query = (fields: string) => `query($id: ID!) { customer(customerId: $id) { accounts { ${fields} } } }`;
    // 1 customer + 1 list + 60 accounts + 60 ids = 122 nodes; the cost (201) is far below GRAPHQL_MAX_COST.
    expectOnly(
      await graphql(service, query('accountId'), { id: customerId }),
      'TOO_MANY_NODES',
      /more than 100 fields and list items.*GRAPHQL_MAX_NODES/,
    );
    // A scalar list counts its items too: 60 ids.
    expectOnly(
      await graphql(
        service,
        'query($id: ID!) { customer(customerId: $id) { accountIds customerId preferredName firstName lastName accountIds2: accountIds } }',
        { id: customerId },
      ),
      'TOO_MANY_NODES',
      /GRAPHQL_MAX_NODES/,
    );
    // 1 + 1 + (1 + 30) + 30 = 63 nodes.
    const smaller = await customerWithAccounts(service, 30);
    const within = await graphql(service, query('accountId'), { id: smaller });
    expect(errorCodes(within)).toEqual([]);
    expect(within.json.data.customer.accounts).toHaveLength(30);
  });

  it('bytes: an answer over GRAPHQL_MAX_RESPONSE_BYTES is RESPONSE_TOO_LARGE', async () => {
    const customerId = await customerWithAccounts(service, 30);
    // 2 + 30 + 30 = 62 nodes, but 30 names of 100 characters: over 2 KiB.
    const result = await graphql(service, 'query($id: ID!) { customer(customerId: $id) { accounts { name } } }', {
      id: customerId,
    });
    expectOnly(result, 'RESPONSE_TOO_LARGE', /larger than 2048 bytes.*GRAPHQL_MAX_RESPONSE_BYTES/);
    expect(Buffer.byteLength(result.text)).toBeLessThan(2048);
    const small = await graphql(service, 'query($id: ID!) { customer(customerId: $id) { customerId } }', {
      id: customerId,
    });
    expect(small.json.data.customer.customerId).toBe(customerId);
  });

  it('deadline: past GRAPHQL_MAX_EXECUTION_MS no further field resolves; OPERATION_TIMEOUT', async () => {
    const customerId = await customerWithAccounts(slow, 3);
    // The accounts' read waits for a lock this test holds until the deadline has passed on the service's clock.
    const blocker = await slow.database.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE');
      const pending = graphql(
        slow,
        'query($id: ID!) { customer(customerId: $id) { customerId accounts { accountId } } }',
        { id: customerId },
      );
      // Once the read waits for the lock the operation has begun, and its deadline is set.
      const waiting = async () =>
        (
          await slow.database.pool.query(
            "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          )
        ).rowCount ?? 0;
      expect(await eventually(waiting, (n) => n > 0)).toBeGreaterThan(0);
      expect(clock.pending()).toEqual([200]);
      // 1 ms short of the deadline its timer is still set; at 200 ms by its clock it fires, whatever the machine's speed.
      clock.advance(199);
      expect(clock.pending()).toEqual([1]);
      clock.advance(1);
      expect(clock.pending()).toEqual([]);
      await blocker.query('ROLLBACK');
      expectOnly(await pending, 'OPERATION_TIMEOUT', /longer than 200 ms.*GRAPHQL_MAX_EXECUTION_MS/);
    } finally {
      blocker.release();
    }
    // The next operation has its own deadline.
    const next = await graphql(slow, 'query($id: ID!) { customer(customerId: $id) { accounts { accountId } } }', {
      id: customerId,
    });
    expect(errorCodes(next)).toEqual([]);
    expect(next.json.data.customer.accounts).toHaveLength(3);
    // Its deadline was cancelled when it answered: nothing is left to fire.
    expect(clock.pending()).toEqual([]);
  });
});
