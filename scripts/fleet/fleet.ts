import path from 'node:path';
import { parseArgs } from 'node:util';
import { takeOverShutdownSignals } from '../../src/db/postgres/embedded-postgres.js';
import { ROOT } from '../reliability/lib/results.js';
import { buildOnce } from '../reliability/lib/service-process.js';
import { startPatroniFleet } from './lib/fleet.js';

const USAGE = `npm run fleet -- [options]
  --instances N     service instances behind HAProxy (default 3)
  --port P          HAProxy's port (default 8080; 0 for any free port)
  --dir DIR         databases, secrets and logs (default .fleet; reused by the next run)
  --members M       PostgreSQL members managed by Patroni, 2 or 3 (default 3)
Starts etcd (three members), PostgreSQL 15 under Patroni (synchronous replication, automatic failover),
Redis, the instances and HAProxy from Debian's packages (installed when missing and run as root);
Ctrl-C stops everything.`;

const log = (line: string) => process.stdout.write(`[fleet] ${line}\n`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      instances: { type: 'string', default: '3' },
      port: { type: 'string', default: '8080' },
      dir: { type: 'string', default: '.fleet' },
      members: { type: 'string', default: '3' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const instances = Number(values.instances);
  const port = Number(values.port);
  if (!Number.isInteger(instances) || instances < 1 || instances > 16)
    throw new Error(`--instances must be a whole number from 1 to 16 (got ${values.instances})`);
  const members = Number(values.members);
  if (members !== 2 && members !== 3) throw new Error(`--members must be 2 or 3 (got ${values.members})`);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be a port number (got ${values.port})`);
  buildOnce(log);
  // Ctrl-C while starting stops what has started; once ready, it stops everything. (The embedded-postgres
  // package, loaded for its free-port helper, would otherwise exit at once on these signals.)
  takeOverShutdownSignals();
  const startup = new AbortController();
  const ready: { stop?: (signal: string) => void } = {};
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (ready.stop) return ready.stop(signal);
      log(`${signal} while starting: stopping what has started`);
      startup.abort();
    });
  }
  const fleet = await startPatroniFleet({
    dir: path.resolve(ROOT, values.dir),
    instances,
    members,
    port,
    log,
    signal: startup.signal,
  });
  process.stdout.write(
    [
      '',
      `Fleet ready (${instances} instances, ${members} PostgreSQL members under Patroni, synchronous replication):`,
      `  API through HAProxy  ${fleet.url}   e.g. curl -H 'Authorization: Bearer ${fleet.token}' ${fleet.url}/sandbox/customer/…`,
      `  GraphQL              ${fleet.url}/sandbox/graphql`,
      `  HAProxy stats        ${fleet.statsUrl}  (Prometheus: ${fleet.statsUrl.replace(/stats$/, 'metrics')})`,
      ...fleet.instances.map((instance) => `  instance ${instance.name}        http://${instance.address}`),
      `  PostgreSQL           ${new URL(fleet.databaseUrl).host} (HAProxy: whichever member Patroni's /primary names; DATABASE_URL)`,
      `  PostgreSQL replicas  ${new URL(fleet.replicaUrl).host} (HAProxy: members answering /replica; DATABASE_REPLICA_URL)`,
      ...fleet.cluster.members.map(
        (m) =>
          `  member ${m.name}          ${m.address}:${m.pgPort}, Patroni REST http://${m.address}:${m.apiPort}/patroni`,
      ),
      `  patronictl           patronictl -c ${fleet.cluster.configFile(1)} list`,
      `  etcd                 ${fleet.cluster.etcd.hosts.join(', ')}`,
      `  Redis                ${fleet.redisUrl}`,
      `  logs                 ${path.join(path.resolve(ROOT, values.dir), 'logs')}`,
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  let stopping = false;
  ready.stop = (signal) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping HAProxy, the instances, Redis, Patroni (and PostgreSQL) and etcd`);
    fleet.stop().then(
      () => (log('stopped'), process.exit(0)),
      (error: unknown) => (log(`stop failed: ${String(error)}`), process.exit(1)),
    );
  };
}

main().catch((error: unknown) => {
  if (error instanceof Error && error.name === 'AbortError') {
    log('stopped before it was ready');
    process.exit(130);
  }
  process.stderr.write(`[fleet] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
