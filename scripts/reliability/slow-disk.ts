import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { answerProblems, startMixedLoad, statusCounts, verifyAcknowledged } from './lib/load.js';
import { type DedicatedPostgres, startDedicatedPostgres } from './lib/postgres.js';
import { formatCount } from './lib/results.js';
import {
  conclude,
  CONNECT_TIMEOUT_OPTION,
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
 * Slow disk, fsync stalls: a dedicated PostgreSQL on an ext4 file system in a loop device this script
 * makes, its processes in a cgroup (v1 blkio) whose writes to that device are throttled to `iops` writes a
 * second (`blkio.throttle.write_iops_device`) for `slow` seconds under a steady mixed load. Every commit
 * waits for its WAL to be written and fdatasync'ed by a throttled process, so commits take hundreds of
 * milliseconds to seconds; reads need no write. PostgreSQL cannot cancel a backend waiting on fsync
 * (statement_timeout waits for it), so what bounds a request is pg's query_timeout, the client-side
 * backstop (DATABASE_STATEMENT_TIMEOUT_MS + 1 s).
 *
 * Needs root: losetup, mkfs.ext4, mount, and a writable /sys/fs/cgroup/blkio (cgroup v1; dm-delay and the
 * cgroup v2 io controller are not available on the machine this was written on: docs/reliability-faults.md).
 *
 * Asserted: every answer a success or 503 SERVICE_UNAVAILABLE with Retry-After within the bound
 * (connect + 2 × (statement + 1 s) + 0.5 s), no 500, no hang; once the throttle is lifted the first
 * write is acknowledged within `recovery-limit` and, `settle` seconds later, every request succeeds; every
 * acknowledged write reads back as acknowledged.
 */

const opts = options(
  {
    clients: { default: '12', help: 'concurrent clients' },
    iops: { default: '2', help: 'writes per second the PostgreSQL processes may issue to the device while slow' },
    healthy: { default: '3', help: 'seconds of load before the throttle' },
    slow: { default: '8', help: 'seconds of throttled writes' },
    after: { default: '6', help: 'seconds of load after the throttle is lifted' },
    settle: { default: '3', help: 'seconds after lifting from which every request must succeed' },
    'recovery-limit': { default: '5', help: 'seconds after lifting within which a write must be acknowledged' },
    'statement-timeout': { default: '2000', help: 'DATABASE_STATEMENT_TIMEOUT_MS given to the service' },
    ...CONNECT_TIMEOUT_OPTION,
    ...SEED_OPTION,
    ...RECORD_OPTION,
  },
  'npm run reliability:slow-disk -- [options]   (short form: --slow 5 --after 5 --healthy 2)',
);

type Phase = 'healthy' | 'slow' | 'lifted';
const BLKIO = '/sys/fs/cgroup/blkio';

runScript('slow-disk', async () => {
  const clients = Number(opts.clients);
  const statementTimeout = Number(opts['statement-timeout']);
  const connectTimeout = Number(opts['connect-timeout']);
  const boundMs = connectTimeout + 2 * (statementTimeout + 1000) + 500;
  if (!existsSync(`${BLKIO}/blkio.throttle.write_iops_device`))
    throw new Error(`${BLKIO} (cgroup v1 blkio with throttling) is not available here`);
  buildOnce(log);
  const work = mkdtempSync(path.join(os.tmpdir(), 'cas-slow-disk-'));
  const image = path.join(work, 'disk.img');
  const mountPoint = path.join(work, 'mnt');
  const cgroup = `${BLKIO}/cas-slow-disk-${process.pid}`;
  mkdirSync(mountPoint);
  execFileSync('truncate', ['-s', '512M', image]);
  execFileSync('mkfs.ext4', ['-q', '-F', image]);
  const loop = execFileSync('losetup', ['-f', '--show', image]).toString().trim();
  let postgres: DedicatedPostgres | undefined;
  let service: Awaited<ReturnType<typeof startServiceProcess>> | undefined;
  let load: ReturnType<typeof startMixedLoad> | undefined;
  const problems: string[] = [];
  try {
    execFileSync('mount', [loop, mountPoint]);
    const [major, minor] = execFileSync('stat', ['-c', '%t %T', loop])
      .toString()
      .trim()
      .split(' ')
      .map((hex) => parseInt(hex, 16));
    const device = `${major}:${minor}`;
    mkdirSync(cgroup);
    postgres = await startDedicatedPostgres({ parentDir: mountPoint });
    // The postmaster and every process it has forked; backends forked later inherit the cgroup.
    const postmaster = Number(
      readFileSync(path.join(postgres.dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    const children = execFileSync('pgrep', ['-P', String(postmaster)])
      .toString()
      .trim()
      .split('\n')
      .filter(Boolean);
    for (const pid of [String(postmaster), ...children]) writeFileSync(`${cgroup}/cgroup.procs`, pid);
    const throttle = (iops: number) => writeFileSync(`${cgroup}/blkio.throttle.write_iops_device`, `${device} ${iops}`); // 0 lifts it

    const secrets = runSecrets();
    service = await startServiceProcess({
      name: 'slow-disk',
      env: {
        DATABASE_URL: postgres.databaseUrl,
        DATABASE_STATEMENT_TIMEOUT_MS: String(statementTimeout),
        DATABASE_CONNECT_TIMEOUT_MS: String(connectTimeout),
        ...secrets,
      },
    });
    const api = createApi(service.url, secrets.API_TOKENS!, clients * 2 + 4);
    let phase: Phase = 'healthy';
    const phaseStart: Partial<Record<Phase, number>> = { healthy: performance.now() };
    load = startMixedLoad(api, {
      clients,
      seed: Number(opts.seed),
      phase: () => phase,
      requestTimeoutMs: boundMs + 5000,
    });
    await sleep(Number(opts.healthy) * 1000);
    log(`phase slow: ${opts.iops} writes/s to ${loop} (${device})`);
    phase = 'slow';
    phaseStart.slow = performance.now();
    throttle(Number(opts.iops));
    await sleep(Number(opts.slow) * 1000);
    log('phase lifted');
    phase = 'lifted';
    const liftedAt = performance.now();
    phaseStart.lifted = liftedAt;
    throttle(0);
    await sleep(Number(opts.after) * 1000);
    await load.stop();
    if (!service.isRunning()) problems.push('the service exited');
    problems.push(...(await verifyAcknowledged(api, load)));

    const samples = load.samples;
    for (const sample of samples) problems.push(...answerProblems(sample, boundMs));
    const inSlow = samples.filter((s) => s.phase === 'slow' && s.endPhase === 'slow');
    const after = samples.filter((s) => s.startedAt >= liftedAt);
    const firstWrite = after
      .filter((s) => s.kind !== 'read' && s.res.status >= 200 && s.res.status < 300)
      .map((s) => s.startedAt + s.res.elapsedMs - liftedAt);
    const firstWriteMs = firstWrite.length > 0 ? Math.round(Math.min(...firstWrite)) : undefined;
    if (firstWriteMs === undefined || firstWriteMs > Number(opts['recovery-limit']) * 1000)
      problems.push(`first acknowledged write ${firstWriteMs ?? 'never'} ms after lifting`);
    const settled = after.filter((s) => s.startedAt - liftedAt >= Number(opts.settle) * 1000);
    const failed = settled.filter((s) => s.res.status >= 300);
    if (settled.length === 0 || failed.length > 0)
      problems.push(`${failed.length} of ${settled.length} requests from ${opts.settle} s after lifting failed`);
    const byKind = (kind: string) => {
      const list = inSlow.filter((s) => (kind === 'write' ? s.kind !== 'read' : s.kind === 'read'));
      const ok = list.filter((s) => s.res.status < 300).map((s) => s.res.elapsedMs);
      return {
        statuses: statusCounts(list),
        successP50Ms: round(percentile(ok, 50)),
        successP99Ms: round(percentile(ok, 99)),
        maxMs: round(maximum(list.map((s) => s.res.elapsedMs))),
      };
    };
    const healthy = samples.filter((s) => s.phase === 'healthy' && s.endPhase === 'healthy');
    const figures = {
      boundMs,
      settings: {
        writeIops: Number(opts.iops),
        statementTimeoutMs: statementTimeout,
        connectTimeoutMs: connectTimeout,
        clients,
      },
      requests: samples.length,
      statuses: statusCounts(samples),
      healthyP99Ms: round(
        percentile(
          healthy.map((s) => s.res.elapsedMs),
          99,
        ),
      ),
      duringSlow: { writes: byKind('write'), reads: byKind('read') },
      firstAcknowledgedWriteAfterLiftingMs: firstWriteMs,
      maxLatencyMs: round(maximum(samples.map((s) => s.res.elapsedMs))),
      acknowledgedWrites: load.acknowledgedWrites(),
      customersChecked: load.customers.size,
      seed: Number(opts.seed),
    };
    log(JSON.stringify(figures));
    const w = figures.duringSlow.writes;
    const r = figures.duringSlow.reads;
    return conclude({
      problems,
      shown: 25,
      passSummary: () =>
        `at ${opts.iops} writes/s: writes ${JSON.stringify(w.statuses)} (acknowledged in p50 ${w.successP50Ms} ms), reads ${JSON.stringify(r.statuses)} (p99 ${r.successP99Ms} ms); max ${figures.maxLatencyMs} ms (bound ${boundMs} ms), 0 500s, 0 hangs; ` +
        `first write acknowledged ${firstWriteMs} ms after lifting; ${formatCount(figures.acknowledgedWrites)} acknowledged writes all present`,
      record: opts.record === 'true',
      row: {
        id: 'fault-slow-disk',
        test: "Slow disk: PostgreSQL's writes and fsyncs throttled (loop device, cgroup blkio) under load",
        operations: `${formatCount(samples.length)} requests from ${clients} clients (reads, keyed creations, updates)`,
        faults: `${opts.slow} s at ${opts.iops} writes/s for every PostgreSQL process (blkio.throttle.write_iops_device on an ext4 loop device); DATABASE_STATEMENT_TIMEOUT_MS=${statementTimeout}`,
        command: 'npm run reliability:slow-disk',
        figures,
      },
    });
  } finally {
    await load?.stop();
    await service?.stop();
    try {
      writeFileSync(
        `${cgroup}/blkio.throttle.write_iops_device`,
        `${execFileSync('stat', ['-c', '%t %T', loop])
          .toString()
          .trim()
          .split(' ')
          .map((hex) => parseInt(hex, 16))
          .join(':')} 0`,
      );
    } catch {
      // no cgroup
    }
    await postgres?.dispose().catch(() => undefined);
    try {
      execFileSync('umount', [mountPoint]);
    } catch {
      // not mounted
    }
    execFileSync('losetup', ['-d', loop]);
    try {
      rmdirSync(cgroup);
    } catch {
      // not made, or a process still in it
    }
    rmSync(work, { recursive: true, force: true });
  }
});
