import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { takeOverShutdownSignals } from '../../src/db/postgres/embedded-postgres.js';
import { type PatroniFleet, startPatroniFleet } from '../fleet/lib/fleet.js';
import { installPartitionMarks, type PartitionMarks, type PartitionScope } from '../fleet/lib/partition.js';
import { type PatroniMember, waitFor } from '../fleet/lib/patroni.js';
import { serverStates } from '../fleet/lib/daemons.js';
import {
  type BankAnswer,
  type BankModel,
  type BankOp,
  bankProblems,
  type BankSurface,
  ENVIRONMENT,
  openBank,
  restSurface,
  runBankClient,
} from './lib/bank.js';
import { seededRandom } from './lib/concurrency.js';
import { buildCustomerInput } from '../../test/support/factories.js';
import { conclude, createApi, log, options, RECORD_OPTION, round, runScript, SEED_OPTION } from './lib/script.js';
import { buildOnce } from './lib/service-process.js';

const run = promisify(execFile);

/**
 * `npm run reliability:patroni -- --fault <fault>`: automatic failover on the fleet of `npm run fleet`
 * (etcd ×3, PostgreSQL 15 ×3 under Patroni with synchronous replication, HAProxy routing by Patroni's
 * /primary and /replica checks, the service's instances), under the bank's workload (scripts/reliability/
 * bank.ts: clients moving money among a few accounts through HAProxy, every write with an Idempotency-Key,
 * each retried with its key until a definite answer, as a client following Retry-After does). Faults, each
 * `--failovers` times in a row on whichever member leads:
 *  - pg-kill: SIGKILL of the leader's postmaster (Patroni stays; primary_start_timeout 0: a standby takes over);
 *  - patroni-kill: SIGKILL of the leader's Patroni (its PostgreSQL keeps running unmanaged until the leader
 *    key expires; the new leader is elected; the old Patroni is started again and turns its server into a replica);
 *  - partition: every packet to and from the leader's address (etcd, PostgreSQL, REST API) dropped by an
 *    iptables rule; the old primary must stop accepting writes (a write is tried on it directly, over its
 *    Unix socket, and on the new primary through HAProxy), then the partition heals and it rejoins;
 *  - partial-partition: only the connections between the leader and the other members dropped (etcd's peers,
 *    replication, Patroni to Patroni); HAProxy and the service still reach it. Its commits wait for a
 *    synchronous standby it cannot reach, so it acknowledges nothing; its etcd is in the minority, so its
 *    Patroni demotes it; the same checks as the partition's follow;
 *  - switchover: `patronictl switchover` to a replica, as maintenance does.
 * Measured per failover: seconds without an acknowledged write, answers that were not definite (503, no
 * answer: each retried), the time to a new leader; checked after each: the ledger's invariants and every
 * acknowledged write still there (the acknowledged-write log, one JSON line per write, is kept in the run's
 * directory); read-your-writes through the replica router with the write's Consistency-Token; /readyz's role.
 * At the end: the tables exactly as the acknowledged answers imply. Needs root (Debian packages, iptables).
 */

const opts = options(
  {
    fault: {
      default: 'pg-kill',
      help: 'pg-kill | patroni-kill | partition | partial-partition | switchover | none (throughput only)',
    },
    seconds: { default: '20', help: 'with --fault none: seconds of load measured' },
    failovers: { default: '1', help: 'failovers in a row' },
    clients: { default: '8', help: 'bank clients' },
    instances: { default: '2', help: 'service instances behind HAProxy' },
    'ops-between': { default: '80', help: 'definite answers (about) between two failovers' },
    keep: { default: 'false', help: 'keep the run directory (logs, the acknowledged-write log)' },
    ...SEED_OPTION,
    ...RECORD_OPTION,
  },
  'npm run reliability:patroni -- --fault pg-kill|patroni-kill|partition|partial-partition|switchover [--failovers N]',
);

type Fault = 'pg-kill' | 'patroni-kill' | 'partition' | 'partial-partition' | 'switchover' | 'none';
const FAULTS: readonly Fault[] = ['pg-kill', 'patroni-kill', 'partition', 'partial-partition', 'switchover', 'none'];
/** What a partition fault cuts the leader off from (scripts/fleet/lib/partition.ts). */
const PARTITIONS: Partial<Record<Fault, PartitionScope>> = { partition: 'all', 'partial-partition': 'peers' };
/** A client gives up on one request after this long without a definite answer (a problem). */
const GIVE_UP_MS = 90_000;

