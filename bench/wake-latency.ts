import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { loadConfig } from '../src/config/config.js';
import { startEmbeddedPostgres } from '../src/db/postgres/embedded-postgres.js';
import { startService } from '../src/runtime.js';
import { inProcessServiceSettings } from './lib/in-process-service.js';
import { buildCustomerInput } from '../test/support/factories.js';

/**
 * Cross-instance latency of a live event, with and without LISTEN/NOTIFY (docs/adr/0046-listen-notify-wake-ups.md, "Waking other
 * instances"). Three instances on one embedded PostgreSQL, default settings otherwise (sequencer every 100 ms,
 * subscription feed polling every 1 s): A numbers every event; B and C never do (their sequencers wait a
 * minute). B listens, C has DATABASE_LISTEN=false. A GraphQL subscriber on each; customers are created on A at
 * random moments (uniform over a poll period, so as not to beat in step with the polls), and the time from
 * the creation's answer (its commit) to the event's arrival is recorded per instance.
 * Run: `npx tsx bench/wake-latency.ts [count]`.
 */

const COUNT = Number(process.argv[2] ?? 40);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-wake-latency-'));
const server = await startEmbeddedPostgres({ dataDir, settings: { fsync: 'off', synchronous_commit: 'off' } });
const { token, env, logger } = inProcessServiceSettings(server.url);
const a = await startService(loadConfig(env), logger);
const b = await startService(
  loadConfig({ ...env, MIGRATE_ON_START: 'false', EVENT_SEQUENCER_INTERVAL_MS: '60000' }),
  logger,
);
const c = await startService(
  loadConfig({ ...env, MIGRATE_ON_START: 'false', EVENT_SEQUENCER_INTERVAL_MS: '60000', DATABASE_LISTEN: 'false' }),
  logger,
);

const instances = {
  'A (numbers the events)': a,
  'B (other instance, LISTEN/NOTIFY)': b,
  'C (other instance, polling only)': c,
};
/** customerId → arrival time, per instance. */
const arrivals = new Map<string, Map<string, number>>();
const clients = Object.entries(instances).map(([name, service]) => {
  const seen = new Map<string, number>();
  arrivals.set(name, seen);
  const client = createClient({
    url: `${service.url.replace(/^http/, 'ws')}/sandbox/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
  });
  client.subscribe<{ events: { resourceId: string } }>(
    { query: 'subscription { events(types: ["customer.created"]) { resourceId } }' },
    {
      next: (value) => seen.set(value.data!.events.resourceId, performance.now()),
      error: (error) => process.stderr.write(`${name}: ${JSON.stringify(error)}\n`),
      complete: () => undefined,
    },
  );
  return client;
});

const quantile = (values: number[], q: number) =>
  [...values].sort((x, y) => x - y)[Math.floor(q * (values.length - 1))] ?? Number.NaN;
const waitFor = async (done: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
};

try {
  // Every subscriber is following (a first event reached all three).
  const committed = new Map<string, number>();
  const create = async () => {
    const response = await fetch(`${a.url}/sandbox/customer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(buildCustomerInput()),
    });
    const body = (await response.json()) as { data: { customerId: string } };
    if (response.status !== 201) throw new Error(`POST /sandbox/customer answered ${response.status}`);
    committed.set(body.data.customerId, performance.now());
    return body.data.customerId;
  };
  for (;;) {
    const id = await create();
    await waitFor(() => [...arrivals.values()].every((seen) => seen.has(id)), 3000);
    if ([...arrivals.values()].every((seen) => seen.has(id))) break;
  }
  committed.clear();
  for (let i = 0; i < COUNT; i++) {
    const id = await create();
    await waitFor(() => [...arrivals.values()].every((seen) => seen.has(id)), 5000);
    // Uniform over a poll period: the next creation falls anywhere in C's polling cycle, not just after a poll.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 1000));
  }
  process.stdout.write(`commit (POST answered) -> subscription event, ${COUNT} customers created on A, ms:\n`);
  for (const [name, seen] of arrivals) {
    const latencies = [...committed].map(([id, at]) => (seen.get(id) ?? Number.NaN) - at);
    const missing = latencies.filter((value) => Number.isNaN(value)).length;
    const got = latencies.filter((value) => !Number.isNaN(value));
    process.stdout.write(
      `  ${name.padEnd(36)} median ${quantile(got, 0.5).toFixed(0).padStart(5)}  p90 ${quantile(got, 0.9).toFixed(0).padStart(5)}  max ${Math.max(
        ...got,
      )
        .toFixed(0)
        .padStart(5)}${missing ? `  (${missing} missing)` : ''}\n`,
    );
  }
} finally {
  for (const client of clients) await client.dispose();
  await c.stop();
  await b.stop();
  await a.stop();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
