import { existsSync } from 'node:fs';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { errorCodes, graphql } from '../graphql/helpers.js';
import { createAccount, expectSuccess } from '../rest/helpers.js';
import { buildCustomerInput } from '../support/factories.js';
import { PGBOUNCER_BINARY, type RunningPgbouncer, startPgbouncer } from '../support/pgbouncer.js';
import { type CallResult, startTestService, type TestService } from '../support/service.js';
import type { TestDatabase } from '../support/database.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/**
 * The service behind a real pgbouncer in transaction mode (Debian 12's 1.18, which cannot keep prepared
 * statements there), with the shipped deploy/pgbouncer/pgbouncer.ini settings. Two server connections
 * serve the service's ten client connections, so consecutive statements of one client connection land on
 * different server connections, as they do under load in production.
 */
const installed = existsSync(PGBOUNCER_BINARY);
const SERVER_CONNECTIONS = 2;

describe.runIf(!installed)('without pgbouncer installed', () => {
  it(`skips the pgbouncer tests: ${PGBOUNCER_BINARY} is missing (apt-get install pgbouncer); CI installs it and must not skip them`, () => {
    expect(process.env.CI, `CI must install pgbouncer (.ci/run); ${PGBOUNCER_BINARY} is missing`).toBeFalsy();
  });
});