interface FailoverFigures {
  fault: Fault;
  from: string;
  to: string;
  /** From the fault until another member answered /primary 200. */
  newLeaderMs: number;
  /** The longest gap between two acknowledged writes around the fault. */
  noWritesMs: number;
  /** Answers that were not definite (503, no answer), each retried with its key. */
  retriedAnswers: number;
  /** Until every member streamed again (the old leader rewound and following). */
  rejoinedMs: number;
  /** A direct write on the partitioned old primary: what it answered. */
  oldPrimaryWrite?: string;
  /** Its /primary check from outside the members (as HAProxy asks) just after the cut: 0 without an answer. */
  primaryCheckAfterCut?: number;
}

runScript('patroni', async () => {
  const fault = opts.fault as Fault;
  if (!FAULTS.includes(fault)) throw new Error(`--fault must be one of ${FAULTS.join(', ')} (got ${opts.fault})`);
  if (process.getuid?.() !== 0) throw new Error('needs root: Debian packages, PostgreSQL as its own user, iptables');
  const failovers = Number(opts.failovers);
  const clients = Number(opts.clients);
  const seed = Number(opts.seed);
  const random = seededRandom(seed);
  buildOnce(log);
  takeOverShutdownSignals();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-patroni-'));
  const ackLog = path.join(dir, 'acknowledged-writes.jsonl');
  let marks: PartitionMarks | undefined;
  const partition = PARTITIONS[fault];
  if (partition) marks = await installPartitionMarks([1, 2, 3]);
  const fleetStarted = performance.now();
  let fleet: PatroniFleet | undefined;
  const problems: string[] = [];
  const figures: FailoverFigures[] = [];
  const statuses: Record<string, number> = {};
  let model: BankModel | undefined;
  let fleetStartMs: number | undefined;
  let readYourWrites = 0;
  let throughput: { writes: number; seconds: number; perSecond: number } | undefined;
  const readyRoles: string[] = [];
  let finished = false;
  try {
    fleet = await startPatroniFleet({
      dir,
      instances: Number(opts.instances),
      members: 3,
      port: 0,
      instanceEnv: {
        LOG_LEVEL: 'warn',
        RATE_LIMIT_POINTS: '0',
        DATABASE_POOL_SIZE: '10',
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
      },
      log,
      ...(marks && { memberGroup: marks.groupOf }),
    });
    fleetStartMs = performance.now() - fleetStarted;
    // Ctrl-C stops the fleet: PostgreSQL, started by Patroni, would outlive this process otherwise.
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => {
        log(`${signal}: stopping the fleet`);
        void running.stop().finally(() => marks?.remove().finally(() => process.exit(130)));
      });
    const running = fleet;
    const api = createApi(fleet.url, fleet.token, clients * 2);
    const monitor = new pg.Pool({ connectionString: fleet.databaseUrl, max: 2, connectionTimeoutMillis: 3000 });
    monitor.on('error', () => undefined);
    const acks: number[] = [];
    let retriedNow = 0;

    const rest = restSurface(async (method, urlPath, body, headers) => {
      const res = await api.send(method, urlPath, body, headers, 30_000);
      return {
        status: res.status,
        json: res.json,
        text: res.text,
        header: (name) => [res.headers[name]].flat()[0],
        elapsedMs: res.elapsedMs,
        ...(res.error !== undefined && { error: res.error }),
      };
    });
    const surface: BankSurface = async (op) => {
      const answer = await rest(op);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (answer.outcome === 'ack' && !answer.replayed) {
        acks.push(performance.now());
        // The acknowledged-write log: what a client was told, written before it is checked.
        appendFileSync(
          ackLog,
          `${JSON.stringify({ at: new Date().toISOString(), kind: op.kind, key: op.key, ids: answer.ids })}\n`,
        );
      }
      return answer;
    };
    const retry = async (answer: BankAnswer, attempt: number, op: BankOp): Promise<boolean> => {
      retriedNow += 1;
      if (answer.outcome === 'broken') problems.push(`${op.kind} answered ${answer.detail}`);
      if (attempt * 50 > GIVE_UP_MS) {
        problems.push(`${op.kind} ${op.key}: no definite answer after ${attempt} attempts (last: ${answer.detail})`);
        return false;
      }
      await sleep(Math.min(100, 25 + attempt * 5));
      return true;
    };
    const check = async (final: boolean): Promise<string[]> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await bankProblems(monitor, model!, { final });
        } catch (error) {
          if (attempt >= 40) throw error;
          await sleep(250);
        }
      }
    };

    await waitFor(
      'every instance in rotation',
      async () => Object.values(await serverStates(running.haproxy.statsSocket)).every((server) => server.up),
      30_000,
    );
    const opened = await openBank(api.json, surface, { accounts: 6, overdraftCents: 20_000, fundCents: 50_000, retry });
    model = opened.model;
    const bank = model;
    let going = true;
    const workers = Array.from({ length: clients }, (_, client) =>
      runBankClient(bank, surface, seededRandom(seed * 100 + client), {
        stopped: () => !going,
        operations: Number.POSITIVE_INFINITY,
        replayShare: 0.05,
        retry,
      }),
    );
    const definite = () => bank.acknowledged.size + bank.refused.size;

    if (fault === 'none') {
      // The ceiling of one primary with synchronous replication, as this machine shows it: acknowledged
      // writes per second with every component on the same cores.
      await sleep(3000);
      const from = acks.length;
      const started = performance.now();
      await sleep(Number(opts.seconds) * 1000);
      const seconds = (performance.now() - started) / 1000;
      throughput = {
        writes: acks.length - from,
        seconds: round(seconds),
        perSecond: round((acks.length - from) / seconds),
      };
      log(`throughput: ${JSON.stringify(throughput)}`);
    }
    for (let round_ = 1; fault !== 'none' && round_ <= failovers; round_++) {
      const target = definite() + Math.round(Number(opts['ops-between']) * (0.5 + random()));
      const waited = performance.now();
      while (definite() < target && performance.now() - waited < 60_000 && bank.problems.length === 0) await sleep(10);
      if (bank.problems.length > 0 || problems.length > 0) break;
      const leader = await steadyLeader(running, 3000);
      retriedNow = 0;
      const faultAt = performance.now();
      let oldPrimaryWrite: string | undefined;
      let primaryCheckAfterCut: number | undefined;
      if (fault === 'pg-kill') await leader.killPostgres();
      else if (fault === 'patroni-kill') await leader.killPatroni();
      else if (partition) {
        await marks!.partition(leader.index, partition);
        // The cut's scope, checked: a full partition hides the leader from HAProxy too, a partial one does not.
        primaryCheckAfterCut = await leader.check('primary');
        if ((primaryCheckAfterCut === 0) !== (partition === 'all'))
          problems.push(
            `a ${fault} of ${leader.name}: its /primary check from outside answered ${primaryCheckAfterCut || 'nothing'}`,
          );
      } else {
        const candidate = await running.cluster.syncStandby();
        await running.cluster.patronictl([
          'switchover',
          '--leader',
          leader.name,
          ...(candidate ? ['--candidate', candidate.name] : []),
          '--force',
        ]);
      }
      const newLeader = await waitForOtherLeader(running, leader, 90_000);
      const newLeaderMs = performance.now() - faultAt;
      // The first acknowledged write after the fault, then a little more load.
      const acksBefore = acks.filter((t) => t < faultAt).length;
      while (acks.length <= acksBefore + 5 && performance.now() - faultAt < 90_000) await sleep(20);
      if (partition) {
        // Until it refuses as a standby (read-only) or as a server being stopped: its Patroni, cut off from
        // etcd, demotes it, and its shutdown waits for standbys it cannot reach, refusing every connection.
        const until = performance.now() + 30_000;
        do {
          oldPrimaryWrite = await writeOnOldPrimary(leader, running.cluster.superuserPassword);
          if (/read-only|shutting down|accepted/.test(oldPrimaryWrite)) break;
          await sleep(500);
        } while (performance.now() < until);
        await marks!.heal(leader.index, partition);
      }
      if (fault === 'patroni-kill') await leader.startPatroni();
      try {
        await running.cluster.waitHealthy(2, 120_000);
      } catch (error) {
        // A cluster that does not heal may be one that lost acknowledged writes (two leaders in turn, each with
        // commits the other lacks): what the leader now holds is checked before the run gives up.
        const lost = await check(false).catch((failed: Error) => [`the check itself failed: ${failed.message}`]);
        throw new Error(
          `${(error as Error).message}; acknowledged writes checked on the leader after failover ${round_}: ${lost.length === 0 ? 'none missing' : lost.join('; ')}`,
          { cause: error },
        );
      }
      const rejoinedMs = performance.now() - faultAt;
      const window = acks.filter((t) => t > faultAt - 5000);
      const gaps = window.slice(1).map((t, i) => t - window[i]!);
      const figuresNow: FailoverFigures = {
        fault,
        from: leader.name,
        to: newLeader.name,
        newLeaderMs: Math.round(newLeaderMs),
        noWritesMs: Math.round(Math.max(0, ...gaps)),
        retriedAnswers: retriedNow,
        rejoinedMs: Math.round(rejoinedMs),
        ...(oldPrimaryWrite !== undefined && { oldPrimaryWrite }),
        ...(primaryCheckAfterCut !== undefined && { primaryCheckAfterCut }),
      };
      figures.push(figuresNow);
      if (
        oldPrimaryWrite !== undefined &&
        !/read-only transaction|the database system is shutting down/.test(oldPrimaryWrite)
      )
        problems.push(
          `the partitioned old primary ${leader.name} did not refuse a write as a standby: ${oldPrimaryWrite}`,
        );
      if (oldPrimaryWrite !== undefined) problems.push(...(await splitBrainProbeProblems(newLeader)));
      const after = await check(false);
      problems.push(...after.map((p) => `after failover ${round_}: ${p}`));
      const ryw = await readYourWritesCheck(api);
      readYourWrites += 1;
      problems.push(...ryw.map((p) => `after failover ${round_}: ${p}`));
      readyRoles.push(...(await readyzRoles(running)));
      log(
        `failover ${round_}/${failovers} (${fault}): ${leader.name} → ${newLeader.name}; ${JSON.stringify(figuresNow)}; ${after.length} ledger problems`,
      );
      if (after.length > 0) break;
    }
    going = false;
    await Promise.all(workers);
    problems.push(...bank.problems);
    problems.push(...(await check(true)));
    await monitor.end();
    api.client.close();
    finished = true;
  } finally {
    await fleet?.stop();
    await marks?.remove();
    // Kept when asked, and whenever something went wrong (a problem found or the run thrown): the logs and the
    // acknowledged-write log are the evidence.
    if (opts.keep !== 'true' && finished && problems.length === 0 && (model?.problems.length ?? 0) === 0)
      rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir} (acknowledged-write log: ${ackLog})`);
  }

  const max = (pick: (f: FailoverFigures) => number) => Math.max(0, ...figures.map(pick));
  const mean = (pick: (f: FailoverFigures) => number) =>
    figures.length === 0 ? 0 : figures.reduce((sum, f) => sum + pick(f), 0) / figures.length;
  const summary = () =>
    fault === 'none'
      ? `${throughput!.perSecond} acknowledged bank writes/s from ${clients} clients (${throughput!.writes} in ${throughput!.seconds} s), synchronous replication, invariants hold`
      : `${figures.length} ${fault} failovers: 0 acknowledged writes lost of ${model!.acknowledged.size}, invariants hold; ` +
        `no writes for ${round(mean((f) => f.noWritesMs) / 1000, 2)} s on average (max ${round(max((f) => f.noWritesMs) / 1000, 2)} s), ` +
        `new leader after ${round(mean((f) => f.newLeaderMs) / 1000, 2)} s on average; ` +
        `${figures.reduce((n, f) => n + f.retriedAnswers, 0)} answers retried (503, none, or key in progress), 0 requests failed`;
  log(
    `figures: ${JSON.stringify({ fleetStartMs: Math.round(fleetStartMs ?? 0), statuses, readYourWrites, readyRoles: [...new Set(readyRoles)], failovers: figures })}`,
  );
  return conclude({
    problems,
    complete: fault === 'none' ? throughput !== undefined : figures.length === failovers,
    passSummary: summary,
    record: opts.record === 'true',
    row: {
      id: `patroni-${fault}`,
      test: `Patroni failover (${fault}): etcd ×3, PostgreSQL 15 ×3 under Patroni (synchronous_mode_strict), HAProxy, ${opts.instances} instances`,
      operations: `${model?.acknowledged.size ?? 0} acknowledged bank writes from ${clients} clients`,
      faults: fault === 'none' ? 'none (throughput)' : `${failovers} × ${fault} of the leader`,
      command:
        fault === 'none'
          ? `npm run reliability:patroni -- --fault none --clients ${clients} --seconds ${opts.seconds}`
          : `npm run reliability:patroni -- --fault ${fault} --failovers ${failovers}`,
      figures: { statuses, readYourWrites, failovers: figures, ...(throughput && { throughput }) },
    },
  });
});

/**
 * The leader once the cluster is settled: every member streaming, a synchronous standby, and the same single
 * leader for `steadyMs` (a member just back from a fault may still move things around).
 */
async function steadyLeader(fleet: PatroniFleet, steadyMs: number): Promise<PatroniMember> {
  const started = performance.now();
  for (;;) {
    const leader = await fleet.cluster.waitHealthy(2, 120_000);
    const since = performance.now();
    let steady = true;
    while (steady && performance.now() - since < steadyMs) {
      await sleep(250);
      steady = (await fleet.cluster.leader()) === leader;
    }
    if (steady) return leader;
    if (performance.now() - started > 180_000) throw new Error('no steady leader within 180 s');
  }
}

/** Waits until a member other than `old` answers /primary 200 (and `old` does not). */
async function waitForOtherLeader(fleet: PatroniFleet, old: PatroniMember, timeoutMs: number): Promise<PatroniMember> {
  const started = performance.now();
  for (;;) {
    const leader = await fleet.cluster.leader();
    if (leader && leader !== old) return leader;
    if (performance.now() - started > timeoutMs) throw new Error(`no new leader within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/**
 * A write straight to the partitioned old primary over its Unix socket (the partition is on its address):
 * a row in a probe table, with a statement time-out. Answers what PostgreSQL said; the row must never
 * reach the new primary.
 */
