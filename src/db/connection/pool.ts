import pg from 'pg';

export interface PoolOptions {
  connectionString: string;
  max: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** Called after every statement with its duration and prepared statement name; for metrics and for counting statements in tests. */
  onQuery?: (durationMs: number, statementName: string | undefined) => void;
  onError?: (error: Error) => void;
}

/**
 * The session settings of every connection the service opens (why each: in createPool). Exported for the
 * benchmark's pgbench scripts, which run the service's statements under the same settings (PGOPTIONS).
 */
export const SESSION_OPTIONS = '-c plan_cache_mode=force_generic_plan -c TimeZone=UTC';

/**
 * The one PostgreSQL connection pool of the process: Prisma Client runs on it (through its pg adapter),
 * and the migration runner uses it before any client exists. Timeouts make sure a dead or stuck database turns into a fast
 * error instead of a hung request.
 */
export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    // A transaction left open by a crashed request must not hold row locks forever.
    idle_in_transaction_session_timeout: Math.max(options.statementTimeoutMs * 2, 10_000),
    query_timeout: options.statementTimeoutMs + 1000,
    keepAlive: true,
    application_name: 'customer-account-service',
    // Every statement the service prepares (src/db/sql/sql.ts) is a keyed look-up or write whose best plan
    // does not depend on the parameter values. PostgreSQL's default re-plans a prepared statement on
    // every execution while it estimates the generic plan as dearer, which it always does for array
    // parameters: planning the nested-read walk cost more CPU than running it.
    // TimeZone=UTC: Prisma's adapter sends a JavaScript Date as UTC text without an offset, which
    // PostgreSQL reads in the session's time zone.
    options: SESSION_OPTIONS,
  });
  pool.on('error', (error) => options.onError?.(error));
  // The pool listens for errors of idle clients only. A client checked out (by Prisma's adapter, between two
  // statements of a transaction) that PostgreSQL disconnects (restart, failover, pg_terminate_backend) emits
  // 'error' with no listener, which ends the process. Its pending work fails anyway (SERVICE_UNAVAILABLE)
  // and the pool discards it on release; this listener only keeps the process alive.
  pool.on('connect', (client) => client.on('error', (error) => options.onError?.(error)));
  pool.on('connect', (client) => guardQueries(client, options.onQuery));
  return pool;
}

/**
 * PostgreSQL's warning when a commit's wait for the synchronous standby is cut short by a cancel request
 * (`pg_cancel_backend`, a client's cancel): the transaction stays committed on this server alone, and the commit
 * is still reported as a success. statement_timeout never cuts that wait (PostgreSQL disables it before the
 * commit, postgres.c's finish_xact_command), so only a cancel sent from outside the service can. Matched on the
 * message, which PostgreSQL sends in English unless an administrator sets lc_messages otherwise.
 */
const UNREPLICATED_COMMIT = /canceling (the )?wait for synchronous replication/i;

/**
 * A statement that succeeded on a primary whose synchronous standby never confirmed it: the write may be lost at
 * the next failover, so it must not be acknowledged. SQLSTATE 08007, transaction_resolution_unknown: the
 * service answers 503 with Retry-After (translateDatabaseError), and a client's retry with its Idempotency-Key
 * either replays the write or makes it (docs/adr/0098-automatic-failover-on-patroni.md).
 */
export class UnreplicatedCommitError extends Error {
  readonly code = '08007';
  readonly severity = 'ERROR';
  readonly detail = 'The transaction committed on the primary, but its synchronous standby did not confirm it.';
  constructor() {
    super('The commit was not confirmed by the synchronous standby (its wait was cancelled)');
    this.name = 'UnreplicatedCommitError';
  }
}

type QueryCallback = (error: Error | null | undefined, result?: unknown) => void;

/**
 * Wraps the client's query method: a statement during which PostgreSQL warned that its commit's synchronous wait
 * was cancelled fails with UnreplicatedCommitError instead of succeeding, and onQuery learns every statement's
 * duration. A notice arrives before its statement's completion and statements on one client complete in order,
 * so the flag a notice sets is consumed by the statement that was running.
 */
function guardQueries(client: pg.PoolClient, onQuery: PoolOptions['onQuery']): void {
  let unreplicated = false;
  client.on('notice', (notice: { message?: string }) => {
    if (UNREPLICATED_COMMIT.test(notice.message ?? '')) unreplicated = true;
  });
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const settle = (started: number, name: string | undefined): Error | undefined => {
    onQuery?.(performance.now() - started, name);
    if (!unreplicated) return undefined;
    unreplicated = false;
    return new UnreplicatedCommitError();
  };
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const started = performance.now();
    const config = args[0] as { name?: unknown } | string | undefined;
    const name = typeof config === 'object' && typeof config?.name === 'string' ? config.name : undefined;
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      // pg-pool's pool.query calls client.query(config, values, callback).
      args[args.length - 1] = (error: Error | null | undefined, result: unknown) => {
        const refused = settle(started, name);
        if (error) (callback as QueryCallback)(error);
        else if (refused) (callback as QueryCallback)(refused);
        else (callback as QueryCallback)(error, result);
      };
      return query(...args);
    }
    const result = query(...args);
    if (!(result instanceof Promise)) return result;
    return result.then(
      (value: unknown) => {
        const refused = settle(started, name);
        if (refused) throw refused;
        return value;
      },
      (error: unknown) => {
        settle(started, name);
        throw error;
      },
    );
  };
}
