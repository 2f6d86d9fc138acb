import { execFile } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { migrate } from '../../src/db/migrations/migrations.js';
import { createPool } from '../../src/db/connection/pool.js';
import { createLogger } from '../../src/logging/logger.js';
import { type RunningService, startService } from '../../src/runtime.js';
import { assertNoSensitiveValues, buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { TEST_PII_ENV } from '../support/service.js';
import { freePort } from '../../src/db/postgres/embedded-postgres.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';

/**
 * The database side of compose.yaml's topology, with Debian's PostgreSQL 15 (the version compose runs):
 * a primary on deploy/postgres/postgresql.conf and pg_hba.conf, deploy/postgres/roles.sql applied with psql,
 * a streaming replica made the way start-replica.sh makes it, the migrations as the owner role, and the
 * service as the service role. Skipped where Debian's PostgreSQL 15 is not installed (CI installs it).
 */
const PG_BIN = '/usr/lib/postgresql/15/bin';
const installed = existsSync(path.join(PG_BIN, 'initdb'));
const PASSWORDS = { owner: 'owner-pw-1', app: 'app-pw-1', replication: 'replication-pw-1' };

describe.runIf(!installed)("without Debian's PostgreSQL 15", () => {
  it(`skips the topology test: ${PG_BIN}/initdb is missing (apt-get install postgresql-15); CI installs it and must not skip it`, () => {
    expect(process.env.CI, `CI must install postgresql-15 (.ci/run); ${PG_BIN} is missing`).toBeFalsy();
  });
});

describe.skipIf(!installed)('deploy/postgres: a primary, its streaming replica, the roles', () => {
  const asRoot = process.getuid?.() === 0;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cas-topology-'));
  let primaryPort = 0;
  let replicaPort = 0;
  let service: RunningService | undefined;
  const logLines: string[] = [];

  /** A PostgreSQL tool, as the postgres user when the tests run as root (PostgreSQL refuses root). */
  function tool(name: string, args: string[], env: Record<string, string> = {}): Promise<string> {
    const [command, fullArgs] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(PG_BIN, name), ...args]]
      : [path.join(PG_BIN, name), args];
    return new Promise((resolve, reject) =>
      execFile(
        command,
        fullArgs,
        { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${name} failed: ${stderr || error.message}`)) : resolve(stdout),
      ),
    );
  }
  const url = (role: string, password: string, port: number, database = 'customer_account') =>
    `postgresql://${role}:${password}@127.0.0.1:${port}/${database}`;
  const start = (dataDir: string, port: number) =>
    tool('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      `${dataDir}.log`,
      '-w',
      '-t',
      '60',
      '-o',
      `-c config_file=${work}/postgresql.conf -c hba_file=${work}/pg_hba.conf -c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${work} -c shared_buffers=32MB -c fsync=off`,
      'start',
    ]);

  beforeAll(async () => {
    if (asRoot) {
      const [, uid, gid] = /^postgres:[^:]*:(\d+):(\d+):/m.exec(readFileSync('/etc/passwd', 'utf8'))!;
      chmodSync(work, 0o755);
      chownSync(work, Number(uid), Number(gid));
    }
    for (const file of ['postgresql.conf', 'pg_hba.conf', 'roles.sql'])
      copyFileSync(path.join('deploy/postgres', file), path.join(work, file));
    [primaryPort, replicaPort] = await Promise.all([freePort(), freePort()]);

    await tool('initdb', [
      '-D',
      `${work}/primary`,
      '-U',
      'postgres',
      '--auth-local=peer',
      '--auth-host=scram-sha-256',
      '--encoding=UTF8',
      '--no-sync',
    ]);
    await start(`${work}/primary`, primaryPort);
    // As compose's init-primary.sh runs it: psql over the local socket as the postgres user.
    await tool('psql', [
      '-h',
      work,
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-d',
      'postgres',
      '-q',
      '-v',
      `owner_password=${PASSWORDS.owner}`,
      '-v',
      `app_password=${PASSWORDS.app}`,
      '-v',
      `replication_password=${PASSWORDS.replication}`,
      '-f',
      `${work}/roles.sql`,
    ]);
    // As start-replica.sh makes the replica.
    await tool(
      'pg_basebackup',
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(primaryPort),
        '-U',
        'replicator',
        '-D',
        `${work}/replica`,
        '--wal-method',
        'stream',
        '--write-recovery-conf',
        '--slot',
        'replica_1',
        '--checkpoint',
        'fast',
      ],
      { PGPASSWORD: PASSWORDS.replication },
    );
    chmodSync(`${work}/replica`, 0o700);
    await start(`${work}/replica`, replicaPort);
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    for (const dir of ['replica', 'primary']) {
      if (existsSync(`${work}/${dir}/postmaster.pid`))
        await tool('pg_ctl', ['-D', `${work}/${dir}`, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    }
    rmSync(work, { recursive: true, force: true });
  });

  async function query<R extends pg.QueryResultRow>(connectionString: string, text: string): Promise<R[]> {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return (await client.query<R>(text)).rows;
    } finally {
      await client.end();
    }
  }

  it('the replica streams from the primary through its slot, and is read-only', async () => {
    // pg_stat_replication shows its state to superusers only: psql as postgres over the socket.
    const replication = () =>
      tool('psql', [
        '-h',
        work,
        '-p',
        String(primaryPort),
        '-U',
        'postgres',
        '-d',
        'postgres',
        '-Atc',
        "SELECT state || ' ' || coalesce(s.slot_name, '-') FROM pg_stat_replication r LEFT JOIN pg_replication_slots s ON s.active_pid = r.pid",
      ]);
    const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
    let state = await replication();
    while (!state.startsWith('streaming') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = await replication();
    }
    expect(state.trim()).toBe('streaming replica_1');
    const [recovery] = await query<{ recovery: boolean; timeZone: string }>(
      url('cas_app', PASSWORDS.app, replicaPort),
      'SELECT pg_is_in_recovery() AS recovery, current_setting(\'TimeZone\') AS "timeZone"',
    );
    expect(recovery).toEqual({ recovery: true, timeZone: 'UTC' });
  });

  it('migrations as the owner; the service as its role serves writes and reads, which the replica replays; the role has no DDL and cannot rewrite the audit trail', async () => {
    const ownerPool = createPool({
      connectionString: url('cas_owner', PASSWORDS.owner, primaryPort),
      max: 1,
      connectTimeoutMs: 60_000,
      statementTimeoutMs: 60_000,
    });
    try {
      expect((await migrate(ownerPool)).applied.length).toBeGreaterThan(0);
    } finally {
      await ownerPool.end();
    }

    const token = 'topology_0FftfMke2EQoOnhT_Q7grg9dgHHTv4dlZT9NqiZN6rA';
    const config = loadConfig({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: url('cas_app', PASSWORDS.app, primaryPort),
      MIGRATE_ON_START: 'false',
      API_TOKENS: token,
      LOG_LEVEL: 'info',
      EVENT_SEQUENCER_INTERVAL_MS: '20',
      ...TEST_PII_ENV,
    });
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    });
    service = await startService(config, createLogger({ level: 'info', pretty: false, destination }));
    const call = async (method: string, pathname: string, body?: unknown) => {
      const res = await fetch(`${service!.url}${pathname}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return { status: res.status, json: (await res.json()) as any };
    };

    const ready = await call('GET', '/readyz');
    expect(ready).toEqual({
      status: 200,
      json: {
        status: 'ready',
        checks: { database: 'ok', migrations: 'ok', timeZone: 'ok' },
        database: { role: 'primary' },
      },
    });
    const customer = await call('POST', '/sandbox/customer', buildCustomerInput());
    expect(customer.status).toBe(201);
    const account = await call('POST', '/sandbox/account', buildAccountInput([customer.json.data.customerId]));
    expect(account.status).toBe(201);
    expect(
      (
        await call('POST', `/sandbox/account/${account.json.data.accountId}/transaction`, {
          type: 'CREDIT',
          amount: 25,
        })
      ).status,
    ).toBe(201);

    // The replica replays the commit (bounded wait; asynchronous replication).
    const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
    let replicated: { amount: string }[] = [];
    while (Date.now() < deadline) {
      replicated = await query<{ amount: string }>(
        url('cas_app', PASSWORDS.app, replicaPort),
        `SELECT amount::text AS amount FROM accounts WHERE id = '${account.json.data.accountId}'`,
      );
      if (replicated[0]?.amount === '25.000000') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(replicated).toEqual([{ amount: '25.000000' }]);

    const appUrl = url('cas_app', PASSWORDS.app, primaryPort);
    await expect(query(appUrl, 'CREATE TABLE not_allowed (id int)')).rejects.toThrow(
      /permission denied for schema public/,
    );
    await expect(query(appUrl, "UPDATE audit_events SET operation = 'x'")).rejects.toThrow(/append-only/);
    expect(logLines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
    assertNoSensitiveValues(logLines.join('\n'), 'the log lines of the service on the topology');
  });

  it("/readyz names the database's role: the primary with its replica usable, and a standby behind DATABASE_URL (a failover under way)", async () => {
    const token = 'topology_role_0FftfMke2EQoOnhT_Q7grg9dgHHTv4dlZT9NqiZN6r';
    const readyz = async (env: Record<string, string>) => {
      const config = loadConfig({
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: '0',
        MIGRATE_ON_START: 'false',
        API_TOKENS: token,
        LOG_LEVEL: 'warn',
        ...TEST_PII_ENV,
        ...env,
      });
      const started = await startService(config, createLogger({ level: 'warn', pretty: false }));
      try {
        // The replica's first check runs when the service starts; a later one may be needed to see it caught up.
        const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
        for (;;) {
          const res = await fetch(`${started.url}/readyz`);
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          const body = (await res.json()) as any;
          if (body.database?.replica !== 'down' || Date.now() > deadline) return { status: res.status, body };
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await started.stop();
      }
    };
    const onPrimary = await readyz({
      DATABASE_URL: url('cas_app', PASSWORDS.app, primaryPort),
      DATABASE_REPLICA_URL: url('cas_app', PASSWORDS.app, replicaPort),
      DATABASE_REPLICA_CHECK_INTERVAL_MS: '100',
    });
    expect(onPrimary).toMatchObject({
      status: 200,
      body: { status: 'ready', database: { role: 'primary', replica: 'usable' } },
    });
    const onStandby = await readyz({ DATABASE_URL: url('cas_app', PASSWORDS.app, replicaPort) });
    expect(onStandby).toMatchObject({ status: 200, body: { status: 'ready', database: { role: 'standby' } } });
    expect(onStandby.body.database.replica).toBeUndefined();
  });
});
