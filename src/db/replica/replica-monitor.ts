import { Gauge, type Registry } from 'prom-client';
import type { Logger } from '../../logging/logger.js';
import type { PrismaClient } from '../connection/prisma-client.js';
import { queryRows, statement } from '../sql/sql.js';
import { type Lsn, lsnFromText } from './consistency-token.js';

const REPLICA_STATE = statement(
  'replica_state',
  `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed,
          (extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS since_replayed_commit_ms`,
);
const REPLICA_REPLAYED = statement('replica_replayed', 'SELECT pg_last_wal_replay_lsn()::text AS replayed');
const PRIMARY_FLUSHED = statement('primary_flushed', 'SELECT pg_current_wal_flush_lsn()::text AS flushed');

/** How often a read waiting for its token polls the replica's replay position (one statement for all waiting reads). */
const REPLAY_POLL_MS = 5;

export interface ReplicaMonitorOptions {
  replica: PrismaClient;
  primary: PrismaClient;
  maxLagMs: number;
  checkIntervalMs: number;
  logger: Logger;
  registry: Registry;
}

/** Whether lag-tolerant reads may go to the replica now, and if not why. */
export type ReplicaUsability = 'usable' | 'down' | 'lagging';

interface StateRow {
  standby: boolean;
  replayed: string | null;
  since_replayed_commit_ms: number | null;
}

interface ReplayWaiter {
  lsn: Lsn;
  resolve(replayed: boolean): void;
  timer: NodeJS.Timeout;
}

/**
 * The replica's health, replay position and lag, checked every `checkIntervalMs` by one loop (never by
 * requests), as a circuit breaker: a failed check or a failed read marks the replica down at once, and
 * requests then go to the primary without touching it; only the next successful check brings it back. A
 * server that is not in recovery (promoted, or a wrong URL) is never used: it no longer follows the primary.
 *
 * Lag is measured from both sides (docs/how-to/fail-over.md, "Read replicas"): bytes are the primary's flushed
 * position minus the replica's replayed one; time is the tighter of two upper bounds on how old the
 * replica's data is: the time since a check last found it caught up with the primary, and the time since the
 * commit it replayed last (which alone would overstate the lag of a replica of an idle primary).
 */
