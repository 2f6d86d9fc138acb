import { isDomainError, serviceUnavailable, validationFailed } from '../../domain/errors.js';
import { INSTANT_RANGE_MESSAGE } from '../../domain/validation.js';
import { errorCauses as causes, sqlState } from '../../logging/error-causes.js';

export { sqlState };

// Prisma codes that mean "the database cannot be reached or cannot take the work right now".
const PRISMA_UNAVAILABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
// PostgreSQL SQLSTATEs of the same family: connection exceptions (08…); shutdown and crash (57P01 admin
// shutdown, 57P02 crash shutdown: another backend PANICked, 57P03 cannot connect now); a statement or lock
// wait cut short by statement_timeout / lock_timeout (57014, 55P03); every insufficient-resources error
// (class 53: 53100 disk_full, 53200 out_of_memory, 53300 too_many_connections, 53400 configuration limit);
// a failing disk's I/O error (58030 io_error); a write that reached a read-only server (25006: during a
// failover, before the standby the connections now reach is promoted). Nothing in the request caused them: the database cannot take
// the work right now, and a retry may succeed once PostgreSQL or its operator has removed the cause
// (docs/reliability-faults.md, "Full disk"). Never a 500.
const PG_UNAVAILABLE_STATES = /^(08...|57P0[123]|57014|55P03|53...|58030|25006)$/;
const NODE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);
// "Query read timeout" is pg's own query_timeout, the backstop behind statement_timeout.
const UNAVAILABLE_MESSAGES =
  /(Query read timeout|Connection terminated|timeout exceeded when trying to connect|Can't reach database server|connect ECONNREFUSED|Client has encountered a connection error|Connection ended unexpectedly|terminating connection|the database system is (starting up|shutting down)|DatabaseNotReachable|ConnectionClosed)/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    if (e.name === 'PrismaClientInitializationError') return true;
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (
      code &&
      (PRISMA_UNAVAILABLE_CODES.has(code) || NODE_NETWORK_CODES.has(code) || PG_UNAVAILABLE_STATES.test(code))
    )
      return true;
    if (typeof e.originalCode === 'string' && PG_UNAVAILABLE_STATES.test(e.originalCode)) return true;
    const kind = typeof e.kind === 'string' ? e.kind : undefined;
    if (
      kind &&
      /^(DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections|TransactionAlreadyClosed)$/.test(kind)
    )
      return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/** The unique index a unique violation hit (adapter: `constraint.index`; pg: `constraint`). */
export function violatedUniqueIndex(error: unknown): string | undefined {
  for (const e of causes(error)) {
    if (e.kind === 'UniqueConstraintViolation') {
      const constraint = e.constraint as { index?: unknown } | undefined;
      return typeof constraint?.index === 'string' ? constraint.index : undefined;
    }
    if (e.code === '23505' && typeof e.constraint === 'string') return e.constraint;
  }
  return undefined;
}

/** The CHECK constraint a check violation (23514) hit. */
export function violatedCheck(error: unknown): string | undefined {
  if (sqlState(error) !== '23514') return undefined;
  for (const e of causes(error)) {
    if (typeof e.constraint === 'string') return e.constraint;
    // The driver adapter keeps PostgreSQL's message only: `… violates check constraint "name"`.
    for (const message of [e.originalMessage, e.message]) {
      const name = typeof message === 'string' ? /check constraint "([^"]+)"/.exec(message)?.[1] : undefined;
      if (name !== undefined) return name;
    }
  }
  return undefined;
}

/** A row another row's foreign key still references (ON DELETE RESTRICT or NO ACTION). */
export const isForeignKeyViolation = (error: unknown): boolean => ['23503', '23001'].includes(sqlState(error) ?? '');

/** A value does not fit its numeric column or type (22003 numeric_value_out_of_range): e.g. a balance past DECIMAL(24,6). */
export const isNumericOutOfRange = (error: unknown): boolean => sqlState(error) === '22003';

/**
 * A date or time PostgreSQL cannot read or hold: 22008 datetime_field_overflow (year 0000, a month 13) and 22007
 * invalid_datetime_format. Every instant of the domain's inputs is checked first (instantSchema: years 0001–9999);
 * this is the backstop for one that reaches the database unchecked: the caller's value, so a 400, never a 500.
 */
export const isDatetimeOutOfRange = (error: unknown): boolean => ['22008', '22007'].includes(sqlState(error) ?? '');

/** lock_timeout expired while the statement waited for a lock (a row lock, or a migration's table lock). */
export const isLockTimeout = (error: unknown): boolean => sqlState(error) === '55P03';

/**
 * The links' limits, checked by the trigger of migration 20261203010000_customer_account_cap with SQLSTATEs
 * of their own: a customer linked to more accounts than it may hold, an account to more customers.
 */
export const isCustomerAccountLimit = (error: unknown): boolean => sqlState(error) === 'LC001';
export const isAccountCustomerLimit = (error: unknown): boolean => sqlState(error) === 'LC002';

/**
 * Domain errors pass through; an unreachable database becomes SERVICE_UNAVAILABLE; a date PostgreSQL cannot hold
 * VALIDATION_FAILED (OUT_OF_RANGE, naming the range, never the value); the rest stays unexpected.
 */
export function translateDatabaseError(error: unknown): unknown {
  if (isDomainError(error)) return error;
  if (isDatabaseUnavailable(error)) return serviceUnavailable();
  if (isDatetimeOutOfRange(error))
    return validationFailed([{ code: 'OUT_OF_RANGE', message: `A date or time: ${INSTANT_RANGE_MESSAGE}` }]);
  return error;
}

/** A serialization failure or a deadlock: PostgreSQL rolled the statement back, and running it again may succeed. */
export const isRetryableConflict = (error: unknown): boolean => ['40001', '40P01'].includes(sqlState(error) ?? '');

/** How many times a store call runs at most when PostgreSQL reports a retryable conflict. */
export const CONFLICT_ATTEMPTS = 3;

/**
 * Wraps every method of a store so that database failures reach the domain already translated, and a
 * serialization failure or deadlock is retried (every store method is one statement, or one transaction of
 * its own, which PostgreSQL rolled back whole: running it again is safe) instead of surfacing as a 500.
 */
export function withTranslatedErrors<T extends object>(store: T): T {
  // One wrapper per method and store, made on first use (stores on the pool live as long as the process).
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const known = wrapped.get(property);
      if (known !== undefined) return known;
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = async (...args: unknown[]) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } catch (error) {
            if (attempt < CONFLICT_ATTEMPTS && isRetryableConflict(error)) continue;
            throw translateDatabaseError(error);
          }
        }
      };
      wrapped.set(property, method);
      return method;
    },
  });
}
