import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../src/db/connection/pool.js';
import { createPrismaClient, type PrismaClient } from '../../src/db/connection/prisma-client.js';
import { statement, statementName } from '../../src/db/sql/sql.js';
import { CONFLICT_ATTEMPTS } from '../../src/db/sql/errors.js';
import { createStores } from '../../src/features/stores.js';
import { ACCESS_SCOPES, type Caller } from '../../src/domain/caller.js';
import { createDomainServices, type DomainServices } from '../../src/features/services.js';
import { PiiCipher } from '../../src/pii/pii-cipher.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/**
 * The stores on Prisma Client (src/db/*.store.ts): every write is ONE statement carrying its audit event
 * and idempotency record, prepared under its name; the typed API's statements stay unnamed. Every
 * statement goes through the pool's instrumentation, so the tests see exactly what Prisma sent.
 */
let database: TestDatabase;
let pool: pg.Pool;
let prisma: PrismaClient;
let services: DomainServices;
const sent: { name: string | undefined; text: string }[] = [];
const caller = (): Caller => ({
  environment: 'sandbox',
  principal: { id: 'test', kind: 'static-token', scopes: ACCESS_SCOPES, environments: '*' },
  requestId: `req-${randomUUID()}`,
});

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ connectionString: database.url, max: 4, connectTimeoutMs: 60_000, statementTimeoutMs: 60_000 });
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (config: unknown, ...rest: unknown[]) => {
      const { name, text } =
        typeof config === 'string' ? { name: undefined, text: config } : (config as { name?: string; text: string });
      sent.push({ name: name || undefined, text });
      return query(config, ...rest);
    };
  });
  prisma = createPrismaClient(pool);
  const cipher = new PiiCipher({
    keys: new Map([['k1', randomBytes(32)]]),
    activeKeyId: 'k1',
    blindIndexKey: randomBytes(32),
  });
  services = createDomainServices({ stores: createStores(prisma), protector: cipher });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.end();
  await database?.drop();
});

const count = async (table: string, where = 'true', values: unknown[] = []) =>
  (await database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, values)).rows[0]!
    .n;

/** The names of the statements `work` sent (undefined: unnamed), less the occasional background purge of expired keys. */
async function statementsOf(work: () => Promise<unknown>): Promise<(string | undefined)[]> {
  sent.length = 0;
  await work();
  return sent.map((query) => query.name).filter((name) => name !== 'cas_idempotency_purge');
}

