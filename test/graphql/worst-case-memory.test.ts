import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_LIMITS } from '../../src/features/accounts/account.schemas.js';
import { CUSTOMER_LIMITS } from '../../src/features/customers/customer.schemas.js';
import { spawnService, type SpawnedService } from '../runtime/process-helpers.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { TEST_PII_ENV } from '../support/service.js';

/**
 * Issue 28 end to end: the service runs as its own process (its memory is not the test runner's), on data
 * built with SQL for speed, and answers the worst nested queries with a coded error or a bounded answer while
 * its peak resident set (VmHWM, reset before each query) grows by less than GROWTH_BOUND_MB. Before the limits,
 * the same query over 3,000 accounts of one customer took the process past 4 GB and out of memory
 * (bench/graphql-worst-case.ts, a one-off measurement now in git history).
 */
// Generous on purpose: stopping at the node limit (50,000) still allocates tens of MB for a moment (graphql-js's
// per-field info and paths, V8's young generation growing under the burst); measured 25-56 MB on 2 cores. What
// matters is the order of magnitude: the same query without the limits reached 4.3 GB and died.
const GROWTH_BOUND_MB = 96;
const TOKEN = `worst-case-${randomBytes(32).toString('base64url')}`;
const WORST = 'query($id: ID!) { customer(customerId: $id) { accounts { customers { accounts { accountId } } } } }';

let database: TestDatabase;
/** The defaults. */
let service: SpawnedService;
/** Without the cost limit (GRAPHQL_MAX_COST 10^12): the execution limits alone. */
let uncosted: SpawnedService;
beforeAll(async () => {
  database = await createTestDatabase();
  const env = (extra: Record<string, string> = {}) => ({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: database.url,
    API_TOKENS: TOKEN,
    ENVIRONMENTS: 'sandbox',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: 'false',
    MIGRATE_ON_START: 'false',
    ...TEST_PII_ENV,
    ...extra,
  });
  [service, uncosted] = await Promise.all([
    spawnService(['--import', 'tsx', 'src/main.ts'], env()),
    spawnService(['--import', 'tsx', 'src/main.ts'], env({ GRAPHQL_MAX_COST: '1000000000000' })),
  ]);
}, 120_000);
afterAll(async () => {
  for (const running of [service, uncosted]) running?.child.kill('SIGTERM');
  await Promise.all([service?.exited, uncosted?.exited]);
  await database?.drop();
});

const status = (target: SpawnedService, field: 'VmHWM' | 'VmRSS') =>
  Number(
    new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${target.child.pid}/status`, 'utf8'))![1],
  ) / 1024;

/** Runs the query and measures how far the service's resident set rose above where it was: the peak is reset first. */
async function measured(query: string, variables: Record<string, unknown>, target = service) {
  // "5" resets the peak resident set (proc(5), clear_refs); where it cannot be written, VmHWM still only grows.
  const clearRefs = `/proc/${target.child.pid}/clear_refs`;
  if (existsSync(clearRefs)) writeFileSync(clearRefs, '5');
  const before = status(target, 'VmRSS');
  const response = await fetch(`${target.url}/sandbox/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  const json = JSON.parse(text) as { data?: unknown; errors?: { extensions: { code: string } }[] };
  return {
    status: response.status,
    bytes: Buffer.byteLength(text),
    json,
    codes: (json.errors ?? []).map((error) => error.extensions.code),
    growthMb: status(target, 'VmHWM') - before,
  };
}

/** Customers and accounts straight into the tables (no PII needed to read them back through GraphQL's ids). */
async function insertCustomers(count: number): Promise<string[]> {
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO customers (id, environment, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id, date_of_birth,
                            preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses)
     SELECT gen_random_uuid(), 'sandbox', decode(md5(random()::text), 'hex'), '\\x00', '\\x00', 'test-1', '1980-01-01', 'P', 'F', 'M', 'L', '{}', '[]', '[]'
     FROM generate_series(1, $1::int) RETURNING id`,
    [count],
  );
  return rows.map((row) => row.id);
}

async function insertAccounts(count: number): Promise<string[]> {
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO accounts (id, environment, type, name, currency) SELECT gen_random_uuid(), 'sandbox', 'CHECKING', 'Account ' || n, 'USD'
     FROM generate_series(1, $1::int) n RETURNING id`,
    [count],
  );
  return rows.map((row) => row.id);
}