export class ReplicaMonitor {
  private reachable = false;
  private problem: string | undefined = 'not checked yet';
  private replayed: Lsn = 0n;
  private lagBytes: number | undefined;
  private lagMs: number | undefined;
  private caughtUpAt: number | undefined;
  private lagging = false;
  private readonly waiters = new Set<ReplayWaiter>();
  private polling = false;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: ReplicaMonitorOptions) {
    const registers = [options.registry];
    const up: Gauge = new Gauge({
      name: 'db_replica_up',
      help: '1 while the read replica answers its health check and is a standby in recovery; 0 while reads go to the primary because it does not.',
      registers,
      collect: () => up.set(this.reachable ? 1 : 0),
    });
    const lagBytes: Gauge = new Gauge({
      name: 'db_replica_lag_bytes',
      help: "Write-ahead log the read replica has not replayed yet: the primary's flushed position minus the replica's replayed one, at the last check.",
      registers,
      collect: () => {
        if (this.lagBytes !== undefined) lagBytes.set(this.lagBytes);
      },
    });
    const lagSeconds: Gauge = new Gauge({
      name: 'db_replica_lag_seconds',
      help: "How old the read replica's data may be, at the last check (0: it had replayed everything the primary had flushed; -1: unknown).",
      registers,
      collect: () => {
        if (this.lagMs !== undefined) lagSeconds.set(Number.isFinite(this.lagMs) ? this.lagMs / 1000 : -1);
      },
    });
  }

  /** The first check (so a healthy replica is used from the first request), then one every checkIntervalMs. */
  async start(): Promise<void> {
    await this.runCheck();
    if (!this.reachable)
      this.options.logger.warn(
        { problem: this.problem },
        'the read replica is not usable at startup: reads go to the primary until it is',
      );
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.releaseWaiters();
    await this.checking;
  }

  usability(): ReplicaUsability {
    if (!this.reachable) return 'down';
    return this.lagging ? 'lagging' : 'usable';
  }

  /**
   * Resolves true once the replica has replayed `lsn` (at once when a check or poll already saw it), false
   * after `maxWaitMs` or as soon as the replica fails. Concurrent waits share one poll of the replica.
   */
  waitForReplay(lsn: Lsn, maxWaitMs: number): Promise<boolean> {
    if (lsn <= this.replayed) return Promise.resolve(true);
    if (!this.reachable || maxWaitMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: ReplayWaiter = {
        lsn,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(false);
        }, maxWaitMs),
      };
      this.waiters.add(waiter);
      void this.pollReplay();
    });
  }

  /** A read on the replica failed because it cannot be reached or cannot take the work: stop sending it reads until a check succeeds. */
  readFailed(reason: string): void {
    this.markDown(reason);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.runCheck().finally(() => this.schedule());
    }, this.options.checkIntervalMs);
    this.timer.unref();
  }

  private runCheck(): Promise<void> {
    this.checking = this.check().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async check(): Promise<void> {
    const sampledAt = Date.now();
    // The primary's side first: the replica must have replayed at least this to count as caught up.
    let flushed: Lsn | undefined;
    try {
      const [row] = await queryRows<{ flushed: string }>(this.options.primary, PRIMARY_FLUSHED, []);
      flushed = lsnFromText(row!.flushed);
    } catch {
      // The primary's own outage is reported by /readyz; the lag is then estimated from the replica alone.
    }
    let row: StateRow;
    try {
      [row] = (await queryRows<StateRow>(this.options.replica, REPLICA_STATE, [])) as [StateRow];
    } catch (error) {
      this.markDown((error as Error).message);
      return;
    }
    if (!row.standby || row.replayed === null) {
      this.markDown('the server of DATABASE_REPLICA_URL is not a standby in recovery (promoted, or not a replica)');
      return;
    }
    this.noteReplayed(lsnFromText(row.replayed));
    const caughtUp = flushed !== undefined && this.replayed >= flushed;
    if (caughtUp) this.caughtUpAt = sampledAt;
    if (flushed !== undefined) this.lagBytes = Number(flushed > this.replayed ? flushed - this.replayed : 0n);
    const sinceCaughtUp = this.caughtUpAt === undefined ? Infinity : Date.now() - this.caughtUpAt;
    const sinceReplayedCommit =
      row.since_replayed_commit_ms === null ? Infinity : Math.max(0, row.since_replayed_commit_ms);
    this.lagMs = caughtUp ? 0 : Math.min(sinceCaughtUp, sinceReplayedCommit);
    this.noteLag(this.lagMs > this.options.maxLagMs);
    this.markUp();
  }

  private noteLag(lagging: boolean): void {
    if (lagging === this.lagging) return;
    this.lagging = lagging;
    const lagSeconds = Number.isFinite(this.lagMs) ? (this.lagMs ?? 0) / 1000 : 'unknown';
    if (lagging)
      this.options.logger.warn(
        { lagSeconds, maxLagMs: this.options.maxLagMs },
        'the read replica lags more than DATABASE_REPLICA_MAX_LAG_MS: reads go to the primary',
      );
    else this.options.logger.info({ lagSeconds }, 'the read replica has caught up: lag-tolerant reads use it again');
  }

  private markUp(): void {
    if (this.reachable) return;
    this.reachable = true;
    this.problem = undefined;
    this.options.logger.info('the read replica is available: lag-tolerant reads use it');
  }

  private markDown(problem: string): void {
    const wasReachable = this.reachable;
    this.reachable = false;
    this.problem = problem;
    this.releaseWaiters();
    if (wasReachable)
      this.options.logger.warn(
        { problem },
        'the read replica is unavailable: reads go to the primary until a check succeeds',
      );
  }

  private noteReplayed(lsn: Lsn): void {
    if (lsn > this.replayed) this.replayed = lsn;
    for (const waiter of this.waiters) {
      if (waiter.lsn > this.replayed) continue;
      this.waiters.delete(waiter);
      clearTimeout(waiter.timer);
      waiter.resolve(true);
    }
  }

  private releaseWaiters(): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiters.clear();
  }

  private async pollReplay(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      while (this.waiters.size > 0 && this.reachable) {
        const [row] = await queryRows<{ replayed: string | null }>(this.options.replica, REPLICA_REPLAYED, []);
        if (row?.replayed === null || row?.replayed === undefined)
          throw new Error('the replica reports no replay position: it is no longer in recovery');
        this.noteReplayed(lsnFromText(row.replayed));
        if (this.waiters.size > 0) await new Promise((resolve) => setTimeout(resolve, REPLAY_POLL_MS));
      }
    } catch (error) {
      this.markDown((error as Error).message);
    } finally {
      this.polling = false;
    }
  }
}
