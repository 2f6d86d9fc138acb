import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnService, type SpawnedService } from '../../runtime/process-helpers.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { eventually } from '../../support/eventually.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { TEST_PII_ENV } from '../../support/service.js';

/**
 * The fault test of the end of day (docs/adr/0102): the service is killed (SIGKILL) in the middle of a day's hold
 * expiry, then started again; the restarted service finishes that day by itself, and no hold is voided twice.
 * A row lock the test holds on one hold stops the step there, so the kill lands mid-step by construction, not by
 * timing.
 */

const HOLDS = 10;
const STOPPED_AT = 5;
const token = `test_${randomBytes(32).toString('base64url')}`;
let database: TestDatabase | undefined;
const children: SpawnedService[] = [];
afterAll(async () => {
  for (const child of children) child.child.kill('SIGKILL');
  await database?.drop();
});

const start = async (env: Record<string, string>) => {
  const running = await spawnService(['--import', 'tsx', 'src/main.ts'], {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: database!.url,
    API_TOKENS: token,
    ENVIRONMENTS: 'sandbox',
    LOG_PRETTY: 'false',
    HOLD_EXPIRY_INTERVAL_MS: '3600000',
    FLAG_EXPIRY_INTERVAL_MS: '3600000',
    END_OF_DAY_LEASE_MS: '1000',
    ...TEST_PII_ENV,
    ...env,
  });
  children.push(running);
  return running;
};

describe('the end of day after a crash', () => {
  it('a service killed mid-step, restarted, finishes the day by itself and voids no hold twice', async () => {
    database = await createTestDatabase();
    const pool = database.pool;
    const first = await start({ END_OF_DAY_INTERVAL_MS: '3600000' });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${first.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return (await response.json()) as { data: Record<string, string> };
    };
    const customerId = (await call('POST', '/sandbox/customer', buildCustomerInput())).data.customerId!;
    const accountId = (await call('POST', '/sandbox/account', buildAccountInput([customerId]))).data.accountId!;
    await call('POST', `/sandbox/account/${accountId}/transaction`, { type: 'CREDIT', amount: HOLDS });
    const now = new Date((await call('GET', '/sandbox/clock')).data.now!);
    const holds: string[] = [];
    for (let i = 0; i < HOLDS; i++) {
      // One second apart: the step voids them in this order.
      const expiresAt = new Date(now.getTime() + 3600_000 + i * 1000).toISOString();
      const hold = await call('POST', `/sandbox/account/${accountId}/transaction`, {
        type: 'DEBIT',
        amount: 1,
        hold: true,
        expiresAt,
      });
      holds.push(hold.data.transactionId!);
    }

    // The test holds the fifth hold's rows: the step voids four, then waits on it.
    const blocker = await pool.connect();
    await blocker.query('BEGIN');
    await blocker.query(
      'SELECT 1 FROM ledger_entries WHERE posting_id = (SELECT posting_id FROM ledger_entries WHERE id = $1) FOR UPDATE',
      [holds[STOPPED_AT - 1]],
    );
    const advance = call('POST', '/sandbox/clock/advance', { days: 2 }).catch(() => 'the service died');
    const expired = () =>
      pool
        .query<{ n: number }>(
          "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'transaction.expire' AND request_id LIKE 'end-of-day:%'",
        )
        .then((result) => result.rows[0]!.n);
    expect(await eventually(expired, (n) => n === STOPPED_AT - 1)).toBe(STOPPED_AT - 1);
    const waiting = () =>
      pool
        .query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        )
        .then((result) => result.rows[0]!.n);
    // The fifth void waits on the test's lock: the kill lands in the middle of the step.
    expect(await eventually(waiting, (n) => n > 0)).toBeGreaterThan(0);
    expect(await expired()).toBe(STOPPED_AT - 1);

    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(await advance).toBe('the service died');
    // The dead service's waiting void may still finish once the lock goes; either way it is the only one for that hold.
    await blocker.query('ROLLBACK');
    blocker.release();
    const interrupted = await pool.query<{ status: string }>(
      'SELECT status FROM end_of_day_runs ORDER BY business_date',
    );
    expect(interrupted.rows.map((row) => row.status)).toContain('RUNNING');

    // Restarted: its end-of-day job finds the unfinished day, waits for the dead one's lease, and finishes it.
    await start({ END_OF_DAY_INTERVAL_MS: '200' });
    const runs = await eventually(
      () =>
        pool
          .query<{ status: string; attempts: number }>(
            'SELECT status, attempts FROM end_of_day_runs ORDER BY business_date',
          )
          .then((result) => result.rows),
      (rows) => rows.length >= 2 && rows.every((row) => row.status === 'COMPLETED'),
    );
    expect(runs.map((run) => run.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(runs.some((run) => run.attempts === 2)).toBe(true);

    const { rows } = await pool.query<{ status: string; expired: number }>(
      `SELECT e.status, (SELECT count(*)::int FROM audit_events a WHERE a.resource_id = e.id AND a.operation = 'transaction.expire') AS expired
       FROM ledger_entries e WHERE e.id = ANY($1::uuid[])`,
      [holds],
    );
    expect(rows).toHaveLength(HOLDS);
    expect(rows.every((row) => row.status === 'VOIDED' && row.expired === 1)).toBe(true);
    const steps = await pool.query<{ records: number }>(
      "SELECT coalesce(sum(records), 0)::int AS records FROM end_of_day_steps WHERE step = 'hold-expiry'",
    );
    expect(steps.rows[0]!.records).toBe(HOLDS);
    expect(await ledgerViolations(pool)).toEqual([]);
  });
});
