import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../../src/db/postgres/embedded-postgres.js';
import {
  type BankAnswer,
  type BankModel,
  type BankOp,
  bankProblems,
  type BankSurface,
  openBank,
  restSurface,
  runBankClient,
} from './lib/bank.js';
import { pick, seededRandom } from './lib/concurrency.js';
import { startDedicatedPostgres } from './lib/postgres.js';
import { formatCount } from './lib/results.js';
import {
  type Api,
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
import { buildOnce, runSecrets, type ServiceProcess, startServiceProcess } from './lib/service-process.js';

/**
 * The bank under faults (issue 15, "Correctness under concurrency and faults"): the workload of
 * scripts/reliability/test/bank.test.ts (clients moving money at random among a few accounts, every write with an
 * Idempotency-Key) against `node dist/main.js` on a PostgreSQL of the script's own (fsync on), while the
 * service is killed with SIGKILL `--service-kills` times and PostgreSQL `--pg-kills` times, each followed by
 * a restart. Every client retries its request with the same key until a definite answer (acknowledged or
 * refused). After each restart: the ledger's invariants and every acknowledged posting still stored; at the
 * end: the tables exactly as the acknowledged answers imply (nothing lost, nothing duplicated, nothing
 * refused stored, balances). Then a hot-account phase: every transfer touches one account, throughput and
 * p99 measured (and the same with transfers spread over all accounts, for comparison). Loopback only.
 */

const opts = options(
  {
    'service-kills': {
      default: '50',
      help: 'SIGKILLs of the service, each followed by a restart on the same database',
    },
    'pg-kills': {
      default: '10',
      help: 'SIGKILLs of the PostgreSQL postmaster, each followed by a restart (crash recovery)',
    },
    clients: { default: '16', help: 'concurrent clients' },
    accounts: { default: '6', help: 'accounts the money moves among (the first has an overdraft limit)' },
    'ops-between': { default: '60', help: 'definite answers (about) between two faults' },
    'hot-seconds': {
      default: '10',
      help: 'seconds of the hot-account phase (and of the spread phase it is compared with)',
    },
    ...SEED_OPTION,
    ...RECORD_OPTION,
  },
  'npm run reliability:bank -- [options]   (short form, as CI runs it: --service-kills 3 --pg-kills 1 --hot-seconds 2)',
);

const RECOVERY_LIMIT_MS = 60_000;
/** A client gives up on one request after this long without a definite answer (a problem). */
const GIVE_UP_MS = 90_000;

interface FaultFigures {
  kind: 'service' | 'postgres';
  /** Definite answers since the previous fault. */
  definiteBefore: number;
  /** Requests without their definite answer at the kill. */
  inFlight: number;
  /** From the kill until the service answered /readyz 200 again. */
  recoveryMs: number;
}

runScript('bank', async () => {
  const serviceKills = Number(opts['service-kills']);
  const pgKills = Number(opts['pg-kills']);
  const clients = Number(opts.clients);
  const opsBetween = Number(opts['ops-between']);
  const hotMs = Number(opts['hot-seconds']) * 1000;
  const seed = Number(opts.seed);
  const random = seededRandom(seed);
  buildOnce(log);
  const postgres = await startDedicatedPostgres();
  const monitor = new pg.Pool({ connectionString: postgres.databaseUrl, max: 4 });
  monitor.on('error', () => undefined); // idle connections die with PostgreSQL; the pool replaces them
  const secrets = runSecrets();
  const env = { DATABASE_URL: postgres.databaseUrl, DATABASE_POOL_SIZE: '20', ...secrets };
  const port = await freePort();
  let service: ServiceProcess | undefined;
  let api: Api | undefined;

  const problems: string[] = [];
  const statuses: Record<string, number> = {};
  const retried = { noAnswer: 0, unavailable: 0, inProgress: 0, broken: 0 };
  /** Requests that met a fault and were sent again with their key: how their definite answer came. */
  const interrupted = { requests: 0, answeredByReplay: 0, writtenOnRetry: 0, refusedOnRetry: 0 };
  const attemptsByKey = new Map<string, number>();
  let inFlight = 0;

  const surface: BankSurface = (() => {
    const rest = restSurface(async (method, path, body, headers) => {
      const res = await api!.send(method, path, body, headers, 30_000);
      return {
        status: res.status,
        json: res.json,
        text: res.text,
        header: (name) => [res.headers[name]].flat()[0],
        elapsedMs: res.elapsedMs,
        ...(res.error !== undefined && { error: res.error }),
      };
    });
    return async (op) => {
      inFlight += 1;
      try {
        const answer = await rest(op);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        if ((answer.outcome === 'ack' || answer.outcome === 'refused') && attemptsByKey.has(op.key)) {
          attemptsByKey.delete(op.key);
          interrupted.requests += 1;
          if (answer.outcome === 'refused') interrupted.refusedOnRetry += 1;
          else if (answer.replayed) interrupted.answeredByReplay += 1;
          else interrupted.writtenOnRetry += 1;
        }
        return answer;
      } finally {
        inFlight -= 1;
      }
    };
  })();

  /** A client's retry: the same request with the same key after a short pause, until a definite answer. */
  const retry = async (answer: BankAnswer, attempt: number, op: BankOp): Promise<boolean> => {
    if (answer.status === 0) retried.noAnswer += 1;
    else if (answer.status === 503) retried.unavailable += 1;
    else if (answer.code === 'IDEMPOTENCY_KEY_IN_PROGRESS') retried.inProgress += 1;
    else retried.broken += 1;
    attemptsByKey.set(op.key, attempt);
    if (attempt * 50 > GIVE_UP_MS) {
      problems.push(`${op.kind} ${op.key}: no definite answer after ${attempt} attempts (last: ${answer.detail})`);
      return false;
    }
    await sleep(25 + attempt * 5 > 100 ? 100 : 25 + attempt * 5);
    return true;
  };

  /** Until /readyz answers 200; the time it took. */
  const waitReady = async (since: number): Promise<number> => {
    while (performance.now() - since < RECOVERY_LIMIT_MS) {
      const res = await api!.send('GET', '/readyz', undefined, {}, 2000);
      if (res.status === 200) return performance.now() - since;
      await sleep(25);
    }
    throw new Error(`/readyz not 200 within ${RECOVERY_LIMIT_MS} ms`);
  };

  /** The monitor's queries, retried while PostgreSQL is still coming back. */
  const check = async (model: BankModel, final: boolean): Promise<string[]> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await bankProblems(monitor, model, { final });
      } catch (error) {
        if (attempt >= 20) throw error;
        await sleep(250);
      }
    }
  };

  const faults: FaultFigures[] = [];
  let checksAfterRestart = 0;
  let model: BankModel | undefined;
  let overdraftAccount: string | undefined;
  let hot:
    | {
        transfers: number;
        refused: number;
        seconds: number;
        throughput: number;
        p50Ms: number;
        p99Ms: number;
        maxMs: number;
      }
    | undefined;
  let spread: typeof hot;
  let storedEntries: number | undefined;
  try {
    service = await startServiceProcess({ name: 'bank', env, port });
    api = createApi(service.url, secrets.API_TOKENS!, clients * 2);
    const opened = await openBank(api.json, surface, {
      accounts: Number(opts.accounts),
      overdraftCents: 20_000,
      fundCents: 50_000,
      retry,
    });
    model = opened.model;
    overdraftAccount = opened.overdraftAccount;
    const bank = model;

    // Faults: service kills with the PostgreSQL kills spread among them.
    const total = serviceKills + pgKills;
    const schedule: ('service' | 'postgres')[] = Array.from({ length: total }, (_, i) =>
      pgKills > 0 && Math.floor(((i + 1) * pgKills) / total) > Math.floor((i * pgKills) / total)
        ? 'postgres'
        : 'service',
    );
    let running = true;
    const definite = () => bank.acknowledged.size + bank.refused.size;
    const workers = Array.from({ length: clients }, (_, client) =>
      runBankClient(bank, surface, seededRandom(seed * 100 + client), {
        stopped: () => !running,
        operations: Number.POSITIVE_INFINITY,
        replayShare: 0.05,
        retry,
      }),
    );
    let last = definite();
    for (const [index, kind] of schedule.entries()) {
      const target = last + Math.round(opsBetween * (0.5 + random()));
      const waitStarted = performance.now();
      while (
        definite() < target &&
        bank.problems.length === 0 &&
        problems.length === 0 &&
        performance.now() - waitStarted < 30_000
      )
        await sleep(5);
      if (bank.problems.length > 0 || problems.length > 0) break;
      const figures: FaultFigures = { kind, definiteBefore: definite() - last, inFlight, recoveryMs: 0 };
      const killedAt = performance.now();
      if (kind === 'service') {
        service.signal('SIGKILL');
        await service.exited;
        api.client.close();
        service = await startServiceProcess({ name: 'bank', env, port });
        api = createApi(service.url, secrets.API_TOKENS!, clients * 2);
      } else {
        await postgres.kill();
        await sleep(200);
        await postgres.start();
      }
      figures.recoveryMs = Math.round(await waitReady(killedAt));
      faults.push(figures);
      const afterRestart = await check(bank, false);
      checksAfterRestart += 1;
      problems.push(...afterRestart.map((problem) => `after ${kind} kill ${index + 1}: ${problem}`));
      log(
        `fault ${index + 1}/${total}: ${kind} SIGKILLed after ${figures.definiteBefore} definite answers, ${figures.inFlight} requests in flight; ready again after ${figures.recoveryMs} ms; ${afterRestart.length} problems after the restart`,
      );
      last = definite();
      if (afterRestart.length > 0) break;
    }
    running = false;
    await Promise.all(workers);
    log(`faults done: ${formatCount(definite())} definite answers so far; checking the whole ledger`);
    problems.push(...(await check(bank, true)));

    // Hot account: every transfer touches one account (the second: the first has the overdraft limit).
    const measure = async (name: string, next: (model: BankModel, random: () => number) => BankOp) => {
      const latencies: number[] = [];
      let refused = 0;
      let phaseRunning = true;
      const started = performance.now();
      const stop = sleep(hotMs).then(() => (phaseRunning = false));
      await Promise.all(
        Array.from({ length: clients }, (_, client) =>
          runBankClient(bank, surface, seededRandom(seed * 1000 + client), {
            stopped: () => !phaseRunning,
            operations: Number.POSITIVE_INFINITY,
            replayShare: 0,
            retry,
            next,
            onAnswer: (_op, answer) => {
              latencies.push(answer.elapsedMs);
              if (answer.outcome === 'refused') refused += 1;
            },
          }),
        ),
      );
      await stop;
      const seconds = (performance.now() - started) / 1000;
      const figures = {
        transfers: latencies.length,
        refused,
        seconds: round(seconds),
        throughput: round(latencies.length / seconds),
        p50Ms: round(percentile(latencies, 50)),
        p99Ms: round(percentile(latencies, 99)),
        maxMs: round(maximum(latencies)),
      };
      log(`${name}: ${JSON.stringify(figures)}`);
      return figures;
    };
    if (problems.length === 0 && bank.problems.length === 0 && hotMs > 0) {
      const hotAccount = bank.accounts[1]!;
      const others = bank.accounts.filter((account) => account !== hotAccount);
      const transfer = (from: string, to: string, r: () => number): BankOp => ({
        kind: 'transfer',
        key: randomUUID(),
        from,
        to,
        cents: 100 + Math.floor(r() * 400),
      });
      spread = await measure('spread over all accounts', (_m, r) => {
        const from = pick(r, bank.accounts);
        return transfer(
          from,
          pick(
            r,
            bank.accounts.filter((account) => account !== from),
          ),
          r,
        );
      });
      hot = await measure('hot account', (_m, r) => {
        const other = pick(r, others);
        return r() < 0.5 ? transfer(hotAccount, other, r) : transfer(other, hotAccount, r);
      });
      problems.push(...(await check(bank, true)));
    }
    const stored = await monitor.query<{ n: string }>(
      'SELECT count(*) AS n FROM ledger_entries WHERE NOT is_settlement',
    );
    storedEntries = Number(stored.rows[0]!.n);
  } finally {
    await service?.stop();
    api?.client.close();
    await monitor.end();
    await postgres.dispose();
  }

  const bank = model!;
  problems.push(...bank.problems);
  const broken = Object.entries(statuses).filter(([status]) => Number(status) >= 500 && status !== '503');
  if (broken.length > 0)
    problems.push(`answers with status ${broken.map(([status, n]) => `${status} × ${n}`).join(', ')}`);
  const serviceFaults = faults.filter((f) => f.kind === 'service');
  const pgFaults = faults.filter((f) => f.kind === 'postgres');
  if (serviceFaults.length !== serviceKills || pgFaults.length !== pgKills)
    problems.push(
      `${serviceFaults.length} of ${serviceKills} service kills and ${pgFaults.length} of ${pgKills} PostgreSQL kills done`,
    );
  const recovery = (list: FaultFigures[]) => ({
    median: percentile(
      list.map((f) => f.recoveryMs),
      50,
    ),
    max: maximum(list.map((f) => f.recoveryMs)),
  });
  const figures = {
    seed,
    clients,
    accounts: bank.accounts.length,
    acknowledged: bank.acknowledged.size,
    refused: bank.refused.size,
    replaysChecked: bank.replaysChecked,
    storedCustomerEntries: storedEntries,
    acknowledgedCustomerEntries: bank.expectedEntries(),
    serviceKills: serviceFaults.length,
    pgKills: pgFaults.length,
    checksAfterRestart,
    serviceRecoveryMs: recovery(serviceFaults),
    pgRecoveryMs: recovery(pgFaults),
    inFlightAtKills: faults.reduce((sum, f) => sum + f.inFlight, 0),
    interrupted,
    retried,
    statuses,
    counts: bank.counts,
    hotAccount: hot,
    spreadAccounts: spread,
    overdraftAccount,
    faults,
  };
  log(JSON.stringify({ ...figures, faults: undefined }));
  const hotText =
    hot && spread
      ? `; hot account (every transfer touches it, ${clients} clients): ${hot.throughput} transfers/s, p99 ${hot.p99Ms} ms (spread over ${bank.accounts.length} accounts: ${spread.throughput}/s, p99 ${spread.p99Ms} ms)`
      : '';
  return conclude({
    problems,
    passSummary: () =>
      `0 acknowledged postings lost, 0 duplicated (${formatCount(storedEntries ?? 0)} entries stored = ${formatCount(bank.expectedEntries())} acknowledged; 1 idempotency record and 1 audit event per acknowledged key), 0 left by ${formatCount(bank.refused.size)} refusals; ` +
      `invariants held after all ${checksAfterRestart} restarts and at the end; final balances = acknowledged operations; 0 500s; ${interrupted.requests} interrupted requests retried with their keys ` +
      `(${interrupted.answeredByReplay} had committed and replayed, ${interrupted.writtenOnRetry} written on retry, ${interrupted.refusedOnRetry} refused)${hotText}`,
    record: opts.record === 'true',
    row: {
      id: 'fault-bank',
      test: 'Bank: money moving among 6 accounts while the service and PostgreSQL are SIGKILLed',
      operations: `${formatCount(bank.acknowledged.size + bank.refused.size)} writes from ${clients} clients (${formatCount(bank.acknowledged.size)} acknowledged, ${formatCount(bank.refused.size)} refused), ${bank.replaysChecked} replays checked`,
      faults: `${serviceFaults.length} × SIGKILL of the service (restart in median ${figures.serviceRecoveryMs.median} ms), ${pgFaults.length} × SIGKILL of PostgreSQL, fsync on (ready again in median ${figures.pgRecoveryMs.median} ms); retries with the same Idempotency-Key`,
      command: [
        'npm run reliability:bank',
        ...(serviceKills !== 50 || pgKills !== 10
          ? ['--', `--service-kills ${serviceKills}`, `--pg-kills ${pgKills}`]
          : []),
      ].join(' '),
      figures,
    },
  });
});