describe('writes through Prisma: one statement each, no interactive transaction', () => {
  it('creates a customer with its audit event in one named statement', async () => {
    let customerId = '';
    const names = await statementsOf(
      async () =>
        ({
          value: { customerId },
        } = await services.customers.create(caller(), buildCustomerInput())),
    );
    expect(names).toEqual(['cas_customer_insert']);
    expect(await count('customers', 'id = $1', [customerId])).toBe(1);
    expect(await count('audit_events', 'resource_id = $1', [customerId])).toBe(1);
  });

  it('with an idempotency key, the key and its result are in the same statement; the lock timeout stays with it', async () => {
    const key = randomUUID();
    let customerId = '';
    const names = await statementsOf(
      async () =>
        ({
          value: { customerId },
        } = await services.customers.create(caller(), buildCustomerInput(), { idempotencyKey: key })),
    );
    expect(names).toEqual(['cas_customer_insert_with_key']);
    const { rows } = await database.pool.query('SELECT result FROM idempotency_keys WHERE key = $1', [key]);
    expect(rows).toEqual([{ result: { customerId } }]);
    // set_config(…, true) in the statement's own transaction: no connection of the pool keeps it.
    for (let i = 0; i < 4; i++) expect(await prisma.$queryRaw`SHOW lock_timeout`).toEqual([{ lock_timeout: '0' }]);
  });

  it('a replay is the write that found the key taken, one read of the key, then one of the customer it names', async () => {
    const key = randomUUID();
    const input = buildCustomerInput();
    await services.customers.create(caller(), input, { idempotencyKey: key });
    const names = await statementsOf(() => services.customers.create(caller(), input, { idempotencyKey: key }));
    // The key keeps the customer's id only (no copy of its personal data): the replay reads the customer.
    expect(names).toEqual(['cas_customer_insert_with_key', undefined, 'cas_customer_find_by_ids']);
    expect(
      await count(
        'customers',
        "ssn_blind_index = (SELECT ssn_blind_index FROM customers c JOIN idempotency_keys k ON k.result->>'customerId' = c.id::text WHERE k.key = $1)",
        [key],
      ),
    ).toBe(1);
  });

  it("reports a duplicate SSN (P2010 wrapping 23505) as CUSTOMER_ALREADY_EXISTS, writing nothing of the statement and only the refusal's audit event after it", async () => {
    const input = buildCustomerInput();
    await services.customers.create(caller(), input);
    const key = randomUUID();
    const audits = await count('audit_events');
    let refusal: unknown;
    const names = await statementsOf(async () => {
      refusal = await services.customers
        .create(caller(), { ...input, firstName: 'Other' }, { idempotencyKey: key })
        .catch((error: unknown) => error);
    });
    expect(refusal).toMatchObject({ code: 'CUSTOMER_ALREADY_EXISTS' });
    expect(names.slice(0, 2)).toEqual(['cas_customer_insert_with_key', 'cas_customer_ssn_refusal']);
    expect(await count('idempotency_keys', 'key = $1', [key])).toBe(0);
    expect(await count('customers', 'first_name = $1', ['Other'])).toBe(0);
    expect(await count('audit_events')).toBe(audits + 1);
    expect(await count('audit_events', "operation = 'customer.create.refused' AND idempotency_key = $1", [key])).toBe(
      1,
    );
    await expect(
      services.customers.create(caller(), buildCustomerInput(), { idempotencyKey: key }),
    ).resolves.toMatchObject({ replayed: false });
  });

  it('creates an account, its links and its audit event in one statement, or nothing when a customer is missing', async () => {
    const { value } = await services.customers.create(caller(), buildCustomerInput());
    const names = await statementsOf(() => services.accounts.create(caller(), buildAccountInput([value.customerId])));
    // The account's first number is written in the same statement (docs/adr/0107).
    expect(names).toEqual(['cas_account_insert_with_number']);
    const missing = randomUUID();
    const accounts = await count('accounts');
    const audits = await count('audit_events');
    await expect(
      services.accounts.create(caller(), buildAccountInput([value.customerId, missing])),
    ).rejects.toMatchObject({
      code: 'CUSTOMER_NOT_FOUND',
      details: [{ field: 'associatedCustomerIds', message: `No customer ${missing} in this environment.` }],
    });
    expect([await count('accounts'), await count('audit_events')]).toEqual([accounts, audits]);
  });

  it('updates and deletes with their audit events in one statement each; a linked customer is refused by the foreign key', async () => {
    const { value: customer } = await services.customers.create(caller(), buildCustomerInput());
    expect(
      await statementsOf(() => services.customers.update(caller(), customer.customerId, { preferredName: 'New' })),
    ).toEqual(['cas_customer_update']);
    const { value: account } = await services.accounts.create(caller(), buildAccountInput([customer.customerId]));
    const audits = await count('audit_events');
    expect(
      await statementsOf(() => services.customers.delete(caller(), customer.customerId).catch(() => undefined)),
    ).toEqual(['cas_customer_delete', 'cas_customer_count_linked_accounts']);
    await expect(services.customers.delete(caller(), customer.customerId)).rejects.toMatchObject({
      code: 'CUSTOMER_HAS_ACCOUNTS',
    });
    expect(await count('audit_events')).toBe(audits);
    expect(await statementsOf(() => services.accounts.delete(caller(), account.accountId))).toEqual([
      'cas_account_delete',
    ]);
    expect(await statementsOf(() => services.customers.delete(caller(), customer.customerId))).toEqual([
      'cas_customer_delete',
    ]);
    expect(
      await count('audit_events', 'resource_id = ANY($1::uuid[])', [[customer.customerId, account.accountId]]),
    ).toBe(5);
  });
});