/** Every customer on every account, positions in the order given. */
async function link(customerIds: string[], accountIds: string[]): Promise<void> {
  await database.pool.query(
    `INSERT INTO account_customers (account_id, customer_id, environment, position)
     SELECT a.id, c.id, 'sandbox', c.ordinality - 1 FROM unnest($1::uuid[]) AS a(id) CROSS JOIN unnest($2::uuid[]) WITH ORDINALITY AS c(id, ordinality)`,
    [accountIds, customerIds],
  );
}

describe('the worst nested queries, answered by a separate service process', () => {
  it('at the caps (each of 20 customers holds the same 100 accounts): the 200,000-id query is refused before it runs', async () => {
    const customers = await insertCustomers(ACCOUNT_LIMITS.associatedCustomers);
    await link(customers, await insertAccounts(CUSTOMER_LIMITS.accounts));
    const worst = await measured(WORST, { id: customers[0] });
    expect(worst.status).toBe(400);
    expect(worst.codes).toEqual(['QUERY_TOO_COMPLEX']);
    expect(worst.growthMb).toBeLessThan(GROWTH_BOUND_MB);
    // The widest query the cost admits over the same data is answered whole, and small.
    const wide = await measured(
      'query($id: ID!) { customer(customerId: $id) { accounts { accountId customers { customerId } } } }',
      { id: customers[0] },
    );
    expect(wide.codes).toEqual([]);
    expect(
      (wide.json.data as { customer: { accounts: { customers: unknown[] }[] } }).customer.accounts.flatMap(
        (account) => account.customers,
      ),
    ).toHaveLength(2000);
    expect(wide.growthMb).toBeLessThan(GROWTH_BOUND_MB);
  }, 60_000);

  it('over data linked before the cap (one customer, 3,000 accounts): refused by cost, or stopped at the node limit', async () => {
    const [customerId] = await insertCustomers(1);
    await database.pool.query('ALTER TABLE account_customers DISABLE TRIGGER account_customers_limits');
    try {
      await link([customerId!], await insertAccounts(3000));
    } finally {
      await database.pool.query('ALTER TABLE account_customers ENABLE TRIGGER account_customers_limits');
    }
    // What the migration did for links made before it, and an operator does after loading links with the trigger off.
    await database.pool.query('SELECT link_bounds_recompute()');
    const worst = await measured(WORST, { id: customerId });
    expect(worst.codes).toEqual(['QUERY_TOO_COMPLEX']);
    expect(worst.growthMb).toBeLessThan(GROWTH_BOUND_MB);
    // Without the cost limit, the 9 million ids are stopped at the node limit: the relation lists are counted
    // before they load, so the 3,000 lists of 3,000 accounts are never all requested.
    const uncostedWorst = await measured(WORST, { id: customerId }, uncosted);
    expect(uncostedWorst.status).toBe(200);
    expect(uncostedWorst.codes).toEqual(['TOO_MANY_NODES']);
    expect(uncostedWorst.json.data).toBeNull();
    expect(uncostedWorst.growthMb).toBeLessThan(GROWTH_BOUND_MB);
    // 20 aliases of the account list cost 20 × 201, but resolve 20 × 6,000 nodes: the node limit (50,000) ends it.
    const aliases = Array.from({ length: 20 }, (_, i) => `a${i}: accounts { accountId }`).join(' ');
    const wide = await measured(`query($id: ID!) { customer(customerId: $id) { ${aliases} } }`, { id: customerId });
    expect(wide.status).toBe(200);
    expect(wide.codes).toEqual(['TOO_MANY_NODES']);
    expect(wide.json.data).toBeNull();
    expect(wide.bytes).toBeLessThan(1024);
    expect(wide.growthMb).toBeLessThan(GROWTH_BOUND_MB);
  }, 60_000);
});