async function writeOnOldPrimary(old: PatroniMember, password: string): Promise<string> {
  try {
    const { stdout, stderr } = await run(
      '/usr/lib/postgresql/15/bin/psql',
      [
        '-qAtX',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        old.socketDir,
        '-p',
        String(old.pgPort),
        '-U',
        'postgres',
        '-d',
        'cas',
        '-c',
        "SET statement_timeout = '3s'",
        '-c',
        'CREATE TABLE IF NOT EXISTS split_brain_probe (written_at timestamptz DEFAULT now())',
        '-c',
        'INSERT INTO split_brain_probe DEFAULT VALUES',
      ],
      { env: { ...process.env, PGPASSWORD: password } },
    );
    return `accepted: ${stdout.trim()} ${stderr.trim()}`;
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error).trim();
  }
}

/** The probe table, if the old primary's write got anywhere, must not be on the new primary. */
async function splitBrainProbeProblems(leader: PatroniMember): Promise<string[]> {
  const found = (await leader.psql("SELECT count(*) FROM pg_tables WHERE tablename = 'split_brain_probe'")).trim();
  return found === '0' ? [] : ['the old primary’s write (split_brain_probe) is on the new primary: split brain'];
}

/**
 * Read-your-writes across the failover: a customer created, then read with the Consistency-Token its
 * creation answered; it must be found (by a replica once replayed, or by the primary). A customer, not a
 * deposit: the bank's accounts hold only what the workload's model knows of.
 */