describe('conflicts', () => {
  it('retries a statement PostgreSQL aborted as a deadlock victim, instead of answering 500', async () => {
    const ids = (
      await Promise.all(
        [1, 2].map(async () => (await services.customers.create(caller(), buildCustomerInput())).value.customerId),
      )
    ).sort();
    const [first, second] = ids as [string, string];
    const blocker = await database.pool.connect();
    try {
      await blocker.query('BEGIN');
      // PostgreSQL's victim is whichever waiter's deadlock_timeout runs out first. The blocker waits second, but
      // on a loaded machine its timer could still fire first; a long timeout for it alone makes the account's
      // statement the victim every time (CI once saw the blocker chosen).
      await blocker.query("SET LOCAL deadlock_timeout = '60s'");
      await blocker.query('SELECT id FROM customers WHERE id = $1 FOR UPDATE', [second]);
      sent.length = 0;
      // The account's statement locks its customers in id order: it holds `first`, then waits for `second`.
      const creation = services.accounts.create(caller(), buildAccountInput([first, second]));
      await expect
        .poll(
          async () =>
            (
              await database.pool.query(
                "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH wanted%'",
              )
            ).rowCount,
          { timeout: HUNG_TEST_DEADLINE_MS, interval: 10 },
        )
        .toBe(1);
      // Now the blocker waits for `first`: a cycle. The statement that waited first detects it and is the victim.
      await blocker.query('SELECT id FROM customers WHERE id = $1 FOR UPDATE', [first]);
      await blocker.query('ROLLBACK');
      const { value: account } = await creation;
      expect(account.customerIds).toEqual([first, second]);
      // Retried at least once. Twice is possible: the retry can take `first` in the instant between the victim's
      // abort and the blocker's grant, and deadlock with the blocker once more (seen on a loaded machine).
      const attempts = sent.filter((query) => query.name === 'cas_account_insert_with_number').length;
      expect(attempts).toBeGreaterThanOrEqual(2);
      expect(attempts).toBeLessThanOrEqual(CONFLICT_ATTEMPTS);
      expect(await count('accounts', 'id = $1', [account.accountId])).toBe(1);
      expect(await count('audit_events', 'resource_id = $1', [account.accountId])).toBe(1);
    } finally {
      // Never hand a connection in an aborted transaction back to the pool: the next test would inherit it.
      blocker.release(true);
    }
  });
});

describe('look-ups by id from concurrent requests', () => {
  it('are coalesced into one statement per environment, each caller getting its own record or null', async () => {
    const stores = createStores(prisma);
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await services.customers.create(caller(), buildCustomerInput())).value.customerId),
    );
    const unknown = randomUUID();
    let found: unknown[] = [];
    const names = await statementsOf(async () => {
      found = await Promise.all([
        ...ids.map((id) => stores.customers.findById('sandbox', id)),
        stores.customers.findById('sandbox', ids[0]!.toUpperCase()),
        stores.customers.findById('sandbox', unknown),
        stores.customers.findById('production-like', ids[1]!),
      ]);
    });
    expect(names).toEqual(['cas_customer_find_by_ids', 'cas_customer_find_by_ids']);
    expect(found.map((customer) => (customer as { customerId: string } | null)?.customerId ?? null)).toEqual([
      ...ids,
      ids[0],
      null,
      null,
    ]);
  });

  it('leave a lone look-up alone: one statement, no waiting for company', async () => {
    const { value } = await services.customers.create(caller(), buildCustomerInput());
    const names = await statementsOf(() => createStores(prisma).customers.findById('sandbox', value.customerId));
    expect(names).toEqual(['cas_customer_find_by_ids']);
  });

  it('read afresh every time: a write acknowledged before the read is seen', async () => {
    const stores = createStores(prisma);
    const { value } = await services.customers.create(caller(), buildCustomerInput());
    expect((await stores.customers.findById('sandbox', value.customerId))?.preferredName).not.toBe('Fresh');
    await services.customers.update(caller(), value.customerId, { preferredName: 'Fresh' });
    expect((await stores.customers.findById('sandbox', value.customerId))?.preferredName).toBe('Fresh');
  });
});

