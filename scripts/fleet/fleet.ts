import path from 'node:path';
import { parseArgs } from 'node:util';
import { takeOverShutdownSignals } from '../../src/db/postgres/embedded-postgres.js';
import { ROOT } from '../reliability/lib/results.js';
import { buildOnce } from '../reliability/lib/service-process.js';
import { startFleet } from './lib/fleet.js';

const USAGE = `npm run fleet -- [options]
  --instances N     service instances behind HAProxy (default 3)
  --port P          HAProxy's port (default 8080; 0 for any free port)
  --dir DIR         databases, secrets and logs (default .fleet; reused by the next run)
  --synchronous     synchronous replication: each commit waits for the replica (default: asynchronous)
Starts PostgreSQL 15 (primary + streaming replica), Redis, the instances and HAProxy from
Debian's packages (installed when missing and run as root); Ctrl-C stops everything.`;

const log = (line: string) => process.stdout.write(`[fleet] ${line}\n`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      instances: { type: 'string', default: '3' },
      port: { type: 'string', default: '8080' },
      dir: { type: 'string', default: '.fleet' },
      synchronous: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return void process.stdout.write(`${USAGE}\n`);
  const instances = Number(values.instances);
  const port = Number(values.port);
  if (!Number.isInteger(instances) || instances < 1 || instances > 16)
    throw new Error(`--instances must be a whole number from 1 to 16 (got ${values.instances})`);
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
  const fleet = await startFleet({
    dir: path.resolve(ROOT, values.dir),
    instances,
    port,
    synchronous: values.synchronous,
    log,
    signal: startup.signal,
  });
  process.stdout.write(
    [
      '',
      `Fleet ready (${instances} instances, ${values.synchronous ? 'synchronous' : 'asynchronous'} replication):`,
      `  API through HAProxy  ${fleet.url}   e.g. curl -H 'Authorization: Bearer ${fleet.token}' ${fleet.url}/sandbox/customer/…`,
      `  GraphQL              ${fleet.url}/sandbox/graphql`,
      `  HAProxy stats        ${fleet.statsUrl}  (Prometheus: ${fleet.statsUrl.replace(/stats$/, 'metrics')})`,
      ...fleet.instances.map((instance) => `  instance ${instance.name}        http://${instance.address}`),
      `  PostgreSQL           ${new URL(fleet.databaseUrl).host} (HAProxy: the primary, the replica after a failover; the instances' DATABASE_URL)`,
      `  PostgreSQL primary   127.0.0.1:${fleet.primary.port} (read-write)`,
      `  PostgreSQL replica   127.0.0.1:${fleet.replica.port} (streaming, hot standby)`,
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
    log(`${signal}: stopping HAProxy, the instances, Redis and PostgreSQL`);
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
