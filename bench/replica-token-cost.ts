import { loadConfig } from '../src/config/config.js';
import { startService } from '../src/runtime.js';
import { inProcessServiceSettings } from './lib/in-process-service.js';
import { buildCustomerInput } from '../test/support/factories.js';
import { startReplicatedPostgres } from '../test/support/streaming-replica.js';

/**
 * What a consistency token costs a write (docs/adr/0040-read-replicas.md): the same service twice on one
 * primary, without and with DATABASE_REPLICA_URL (a real streaming standby, test/support/streaming-replica.ts),
 * sending sequential POST /sandbox/customer in alternating rounds; prints the latency of each and the pool's
 * timing of the write statement and of the token's extra statement. Run: `npx tsx bench/replica-token-cost.ts`.
 */

const ROUNDS = 6;
const PER_ROUND = 200;

const cluster = await startReplicatedPostgres();
const { token, env, logger } = inProcessServiceSettings(cluster.primaryUrl);
const statementMs = new Map<string, number[]>();
const onQuery = (ms: number, name: string | undefined) => {
  if (name === undefined) return;
  const list = statementMs.get(name) ?? [];
  list.push(ms);
  statementMs.set(name, list);
};
const plain = await startService(loadConfig(env), logger, { onQuery });
const replicated = await startService(loadConfig({ ...env, DATABASE_REPLICA_URL: cluster.replicaUrl }), logger, {
  onQuery,
});

async function round(url: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${url}/sandbox/customer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(buildCustomerInput()),
    });
    await response.text();
    if (response.status !== 201) throw new Error(`POST /sandbox/customer answered ${response.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] ?? NaN;
const describe = (values: number[]) =>
  `median ${quantile(values, 0.5).toFixed(3)} ms, p90 ${quantile(values, 0.9).toFixed(3)} ms (n=${values.length})`;

try {
  await round(plain.url, 100);
  await round(replicated.url, 100);
  const without: number[] = [];
  const withToken: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    without.push(...(await round(plain.url, PER_ROUND)));
    withToken.push(...(await round(replicated.url, PER_ROUND)));
  }
  process.stdout.write(`POST /sandbox/customer without a replica: ${describe(without)}\n`);
  process.stdout.write(`POST /sandbox/customer with a replica (token): ${describe(withToken)}\n`);
  for (const name of ['cas_customer_insert', 'cas_replica_commit_position'])
    process.stdout.write(`statement ${name}: ${describe(statementMs.get(name) ?? [])}\n`);
} finally {
  await plain.stop();
  await replicated.stop();
  await cluster.stop();
}
