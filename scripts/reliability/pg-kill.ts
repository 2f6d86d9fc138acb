import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { buildAccountInput, buildCustomerInput } from '../../test/support/factories.js';
import { checkAccountLinks, storageProblems } from './lib/consistency.js';
import { answerOf, envelopeProblems } from './lib/envelope.js';
import { pick, seededRandom } from './lib/concurrency.js';
import { type DedicatedPostgres, startDedicatedPostgres } from './lib/postgres.js';
import { formatCount } from './lib/results.js';
import {
  type ApiAnswer,
  conclude,
  createApi,
  log,
  maximum,
  options,
  percentile,
  RECORD_OPTION,
  round,
  runScript,
  SEED_OPTION,
} from './lib/script.js';
import { buildOnce, runSecrets, startServiceProcess } from './lib/service-process.js';

/**
 * PostgreSQL killed: the service on its default set-up (embedded PostgreSQL, no DATABASE_URL) under a mixed
 * write load, and the embedded postmaster killed with SIGKILL again and again. The service must restart it
 * by itself every time (src/db/postgres/postgres-supervisor.ts): no human action, no service restart. Meanwhile every
 * answer is a success or 503 SERVICE_UNAVAILABLE in the envelope (never a 500, never a hang); clients retry
 * a 503 with the same request (creations with the same Idempotency-Key), as Retry-After asks. Afterwards
 * every acknowledged write must be there as acknowledged, no record half written, invariant 3 holding.
 * Recovery time: from the kill to the first /readyz 200.
 *
 * `--target external`: the same against a PostgreSQL of the script's own named by DATABASE_URL, which the
 * script restarts `--restart-after` seconds after each kill, as systemd's Restart=always would; the service
 * only has to reconnect.
 */

const opts = options(
  {
    kills: { default: '10', help: 'SIGKILLs of the embedded postmaster' },
    clients: { default: '16', help: 'concurrent clients' },
    between: { default: '2', help: 'seconds of load after each recovery before the next kill' },
    target: {
      default: 'embedded',
      help: 'embedded (the service restarts it) or external (DATABASE_URL; the script restarts it)',
    },
    'restart-after': { default: '0.5', help: 'external: seconds before the script restarts the killed server' },
    ...SEED_OPTION,
    ...RECORD_OPTION,
  },
  'npm run reliability:pg-kill -- [options]   (short form: --kills 3 --between 1)',
);

const ANSWER_WITHIN_MS = 5000;
const RECOVERY_LIMIT_MS = 30_000;

interface Customer {
  id: string;
  preferredName: string;
}
interface Account {
  id: string;
  name: string;
  customers: string[];
}
type Op =
  | { kind: 'createCustomer'; key: string; body: ReturnType<typeof buildCustomerInput> }
  | { kind: 'createAccount'; key: string; body: ReturnType<typeof buildAccountInput> }
  | { kind: 'updateCustomer'; customer: Customer; preferredName: string }
  | { kind: 'updateAccount'; account: Account; name: string };

function request(op: Op): [string, string, unknown, Record<string, string>] {
  switch (op.kind) {
    case 'createCustomer':
      return ['POST', '/sandbox/customer', op.body, { 'idempotency-key': op.key }];
    case 'createAccount':
      return ['POST', '/sandbox/account', op.body, { 'idempotency-key': op.key }];
    case 'updateCustomer':
      return ['PUT', `/sandbox/customer/${op.customer.id}`, { preferredName: op.preferredName }, {}];
    case 'updateAccount':
      return ['PUT', `/sandbox/account/${op.account.id}`, { name: op.name, currency: 'USD' }, {}];
  }
}

