import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from '../../../src/db/postgres/embedded-postgres.js';
import { listening } from './daemons.js';
import { PG_BIN } from './debian.js';
import { DEPLOY_POSTGRES, SERVICE_DATABASE } from './postgres-pair.js';

const run = promisify(execFile);

/**
 * PostgreSQL managed by Patroni, with etcd as its consensus store, the way a bank runs it unattended: three
 * etcd members, two or three PostgreSQL members each under its own Patroni (deploy/patroni/patroni.yml,
 * one copy per member written here), from Debian's `patroni` and `etcd-server` packages. Member i binds
 * every one of its ports (etcd, PostgreSQL, Patroni's REST API) to its own loopback address 127.0.0.(10+i),
 * so that a network partition of one member is an iptables rule on that address (scripts/reliability/patroni.ts).
 */

export const PATRONI_TEMPLATE = path.resolve(import.meta.dirname, '../../../deploy/patroni/patroni.yml');
const REPLICATION_USER = 'replicator';

const children = new Set<ChildProcess>();
/** Every member's data directory: a PostgreSQL whose Patroni died with this process would outlive it. */
const dataDirs = new Set<string>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dataDir of dataDirs) {
    try {
      const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      // Only that server: a stale pid file's number may belong to another process by now.
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dataDir)) process.kill(pid, 'SIGKILL');
    } catch {
      // Not running.
    }
  }
});

/** Member i's own loopback address (i from 1). */
export const memberAddress = (index: number) => `127.0.0.${10 + index}`;

function postgresIds(): { uid: number; gid: number } {
  const fields = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((line) => line.startsWith('postgres:'))!
    .split(':');
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/** PostgreSQL (and so Patroni, its parent) refuse root: as root, they run as the package's `postgres` user. */
const asServerUser = () => (process.getuid?.() === 0 ? postgresIds() : undefined);

function ownedDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ids = asServerUser();
  if (ids) chownSync(dir, ids.uid, ids.gid);
}

interface Spawned {
  child: ChildProcess;
  exited: Promise<void>;
}

/**
 * `group`: the process's group id (with no supplementary groups), member i's own in a partition test, so
 * that iptables can tell its connections by owner (scripts/fleet/lib/partition.ts).
 */
function spawnLogged(command: string, args: string[], logFile: string, serverUser: boolean, group?: number): Spawned {
  const log = createWriteStream(logFile, { flags: 'a' });
  const ids = serverUser ? asServerUser() : undefined;
  const gid = group ?? ids?.gid;
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...(ids && { HOME: '/var/lib/postgresql', USER: 'postgres' }) },
    ...(ids && { uid: ids.uid }),
    ...(gid !== undefined && { gid }),
  });
  children.add(child);
  // Not ended by either stream: PostgreSQL, started by Patroni, keeps Patroni's output open after Patroni exits.
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => child.once('exit', () => (children.delete(child), resolve())));
  return { child, exited };
}

async function stopChild(spawned: Spawned | undefined, graceMs = 15_000): Promise<void> {
  if (!spawned) return;
  const { child, exited } = spawned;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(graceMs).then(() => child.kill('SIGKILL'))]);
  await exited;
}

export interface Etcd {
  /** host:port of every member's client port, as Patroni's `etcd3.hosts` takes them. */
  hosts: string[];
  stop(): Promise<void>;
}

/**
 * Ports chosen once per directory and kept in `<dir>/ports.json`: etcd's members and Patroni's know each
 * other by address, so a second run on the same directory must find them where the first put them.
 */
async function stablePorts(dir: string, names: string[]): Promise<Record<string, number>> {
  const file = path.join(dir, 'ports.json');
  const known = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>) : {};
  for (const name of names) known[name] ??= await freePort();
  writeFileSync(file, JSON.stringify(known, null, 2));
  return known;
}

