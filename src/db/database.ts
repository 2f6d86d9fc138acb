import type pg from 'pg';
import { serviceUnavailable } from '../domain/errors.js';
import type { Database, Stores } from '../domain/ports.js';
import { PgAccountStore } from './account.store.js';
import { PgAuditStore } from './audit.store.js';
import { PgCustomerStore } from './customer.store.js';
import { translateDatabaseError, withTranslatedErrors } from './errors.js';
import { PgIdempotencyStore } from './idempotency.store.js';
import type { Queryable } from './sql.js';

function storesOn(db: Queryable, limits: TransactionLimits): Stores {
  return {
    customers: withTranslatedErrors(new PgCustomerStore(db)),
    accounts: withTranslatedErrors(new PgAccountStore(db)),
    audit: withTranslatedErrors(new PgAuditStore(db)),
    idempotency: withTranslatedErrors(new PgIdempotencyStore(db, limits.idempotencyWaitMs)),
  };
}

export interface TransactionLimits {
  /** How long the whole transaction may take; past it, its next statement fails and it is rolled back. */
  timeoutMs: number;
  /** How long a creation waits behind a concurrent one holding its idempotency key; default 2 s. */
  idempotencyWaitMs?: number;
}

/**
 * One connection checked out for one transaction. Statements after the deadline are refused (the
 * transaction then rolls back), so a stuck request cannot hold its row locks longer than the limit;
 * the statement timeout bounds the statement running when the deadline passes.
 */
class TransactionConnection implements Queryable {
  constructor(
    private readonly client: pg.PoolClient,
    private readonly deadline: number,
  ) {}

  query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    if (performance.now() > this.deadline) return Promise.reject(serviceUnavailable());
    return this.client.query<R>(config);
  }
}

/**
 * The domain's Database port on the shared pg pool: stores on the pool, or stores bound to one READ
 * COMMITTED transaction on one connection. Waiting for a free connection is bounded by the pool's
 * connection timeout (DATABASE_CONNECT_TIMEOUT_MS).
 */
export function createDatabase(pool: pg.Pool, limits: TransactionLimits): Database {
  return {
    stores: storesOn(pool, limits),
    async transaction(work) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw translateDatabaseError(error);
      }
      // A connection whose state is unknown (a failed ROLLBACK) is closed rather than reused.
      let discard: Error | undefined;
      try {
        await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
        const result = await work(storesOn(new TransactionConnection(client, performance.now() + limits.timeoutMs), limits));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          discard = rollbackError as Error;
        });
        throw translateDatabaseError(error);
      } finally {
        client.release(discard);
      }
    },
  };
}