async function readYourWritesCheck(api: ReturnType<typeof createApi>): Promise<string[]> {
  const key = randomUUID();
  const body = buildCustomerInput({ preferredName: 'read-your-writes probe' });
  for (let attempt = 1; attempt <= 100; attempt++) {
    const write = await api.send('POST', `/${ENVIRONMENT}/customer`, body, { 'idempotency-key': key });
    if (write.status === 503 || write.status === 0) {
      await sleep(100);
      continue;
    }
    const token = [write.headers['consistency-token']].flat()[0];
    if (write.status !== 201 || !token) return [`the probe's creation answered ${write.status}, token ${token}`];
    const read = await api.send('GET', `/${ENVIRONMENT}/customer/${write.json.data.customerId}`, undefined, {
      'consistency-token': token,
    });
    return read.status === 200 ? [] : [`a read with the creation's Consistency-Token answered ${read.status}`];
  }
  return ['the probe creation never got a definite answer'];
}

/** What each instance's /readyz says of the database role. */
async function readyzRoles(fleet: PatroniFleet): Promise<string[]> {
  const roles: string[] = [];
  for (const instance of fleet.instances) {
    const res = await fetch(`http://${instance.address}/readyz`);
    const body = (await res.json()) as { database?: { role?: string } };
    roles.push(`${res.status} ${body.database?.role ?? 'no role'}`);
  }
  return roles;
}
