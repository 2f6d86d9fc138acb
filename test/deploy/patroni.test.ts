import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { fleetHaproxyConfig } from '../../scripts/fleet/lib/daemons.js';
import { patroniConfig } from '../../scripts/fleet/lib/patroni.js';

/**
 * deploy/patroni: the member file every Patroni of the fleet runs on, and HAProxy's PostgreSQL listens routed
 * by Patroni's checks. What a failover does with them is proved by scripts/reliability/patroni.ts (root, Debian's
 * patroni and etcd-server); here, what the files say, and that HAProxy accepts the fleet's configuration.
 */

const HAPROXY_BINARY = '/usr/sbin/haproxy';

const MEMBER_VALUES = {
  MEMBER: 'pg1',
  ADDRESS: '127.0.0.11',
  API_PORT: '8008',
  PG_PORT: '5432',
  ETCD_HOSTS: '127.0.0.11:2379,127.0.0.12:2379,127.0.0.13:2379',
  DATA_DIR: '/var/lib/postgresql/15/pg1',
  PG_BIN: '/usr/lib/postgresql/15/bin',
  PGPASS: '/var/lib/postgresql/pgpass',
  POSTGRESQL_CONF: '/etc/cas/postgresql.conf',
  SOCKET_DIR: '/var/run/postgresql',
  SHARED_BUFFERS: '128MB',
  SUPERUSER_PASSWORD: 'superuser-secret',
  REPLICATION_USER: 'replicator',
  REPLICATION_PASSWORD: 'replication-secret',
  CLIENT_NETWORK: '127.0.0.0/8',
};

describe('deploy/patroni/patroni.yml', () => {
  const member = parse(patroniConfig(MEMBER_VALUES));
  const dcs = member.bootstrap.dcs;

  it('acknowledges a commit only once a synchronous standby has it, and never on one member alone', () => {
    expect(dcs.synchronous_mode).toBe(true);
    expect(dcs.synchronous_mode_strict).toBe(true);
    expect(dcs.synchronous_node_count).toBe(1);
    // A crashed primary PostgreSQL is replaced by its synchronous standby, not restarted in place.
    expect(dcs.primary_start_timeout).toBe(0);
  });

  it("keeps Patroni's timing rule (loop_wait + 2 × retry_timeout ≤ ttl) and rewinds a failed primary", () => {
    expect(dcs.loop_wait + 2 * dcs.retry_timeout).toBeLessThanOrEqual(dcs.ttl);
    // Patroni raises a ttl under 20 s to 20 s: a smaller one would be a figure the cluster does not run with.
    expect(dcs.ttl).toBeGreaterThanOrEqual(20);
    expect(dcs.postgresql.use_pg_rewind).toBe(true);
    expect(dcs.postgresql.parameters.wal_log_hints).toBe('on');
    expect(member.postgresql.authentication.rewind.username).toBe('postgres');
    // A member whose rewind fails, or that cannot follow the new timeline, is rebuilt rather than left down.
    expect(member.postgresql.remove_data_directory_on_rewind_failure).toBe(true);
    expect(member.postgresql.remove_data_directory_on_diverged_timelines).toBe(true);
  });

  it("takes the deployment's settings file as its base, and each member's own addresses", () => {
    expect(member.postgresql.custom_conf).toBe('/etc/cas/postgresql.conf');
    expect(member.restapi.listen).toBe('127.0.0.11:8008');
    expect(member.postgresql.listen).toBe('127.0.0.11:5432');
    expect(member.etcd3.hosts).toBe(MEMBER_VALUES.ETCD_HOSTS);
  });

  it('refuses to write a member file with a placeholder left unfilled', () => {
    const { REPLICATION_PASSWORD: _left, ...missing } = MEMBER_VALUES;
    expect(() => patroniConfig(missing)).toThrow(/no value for \$\{REPLICATION_PASSWORD\}/);
  });
});

describe("the fleet's HAProxy configuration with Patroni (deploy/patroni/haproxy-postgres.cfg)", () => {
  const text = fleetHaproxyConfig(3, 2);
  const work = mkdtempSync(path.join(os.tmpdir(), 'cas-patroni-haproxy-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('routes the primary listen by GET /primary and the replica listen by GET /replica, one server per member', () => {
    const listen = (name: string) =>
      new RegExp(`^listen ${name}\\n((?:[ \\t]+.*\\n|\\n(?=[ \\t]))*)`, 'm').exec(text)?.[1] ?? '';
    expect(listen('postgres')).toMatch(/http-check send meth GET uri \/primary$/m);
    expect(listen('postgres')).toMatch(/on-marked-down shutdown-sessions/);
    expect(listen('postgres-replica')).toMatch(/http-check send meth GET uri \/replica$/m);
    for (const section of [listen('postgres'), listen('postgres-replica')])
      expect([...section.matchAll(/^\s*server (pg\d+) /gm)].map((m) => m[1])).toEqual(['pg1', 'pg2']);
    // The hand-failed-over pair's servers are gone.
    expect(text).not.toMatch(/^\s*(server (primary|replica) |option pgsql-check)/m);
  });

  it.runIf(existsSync(HAPROXY_BINARY))('is accepted by `haproxy -c` with the fleet addresses', async () => {
    const file = path.join(work, 'haproxy.cfg');
    writeFileSync(file, text);
    const env = {
      PATH: process.env.PATH,
      CAS_LISTEN: '127.0.0.1:18080',
      CAS_HAPROXY_STATS: '127.0.0.1:18404',
      CAS_HAPROXY_SOCKET: path.join(work, 'haproxy.sock'),
      CAS_POSTGRES_LISTEN: '127.0.0.1:15433',
      CAS_POSTGRES_REPLICA_LISTEN: '127.0.0.1:15434',
      CAS_BACKEND_1: '127.0.0.1:3101',
      CAS_BACKEND_2: '127.0.0.1:3102',
      CAS_BACKEND_3: '127.0.0.1:3103',
      CAS_PG_1: '127.0.0.11:5432',
      CAS_PATRONI_1: '8008',
      CAS_PG_2: '127.0.0.12:5432',
      CAS_PATRONI_2: '8009',
    };
    const result = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(HAPROXY_BINARY, ['-c', '-f', file], { env }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
      ),
    );
    expect(result.output).toContain('Configuration file is valid');
    expect(result.code).toBe(0);
    expect(result.output).not.toMatch(/WARNING|ALERT/);
  });
});
