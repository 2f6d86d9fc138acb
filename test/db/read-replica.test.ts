import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lsnToText, parseConsistencyToken } from '../../src/db/replica/consistency-token.js';
import { CUSTOMER_FIELDS, graphql } from '../graphql/helpers.js';
import { createCustomer } from '../rest/helpers.js';
import { buildCustomerInput } from '../support/factories.js';
import { metricSample } from '../support/metrics.js';
import { type CallResult, startTestService, type TestService } from '../support/service.js';
import { type ReplicatedPostgres, startReplicatedPostgres } from '../support/streaming-replica.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/**
 * Read replicas over real streaming replication (docs/adr/0040-read-replicas.md): a primary and a standby
 * made from its data directory (test/support/streaming-replica.ts), the service on both.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value of one sample line; 0 when absent (a counter not incremented yet). */
const sample = (exposition: string, name: string, labels: Record<string, string> = {}): number =>
  metricSample(exposition, name, labels) ?? 0;

/** Where the service routed lag-tolerant reads so far, as `target/reason` → requests. */
async function routing(service: TestService): Promise<(target: string, reason: string) => number> {
  const text = (await service.call('GET', '/metrics', { validateResponse: false })).text;
  return (target, reason) => sample(text, 'db_replica_reads_total', { target, reason });
}

/** Runs `action` and answers how many requests it added to each target/reason of db_replica_reads_total. */
async function routedBy(service: TestService, action: () => Promise<void>): Promise<Record<string, number>> {
  const reasons = [
    'no_token',
    'token_replayed',
    'token_wait_timeout',
    'token_unreadable',
    'replica_down',
    'replica_lagging',
    'replica_failed',
    'absent_on_replica',
  ];
  const before = await routing(service);
  await action();
  const after = await routing(service);
  const delta: Record<string, number> = {};
  for (const target of ['replica', 'primary']) {
    for (const reason of reasons) {
      const added = after(target, reason) - before(target, reason);
      if (added !== 0) delta[`${target}/${reason}`] = added;
    }
  }
  return delta;
}

async function metric(service: TestService, name: string): Promise<number> {
  return sample((await service.call('GET', '/metrics', { validateResponse: false })).text, name);
}

/** Polls until `condition` holds (a state change the service makes on its own clock), failing after `timeoutMs`. */
async function eventually(
  what: string,
  condition: () => Promise<boolean>,
  timeoutMs = HUNG_TEST_DEADLINE_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(50);
  }
}

const tokenOf = (result: CallResult): string => {
  const token = result.headers.get('consistency-token');
  expect(token).toMatch(/^v1\.[0-9a-f]{16}$/);
  return token!;
};
/** The WAL position a token names, as pg_lsn text (the test may look inside; clients may not). */
const positionOf = (token: string): string => lsnToText(parseConsistencyToken(token)!);

