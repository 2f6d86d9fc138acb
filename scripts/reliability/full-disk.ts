import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { answerProblems, startMixedLoad, statusCounts, verifyAcknowledged } from './lib/load.js';
import { type DedicatedPostgres, startDedicatedPostgres } from './lib/postgres.js';
import { phaseClock } from './lib/phases.js';
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
 * Full disk: a dedicated PostgreSQL (data directory and pg_wal together) on a small tmpfs this script mounts
 * (`mount -t tmpfs -o size=…`: root, or CAP_SYS_ADMIN, is needed). Under a steady mixed load (reads, keyed
 * creations, updates) a ballast file fills every byte left; the script also asks PostgreSQL to start a new
 * WAL segment (`pg_switch_wal()`, `--switch-wal`), as the load would a little later, because a segment
 * that cannot be created is the write PostgreSQL cannot survive. It then frees the ballast.
 *
 * What PostgreSQL does is read from its own log (PANIC, "No space left on device", crash restarts). The
 * script plays the orchestrator for the external PostgreSQL: when the postmaster exits it starts it again,
 * every `restart-every` seconds, as systemd's Restart=always would (the embedded set-up's supervisor does
 * the same by itself: src/db/postgres/postgres-supervisor.ts, `npm run reliability:pg-kill`).
 *
 * Asserted: every answer is a success or 503 SERVICE_UNAVAILABLE with Retry-After (never a 500) within the
 * bound (DATABASE_CONNECT_TIMEOUT_MS + 2 × (DATABASE_STATEMENT_TIMEOUT_MS + 1 s) + 0.5 s); no request hangs;
 * the service is never restarted; after the ballast is freed the first acknowledged write comes within
 * `recovery-limit` and, from `settle` seconds later, every request succeeds; every acknowledged write reads
 * back as acknowledged. Reads during the full disk are counted: they succeed while PostgreSQL is up.
 */

const opts = options(
  {
    clients: { default: '12', help: 'concurrent clients' },
    size: { default: '160m', help: 'size of the tmpfs holding the PostgreSQL cluster' },
    healthy: { default: '3', help: 'seconds of load before the disk is filled' },
    full: { default: '8', help: 'seconds the disk stays full' },
    after: { default: '8', help: 'seconds of load after the ballast is freed' },
    settle: { default: '4', help: 'seconds after recovery from which every request must succeed' },
    'recovery-limit': { default: '20', help: 'seconds after freeing within which a write must be acknowledged again' },
    'switch-wal': {
      default: 'true',
      help: 'call pg_switch_wal() while the disk is full (a new WAL segment is needed at once)',
    },
    'restart-every': {
      default: '1',
      help: "seconds between the orchestrator's attempts to start an exited PostgreSQL",
    },
    'statement-timeout': { default: '2000', help: 'DATABASE_STATEMENT_TIMEOUT_MS given to the service' },
    ...CONNECT_TIMEOUT_OPTION,
    ...SEED_OPTION,
    ...RECORD_OPTION,
  },
  'npm run reliability:full-disk -- [options]   (short form: --full 5 --after 6 --healthy 2)',
);

type Phase = 'healthy' | 'full' | 'freed';