/** A three-member etcd cluster (etcd's defaults, but for timings sized for a shared two-core machine). */
export async function startEtcd(dir: string, logDir: string, groupOf?: (index: number) => number): Promise<Etcd> {
  mkdirSync(dir, { recursive: true });
  const ports = await stablePorts(dir, ['etcd1', 'etcd1-peer', 'etcd2', 'etcd2-peer', 'etcd3', 'etcd3-peer']);
  const members = [1, 2, 3].map((i) => ({
    name: `etcd${i}`,
    address: memberAddress(i),
    client: ports[`etcd${i}`]!,
    peer: ports[`etcd${i}-peer`]!,
  }));
  const cluster = members.map((m) => `${m.name}=http://${m.address}:${m.peer}`).join(',');
  const fresh = !existsSync(path.join(dir, 'etcd1'));
  const spawned = members.map((m, i) =>
    spawnLogged(
      '/usr/bin/etcd',
      [
        `--name=${m.name}`,
        `--data-dir=${path.join(dir, m.name)}`,
        `--listen-client-urls=http://${m.address}:${m.client}`,
        `--advertise-client-urls=http://${m.address}:${m.client}`,
        `--listen-peer-urls=http://${m.address}:${m.peer}`,
        `--initial-advertise-peer-urls=http://${m.address}:${m.peer}`,
        `--initial-cluster=${cluster}`,
        `--initial-cluster-state=${fresh ? 'new' : 'existing'}`,
        '--initial-cluster-token=cas-fleet',
        // A busy machine delays heartbeats: etcd's 100 ms / 1 s would call elections under load.
        '--heartbeat-interval=250',
        '--election-timeout=2500',
        // A member back from a partition asks before it calls an election (Raft's pre-vote): without it, its
        // higher term deposes a healthy leader, and Patroni's leader key may expire during the new election.
        '--pre-vote=true',
        '--enable-v2=false',
      ],
      path.join(logDir, `${m.name}.log`),
      false,
      groupOf?.(i + 1),
    ),
  );
  const stop = async () => void (await Promise.all(spawned.map((s) => stopChild(s))));
  try {
    const deadline = performance.now() + 30_000;
    for (const m of members) {
      while (!(await healthy(`http://${m.address}:${m.client}`))) {
        if (performance.now() > deadline) throw new Error(`etcd ${m.name} not healthy within 30 s; log ${logDir}`);
        await sleep(100);
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { hosts: members.map((m) => `${m.address}:${m.client}`), stop };
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok && ((await res.json()) as { health?: string }).health === 'true';
  } catch {
    return false;
  }
}

/** What Patroni's REST API says of a member (GET /patroni). */
export interface MemberStatus {
  role: 'master' | 'primary' | 'replica' | 'standby_leader' | string;
  state: string;
  timeline?: number;
  xlog?: { location?: number; received_location?: number; replayed_location?: number };
  /** On the leader: its standbys as pg_stat_replication shows them. */
  replication?: { application_name: string; state: string; sync_state: string }[];
}

export interface PatroniMember {
  name: string;
  index: number;
  address: string;
  pgPort: number;
  apiPort: number;
  dataDir: string;
  /** Its PostgreSQL's Unix socket directory (reachable whatever the network does). */
  socketDir: string;
  /** A superuser URL of the service's database on this member itself (not through HAProxy). */
  url: string;
  /** Starts this member's Patroni (which starts, or rewinds and starts, its PostgreSQL). */
  startPatroni(): Promise<void>;
  /** SIGTERM to Patroni: it stops its PostgreSQL and, as leader, hands the leader key over. */
  stopPatroni(): Promise<void>;
  /** SIGKILL of Patroni alone: its PostgreSQL keeps running with no one managing it. */
  killPatroni(): Promise<void>;
  /** SIGKILL of the postmaster (Patroni stays): a crashed PostgreSQL. */
  killPostgres(): Promise<void>;
  postmasterPid(): number | undefined;
  /** GET /patroni; undefined when the API does not answer within 1 s. */
  status(): Promise<MemberStatus | undefined>;
  /** GET /<check> (primary, replica, health…): its HTTP status, 0 without an answer. */
  check(path: string): Promise<number>;
  psql(sql: string, database?: string): Promise<string>;
}

export interface PatroniCluster {
  members: PatroniMember[];
  etcd: Etcd;
  superuserPassword: string;
  /** The configuration file of member i (for patronictl -c). */
  configFile(index: number): string;
  /** patronictl on the first member's configuration: `list`, `switchover …`; its stdout. */
  patronictl(args: string[]): Promise<string>;
  /** The member the leader replicates to synchronously (GET /patroni's replication), if any. */
  syncStandby(): Promise<PatroniMember | undefined>;
  /** The member whose Patroni answers /primary 200, if exactly one does. */
  leader(): Promise<PatroniMember | undefined>;
  /**
   * Waits until one member is the leader, `replicas` members stream from it and one of them is its
   * synchronous standby; answers the leader.
   */
  waitHealthy(replicas: number, timeoutMs?: number): Promise<PatroniMember>;
  stop(): Promise<void>;
}

interface Credentials {
  superuserPassword: string;
  replicationPassword: string;
}

function credentials(dir: string): Credentials {
  const file = path.join(dir, 'postgres-credentials.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Credentials;
  const created = {
    superuserPassword: randomBytes(18).toString('base64url'),
    replicationPassword: randomBytes(18).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(created), { mode: 0o600 });
  return created;
}

/** deploy/patroni/patroni.yml with its ${NAME}s replaced; a placeholder left unfilled is an error. */
export function patroniConfig(values: Record<string, string>): string {
  const text = readFileSync(PATRONI_TEMPLATE, 'utf8').replace(/\$\{([A-Z_]+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`deploy/patroni/patroni.yml: no value for ${whole}`);
    return value;
  });
  return text;
}

const httpStatus = async (url: string, timeoutMs = 1000): Promise<number> => {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
};

/**
 * The cluster in `dir` (a second run on the same directory reuses its data): etcd, then every member's
 * Patroni; the first member bootstraps (initdb), the others clone it (pg_basebackup) and follow. Resolves
 * once a leader serves the service's database and every other member streams from it.
 */
export async function startPatroniCluster(options: {
  dir: string;
  logDir: string;
  members: number;
  sharedBuffers?: string;
  /** Member i's processes' group id (a partition test's), see spawnLogged. */
  groupOf?: (index: number) => number;
  log: (line: string) => void;
}): Promise<PatroniCluster> {
  const { dir, logDir, log } = options;
  ownedDir(dir);
  const creds = credentials(dir);
  const etcd = await startEtcd(path.join(dir, 'etcd'), logDir, options.groupOf);
  const members: PatroniMember[] = [];
  const configFiles: string[] = [];
  const processes = new Map<string, Spawned>();
  const ports = await stablePorts(
    dir,
    Array.from({ length: options.members }, (_, i) => [`pg${i + 1}`, `pg${i + 1}-api`]).flat(),
  );
  const stop = async () => {
    // The replicas together, then the leader: no failover is started by the stop itself.
    const leaders = new Set(
      (await Promise.all(members.map(async (m) => ((await m.check('primary')) === 200 ? m.name : undefined)))).filter(
        (name) => name !== undefined,
      ),
    );
    await Promise.all(members.filter((m) => !leaders.has(m.name)).map((m) => m.stopPatroni()));
    await Promise.all(members.filter((m) => leaders.has(m.name)).map((m) => m.stopPatroni()));
    await etcd.stop();
  };
  try {
    for (let index = 1; index <= options.members; index++) {
      const name = `pg${index}`;
      const address = memberAddress(index);
      const pgPort = ports[name]!;
      const apiPort = ports[`${name}-api`]!;
      const memberDir = path.join(dir, name);
      ownedDir(memberDir);
      ownedDir(path.join(memberDir, 'sockets'));
      const dataDir = path.join(memberDir, 'data');
      dataDirs.add(dataDir);
      const configFile = path.join(memberDir, 'patroni.yml');
      writeFileSync(
        configFile,
        patroniConfig({
          MEMBER: name,
          ADDRESS: address,
          API_PORT: String(apiPort),
          PG_PORT: String(pgPort),
          ETCD_HOSTS: etcd.hosts.join(','),
          DATA_DIR: dataDir,
          PG_BIN,
          PGPASS: path.join(memberDir, 'pgpass'),
          POSTGRESQL_CONF: path.join(DEPLOY_POSTGRES, 'postgresql.conf'),
          SOCKET_DIR: path.join(memberDir, 'sockets'),
          SHARED_BUFFERS: options.sharedBuffers ?? '128MB',
          SUPERUSER_PASSWORD: creds.superuserPassword,
          REPLICATION_USER,
          REPLICATION_PASSWORD: creds.replicationPassword,
          CLIENT_NETWORK: '127.0.0.0/8',
        }),
        { mode: 0o600 },
      );
      const ids = asServerUser();
      if (ids) chownSync(configFile, ids.uid, ids.gid);
      configFiles.push(configFile);
      const api = `http://${address}:${apiPort}`;
      const member: PatroniMember = {
        name,
        index,
        address,
        pgPort,
        apiPort,
        dataDir,
        socketDir: path.join(memberDir, 'sockets'),
        url: `postgresql://postgres:${creds.superuserPassword}@${address}:${pgPort}/${SERVICE_DATABASE}`,
        async startPatroni() {
          const current = processes.get(name);
          if (current && current.child.exitCode === null && current.child.signalCode === null) return;
          processes.set(
            name,
            spawnLogged(
              '/usr/bin/patroni',
              [configFile],
              path.join(logDir, `${name}.log`),
              true,
              options.groupOf?.(index),
            ),
          );
          const deadline = performance.now() + 30_000;
          while (!(await listening(apiPort, address))) {
            if (processes.get(name)!.child.exitCode !== null)
              throw new Error(`Patroni ${name} exited at start; log ${path.join(logDir, `${name}.log`)}`);
            if (performance.now() > deadline) throw new Error(`Patroni ${name}: REST API not up within 30 s`);
            await sleep(100);
          }
        },
        async stopPatroni() {
          await stopChild(processes.get(name), 60_000);
        },
        async killPatroni() {
          const spawned = processes.get(name);
          if (!spawned) return;
          spawned.child.kill('SIGKILL');
          await spawned.exited;
        },
        postmasterPid() {
          try {
            return Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
          } catch {
            return undefined;
          }
        },
        async killPostgres() {
          const pid = member.postmasterPid();
          if (pid === undefined) throw new Error(`${name}: no postmaster.pid`);
          process.kill(pid, 'SIGKILL');
          while (alive(pid)) await sleep(20);
        },
        async status() {
          try {
            const res = await fetch(`${api}/patroni`, { signal: AbortSignal.timeout(1000) });
            return (await res.json()) as MemberStatus;
          } catch {
            return undefined;
          }
        },
        check: (check) => httpStatus(`${api}/${check}`),
        async psql(sql, database = SERVICE_DATABASE) {
          const { stdout } = await run(
            path.join(PG_BIN, 'psql'),
            [
              '-qAtX',
              '-v',
              'ON_ERROR_STOP=1',
              '-h',
              address,
              '-p',
              String(pgPort),
              '-U',
              'postgres',
              '-d',
              database,
              '-c',
              sql,
            ],
            { env: { ...process.env, PGPASSWORD: creds.superuserPassword, PGCONNECT_TIMEOUT: '3' } },
          );
          return stdout;
        },
      };
      members.push(member);
    }
    // The first member alone first: it bootstraps the cluster (or, on a reused directory, whichever had
    // the leader key takes it again); the others then clone or follow it.
    await members[0]!.startPatroni();
    const first = await waitFor('a leader', async () => (await members[0]!.check('primary')) === 200, 90_000);
    log(`Patroni ${members[0]!.name} leads (${Math.round(first)} ms)`);
    await Promise.all(members.slice(1).map((member) => member.startPatroni()));
    const cluster: PatroniCluster = {
      members,
      etcd,
      superuserPassword: creds.superuserPassword,
      configFile: (index) => configFiles[index - 1]!,
      async patronictl(args) {
        const { stdout } = await run('/usr/bin/patronictl', ['-c', configFiles[0]!, ...args], {
          env: { ...process.env },
          maxBuffer: 4 * 2 ** 20,
        });
        return stdout;
      },
      async leader() {
        const leaders = (
          await Promise.all(members.map(async (m) => ((await m.check('primary')) === 200 ? m : undefined)))
        ).filter((m) => m !== undefined);
        return leaders.length === 1 ? leaders[0] : undefined;
      },
      async syncStandby() {
        const leader = await cluster.leader();
        const status = leader && (await leader.status());
        const sync = status?.replication?.find((r) => r.sync_state === 'sync');
        return members.find((m) => m.name === sync?.application_name);
      },
      async waitHealthy(replicas, timeoutMs = 120_000) {
        let leader: PatroniMember | undefined;
        await waitFor(
          `a leader and ${replicas} streaming replicas`,
          async () => {
            leader = await cluster.leader();
            if (!leader) return false;
            const leaderStatus = await leader.status();
            // A replica counts on the leader's timeline only: a former primary starting as a replica streams the
            // old timeline for a moment before its Patroni sees the fork and rewinds it (an answer of 200 meanwhile).
            const streaming = await Promise.all(
              members.map(
                async (m) =>
                  m !== leader &&
                  (await m.check('replica')) === 200 &&
                  (await m.status())?.timeline === leaderStatus?.timeline,
              ),
            );
            if (streaming.filter(Boolean).length < replicas) return false;
            // A synchronous standby streaming: only it may be promoted, so until then a failed primary is
            // restarted in place rather than replaced.
            const replication = leaderStatus?.replication ?? [];
            return replicas === 0 || replication.some((r) => r.sync_state === 'sync' && r.state === 'streaming');
          },
          timeoutMs,
        );
        return leader!;
      },
      stop,
    };
    const leader = await cluster.waitHealthy(options.members - 1);
    if (
      (await leader.psql(`SELECT 1 FROM pg_database WHERE datname = '${SERVICE_DATABASE}'`, 'postgres')).trim() !== '1'
    )
      await leader.psql(`CREATE DATABASE ${SERVICE_DATABASE}`, 'postgres');
    return cluster;
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitFor(what: string, condition: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
  return performance.now() - started;
}