describe('read replica (DATABASE_REPLICA_URL) over streaming replication', () => {
  let cluster: ReplicatedPostgres;
  let service: TestService;

  beforeAll(async () => {
    cluster = await startReplicatedPostgres();
    const appPool = new pg.Pool({ connectionString: cluster.primaryUrl, max: 2 });
    appPool.on('error', () => undefined);
    service = await startTestService(
      {
        DATABASE_REPLICA_URL: cluster.replicaUrl,
        // The tests wait for replay themselves before a read that must find it replayed: one poll is enough.
        DATABASE_REPLICA_MAX_WAIT_MS: '400',
        DATABASE_REPLICA_CHECK_INTERVAL_MS: '100',
      },
      { database: { url: cluster.primaryUrl, name: 'cas', pool: appPool, drop: () => appPool.end() } },
    );
  });

  afterAll(async () => {
    await service?.stop();
    await cluster?.stop();
  });

  const getCustomer = (customerId: string, token?: string) =>
    service.call(
      'GET',
      `/sandbox/customer/${customerId}`,
      token === undefined ? {} : { headers: { 'consistency-token': token } },
    );

  it("serves plain reads from the replica (stale while its replay is paused) and a read with the write's token fresh, from the primary until the replica has replayed it", async () => {
    const created = await service.call('POST', '/sandbox/customer', {
      body: buildCustomerInput({ preferredName: 'Before' }),
    });
    expect(created.status).toBe(201);
    const customerId = created.json.data.customerId as string;
    await cluster.waitForReplay(positionOf(tokenOf(created)));

    await cluster.pauseReplay();
    let updateToken = '';
    try {
      const updated = await service.call('PUT', `/sandbox/customer/${customerId}`, {
        body: { preferredName: 'After' },
      });
      expect(updated.status).toBe(200);
      updateToken = tokenOf(updated);
      const { rows } = await cluster.replicaAdmin.query<{ behind: boolean }>(
        'SELECT pg_last_wal_replay_lsn() < $1::pg_lsn AS behind',
        [positionOf(updateToken)],
      );
      expect(rows[0]!.behind).toBe(true);

      // Only the replica can answer the old name: the primary has the new one.
      expect(
        await routedBy(service, async () => {
          expect((await getCustomer(customerId)).json.data.preferredName).toBe('Before');
        }),
      ).toEqual({ 'replica/no_token': 1 });
      // The token's position is not replayed: after the bounded wait, the primary answers.
      expect(
        await routedBy(service, async () => {
          expect((await getCustomer(customerId, updateToken)).json.data.preferredName).toBe('After');
        }),
      ).toEqual({ 'primary/token_wait_timeout': 1 });
    } finally {
      await cluster.resumeReplay();
    }

    await cluster.waitForReplay(positionOf(updateToken));
    expect(
      await routedBy(service, async () => {
        expect((await getCustomer(customerId, updateToken)).json.data.preferredName).toBe('After');
        expect((await getCustomer(customerId)).json.data.preferredName).toBe('After');
      }),
    ).toEqual({ 'replica/token_replayed': 1, 'replica/no_token': 1 });
  });

  it('asks the primary for what the replica does not have yet: a new record is never a 404, a list may lag', async () => {
    await cluster.pauseReplay();
    try {
      const { customerId } = await createCustomer(service, { preferredName: 'Brand-new' });
      expect(
        await routedBy(service, async () => {
          const read = await getCustomer(customerId);
          expect(read.status).toBe(200);
          expect(read.json.data.preferredName).toBe('Brand-new');
        }),
      ).toEqual({ 'replica/no_token': 1, 'primary/absent_on_replica': 1 });
      expect(
        await routedBy(service, async () => {
          const query = await graphql(
            service,
            'query Read($id: ID!) { customer(customerId: $id) { preferredName accounts { accountId } } }',
            { id: customerId },
          );
          expect(query.json.data.customer.preferredName).toBe('Brand-new');
        }),
      ).toEqual({ 'replica/no_token': 1, 'primary/absent_on_replica': 1 });
      expect(
        await routedBy(service, async () => {
          expect((await getCustomer('0193a5c2-7f40-7aa0-b1c2-d3e4f5a6b7c8')).status).toBe(404);
        }),
      ).toEqual({ 'replica/no_token': 1, 'primary/absent_on_replica': 1 });
      // A list is answered by the replica as it stands: a correct list from a moment ago.
      expect(
        await routedBy(service, async () => {
          expect((await service.call('GET', '/sandbox/audit-events?first=5')).status).toBe(200);
        }),
      ).toEqual({ 'replica/no_token': 1 });
    } finally {
      await cluster.resumeReplay();
    }
  });

  it('gives a GraphQL mutation the token in its header and extensions, and serves a query presenting it fresh', async () => {
    const { customerId } = await createCustomer(service, { preferredName: 'Gql-before' });
    const rename = `mutation Rename($id: ID!) { updateCustomer(customerId: $id, input: { preferredName: "Gql-after" }) { preferredName } }`;
    const read = `query Read($id: ID!) { customer(customerId: $id) { ${CUSTOMER_FIELDS} } }`;
    const { rows } = await cluster.primaryAdmin.query<{ lsn: string }>(
      'SELECT pg_current_wal_insert_lsn()::text AS lsn',
    );
    await cluster.waitForReplay(rows[0]!.lsn);

    await cluster.pauseReplay();
    let token = '';
    try {
      const mutation = await graphql(service, rename, { id: customerId });
      expect(mutation.json.errors).toBeUndefined();
      token = tokenOf(mutation);
      expect(mutation.json.extensions.consistencyToken).toBe(token);

      expect(
        await routedBy(service, async () => {
          const stale = await graphql(service, read, { id: customerId });
          expect(stale.json.data.customer.preferredName).toBe('Gql-before');
          expect(stale.headers.get('consistency-token')).toBeNull();
          expect(stale.json.extensions?.consistencyToken).toBeUndefined();
        }),
      ).toEqual({ 'replica/no_token': 1 });
      expect(
        await routedBy(service, async () => {
          const fresh = await graphql(service, read, { id: customerId }, { headers: { 'consistency-token': token } });
          expect(fresh.json.data.customer.preferredName).toBe('Gql-after');
        }),
      ).toEqual({ 'primary/token_wait_timeout': 1 });
    } finally {
      await cluster.resumeReplay();
    }
    await cluster.waitForReplay(positionOf(token));
    expect(
      await routedBy(service, async () => {
        const fresh = await graphql(service, read, { id: customerId }, { headers: { 'consistency-token': token } });
        expect(fresh.json.data.customer.preferredName).toBe('Gql-after');
      }),
    ).toEqual({ 'replica/token_replayed': 1 });
  });

  it('keeps every read of a write request, and idempotency-key replays, on the primary', async () => {
    const input = buildCustomerInput();
    const key = { 'idempotency-key': `replica-replay-${Date.now()}` };
    await cluster.pauseReplay();
    try {
      const first = await service.call('POST', '/sandbox/customer', { body: input, headers: key });
      expect(first.status).toBe(201);
      // The replica has not replayed the creation: a replay served from it would not find the key's record.
      expect(
        await routedBy(service, async () => {
          const replay = await service.call('POST', '/sandbox/customer', { body: input, headers: key });
          expect(replay.status).toBe(201);
          expect(replay.headers.get('idempotent-replayed')).toBe('true');
          expect(replay.json.data.customerId).toBe(first.json.data.customerId);
          tokenOf(replay);
        }),
      ).toEqual({});
    } finally {
      await cluster.resumeReplay();
    }
  });

  it('reads an unreadable token as "ask the primary"', async () => {
    const { customerId } = await createCustomer(service);
    for (const token of ['garbage', 'v1.xyz', 'v2.0000000000000001', 'v1.ffffffffffffffff']) {
      expect(
        await routedBy(service, async () => {
          expect((await getCustomer(customerId, token)).status).toBe(200);
        }),
      ).toEqual({ 'primary/token_unreadable': 1 });
    }
  });

  it('issues a token at or past the commit record of the write (pg_walinspect), which a position read inside the write statement is not', async () => {
    await cluster.primaryAdmin.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
    const commitEnd = async (from: string, xid: string) => {
      const { rows } = await cluster.primaryAdmin.query<{ end_lsn: string }>(
        `SELECT end_lsn::text FROM pg_get_wal_records_info($1::pg_lsn, pg_current_wal_flush_lsn())
         WHERE resource_manager = 'Transaction' AND record_type LIKE 'COMMIT%' AND xid = $2::xid`,
        [from, xid],
      );
      expect(rows).toHaveLength(1);
      return rows[0]!.end_lsn;
    };
    const compare = async (a: string, b: string) =>
      (
        await cluster.primaryAdmin.query<{ order: number }>('SELECT sign($1::pg_lsn - $2::pg_lsn)::int AS order', [
          a,
          b,
        ])
      ).rows[0]!.order;

    for (let i = 0; i < 5; i++) {
      const start = (
        await cluster.primaryAdmin.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')
      ).rows[0]!.lsn;
      const created = await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() });
      const { rows } = await cluster.primaryAdmin.query<{ xid: string }>(
        'SELECT xmin::text AS xid FROM customers WHERE id = $1',
        [created.json.data.customerId],
      );
      expect(await compare(positionOf(tokenOf(created)), await commitEnd(start, rows[0]!.xid))).toBeGreaterThanOrEqual(
        0,
      );
    }

    // The tempting alternative: the position read by the write's own statement precedes its commit record.
    await cluster.primaryAdmin.query('CREATE TABLE IF NOT EXISTS lsn_probe (x int)');
    const start = (await cluster.primaryAdmin.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn'))
      .rows[0]!.lsn;
    const probe = await cluster.primaryAdmin.query<{ inside: string; xid: string }>(
      'INSERT INTO lsn_probe VALUES (1) RETURNING pg_current_wal_insert_lsn()::text AS inside, pg_current_xact_id()::text AS xid',
    );
    expect(await compare(probe.rows[0]!.inside, await commitEnd(start, probe.rows[0]!.xid))).toBe(-1);
  });

  it("costs a write one more statement, after its commit: the token's position", async () => {
    service.statements.count = 0;
    service.statements.names.length = 0;
    const created = await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() });
    tokenOf(created);
    expect(service.statements.count).toBe(2);
    expect(service.statements.names).toContain('cas_replica_commit_position');
  });

  it('never sends a write to the replica', async () => {
    const statements = cluster.replicaStatements();
    // The replica did serve the service's reads (and its health checks)...
    expect(statements.some((line) => /\bFROM customers\b/i.test(line))).toBe(true);
    expect(statements.some((line) => line.includes('pg_last_wal_replay_lsn'))).toBe(true);
    // ...and was never asked to change anything (a write would be logged before the standby refused it).
    expect(
      statements.filter((line) => /\b(INSERT|UPDATE|DELETE|MERGE)\b/i.test(line) && !/\bSELECT pg_create/.test(line)),
    ).toEqual([]);
  });

  it('answers every read from the primary while the replica is stopped, says so in /metrics, and uses the replica again once it is back', async () => {
    const { customerId } = await createCustomer(service, { preferredName: 'Outage' });
    await cluster.stopReplica();
    try {
      for (let i = 0; i < 5; i++) {
        const read = await getCustomer(customerId);
        expect(read.status).toBe(200);
        expect(read.json.data.preferredName).toBe('Outage');
      }
      const query = await graphql(service, 'query Read($id: ID!) { customer(customerId: $id) { preferredName } }', {
        id: customerId,
      });
      expect(query.json.data.customer.preferredName).toBe('Outage');
      await eventually('db_replica_up 0', async () => (await metric(service, 'db_replica_up')) === 0);
      const delta = await routedBy(service, async () => {
        expect((await getCustomer(customerId)).status).toBe(200);
      });
      expect(delta).toEqual({ 'primary/replica_down': 1 });
      // Writes never needed it.
      expect(
        (await service.call('PUT', `/sandbox/customer/${customerId}`, { body: { preferredName: 'During' } })).status,
      ).toBe(200);
    } finally {
      await cluster.startReplica();
    }
    await eventually('db_replica_up 1', async () => (await metric(service, 'db_replica_up')) === 1);
    expect(
      await routedBy(service, async () => {
        expect((await getCustomer(customerId)).status).toBe(200);
      }),
    ).toEqual({ 'replica/no_token': 1 });
    expect(await metric(service, 'db_replica_lag_bytes')).toBeGreaterThanOrEqual(0);
  });
});

describe('consistency tokens cost', () => {
  let plain: TestService;
  beforeAll(async () => {
    plain = await startTestService();
  });
  afterAll(async () => {
    await plain?.stop();
  });

  it('without DATABASE_REPLICA_URL: no token, and a write runs exactly its own statement', async () => {
    await createCustomer(plain);
    plain.statements.count = 0;
    plain.statements.names.length = 0;
    const created = await plain.call('POST', '/sandbox/customer', { body: buildCustomerInput() });
    expect(created.status).toBe(201);
    expect(created.headers.get('consistency-token')).toBeNull();
    expect(plain.statements.count).toBe(1);
    const read = await plain.call('GET', `/sandbox/customer/${created.json.data.customerId}`, {
      headers: { 'consistency-token': 'v1.ffffffffffffffff' },
    });
    expect(read.status).toBe(200);
  });
});
