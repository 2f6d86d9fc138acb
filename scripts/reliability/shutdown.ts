import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../../src/db/postgres/embedded-postgres.js';
import { buildAccountInput, buildCustomerInput } from '../../test/support/factories.js';
import { pick } from './lib/concurrency.js';
import { sampleAnswers, startClients } from './lib/load.js';
import { clusterState } from './lib/postgres.js';
import { formatCount } from './lib/results.js';
import { type ApiAnswer, conclude, createApi, log, options, RECORD_OPTION, round, runScript } from './lib/script.js';
import { buildOnce, runSecrets, startServiceProcess } from './lib/service-process.js';

/**
 * Graceful shutdown: the service as `npm start` runs it (`node dist/main.js`, embedded PostgreSQL in a
 * fresh DATA_DIR) receives SIGTERM under load, with some requests held in flight by a row lock. Those
 * must complete, new connections must be refused, the process must exit 0 within 10 s, and the embedded
 * PostgreSQL must be stopped cleanly (pg_control says "shut down"). A restart on the same DATA_DIR then
 * finds every acknowledged write.
 */

const opts = options(
  {
    clients: { default: '16', help: 'concurrent clients' },
    'held-requests': { default: '4', help: 'requests held in flight by a row lock at SIGTERM' },
    ...RECORD_OPTION,
  },
  'npm run reliability:shutdown -- [options]',
);

const EXIT_WITHIN_MS = 10_000;

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

