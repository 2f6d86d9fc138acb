import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../../src/db/postgres/embedded-postgres.js';
import { ROOT } from '../../reliability/lib/results.js';
import { runSecrets, type ServiceProcess, startServiceProcess } from '../../reliability/lib/service-process.js';
import { type Daemon, serverStates, startHaproxy, startRedis } from './daemons.js';
import { ensureDebianPackages, ensurePatroniVersion } from './debian.js';
import { type PatroniCluster, startPatroniCluster, waitFor } from './patroni.js';
import { type PostgresServer, setSynchronous, startPrimary, startStandby } from './postgres-pair.js';

/**
 * The deployment a bank runs, on one machine: N stateless instances of the service behind HAProxy, Redis
 * for the limits the instances share, and PostgreSQL in one of two forms:
 *  - startPatroniFleet (what `npm run fleet` starts): two or three members managed by Patroni on a
 *    three-member etcd, HAProxy routing to the leader and the replicas by Patroni's checks; failover is
 *    automatic (docs/how-to/fail-over.md);
 *  - startFleet: a primary and a streaming replica that an operator fails over (`pg_ctl promote`), kept for
 *    the fleet benchmark (bench/fleet-scaling.ts), whose figures were measured on it.
 * The fleet proofs (scripts/reliability/fleet.ts) and the Patroni faults (scripts/reliability/patroni.ts)
 * drive and break them.
 */

export interface FleetOptions {
  /** Where the databases, secrets and logs live; a second run on the same directory reuses them. */
  dir: string;
  instances: number;
  /** HAProxy's front port (0: any free port). */
  port: number;
  /** Every commit waits for the replica's flush (synchronous_standby_names); the pair only (Patroni's is always synchronous). */
  synchronous?: boolean;
  /** Extra settings for every instance. */
  instanceEnv?: Record<string, string>;
  /** The Node the instances run on (default: this script's); the benchmarks' is Node 26. */
  nodeBinary?: string;
  /** Settings on the primary's command line, e.g. `shared_preload_libraries` for statement counting. */
  primarySettings?: Record<string, string>;
  /** Lag-tolerant reads go to the replica (DATABASE_REPLICA_URL); default true. */
  replicaReads?: boolean;
  log: (line: string) => void;
  /** Aborted (Ctrl-C during startup): what was started is stopped and startFleet rejects. */
  signal?: AbortSignal;
}

export interface Instance {
  name: string;
  port: number;
  address: string;
  process?: ServiceProcess;
}