/** The postmaster of the service's embedded cluster, and a URL to inspect the cluster directly. */
function embedded(dataDir: string): { pid: number; url: string } {
  const lines = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
  const password = readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim();
  return {
    pid: Number(lines[0]),
    url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${lines[3]}/postgres`,
  };
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

runScript('pg-kill', async () => {
  const kills = Number(opts.kills);
  const clients = Number(opts.clients);
  const target = opts.target;
  if (target !== 'embedded' && target !== 'external') throw new Error('--target must be embedded or external');
  buildOnce(log);
  const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'cas-pg-kill-')), 'data');
  const external: DedicatedPostgres | undefined = target === 'external' ? await startDedicatedPostgres() : undefined;
  const secrets = runSecrets();
  // LOG_LEVEL info: the supervisor's "is back" lines are counted below.
  const service = await startServiceProcess({
    name: `pg-kill-${target}`,
    env: {
      DATA_DIR: dataDir,
      DATABASE_POOL_SIZE: '20',
      LOG_LEVEL: 'info',
      ...(external && { DATABASE_URL: external.databaseUrl }),
      ...secrets,
    },
  });
  const restarts: Promise<void>[] = [];
  /** Kills the postmaster; the external one is restarted by the script after --restart-after seconds. */
  const killPostgres = async (): Promise<number> => {
    if (!external) {
      const { pid } = embedded(dataDir);
      if (!isAlive(pid)) throw new Error(`postmaster ${pid} is not running`);
      process.kill(pid, 'SIGKILL');
      return pid;
    }
    const pid = await external.kill();
    restarts.push(sleep(Number(opts['restart-after']) * 1000).then(() => external.start()));
    return pid;
  };
  const api = createApi(service.url, secrets.API_TOKENS!, clients * 2);
  const problems: string[] = [];
  const customers = new Map<string, Customer>();
  const accounts = new Map<string, Account>();
  const shared: Customer[] = [];
  let acknowledged = 0;
  let retried503 = 0;
  let retried409 = 0;
  const faultStatusCounts: Record<string, number> = {};
  let killedAt: number | undefined; // set while the database is down
  const duringFault: ApiAnswer[] = [];
  const outside: ApiAnswer[] = [];
  const recoveries: { recoveryMs: number; firstWriteMs: number | undefined; requestsDuringFault: number }[] = [];
  let firstWriteAfterKill: number | undefined;
  const seed = Number(opts.seed);

  /** Sends until the answer is not a 503 (a client following Retry-After, shortened); the final answer must be the success. */
  async function perform(op: Op): Promise<ApiAnswer | undefined> {
    const [method, pathname, body, headers] = request(op);
    for (;;) {
      const res = await api.send(method, pathname, body, headers, 15_000);
      (killedAt === undefined ? outside : duringFault).push(res);
      if (res.status === 0)
        problems.push(`no answer (${res.error}) to ${op.kind} after ${Math.round(res.elapsedMs)} ms`);
      else {
        const envelope = envelopeProblems(answerOf(res), pathname);
        if (envelope.length > 0) problems.push(`${op.kind}: ${envelope.join('; ')}`);
      }
      if (res.elapsedMs > ANSWER_WITHIN_MS) problems.push(`${op.kind} took ${Math.round(res.elapsedMs)} ms`);
      if (res.status === 503) {
        if (res.json?.error?.code !== 'SERVICE_UNAVAILABLE' || res.headers['retry-after'] !== '1')
          problems.push(`a 503 that is not SERVICE_UNAVAILABLE with Retry-After: 1 (${op.kind})`);
        retried503 += 1;
        await sleep(100);
        continue;
      }
      if (res.status === 0) {
        await sleep(100);
        continue;
      }
      // The same key's earlier attempt, cut short by the crash, may still hold it for a moment: retry later.
      if (res.status === 409 && res.json?.error?.code === 'IDEMPOTENCY_KEY_IN_PROGRESS') {
        retried409 += 1;
        await sleep(200);
        continue;
      }
      const expected = op.kind.startsWith('create') ? 201 : 200;
      if (res.status !== expected) {
        problems.push(`${op.kind} answered ${res.status} ${res.json?.error?.code ?? ''}`);
        return undefined;
      }
      if (killedAt !== undefined) firstWriteAfterKill ??= performance.now();
      acknowledged += 1;
      return res;
    }
  }

  let running = true;
  const load = async (client: number) => {
    const random = seededRandom(seed * 100 + client);
    const mine: { customers: Customer[]; accounts: Account[] } = { customers: [], accounts: [] };
    while (running && problems.length < 50) {
      const roll = random();
      let op: Op;
      if (roll < 0.3 || mine.customers.length === 0)
        op = { kind: 'createCustomer', key: randomUUID(), body: buildCustomerInput({ preferredName: `c${client}` }) };
      else if (roll < 0.55 || mine.accounts.length === 0) {
        const owners = [
          ...new Set([
            pick(random, mine.customers).id,
            ...(shared.length > 0 && random() < 0.5 ? [pick(random, shared).id] : []),
          ]),
        ];
        op = {
          kind: 'createAccount',
          key: randomUUID(),
          body: buildAccountInput(owners, { name: `acct ${client}`, currency: 'USD' }),
        };
      } else if (roll < 0.8)
        op = {
          kind: 'updateCustomer',
          customer: pick(random, mine.customers),
          preferredName: `p${Math.floor(random() * 1e9)}`,
        };
      else op = { kind: 'updateAccount', account: pick(random, mine.accounts), name: `n${Math.floor(random() * 1e9)}` };
      const res = await perform(op);
      if (!res) continue;
      switch (op.kind) {
        case 'createCustomer': {
          const customer = { id: res.json.data.customerId as string, preferredName: op.body.preferredName! };
          if (customers.has(customer.id)) break; // an idempotent replay of our own retry
          customers.set(customer.id, customer);
          mine.customers.push(customer);
          if (mine.customers.length === 1) shared.push(customer);
          break;
        }
        case 'createAccount': {
          const account = {
            id: res.json.data.accountId as string,
            name: op.body.name,
            customers: op.body.associatedCustomerIds,
          };
          if (accounts.has(account.id)) break;
          accounts.set(account.id, account);
          mine.accounts.push(account);
          break;
        }
        case 'updateCustomer':
          op.customer.preferredName = op.preferredName;
          break;
        case 'updateAccount':
          op.account.name = op.name;
          break;
      }
    }
  };

  const readiness: { atMs: number; status: number }[] = [];
  let monitor: pg.Pool | undefined;
  try {
    const workers = Array.from({ length: clients }, (_, client) => load(client));
    await sleep(Number(opts.between) * 1000);
    for (let kill = 1; kill <= kills && problems.length === 0; kill++) {
      const ackBefore = acknowledged;
      duringFault.length = 0;
      firstWriteAfterKill = undefined;
      killedAt = performance.now();
      const pid = await killPostgres();
      let recoveredAt: number | undefined;
      let sawUnready = false;
      while (recoveredAt === undefined && performance.now() - killedAt < RECOVERY_LIMIT_MS) {
        const res = await api.send('GET', '/readyz', undefined, {}, 5000);
        readiness.push({ atMs: Math.round(performance.now() - killedAt), status: res.status });
        if (res.status === 503) sawUnready = true;
        else if (res.status === 200 && sawUnready) recoveredAt = performance.now();
        else if (res.status !== 200) problems.push(`/readyz answered ${res.status} ${res.error ?? ''}`);
        if (!service.isRunning()) throw new Error(`the service exited after kill ${kill}`);
        await sleep(20);
      }
      if (recoveredAt === undefined) {
        problems.push(`kill ${kill}: /readyz not 200 again within ${RECOVERY_LIMIT_MS} ms`);
        break;
      }
      await Promise.all(restarts);
      const recoveryMs = Math.round(recoveredAt - killedAt);
      // Let the clients' pending retries land before the window closes.
      await sleep(300);
      const firstWriteMs = firstWriteAfterKill === undefined ? undefined : Math.round(firstWriteAfterKill - killedAt);
      recoveries.push({ recoveryMs, firstWriteMs, requestsDuringFault: duringFault.length });
      const statuses = duringFault.map((res) => res.status);
      for (const status of statuses) faultStatusCounts[status] = (faultStatusCounts[status] ?? 0) + 1;
      log(
        `kill ${kill}: postmaster ${pid} SIGKILLed after ${acknowledged - ackBefore} acknowledged writes since the last one; /readyz 200 again after ${recoveryMs} ms; ` +
          `${duringFault.length} requests meanwhile (${statuses.filter((s) => s === 503).length} × 503, ${statuses.filter((s) => s >= 200 && s < 300).length} × 2xx)`,
      );
      killedAt = undefined;
      await sleep(Number(opts.between) * 1000);
    }
    running = false;
    await Promise.all(workers);

    // Everything acknowledged is there as acknowledged; nothing half written; invariant 3 holds.
    const verifyProblems: string[] = [];
    for (const customer of customers.values()) {
      const res = await api.json('GET', `/sandbox/customer/${customer.id}`);
      if (res.status !== 200) verifyProblems.push(`acknowledged customer ${customer.id} answers ${res.status}`);
      else if (res.json.data.preferredName !== customer.preferredName)
        verifyProblems.push(`customer ${customer.id} differs from its last acknowledged write`);
    }
    for (const account of accounts.values()) {
      const res = await api.json('GET', `/sandbox/account/${account.id}`);
      if (res.status !== 200) verifyProblems.push(`acknowledged account ${account.id} answers ${res.status}`);
      else if (
        res.json.data.name !== account.name ||
        JSON.stringify(res.json.data.customers) !== JSON.stringify(account.customers)
      ) {
        verifyProblems.push(`account ${account.id} differs from its last acknowledged write`);
      }
    }
    const links = await checkAccountLinks(api.json, 'sandbox', customers.keys(), accounts.keys());
    verifyProblems.push(...links.problems);
    monitor = new pg.Pool({ connectionString: external?.databaseUrl ?? embedded(dataDir).url, max: 2 });
    verifyProblems.push(...(await storageProblems(monitor)));
    const stored = await monitor.query<{ kind: string; id: string }>(
      "SELECT 'customer' AS kind, id::text AS id FROM customers UNION ALL SELECT 'account', id::text FROM accounts",
    );
    const unknown = stored.rows.filter((row) =>
      row.kind === 'customer' ? !customers.has(row.id) : !accounts.has(row.id),
    );
    if (unknown.length > 0) verifyProblems.push(`${unknown.length} stored records no client was told about`);
    problems.push(...verifyProblems);
  } finally {
    running = false;
    await monitor?.end();
    await service.stop();
    await Promise.allSettled(restarts);
    await external?.dispose();
    rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }

  const serviceLog = readFileSync(service.logFile, 'utf8');
  const deaths = (serviceLog.match(/embedded PostgreSQL exited unexpectedly/g) ?? []).length;
  const backs = (serviceLog.match(/embedded PostgreSQL is back after/g) ?? []).length;
  if (!external && (deaths !== recoveries.length || backs !== recoveries.length))
    problems.push(`the service logged ${deaths} deaths and ${backs} recoveries for ${recoveries.length} kills`);
  if (recoveries.length !== kills) problems.push(`${recoveries.length} of ${kills} kills recovered`);

  const recoveryTimes = recoveries.map((r) => r.recoveryMs);
  const figures = {
    kills: recoveries.length,
    recoveryMs: {
      median: percentile(recoveryTimes, 50),
      p90: percentile(recoveryTimes, 90),
      max: maximum(recoveryTimes),
      each: recoveryTimes,
    },
    firstAcknowledgedWriteAfterKillMs: recoveries.map((r) => r.firstWriteMs),
    requestsDuringFaults: recoveries.reduce((sum, r) => sum + r.requestsDuringFault, 0),
    statusesDuringFaults: faultStatusCounts,
    retriedAfter503: retried503,
    retriedAfter409InProgress: retried409,
    acknowledgedWrites: acknowledged,
    checked: { customers: customers.size, accounts: accounts.size },
    latencyMs: {
      p99: round(
        percentile(
          outside.map((r) => r.elapsedMs),
          99,
        ),
      ),
      max: round(maximum([...outside, ...duringFault].map((r) => r.elapsedMs))),
    },
    seed,
  };
  log(JSON.stringify(figures));
  return conclude({
    problems,
    passSummary: () =>
      `${recoveries.length} kills, each recovered ${external ? `(PostgreSQL restarted by the script after ${opts['restart-after']} s) without restarting the service` : 'by the service alone'} (readyz 200 again after median ${figures.recoveryMs.median} ms, max ${figures.recoveryMs.max} ms); ` +
      `requests meanwhile answered 503 SERVICE_UNAVAILABLE + Retry-After, 0 500s, 0 hangs; ${formatCount(acknowledged)} acknowledged writes all present, 0 partial records, invariant 3 holds`,
    record: opts.record === 'true',
    row: {
      id: external ? 'fault-pg-kill-external' : 'fault-pg-kill',
      test: external
        ? 'PostgreSQL kill -9: an external postmaster SIGKILLed under a mixed write load'
        : 'PostgreSQL kill -9: the embedded postmaster SIGKILLed under a mixed write load',
      operations: `${formatCount(acknowledged)} acknowledged writes from ${clients} clients, ${formatCount(figures.requestsDuringFaults)} requests during the faults`,
      faults: external
        ? `${recoveries.length} × SIGKILL of the PostgreSQL named by DATABASE_URL, restarted by the script after ${opts['restart-after']} s`
        : `${recoveries.length} × SIGKILL of the embedded PostgreSQL's postmaster (default npm start set-up)`,
      command: [
        'npm run reliability:pg-kill',
        ...(kills !== 10 || external ? ['--'] : []),
        ...(kills !== 10 ? [`--kills ${kills}`] : []),
        ...(external ? ['--target external'] : []),
      ].join(' '),
      figures,
    },
  });
});