runScript('shutdown', async () => {
  const clients = Number(opts.clients);
  const held = Number(opts['held-requests']);
  buildOnce(log);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cas-reliability-shutdown-'));
  const postgresPort = await freePort();
  const secrets = runSecrets();
  const env = { DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(postgresPort), ...secrets };
  const problems: string[] = [];
  const heldAnswers: ApiAnswer[] = [];
  const acknowledged: { kind: 'customer' | 'account'; id: string }[] = [];
  const figures: Record<string, unknown> = {};
  let lockedCustomer = '';

  try {
    let service = await startServiceProcess({ name: 'shutdown', env, readyTimeoutMs: 120_000 });
    figures.startupMs = Math.round(service.readyAfterMs);
    const api = createApi(service.url, secrets.API_TOKENS!, clients * 2);
    const customers: string[] = [];
    for (let i = 0; i < 8; i++)
      customers.push((await api.json('POST', '/sandbox/customer', buildCustomerInput())).json.data.customerId);
    lockedCustomer = customers[0]!;
    const password = readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim();
    const holder = new pg.Client({
      connectionString: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${postgresPort}/postgres`,
    });
    holder.on('error', () => undefined);
    await holder.connect();

    const traffic = sampleAnswers(api, { requestTimeoutMs: 15_000 });
    const samples = traffic.samples;
    const load = startClients(
      clients,
      (client) => client + 11,
      (_, random) => async () => {
        const roll = random();
        const [kind, method, route, body] =
          roll < 0.5
            ? ['read', 'GET', `/sandbox/customer/${pick(random, customers)}`, undefined]
            : roll < 0.75
              ? ['create', 'POST', '/sandbox/customer', buildCustomerInput()]
              : ['create account', 'POST', '/sandbox/account', buildAccountInput([pick(random, customers.slice(1))])];
        const res = await traffic.send(kind, method, route, body);
        if (res.status === 201)
          acknowledged.push(
            route.endsWith('customer')
              ? { kind: 'customer', id: res.json.data.customerId }
              : { kind: 'account', id: res.json.data.accountId },
          );
        if (res.status === 0) await sleep(20); // refused: a real client backs off
      },
    );

    await sleep(1500);
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [lockedCustomer]);
    const heldRequests = Array.from({ length: held }, (_, n) =>
      api
        .send('PUT', `/sandbox/customer/${lockedCustomer}`, { preferredName: `held ${n}` }, {}, 15_000)
        .then((res) => heldAnswers.push(res)),
    );
    for (let waited = 0; ; waited += 20) {
      const { rows } = await holder.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = 'customer-account-service'",
      );
      if (Number(rows[0]!.n) >= held) break;
      if (waited > 5000) throw new Error('the held requests never reached the database');
      await sleep(20);
    }
    await sleep(500);

    const signalledAt = performance.now();
    service.signal('SIGTERM');
    log('SIGTERM sent');
    await sleep(500);
    await holder.query('ROLLBACK');
    await holder.end();
    await Promise.all(heldRequests);
    const exit = await Promise.race([service.exited, sleep(15_000).then(() => undefined)]);
    await sleep(200);
    await load.stop();
    api.client.close();

    const exitMs = exit ? Math.round(exit.atMs - signalledAt) : undefined;
    figures.exitMs = exitMs;
    figures.exitCode = exit?.code;
    if (!exit) problems.push('the service did not exit within 15 s of SIGTERM');
    else {
      if (exit.code !== 0) problems.push(`exit code ${exit.code} (signal ${exit.signal})`);
      if (exitMs! > EXIT_WITHIN_MS) problems.push(`exited ${exitMs} ms after SIGTERM`);
    }

    // In flight at SIGTERM: held requests and load requests sent before it must all have completed.
    for (const res of heldAnswers)
      if (res.status !== 200)
        problems.push(`a held request answered ${res.status} ${res.error ?? res.json?.error?.code ?? ''}`);
    const before = samples.filter((s) => s.startedAt < signalledAt);
    const inFlight = before.filter((s) => s.endedAt >= signalledAt);
    const after = samples.filter((s) => s.startedAt >= signalledAt);
    for (const s of before) {
      if (s.res.status === 0) problems.push(`a ${s.method} sent before SIGTERM got no answer (${s.res.error})`);
      else if (s.res.status >= 500) problems.push(`a ${s.method} sent before SIGTERM answered ${s.res.status}`);
    }
    const refused = after.filter((s) => s.res.status === 0);
    const servedAfter = after.filter((s) => s.res.status !== 0);
    for (const s of servedAfter)
      if (s.res.status >= 500) problems.push(`a ${s.method} sent after SIGTERM answered ${s.res.status}`);
    const lastServed = Math.max(0, ...servedAfter.map((s) => s.startedAt - signalledAt));
    const refusals = Object.fromEntries(
      [...new Set(refused.map((s) => s.res.error))].map((e) => [e, refused.filter((s) => s.res.error === e).length]),
    );
    Object.assign(figures, {
      requests: samples.length + heldAnswers.length,
      inFlightAtSigterm: inFlight.length + heldAnswers.length,
      sentAfterSigterm: after.length,
      servedAfterSigterm: servedAfter.length,
      lastServedRequestSentMsAfterSigterm: round(lastServed),
      refusedAfterSigterm: refused.length,
      refusals,
    });
    if (refused.length === 0) problems.push('no request was refused after SIGTERM');

    // The embedded PostgreSQL was stopped cleanly by the service itself.
    const clusterDir = path.join(dataDir, 'postgres');
    figures.clusterState = clusterState(clusterDir);
    figures.postmasterPidLeft = existsSync(path.join(clusterDir, 'postmaster.pid'));
    if (figures.clusterState !== 'shut down')
      problems.push(`the embedded PostgreSQL cluster is "${figures.clusterState}", not "shut down"`);
    if (figures.postmasterPidLeft) problems.push('postmaster.pid was left behind');
    if (await listening(postgresPort)) problems.push('the embedded PostgreSQL still listens');

    // Restart on the same DATA_DIR: everything acknowledged is there.
    service = await startServiceProcess({ name: 'shutdown-restart', env, readyTimeoutMs: 120_000 });
    const again = createApi(service.url, secrets.API_TOKENS!, 16);
    for (let i = 0; i < acknowledged.length; i += 16) {
      await Promise.all(
        acknowledged.slice(i, i + 16).map(async (record) => {
          const res = await again.json('GET', `/sandbox/${record.kind}/${record.id}`);
          if (res.status !== 200)
            problems.push(`acknowledged ${record.kind} ${record.id} answers ${res.status} after the restart`);
        }),
      );
    }
    const locked = await again.json('GET', `/sandbox/customer/${lockedCustomer}`);
    if (!/^held \d+$/.test(locked.json?.data?.preferredName ?? ''))
      problems.push(`the held updates were not stored (${locked.json?.data?.preferredName})`);
    again.client.close();
    await service.stop();
    const second = await service.exited;
    if (second.code !== 0) problems.push(`the restarted service exited with ${second.code}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  log(JSON.stringify(figures));
  return conclude({
    problems,
    passSummary: () =>
      `${figures.inFlightAtSigterm} requests in flight at SIGTERM all completed (${held} held by a lock, answered 200 after it); ${figures.refusedAfterSigterm} later requests refused, 0 5xx; exit 0 after ${figures.exitMs} ms; embedded PostgreSQL "${figures.clusterState}"; ${acknowledged.length} acknowledged writes found after restart`,
    record: opts.record === 'true',
    row: {
      id: 'fault-shutdown',
      test: 'Graceful shutdown: SIGTERM under load (node dist/main.js, embedded PostgreSQL)',
      operations: `${formatCount(Number(figures.requests ?? 0))} requests from ${clients} clients`,
      faults: `SIGTERM with ${held} requests held in flight by a row lock`,
      command: 'npm run reliability:shutdown',
      figures,
    },
  });
});