interface FleetBase {
  url: string;
  statsUrl: string;
  token: string;
  redisUrl: string;
  redis: Daemon;
  /** PostgreSQL through HAProxy: the primary, or after a failover the promoted replica. */
  databaseUrl: string;
  haproxy: Daemon & { statsSocket: string; configFile: string };
  instances: Instance[];
  /** Settings every instance runs with (secrets included). */
  instanceEnv: Record<string, string>;
  startInstance(index: number): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/** The fleet on a primary and a streaming replica, failed over by an operator. */
export interface Fleet extends FleetBase {
  primary: PostgresServer;
  replica: PostgresServer;
}

/** The fleet on Patroni: PostgreSQL through HAProxy's `postgres` (the leader) and `postgres-replica` listens. */
export interface PatroniFleet extends FleetBase {
  cluster: PatroniCluster;
  /** Lag-tolerant reads' URL through HAProxy (any streaming replica). */
  replicaUrl: string;
}

/** The database part of a fleet, started before the rest and stopped after it. */
interface FleetDatabase {
  /** The superuser URL the service's database has through HAProxy's `postgres` listen, but for its port. */
  url: string;
  /** HAProxy's PostgreSQL servers. */
  haproxy: Pick<Parameters<typeof startHaproxy>[0], 'primary' | 'replica' | 'patroni'>;
  /** DATABASE_REPLICA_URL, given HAProxy's ports. */
  replicaUrl(ports: { postgres: number; replica: number }): string;
  /** Resolves once HAProxy routes as it should (the first checks passed), before anything connects. */
  routed?(statsSocket: string): Promise<void>;
}

const STANDBY_NAME = 'replica';

/** Secrets generated once per fleet directory, so data written by one run stays readable by the next. */
function fleetSecrets(dir: string): Record<string, string> {
  const file = path.join(dir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const secrets = runSecrets();
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  let pair: { primary: PostgresServer; replica: PostgresServer } | undefined;
  const base = await startAround(options, async (started) => {
    const postgresDir = path.join(options.dir, 'postgres');
    const primary = await startPrimary(postgresDir, await freePort(), options.primarySettings);
    started('the primary', () => primary.stop());
    options.log(`PostgreSQL primary on 127.0.0.1:${primary.port}`);
    const replica = await startStandby(postgresDir, primary, await freePort(), STANDBY_NAME);
    started('the replica', () => replica.stop());
    options.log(`PostgreSQL streaming replica on 127.0.0.1:${replica.port}`);
    await setSynchronous(primary, options.synchronous ? STANDBY_NAME : null);
    pair = { primary, replica };
    return {
      url: primary.url,
      haproxy: { primary: `127.0.0.1:${primary.port}`, replica: `127.0.0.1:${replica.port}` },
      replicaUrl: () => replica.url,
    };
  });
  return { ...base, ...pair! };
}

/** The fleet on Patroni (`npm run fleet`): etcd ×3, `members` PostgreSQL members, HAProxy, Redis, the instances. */
export async function startPatroniFleet(
  options: FleetOptions & { members: number; memberGroup?: (index: number) => number },
): Promise<PatroniFleet> {
  let cluster: PatroniCluster | undefined;
  const base = await startAround(options, async (started) => {
    const logDir = path.join(options.dir, 'logs');
    cluster = await startPatroniCluster({
      dir: path.join(options.dir, 'patroni'),
      logDir,
      members: options.members,
      log: options.log,
      ...(options.memberGroup && { groupOf: options.memberGroup }),
    });
    const running = cluster;
    started('Patroni and etcd', () => running.stop());
    const leader = (await cluster.leader())!;
    options.log(
      `Patroni: ${cluster.members.map((m) => `${m.name} ${m.address}:${m.pgPort} (REST :${m.apiPort})`).join(', ')}; leader ${leader.name}`,
    );
    return {
      url: leader.url,
      haproxy: {
        primary: '',
        replica: '',
        patroni: {
          replicaPort: 0,
          members: cluster.members.map((m) => ({ postgres: `${m.address}:${m.pgPort}`, apiPort: m.apiPort })),
        },
      },
      replicaUrl: (ports) =>
        Object.assign(new URL(leader.url), { hostname: '127.0.0.1', port: String(ports.replica) }).toString(),
      // HAProxy counts a server up until its first checks fail: the leader alone in `postgres`, and the
      // replicas in `postgres-replica`, before the migrations connect.
      async routed(statsSocket) {
        await waitFor(
          'HAProxy routing to the Patroni leader',
          async () => {
            const primaries = Object.entries(await serverStates(statsSocket, 'postgres')).filter(([, s]) => s.up);
            const replicas = Object.values(await serverStates(statsSocket, 'postgres-replica')).filter((s) => s.up);
            return (
              primaries.length === 1 && primaries[0]![0] === leader.name && replicas.length === options.members - 1
            );
          },
          30_000,
        );
      },
    };
  });
  return {
    ...base,
    cluster: cluster!,
    replicaUrl: base.instanceEnv.DATABASE_REPLICA_URL ?? '',
  };
}

async function startAround(
  options: FleetOptions,
  startDatabase: (started: (name: string, run: () => Promise<void>) => void) => Promise<FleetDatabase>,
): Promise<FleetBase> {
  const { log } = options;
  ensureDebianPackages(log);
  ensurePatroniVersion(log);
  mkdirSync(options.dir, { recursive: true });
  // PostgreSQL runs as its own user, which must be able to reach its directory inside this one.
  chmodSync(options.dir, 0o711);
  const logDir = path.join(options.dir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const stops: { name: string; run: () => Promise<void> }[] = [];
  const stop = async () => {
    for (let step = stops.pop(); step; step = stops.pop()) {
      const { name, run } = step;
      log(`stopping ${name}`);
      await run().catch((error: unknown) => log(`stopping ${name}: ${String(error)}`));
    }
  };
  const started = (name: string, run: () => Promise<void>) => {
    stops.push({ name, run });
    options.signal?.throwIfAborted();
  };
  try {
    const database = await startDatabase(started);

    const redisPort = await freePort();
    const redis = await startRedis(redisPort, logDir);
    started('Redis', () => redis.stop());
    const redisUrl = `redis://127.0.0.1:${redisPort}/0`;

    const instances: Instance[] = [];
    for (let i = 0; i < options.instances; i++) {
      const port = await freePort();
      instances.push({ name: `cas${i + 1}`, port, address: `127.0.0.1:${port}` });
    }
    const port = options.port === 0 ? await freePort() : options.port;
    const statsPort = await freePort();
    const postgresPort = await freePort();
    const replicaPort = await freePort();
    const haproxy = await startHaproxy({
      port,
      statsPort,
      postgresPort,
      ...database.haproxy,
      ...(database.haproxy.patroni && { patroni: { ...database.haproxy.patroni, replicaPort } }),
      instances: instances.map((instance) => instance.address),
      workDir: logDir,
    });
    started('HAProxy', () => haproxy.stop());
    await database.routed?.(haproxy.statsSocket);
    // The instances reach PostgreSQL through HAProxy, so a failover needs no change on their side.
    const databaseUrl = Object.assign(new URL(database.url), {
      hostname: '127.0.0.1',
      port: String(postgresPort),
    }).toString();

    const secrets = fleetSecrets(options.dir);
    const instanceEnv: Record<string, string> = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      // Reads that tolerate lag go to the replica; a write's Consistency-Token brings read-your-writes.
      ...(options.replicaReads !== false && {
        DATABASE_REPLICA_URL: database.replicaUrl({ postgres: postgresPort, replica: replicaPort }),
      }),
      REDIS_URL: redisUrl,
      // Migrations run once, before the instances, as a deployment's migration job does.
      MIGRATE_ON_START: 'false',
      // Longer than HAProxy's checks need to take a draining instance out (2 failures 500 ms apart, up to 3 s
      // each for an answer on a busy machine).
      SHUTDOWN_DRAIN_MS: '2500',
      ...secrets,
      ...options.instanceEnv,
    };
    log('applying migrations (npm run db:migrate, once for the fleet)');
    execFileSync(process.execPath, ['dist/db/migrations/migrate-cli.js'], {
      cwd: ROOT,
      env: { ...process.env, ...instanceEnv },
      stdio: ['ignore', 'inherit', 'inherit'],
    });

    const startInstance = async (index: number) => {
      const instance = instances[index]!;
      instance.process = await startServiceProcess({
        name: instance.name,
        port: instance.port,
        env: instanceEnv,
        defaults: {},
        logDir,
        ...(options.nodeBinary !== undefined && { nodeBinary: options.nodeBinary }),
      });
      return instance.process;
    };
    stops.push({
      name: 'the instances',
      run: async () => void (await Promise.all(instances.map((instance) => instance.process?.stop()))),
    });
    await Promise.all(instances.map((_, i) => startInstance(i)));
    options.signal?.throwIfAborted();
    log(`${instances.length} instances: ${instances.map((instance) => instance.address).join(', ')}`);
    return {
      url: `http://127.0.0.1:${port}`,
      statsUrl: `http://127.0.0.1:${statsPort}/stats`,
      token: secrets.API_TOKENS!,
      redisUrl,
      redis,
      databaseUrl,
      haproxy,
      instances,
      instanceEnv,
      startInstance,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
