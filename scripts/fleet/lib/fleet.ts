import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../../src/db/postgres/embedded-postgres.js';
import { ROOT } from '../../reliability/lib/results.js';
import { runSecrets, type ServiceProcess, startServiceProcess } from '../../reliability/lib/service-process.js';
import { type Daemon, startHaproxy, startRedis } from './daemons.js';
import { ensureDebianPackages } from './debian.js';
import { type PostgresServer, setSynchronous, startPrimary, startStandby } from './postgres-pair.js';

/**
 * The deployment a bank runs, on one machine: N stateless instances of the service behind HAProxy, one
 * PostgreSQL primary with a streaming replica, and Redis for the limits the instances share. What
 * `npm run fleet` starts, and what the fleet proofs (scripts/reliability/fleet.ts) drive and break.
 */

export interface FleetOptions {
  /** Where the databases, secrets and logs live; a second run on the same directory reuses them. */
  dir: string;
  instances: number;
  /** HAProxy's front port (0: any free port). */
  port: number;
  /** Every commit waits for the replica's flush (synchronous_standby_names). */
  synchronous: boolean;
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

export interface Fleet {
  url: string;
  statsUrl: string;
  token: string;
  primary: PostgresServer;
  replica: PostgresServer;
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
  const { log } = options;
  ensureDebianPackages(log);
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
    const postgresDir = path.join(options.dir, 'postgres');
    const primary = await startPrimary(postgresDir, await freePort(), options.primarySettings);
    started('the primary', () => primary.stop());
    log(`PostgreSQL primary on 127.0.0.1:${primary.port}`);
    const replica = await startStandby(postgresDir, primary, await freePort(), STANDBY_NAME);
    started('the replica', () => replica.stop());
    log(`PostgreSQL streaming replica on 127.0.0.1:${replica.port}`);
    await setSynchronous(primary, options.synchronous ? STANDBY_NAME : null);

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
    const haproxy = await startHaproxy({
      port,
      statsPort,
      postgresPort,
      primary: `127.0.0.1:${primary.port}`,
      replica: `127.0.0.1:${replica.port}`,
      instances: instances.map((instance) => instance.address),
      workDir: logDir,
    });
    started('HAProxy', () => haproxy.stop());
    // The instances reach PostgreSQL through HAProxy, so a failover needs no change on their side.
    const databaseUrl = Object.assign(new URL(primary.url), { port: String(postgresPort) }).toString();

    const secrets = fleetSecrets(options.dir);
    const instanceEnv: Record<string, string> = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      // Reads that tolerate lag go to the replica; a write's Consistency-Token brings read-your-writes.
      ...(options.replicaReads !== false && { DATABASE_REPLICA_URL: replica.url }),
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
      primary,
      replica,
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