/** Writes zeros until the file system refuses (ENOSPC), in shrinking chunks so that no byte is left. */
function fillUp(file: string): number {
  const fd = openSync(file, 'a');
  let written = 0;
  try {
    for (let chunk = 1 << 20; chunk >= 512; chunk >>= 1) {
      const zeros = Buffer.alloc(chunk);
      for (;;) {
        try {
          written += writeSync(fd, zeros);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

runScript('full-disk', async () => {
  const clients = Number(opts.clients);
  const statementTimeout = Number(opts['statement-timeout']);
  const connectTimeout = Number(opts['connect-timeout']);
  const boundMs = connectTimeout + 2 * (statementTimeout + 1000) + 500;
  buildOnce(log);

  const mountPoint = mkdtempSync(path.join(os.tmpdir(), 'cas-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${opts.size},mode=0755`, 'tmpfs', mountPoint], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    rmSync(mountPoint, { recursive: true, force: true });
    throw new Error(
      `cannot mount a tmpfs here (root or CAP_SYS_ADMIN is needed): ${(error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message}`,
      { cause: error },
    );
  }
  const serverLog: { atMs: number; line: string }[] = [];
  const t0 = performance.now();
  let postgres: DedicatedPostgres | undefined;
  const problems: string[] = [];
  const phases = phaseClock<Phase>('healthy', log, () => {
    const { bavail, bsize } = statfsSync(mountPoint);
    return `${round((bavail * bsize) / 2 ** 20)} MiB free on the tmpfs`;
  });
  const enter = phases.enter;
  const exits: { atMs: number; code: number | null; signal: string | null }[] = [];
  const starts: { atMs: number; ok: boolean; error?: string }[] = [];
  let stopOrchestrator = false;
  let orchestrator: Promise<void> = Promise.resolve();
  const ballast = path.join(mountPoint, 'ballast');
  let service: Awaited<ReturnType<typeof startServiceProcess>> | undefined;
  let load: ReturnType<typeof startMixedLoad> | undefined;
  let switchedWal: string | undefined;
  try {
    postgres = await startDedicatedPostgres({
      parentDir: mountPoint,
      settings: { log_line_prefix: '%m [%p] ', log_min_messages: 'warning' },
      serverLog: (chunk) => {
        for (const line of chunk.split('\n').filter(Boolean))
          serverLog.push({ atMs: Math.round(performance.now() - t0), line });
      },
    });
    const pgServer = postgres;
    // The orchestrator: an exited postmaster is started again every `restart-every` seconds until it stays up.
    let exited = false;
    pgServer.onUnexpectedExit((exit) => {
      exits.push({ atMs: Math.round(performance.now() - t0), code: exit.code, signal: exit.signal });
      log(`PostgreSQL exited (${exit.signal ?? `code ${exit.code}`}); restarting it every ${opts['restart-every']} s`);
      exited = true;
    });
    orchestrator = (async () => {
      while (!stopOrchestrator) {
        await sleep(Number(opts['restart-every']) * 1000);
        if (!exited || stopOrchestrator) continue;
        try {
          await pgServer.start();
          exited = false;
          starts.push({ atMs: Math.round(performance.now() - t0), ok: true });
          log('PostgreSQL started again');
        } catch (error) {
          starts.push({
            atMs: Math.round(performance.now() - t0),
            ok: false,
            error: (error as Error).message.split('\n')[0]!.slice(0, 300),
          });
        }
      }
    })();

    const secrets = runSecrets();
    service = await startServiceProcess({
      name: 'full-disk',
      env: {
        DATABASE_URL: pgServer.databaseUrl,
        DATABASE_STATEMENT_TIMEOUT_MS: String(statementTimeout),
        DATABASE_CONNECT_TIMEOUT_MS: String(connectTimeout),
        ...secrets,
      },
    });
    const api = createApi(service.url, secrets.API_TOKENS!, clients * 2 + 4);
    enter('healthy');
    load = startMixedLoad(api, {
      clients,
      seed: Number(opts.seed),
      phase: phases.current,
      requestTimeoutMs: boundMs + 5000,
    });
    await sleep(Number(opts.healthy) * 1000);

    enter('full');
    let ballastBytes = fillUp(ballast);
    log(`ballast: ${round(ballastBytes / 2 ** 20)} MiB; the tmpfs is full`);
    if (opts['switch-wal'] === 'true') {
      const admin = new pg.Client({
        connectionString: pgServer.databaseUrl,
        connectionTimeoutMillis: 2000,
        query_timeout: 5000,
      });
      // PostgreSQL may PANIC (and end this session) between two queries: the next query fails, and is caught
      // below; without a listener the connection's 'error' event would end the script.
      admin.on('error', () => undefined);
      try {
        await admin.connect();
        await sleep(500);
        // Whatever space PostgreSQL freed meanwhile is taken too, so that the new segment cannot be made.
        ballastBytes += fillUp(ballast);
        const { rows } = await admin.query<{ lsn: string }>('SELECT pg_switch_wal()::text AS lsn');
        switchedWal = `switched at ${rows[0]!.lsn}`;
        await admin.query('CREATE TABLE IF NOT EXISTS full_disk_probe (n int); INSERT INTO full_disk_probe VALUES (1)');
      } catch (error) {
        switchedWal = `${(error as { code?: string }).code ?? ''} ${(error as Error).message}`.trim();
      } finally {
        await admin.end().catch(() => undefined);
      }
      log(`pg_switch_wal() and a write after it: ${switchedWal}`);
    }
    const fullUntil = phases.startOf('full') + Number(opts.full) * 1000;
    while (performance.now() < fullUntil) {
      ballastBytes += fillUp(ballast); // keep it full
      await sleep(200);
    }

    enter('freed');
    unlinkSync(ballast);
    const freedAt = performance.now();
    const recoveryDeadline = freedAt + Number(opts['recovery-limit']) * 1000;
    const isWrite = (s: { kind: string }) => s.kind !== 'read';
    let recoveredAt: number | undefined;
    while (performance.now() < recoveryDeadline) {
      const success = load.samples.find(
        (s) => s.startedAt >= freedAt && isWrite(s) && s.res.status >= 200 && s.res.status < 300,
      );
      if (success) {
        recoveredAt = success.startedAt + success.res.elapsedMs;
        break;
      }
      await sleep(50);
    }
    if (recoveredAt === undefined)
      problems.push(`no write acknowledged within ${opts['recovery-limit']} s of freeing the disk`);
    else await sleep(Math.max(0, recoveredAt + Number(opts.after) * 1000 - performance.now()));
    await load.stop();
    const acknowledged = load.acknowledgedWrites();
    if (!service.isRunning()) problems.push('the service exited');
    problems.push(...(await verifyAcknowledged(api, load)));

    const samples = load.samples;
    for (const sample of samples) problems.push(...answerProblems(sample, boundMs));
    if (recoveredAt !== undefined) {
      const settledFrom = recoveredAt + Number(opts.settle) * 1000;
      const settled = samples.filter((s) => s.startedAt >= settledFrom);
      const failed = settled.filter((s) => s.res.status >= 300);
      if (settled.length === 0) problems.push('no request after recovery settled');
      if (failed.length > 0)
        problems.push(
          `${failed.length} of ${settled.length} requests from ${opts.settle} s after recovery failed: ${JSON.stringify(statusCounts(failed))}`,
        );
    }
    const inFull = samples.filter((s) => s.phase === 'full' && s.endPhase === 'full');
    const writesInFull = inFull.filter(isWrite);
    const readsInFull = inFull.filter((s) => s.kind === 'read');
    const refusedWrites = writesInFull.filter((s) => s.res.status === 503).length;
    if (writesInFull.length > 0 && refusedWrites === 0)
      problems.push('no write was refused while the disk was full: the fault did not bite');
    // PostgreSQL's own account, without the statements and hints: what it did, in order.
    const significant = serverLog.filter(
      (l) =>
        l.atMs >= phases.startOf('full') - t0 && /^\S+ \S+ \S+ \[\d+\] (PANIC|FATAL|LOG|ERROR|WARNING):/.test(l.line),
    );
    const bare = (line: string) =>
      line
        .replace(/^\S+ \S+ \S+ \[\d+\] /, '')
        .replace(/"[^"]*\/\d+"/g, '"…"')
        .replace(/\b(PID|pid) \d+/g, '$1 N');
    const panics = serverLog.filter((l) => /PANIC/.test(l.line));
    const diskFull = serverLog.filter((l) => /No space left on device/.test(l.line));
    const figures = {
      boundMs,
      settings: { tmpfs: opts.size, statementTimeoutMs: statementTimeout, connectTimeoutMs: connectTimeout, clients },
      ballastMiB: round(ballastBytes / 2 ** 20),
      requests: samples.length,
      statuses: statusCounts(samples),
      duringFull: {
        writes: statusCounts(writesInFull),
        reads: statusCounts(readsInFull),
        p99Ms: round(
          percentile(
            inFull.map((s) => s.res.elapsedMs),
            99,
          ),
        ),
        maxMs: round(maximum(inFull.map((s) => s.res.elapsedMs))),
      },
      recovery: {
        firstAcknowledgedWriteAfterFreeingMs: recoveredAt === undefined ? undefined : Math.round(recoveredAt - freedAt),
        postgresExits: exits.map((e) => ({ ...e, atMs: e.atMs - Math.round(phases.startOf('full') - t0) })),
        startAttempts: starts.map((s) => ({ ...s, atMs: s.atMs - Math.round(phases.startOf('full') - t0) })),
      },
      switchWal: switchedWal,
      postgresSaid: {
        panics: panics.length,
        noSpaceLines: diskFull.length,
        distinctLines: [...new Set(significant.map((l) => bare(l.line)))].slice(0, 16),
      },
      maxLatencyMs: round(maximum(samples.map((s) => s.res.elapsedMs))),
      acknowledgedWrites: acknowledged,
      customersChecked: load.customers.size,
      serviceRestarts: 0,
      seed: Number(opts.seed),
    };
    log(
      `PostgreSQL's log from the fill on:\n${significant
        .slice(0, 40)
        .map((l) => `  +${l.atMs - Math.round(phases.startOf('full') - t0)} ms ${l.line}`)
        .join('\n')}`,
    );
    log(JSON.stringify(figures));
    const crashed = exits.length > 0 || panics.length > 0;
    return conclude({
      problems,
      shown: 25,
      passSummary: () =>
        `while full: writes ${JSON.stringify(figures.duringFull.writes)}, reads ${JSON.stringify(figures.duringFull.reads)} (max ${figures.duringFull.maxMs} ms, bound ${boundMs} ms); 0 500s, 0 hangs; ` +
        `PostgreSQL ${crashed ? `PANICked (${panics.length} PANIC lines) and ${exits.length > 0 ? `exited ${exits.length}×, restarted by the script` : 'restarted its backends itself'}` : 'refused the writes (ERROR 53100) and stayed up'}; ` +
        `first acknowledged write ${figures.recovery.firstAcknowledgedWriteAfterFreeingMs} ms after freeing, no service restart; ${formatCount(acknowledged)} acknowledged writes all present`,
      record: opts.record === 'true',
      row: {
        id: 'fault-full-disk',
        test: "Full disk: PostgreSQL's data and WAL on a tmpfs filled up under load, then freed",
        operations: `${formatCount(samples.length)} requests from ${clients} clients (reads, keyed creations, updates)`,
        faults: `tmpfs of ${opts.size} filled to the last byte for ${opts.full} s${opts['switch-wal'] === 'true' ? ', pg_switch_wal() meanwhile' : ''}; an exited PostgreSQL restarted by the script every ${opts['restart-every']} s`,
        command: 'npm run reliability:full-disk',
        figures,
      },
    });
  } finally {
    stopOrchestrator = true;
    await load?.stop();
    await orchestrator;
    await service?.stop();
    await postgres?.dispose().catch(() => undefined);
    try {
      execFileSync('umount', [mountPoint]);
    } catch {
      execFileSync('umount', ['-l', mountPoint]);
    }
    rmSync(mountPoint, { recursive: true, force: true });
  }
});