describe.skipIf(!installed)('behind pgbouncer in transaction mode', () => {
  const adminUrl = inject('adminDatabaseUrl');
  let bouncer: RunningPgbouncer;
  const services: TestService[] = [];

  beforeAll(async () => {
    bouncer = await startPgbouncer(adminUrl, { default_pool_size: String(SERVER_CONNECTIONS), reserve_pool_size: '0' });
  });
  afterAll(async () => {
    for (const service of services) await service.stop();
    await bouncer?.stop();
  });

  /**
   * The service on a fresh database, reached through pgbouncer; the database carries the session settings
   * the pooler drops from the service's connection start (as an operator sets them on the service role).
   */
  async function serviceThroughPgbouncer(
    env: Record<string, string>,
    {
      sessionSettings = { timezone: 'UTC', statement_timeout: '5s' },
      urlParameters = '',
    }: { sessionSettings?: Record<string, string>; urlParameters?: string } = {},
  ) {
    const service = await startTestService(
      { MIGRATE_ON_START: 'false', DATABASE_POOL_SIZE: '10', EVENT_SEQUENCER_INTERVAL_MS: '20', ...env },
      {
        databaseUrl: async (database: TestDatabase) => {
          for (const [name, value] of Object.entries(sessionSettings))
            await database.pool.query(`ALTER DATABASE ${database.name} SET ${name} = '${value}'`);
          return `${bouncer.urlFor(database.url)}${urlParameters}`;
        },
        // LISTEN goes to the server directly, never through the pooler (where it would receive nothing).
        env: (database: TestDatabase) => ({ DATABASE_LISTEN_URL: database.url }),
      },
    );
    services.push(service);
    return service;
  }

  it('uses the shipped settings: transaction mode, the startup parameters the pg driver sends dropped', () => {
    expect(bouncer.version).toMatch(/^1\./);
    expect(bouncer.settings.pool_mode).toBe('transaction');
    expect(
      bouncer.settings
        .ignore_startup_parameters!.split(',')
        .map((name) => name.trim())
        .sort(),
    ).toEqual(['idle_in_transaction_session_timeout', 'options', 'statement_timeout']);
  });

  it('with named statements off: REST writes and reads, a transfer, an idempotent replay, GraphQL and the event sequencer all work', async () => {
    const statsBefore = await transactionsThroughPgbouncer();
    // Prisma's URL flag too: it means the same, and the pg driver must accept a URL that carries it.
    const service = await serviceThroughPgbouncer(
      { DATABASE_PREPARED_STATEMENTS: 'false' },
      { urlParameters: '?pgbouncer=true' },
    );

    const ready = await service.call('GET', '/readyz');
    expect(ready.status, ready.text).toBe(200);
    expect(ready.json.checks).toMatchObject({ database: 'ok', migrations: 'ok', timeZone: 'ok' });

    const input = buildCustomerInput();
    const created = await service.call('POST', '/sandbox/customer', {
      body: input,
      headers: { 'idempotency-key': 'pgbouncer-enrol-1' },
    });
    expectSuccess(created, 'customer', 201);
    const replayed = await service.call('POST', '/sandbox/customer', {
      body: input,
      headers: { 'idempotency-key': 'pgbouncer-enrol-1' },
    });
    expectSuccess(replayed, 'customer', 201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.json.data.customerId).toBe(created.json.data.customerId);
    const customerId = created.json.data.customerId as string;

    const from = await createAccount(service, [customerId]);
    const to = await createAccount(service, [customerId]);
    expectSuccess(
      await service.call('POST', `/sandbox/account/${from.accountId}/transaction`, {
        body: { type: 'CREDIT', amount: 100 },
      }),
      'account',
      201,
    );
    const transfer = await service.call('POST', '/sandbox/transfer', {
      body: { fromAccountId: from.accountId, toAccountId: to.accountId, amount: 40 },
      headers: { 'idempotency-key': 'pgbouncer-transfer-1' },
    });
    expectSuccess(transfer, 'account', 201);
    expect(transfer.json.data).toMatchObject({ debit: { balanceAfter: 60 }, credit: { balanceAfter: 40 } });

    // Many requests at once: ten client connections take turns on two server connections.
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 4 === 0
          ? service.call('POST', `/sandbox/account/${to.accountId}/transaction`, {
              body: { type: 'CREDIT', amount: 1 },
              headers: { 'idempotency-key': `pgbouncer-credit-${i}` },
            })
          : service.call(
              'GET',
              i % 4 === 1
                ? `/sandbox/customer/${customerId}`
                : `/sandbox/account/${i % 4 === 2 ? from.accountId : to.accountId}`,
            ),
      ),
    );
    expect(burst.map((res) => res.status).filter((status) => status >= 300)).toEqual([]);
    const replayedTransfer = await service.call('POST', '/sandbox/transfer', {
      body: { fromAccountId: from.accountId, toAccountId: to.accountId, amount: 40 },
      headers: { 'idempotency-key': 'pgbouncer-transfer-1' },
    });
    expectSuccess(replayedTransfer, 'account', 201);
    expect(replayedTransfer.headers.get('idempotent-replayed')).toBe('true');
    expect(replayedTransfer.json.data.transferId).toBe(transfer.json.data.transferId);

    const query = await graphql(
      service,
      'query Holdings($id: ID!) { customer(customerId: $id) { customerId accounts { accountId amount } } }',
      { id: customerId },
    );
    expect(errorCodes(query)).toEqual([]);
    expect(query.json.data.customer.accounts).toEqual([
      { accountId: from.accountId, amount: '60' },
      { accountId: to.accountId, amount: '50' },
    ]);

    // The sequencer (a transaction-scoped advisory lock in one statement) numbers every event, in order.
    const events = await numberedEvents(service, 6);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['customer.created', 'account.created', 'transaction.posted']),
    );
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, i) => i + 1));

    // All of it went through pgbouncer, on at most its two server connections.
    expect(await transactionsThroughPgbouncer()).toBeGreaterThan(statsBefore + 50);
    // The sequencer's NOTIFY, sent through the pooler inside its statement, reached the listener on its direct connection.
    const metrics = (await service.call('GET', '/metrics', { validateResponse: false })).text;
    expect(metrics).toMatch(/^db_listener_connected 1$/m);
    expect(
      Number(/^db_listener_notifications_total\{channel="events_numbered"\} (\d+)$/m.exec(metrics)?.[1]),
    ).toBeGreaterThan(0);
    const servers = await bouncer.admin<{ database: string }>(adminUrl, 'SHOW SERVERS');
    expect(servers.filter((server) => server.database === service.database.name).length).toBeLessThanOrEqual(
      SERVER_CONNECTIONS,
    );
    expect(service.logLines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });

  it('not ready while the sessions are not in UTC (the pooler dropped the TimeZone the service asks for), and says why', async () => {
    const service = await serviceThroughPgbouncer(
      { DATABASE_PREPARED_STATEMENTS: 'false' },
      { sessionSettings: { timezone: 'America/New_York' } },
    );
    const ready = await service.call('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json.checks).toMatchObject({ database: 'ok', timeZone: 'failed' });
    expect(
      service.logLines.some((line) => line.includes('TimeZone is not UTC') && line.includes('America/New_York')),
    ).toBe(true);
    expect(service.logLines.some((line) => line.includes('no statement_timeout'))).toBe(true);
  });

  it('with named statements on (the default), requests fail through pgbouncer 1.18: the setting matters', async () => {
    const service = await serviceThroughPgbouncer({ DATABASE_PREPARED_STATEMENTS: 'true' });
    const answers: CallResult[] = [];
    // Each of ten client connections prepares the look-up under the same name on one of two server
    // connections: by the third, a server connection is asked to prepare a name it already has, or a
    // client connection executes a name its current server connection never prepared.
    for (let round = 0; round < 5 && !answers.some((res) => res.status >= 500); round++) {
      answers.push(
        ...(await Promise.all(Array.from({ length: 30 }, () => service.call('GET', `/sandbox/customer/${uuidv7()}`)))),
      );
    }
    const failed = answers.filter((res) => res.status >= 500);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.json.error.code).toBe('INTERNAL_ERROR');
    // PostgreSQL's "prepared statement … already exists" (42P05) or "… does not exist" (26000), as logged.
    const states = new Set(
      service.logLines.map((line) => /"sqlState":"(\w+)"/.exec(line)?.[1]).filter((state) => state !== undefined),
    );
    expect([...states].filter((state) => state !== '42P05' && state !== '26000')).toEqual([]);
    expect(states.size).toBeGreaterThan(0);
  });

  async function transactionsThroughPgbouncer(): Promise<number> {
    const stats = await bouncer.admin<{ database: string; total_xact_count: string }>(adminUrl, 'SHOW STATS');
    return stats
      .filter((row) => row.database.startsWith('cas_test_'))
      .reduce((sum, row) => sum + Number(row.total_xact_count), 0);
  }
});

type Event = { type: string; sequence: number };

/** The environment's events once the sequencer has numbered at least `atLeast` of them (bounded wait). */
async function numberedEvents(service: TestService, atLeast: number): Promise<Event[]> {
  const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
  for (;;) {
    const res = await service.call('GET', '/sandbox/event?limit=100');
    expectSuccess(res, 'customer', 200);
    const events = res.json.data.events as Event[];
    if (events.length >= atLeast || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
