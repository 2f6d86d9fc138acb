import type pg from 'pg';
import { serviceUnavailable } from '../domain/errors.js';
import type { Database, Stores } from '../domain/ports.js';
import { PgAccountStore } from './account.store.js';
import { PgAuditStore } from './audit.store.js';
import { PgCustomerStore } from './customer.store.js';
import { translateDatabaseError, withTranslatedErrors } from './errors.js';
import { PgIdempotencyStore } from './idempotency.store.js';
import { combineWrites, type DeferredWrite, type DeferringQueryable, type Queryable } from './sql.js';

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

const ignore = () => undefined;

/**
 * One connection checked out for one transaction, in pg's pipeline mode (src/db/pool.ts): statements
 * are written without waiting for the previous answer, and answers come back in order. So BEGIN travels
 * with the transaction's first statement, and writes nobody reads back (sql.ts, DeferredWrite) are held
 * and sent as one statement together with the next statement or with COMMIT. A creation with an
 * idempotency key is two round trips (BEGIN + claim; writes + COMMIT), an update two, a creation
 * without a key one. Every answer is still awaited in order, and a failed statement is reported before
 * anything after it: PostgreSQL has aborted the transaction by then, and turns its COMMIT into a rollback.
 *
 * Statements after the deadline are refused (the transaction then rolls back), so a stuck request
 * cannot hold its row locks longer than the limit; the statement timeout bounds the statement running
 * when the deadline passes.
 */
class TransactionConnection implements DeferringQueryable {
  private pending: DeferredWrite[] = [];
  private begun: Promise<unknown> | undefined;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly deadline: number,
  ) {}

  /** Sends BEGIN; its answer is awaited with the first statement's. */
  begin(): void {
    this.begun = this.client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    this.begun.catch(ignore);
  }

  defer(write: DeferredWrite): void {
    this.pending.push(write);
  }

  async query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    const writes = this.sendWrites();
    const result = this.send<R>(config);
    await this.settle(writes);
    return await result;
  }

  async commit(): Promise<void> {
    const writes = this.sendWrites();
    const commit = this.send({ text: 'COMMIT' });
    await this.settle(writes);
    await commit;
  }

  /** Awaits, in the order they were sent, BEGIN and the deferred writes sent before the current statement. */
  private async settle(writes: Promise<unknown> | undefined): Promise<void> {
    const begun = this.begun;
    this.begun = undefined;
    await begun;
    await writes;
  }

  /** The deferred writes, if any, as one statement, with their error translated. */
  private sendWrites(): Promise<unknown> | undefined {
    if (this.pending.length === 0) return undefined;
    const writes = this.pending;
    this.pending = [];
    const { statement, values } = combineWrites(writes);
    const sent = this.send({ name: statement.name, text: statement.text, values }).catch((error: unknown) => {
      for (const write of writes) {
        const translated = write.translate?.(error);
        if (translated !== undefined && translated !== error) throw translated;
      }
      throw error;
    });
    sent.catch(ignore);
    return sent;
  }

  private send<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    const sent = performance.now() > this.deadline ? Promise.reject(serviceUnavailable()) : this.client.query<R>(config);
    // Answers are awaited in order; one that fails while an earlier one is awaited is still reported.
    sent.catch(ignore);
    return sent;
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
        const connection = new TransactionConnection(client, performance.now() + limits.timeoutMs);
        connection.begin();
        const result = await work(storesOn(connection, limits));
        await connection.commit();
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
