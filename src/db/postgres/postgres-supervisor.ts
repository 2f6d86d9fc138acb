import type { Logger } from '../../logging/logger.js';
import type { PostmasterExit, RunningPostgres } from './embedded-postgres.js';

/**
 * - `running`: the postmaster is up (what it answers is the readiness check's business);
 * - `restarting`: it died and is being brought back, with back-off;
 * - `failed`: it could not be brought back in time; the process should exit (StartOptions.onDatabaseLost);
 * - `stopped`: the service stopped it.
 */
export type SupervisedState = 'running' | 'restarting' | 'failed' | 'stopped';

export interface SupervisorOptions {
  /** Give up when the server is not back this long after it died. */
  giveUpAfterMs: number;
  /** First wait after a failed attempt; doubled after each one up to maxDelayMs. The first attempt is immediate. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'fatal'>;
  /** Called once, on giving up, with an error whose message says what happened and what to do. */
  onGiveUp?: (error: Error) => void;
}

export interface SupervisorStatus {
  state: SupervisedState;
  /** Restart attempts since the server last died. */
  attempts: number;
  /** When the server last died (ms since the epoch), while it is not back. */
  downSince: number | undefined;
  /** The last failed attempt's message, or the give-up message. */
  lastError: string | undefined;
  /** Deaths survived since start. */
  restarts: number;
}

/**
 * Keeps the embedded PostgreSQL running: when its postmaster ends without the service asking (crash,
 * kill -9, OOM killer), starts it again on the same directory and port, so the pool's URL stays valid and
 * PostgreSQL's crash recovery replays the write-ahead log. The first attempt is immediate, then the wait
 * doubles (bounded); each attempt is logged. When the server is not back within `giveUpAfterMs` the state
 * turns `failed`, /healthz says so and `onGiveUp` decides (src/main.ts exits non-zero, so whatever
 * supervises the process restarts the whole unit).
 */
export class PostgresSupervisor {
  private state: SupervisedState = 'running';
  private attempts = 0;
  private downSince: number | undefined;
  private lastError: string | undefined;
  private restarts = 0;
  private stopping = false;
  private wakeUp: (() => void) | undefined;
  private recovery: Promise<void> | undefined;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(
    private readonly server: RunningPostgres,
    private readonly options: SupervisorOptions,
  ) {
    this.initialDelayMs = options.initialDelayMs ?? 100;
    this.maxDelayMs = options.maxDelayMs ?? 5000;
    server.onUnexpectedExit((exit) => {
      if (this.stopping) return;
      this.recovery = this.recover(exit);
    });
  }

  status(): SupervisorStatus {
    return {
      state: this.state,
      attempts: this.attempts,
      downSince: this.downSince,
      lastError: this.lastError,
      restarts: this.restarts,
    };
  }

  /** Stops the server, or the recovery under way; idempotent. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp?.();
    await this.server.stop(); // also ends a start in progress, which makes that attempt fail
    await this.recovery;
    await this.server.stop(); // an attempt that completed meanwhile
    if (this.state !== 'failed') this.state = 'stopped';
  }

  private async recover(exit: PostmasterExit): Promise<void> {
    const { logger, giveUpAfterMs } = this.options;
    this.state = 'restarting';
    this.downSince = Date.now();
    this.attempts = 0;
    this.lastError = undefined;
    const deadline = this.downSince + giveUpAfterMs;
    logger.error(
      { pid: exit.pid, exitCode: exit.code, signal: exit.signal, clusterDir: this.server.clusterDir, giveUpAfterMs },
      `embedded PostgreSQL exited unexpectedly (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`}); restarting it`,
    );
    let delay = this.initialDelayMs;
    while (!this.stopping) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      this.attempts += 1;
      logger.warn(
        { attempt: this.attempts, remainingMs: remaining },
        `embedded PostgreSQL restart attempt ${this.attempts}`,
      );
      try {
        await this.server.restart(remaining);
        if (this.stopping) return;
        const downtimeMs = Date.now() - (this.downSince ?? Date.now());
        logger.info(
          { attempts: this.attempts, downtimeMs, pid: this.server.pid },
          `embedded PostgreSQL is back after ${downtimeMs} ms (${this.attempts} attempt${this.attempts === 1 ? '' : 's'})`,
        );
        this.state = 'running';
        this.downSince = undefined;
        this.restarts += 1;
        return;
      } catch (error) {
        if (this.stopping) return;
        this.lastError = (error as Error).message;
        const wait = Math.min(delay, Math.max(0, deadline - Date.now()));
        logger.warn(
          { attempt: this.attempts, reason: this.lastError, nextAttemptInMs: wait },
          `embedded PostgreSQL restart attempt ${this.attempts} failed`,
        );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeUp = undefined;
        delay = Math.min(delay * 2, this.maxDelayMs);
      }
    }
    if (this.stopping) return;
    this.state = 'failed';
    const message =
      `The embedded PostgreSQL in ${this.server.clusterDir} died (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`}) and could not be ` +
      `restarted within ${giveUpAfterMs} ms (EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS; ${this.attempts} attempt${this.attempts === 1 ? '' : 's'}). ` +
      `Last error: ${this.lastError ?? 'none'}`;
    this.lastError = message;
    logger.fatal({ attempts: this.attempts, clusterDir: this.server.clusterDir }, message);
    this.options.onGiveUp?.(new Error(message));
  }
}

/** What GET /healthz reports about the supervised server (src/http/health.ts): not live only once given up. */
export function supervisedLiveness(supervisor: PostgresSupervisor): {
  live: boolean;
  checks: Record<string, string>;
  message?: string;
} {
  const { state } = supervisor.status();
  return {
    live: state !== 'failed',
    checks: { embeddedPostgres: state },
    // Unauthenticated endpoint: the reason, not paths or PostgreSQL's messages (those are in the log).
    ...(state === 'failed' && {
      message: 'The embedded PostgreSQL could not be restarted in time; the service is exiting.',
    }),
  };
}

type ReadinessLike = {
  ready: boolean;
  checks: Record<string, 'ok' | 'failed' | 'pending'>;
  database?: { role: 'primary' | 'standby' | 'unknown'; replica?: 'usable' | 'down' | 'lagging' };
};

/** GET /readyz with the supervisor's view added: never ready while the server is being restarted or given up. */
export function supervisedReadiness(
  supervisor: PostgresSupervisor,
  check: () => Promise<ReadinessLike>,
): () => Promise<ReadinessLike> {
  return async (): Promise<ReadinessLike> => {
    const { state } = supervisor.status();
    if (state !== 'running') {
      return {
        ready: false,
        checks: { database: 'failed', embeddedPostgres: state === 'restarting' ? 'pending' : 'failed' },
      };
    }
    const readiness = await check();
    return { ...readiness, checks: { ...readiness.checks, embeddedPostgres: 'ok' } };
  };
}
