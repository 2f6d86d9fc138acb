import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config/config.js';
import { startEmbeddedPostgres } from '../src/db/postgres/embedded-postgres.js';
import { startService } from '../src/runtime.js';
import { seedPostings } from '../scripts/history/seed-ledger.js';
import { buildCustomerInput } from '../test/support/factories.js';
import { inProcessServiceSettings } from './lib/in-process-service.js';

/**
 * Issue 31's figures: the balance as of a moment on an account with N entries (one index probe: its latency must
 * not grow with N), and the growth of this process's resident memory while the service streams an export of all
 * N entries (one batch of 250 in memory at a time) to curl in a process of its own, and whether that growth is
 * within the issue's "a few MB" (RSS_BOUND_MIB). The service runs in this process on an embedded PostgreSQL; the
 * account is seeded through the bulk path (scripts/history/seed-ledger.ts), N postings over a year.
 * Run: `npx tsx --expose-gc bench/ledger-history.ts [entries]` (default 10,000; the issue asks for 1,000,000).
 */

const ENTRIES = Number(process.argv[2] ?? 10_000);
/** Issue 31 item 4: an export grows the process's RSS by "a few MB" at most; this is the figure held to. */
const RSS_BOUND_MIB = 8;
const AS_OF_REQUESTS = 300;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-ledger-history-'));
const server = await startEmbeddedPostgres({ dataDir, settings: { fsync: 'off', synchronous_commit: 'off' } });
const { token, env, logger } = inProcessServiceSettings(server.url);
const service = await startService(loadConfig(env), logger);
const pool = new pg.Pool({ connectionString: server.url, max: 2 });
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

try {
  const customer = (await (
    await fetch(`${service.url}/sandbox/customer`, {
      method: 'POST',
      headers,
      body: JSON.stringify(buildCustomerInput()),
    })
  ).json()) as { data: { customerId: string } };
  const account = (await (
    await fetch(`${service.url}/sandbox/account`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        associatedCustomerIds: [customer.data.customerId],
        name: 'Busy',
        currency: 'USD',
        type: 'CHECKING',
      }),
    })
  ).json()) as { data: { accountId: string } };
  const accountId: string = account.data.accountId;
  const from = new Date('2025-01-01T00:00:00Z');
  const to = new Date('2026-01-01T00:00:00Z');
  let started = performance.now();
  await seedPostings(pool, { environment: 'sandbox', accountId, count: ENTRIES, from, to });
  await pool.query('ANALYZE ledger_entries');
  process.stdout.write(
    `seeded ${ENTRIES} postings (${2 * ENTRIES} entries) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );

  // Balance as of random moments of the year, one request at a time.
  const latencies: number[] = [];
  for (let i = 0; i < AS_OF_REQUESTS; i++) {
    const asOf = new Date(from.getTime() + Math.random() * (to.getTime() - from.getTime())).toISOString();
    started = performance.now();
    const res = await fetch(`${service.url}/sandbox/account/${accountId}/balance?asOf=${asOf}`, { headers });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`balance as of answered ${res.status}`);
  }
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(2);
  const { rows: plan } = await pool.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN SELECT e.balance_after FROM ledger_entries e WHERE e.account_id = $1 AND e.status = 'POSTED' AND e.posted_at <= $2
     ORDER BY e.posted_at DESC, e.posting_seq DESC LIMIT 1`,
    [accountId, new Date('2025-07-01T00:00:00Z')],
  );
  process.stdout.write(
    `balance as of, ${AS_OF_REQUESTS} requests over HTTP: median ${percentile(50)} ms, p99 ${percentile(99)} ms\n`,
  );
  process.stdout.write(`  plan: ${plan.map((row) => row['QUERY PLAN'].trim()).join(' | ')}\n`);

  // The export of the whole environment (both legs of every posting), read and discarded as it arrives, twice:
  // RSS alone also counts garbage the collector has not returned yet (V8 lets its young generation and old space
  // grow before it collects, and glibc keeps freed pages), so the second run shows whether the growth is a one-time
  // step to a plateau or grows with the entries. The live heap, sampled right after a full collection every second,
  // is what the export keeps; heapTotal is what V8 has reserved for its heap, external what Buffers hold.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  const first = process.memoryUsage();
  // Read by curl in a process of its own, so that what this process holds is the service's alone. The token
  // goes in a header file (mode 600), never on a command line.
  const headerFile = path.join(dataDir, 'export-headers');
  writeFileSync(headerFile, `authorization: Bearer ${token}\n`, { mode: 0o600 });
  for (const run of [1, 2]) {
    const before = process.memoryUsage();
    let peak = before.rss;
    let heapPeak = before.heapTotal;
    let externalPeak = before.external;
    let livePeak = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.rss);
      heapPeak = Math.max(heapPeak, now.heapTotal);
      externalPeak = Math.max(externalPeak, now.external);
    }, 20);
    const liveSampler = setInterval(() => {
      gc?.();
      livePeak = Math.max(livePeak, process.memoryUsage().heapUsed);
    }, 1000);
    started = performance.now();
    const lines = await new Promise<number>((resolve, reject) => {
      // curl's output is counted by wc in the same pipeline, never read here: reading it in this process would
      // allocate a Buffer per pipe read, as many bytes as the export, and count them as the service's.
      const reader = spawn(
        'bash',
        [
          '-o',
          'pipefail',
          '-c',
          'curl -sSf -H "@$0" "$1" | wc -l',
          headerFile,
          `${service.url}/sandbox/ledger-entries`,
        ],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let count = '';
      reader.stdout.on('data', (chunk: Buffer) => (count += chunk.toString('utf8')));
      reader.on('error', reject);
      reader.on('close', (code) =>
        code === 0 ? resolve(Number(count.trim())) : reject(new Error(`curl exited with ${code}`)),
      );
    });
    clearInterval(sampler);
    clearInterval(liveSampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `export ${run}: ${lines} entries in ${seconds.toFixed(1)} s (${Math.round(lines / seconds)} entries/s); RSS ${mib(before.rss)} MiB before, ` +
        `peak ${mib(peak)} MiB: grew ${mib(peak - before.rss)} MiB (${mib(peak - first.rss)} MiB over the first run's start); V8 heap reserved ${mib(before.heapTotal)} MiB before, ` +
        `peak ${mib(heapPeak)} MiB; external peak ${mib(externalPeak)} MiB (${mib(before.external)} before); live heap after a full collection ` +
        `${mib(before.heapUsed)} MiB before, at most ${mib(livePeak)} MiB: grew ${mib(livePeak - before.heapUsed)} MiB` +
        `${gc ? '' : ' (run with --expose-gc for the live heap)'}\n`,
    );
    const grew = (peak - before.rss) / 2 ** 20;
    process.stdout.write(
      `  export ${run}: RSS grew ${grew.toFixed(1)} MiB: ${grew <= RSS_BOUND_MIB ? 'within' : 'BEYOND'} the bound of ${RSS_BOUND_MIB} MiB\n`,
    );
    gc?.();
  }
} finally {
  await pool.end();
  await service.stop();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