describe('link walks from concurrent requests', () => {
  it('share one statement, and each caller gets exactly what its own roots reach', async () => {
    const stores = createStores(prisma);
    const households = await Promise.all(
      [1, 2].map(async () => {
        const ids = await Promise.all(
          [1, 2].map(async () => (await services.customers.create(caller(), buildCustomerInput())).value.customerId),
        );
        const { value: account } = await services.accounts.create(caller(), buildAccountInput(ids));
        return { customerIds: ids, accountId: account.accountId };
      }),
    );
    let walks: { customers: { customerId: string }[]; accounts: { accountId: string }[] }[] = [];
    const names = await statementsOf(async () => {
      walks = await Promise.all([
        stores.links.findLinkedRecords('sandbox', { customerIds: [households[0]!.customerIds[0]!], accountIds: [] }, 2),
        stores.links.findLinkedRecords('sandbox', { customerIds: [], accountIds: [households[1]!.accountId] }, 1),
        stores.links.findLinkedRecords('sandbox', { customerIds: [households[1]!.customerIds[0]!], accountIds: [] }, 2),
        stores.links.findLinkedRecords(
          'production-like',
          { customerIds: [households[0]!.customerIds[0]!], accountIds: [] },
          2,
        ),
      ]);
    });
    // One statement per (environment, depth): sandbox at depth 2, sandbox at depth 1, production-like at depth 2.
    expect(names).toEqual(['cas_links_records', 'cas_links_records', 'cas_links_records']);
    const ids = (walk: (typeof walks)[number]) =>
      [...walk.customers.map((c) => c.customerId), ...walk.accounts.map((a) => a.accountId)].sort();
    expect(ids(walks[0]!)).toEqual([...households[0]!.customerIds, households[0]!.accountId].sort());
    expect(ids(walks[1]!)).toEqual([...households[1]!.customerIds, households[1]!.accountId].sort());
    expect(ids(walks[2]!)).toEqual([...households[1]!.customerIds, households[1]!.accountId].sort());
    expect(ids(walks[3]!)).toEqual([]);
  });
});

describe('statement names', () => {
  it('names exactly the declared raw statements: the typed API and ad-hoc raw SQL stay unnamed, so names are bounded', async () => {
    await services.customers.create(caller(), buildCustomerInput());
    const names = await statementsOf(async () => {
      await services.customers.find(caller(), {}, { first: 5 });
      await services.audit.find(caller(), { resourceId: randomUUID() }, { first: 5 });
      await prisma.$queryRawUnsafe(`SELECT ${Math.random()}::text AS varying`);
    });
    expect(names.length).toBeGreaterThanOrEqual(4);
    expect(names.every((name) => name === undefined)).toBe(true);
    expect(statementName(sent.at(-1)!.text)).toBeUndefined();
  });

  it('refuses a second statement under one name, or one text under two names', () => {
    statement('test_unique_name', 'SELECT 1 AS test_unique_name');
    expect(() => statement('test_unique_name', 'SELECT 2')).toThrow(/used twice/);
    expect(() => statement('test_other_name', 'SELECT 1 AS test_unique_name')).toThrow(/same text/);
  });

  it('sends no name at all when named statements are switched off (poolers in transaction mode)', async () => {
    const unnamed = createPrismaClient(pool, { namedStatements: false });
    try {
      const { value } = await createDomainServices({
        stores: createStores(unnamed),
        protector: new PiiCipher({
          keys: new Map([['k1', randomBytes(32)]]),
          activeKeyId: 'k1',
          blindIndexKey: randomBytes(32),
        }),
      }).customers.create(caller(), buildCustomerInput());
      const names = await statementsOf(() => createStores(unnamed).customers.findById('sandbox', value.customerId));
      expect(names).toEqual([undefined]);
    } finally {
      await unnamed.$disconnect();
    }
  });
});

describe('types across Prisma', () => {
  it('pins the session time zone to UTC, so a Date sent without offset is the same instant', async () => {
    expect(await prisma.$queryRaw`SHOW TimeZone`).toEqual([{ TimeZone: 'UTC' }]);
    const instant = new Date('2026-03-08T09:30:00.123Z');
    const [row] = await prisma.$queryRaw<{ at: Date }[]>`SELECT ${instant}::timestamptz AS at`;
    expect(row!.at.toISOString()).toBe(instant.toISOString());
  });

  it('keeps dates as calendar dates and amounts as exact decimals on every read path', async () => {
    const { value } = await services.customers.create(caller(), buildCustomerInput({ dateOfBirth: '1969-12-31' }));
    expect((await services.customers.get(caller(), value.customerId)).dateOfBirth).toBe('1969-12-31');
    expect(
      (await services.customers.find(caller(), {}, { first: 100 })).items.find((c) => c.customerId === value.customerId)
        ?.dateOfBirth,
    ).toBe('1969-12-31');
    const { value: account } = await services.accounts.create(caller(), buildAccountInput([value.customerId]));
    await database.pool.query("UPDATE accounts SET amount = '123456789012345678.000001' WHERE id = $1", [
      account.accountId,
    ]);
    expect((await services.accounts.get(caller(), account.accountId)).amount).toBe('123456789012345678.000001');
    expect(
      (await services.accounts.find(caller(), {}, { first: 100 })).items.find((a) => a.accountId === account.accountId)
        ?.amount,
    ).toBe('123456789012345678.000001');
  });
});
