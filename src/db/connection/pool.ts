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
  if (options.onQuery) {
    const onQuery = options.onQuery;
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const started = performance.now();
        const config = args[0] as { name?: unknown } | string | undefined;
        const name = typeof config === 'object' && typeof config?.name === 'string' ? config.name : undefined;
        const result = query(...args);
        if (result instanceof Promise) {
          return result.finally(() => onQuery(performance.now() - started, name));
        }
        onQuery(performance.now() - started, name);
        return result;
      };
    });
  }
  return pool;
}
