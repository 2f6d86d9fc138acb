import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { createPool } from '../../src/db/pool.js';
import { combineWrites, statement } from '../../src/db/sql.js';
import { ACCESS_SCOPES, type RequestScope } from '../../src/domain/scope.js';
import { createDomainServices, type DomainServices } from '../../src/domain/services.js';
import { PiiCipher } from '../../src/pii/pii-cipher.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { buildCustomerInput } from '../support/factories.js';

/**
 * The Database port on pg (src/db/database.ts): transactions pipelined on one connection, writes nobody
 * reads back deferred and sent as one statement, a deadline per transaction. Every statement goes
 * through the pool's instrumentation, so the tests can see what was sent.
 */
let database: TestDatabase;
let pool: pg.Pool;
let services: DomainServices;
const sent: string[] = [];
const scope = (): RequestScope => ({
  environment: 'sandbox',
  principal: { id: 'test', kind: 'static-token', scopes: ACCESS_SCOPES, environments: '*' },
  requestId: `req-${randomUUID()}`,
});

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.url, max: 4, connectTimeoutMs: 5000, statementTimeoutMs: 10_000 });
  // Records the text of every statement, in the order the connections were given them.
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (config: unknown, ...rest: unknown[]) => {
      sent.push(typeof config === 'string' ? config : ((config as { name?: string; text: string }).name ?? (config as { text: string }).text));
      return query(config, ...rest);
    };
  });
  const cipher = new PiiCipher({ keys: new Map([['k1', randomBytes(32)]]), activeKeyId: 'k1', blindIndexKey: randomBytes(32) });
  services = createDomainServices({ db: createDatabase(pool, { timeoutMs: 10_000 }), protector: cipher });
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

const count = async (table: string, where = 'true', values: unknown[] = []) =>
  (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, values)).rows[0]!.n;

describe('transactions on pg', () => {
  it('sends a creation as BEGIN, one statement for the customer and its audit event, COMMIT', async () => {
    sent.length = 0;
    const { customerId } = await services.customers.create(scope(), buildCustomerInput());
    expect(sent).toEqual(['BEGIN ISOLATION LEVEL READ COMMITTED', expect.stringMatching(/^cas_writes_\d+$/), 'COMMIT']);
    expect(await count('customers', 'id = $1', [customerId])).toBe(1);
    expect(await count('audit_events', 'resource_id = $1', [customerId])).toBe(1);
  });

  it('with an idempotency key: BEGIN, the claim (lock timeout included), the writes with the stored result, COMMIT', async () => {
    sent.length = 0;
    const key = randomUUID();
    const { customerId } = await services.customers.create(scope(), buildCustomerInput(), { idempotencyKey: key });
    expect(sent).toEqual(['BEGIN ISOLATION LEVEL READ COMMITTED', 'cas_idempotency_claim', expect.stringMatching(/^cas_writes_\d+$/), 'COMMIT']);
    const { rows } = await pool.query('SELECT result FROM idempotency_keys WHERE key = $1', [key]);
    expect(rows).toEqual([{ result: { customerId } }]);
    // The claim's lock_timeout was for that statement only.
    const client = await pool.connect();
    try {
      expect((await client.query('SHOW lock_timeout')).rows[0].lock_timeout).toBe('0');
    } finally {
      client.release();
    }
  });

  it('reports a deferred write that fails (duplicate SSN) as the domain error, and commits nothing of the transaction', async () => {
    const input = buildCustomerInput();
    await services.customers.create(scope(), input);
    const key = randomUUID();
    const audits = await count('audit_events');
    await expect(services.customers.create(scope(), { ...input, firstName: 'Other' }, { idempotencyKey: key })).rejects.toMatchObject({
      code: 'CUSTOMER_ALREADY_EXISTS',
    });
    expect(await count('idempotency_keys', 'key = $1', [key])).toBe(0);
    expect(await count('audit_events')).toBe(audits);
    // The connection went back to the pool clean: the next transaction on it works.
    await expect(services.customers.create(scope(), buildCustomerInput(), { idempotencyKey: key })).resolves.toHaveProperty('customerId');
  });

  it('refuses statements after the transaction deadline and rolls back what was written', async () => {
    const db = createDatabase(pool, { timeoutMs: 50 });
    const id = randomUUID();
    const attempt = db.transaction(async (stores) => {
      await stores.customers.lockForLinking('sandbox', [id]);
      await stores.audit.append({
        eventId: randomUUID(),
        principalId: 'test',
        environment: 'sandbox',
        operation: 'customer.update',
        resourceType: 'customer',
        resourceId: id,
        requestId: 'late',
        idempotencyKey: null,
        changedFields: [],
      });
      await sleep(100);
      return 'done';
    });
    await expect(attempt).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await count('audit_events', 'resource_id = $1', [id])).toBe(0);
  });
});

describe('combineWrites', () => {
  it('renumbers each write\'s parameters after the previous ones\' and keeps one statement per sequence', () => {
    const first = statement('test_combine_first', 'INSERT INTO t (a, b) VALUES ($1, $2)');
    const second = statement('test_combine_second', 'UPDATE u SET c = $2 WHERE d = $1');
    const combined = combineWrites([
      { statement: first, values: [1, 2] },
      { statement: second, values: [3, 4] },
    ]);
    expect(combined.statement.text).toBe('WITH w0 AS (INSERT INTO t (a, b) VALUES ($1, $2)), w1 AS (UPDATE u SET c = $4 WHERE d = $3) SELECT 1');
    expect(combined.values).toEqual([1, 2, 3, 4]);
    expect(combineWrites([{ statement: first, values: [5, 6] }, { statement: second, values: [7, 8] }]).statement).toBe(combined.statement);
    expect(() => combineWrites([{ statement: first, values: [1] }, { statement: second, values: [3, 4] }])).toThrow(/takes 2 parameters/);
  });
});
