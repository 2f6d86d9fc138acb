import { isDomainError, serviceUnavailable } from '../domain/errors.js';

// Prisma codes that mean "the database cannot be reached or cannot take the work right now".
const PRISMA_UNAVAILABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
// PostgreSQL SQLSTATEs of the same family: connection exceptions, shutdown, too many connections.
const PG_UNAVAILABLE_STATES = /^(08...|57P01|57P02|57P03|53300|53400)$/;
const NODE_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES =
  /(Connection terminated|timeout exceeded when trying to connect|Can't reach database server|connect ECONNREFUSED|Client has encountered a connection error|Connection ended unexpectedly|terminating connection|the database system is (starting up|shutting down)|DatabaseNotReachable|ConnectionClosed)/i;

function* causes(error: unknown): Generator<Record<string, unknown>> {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    yield current as Record<string, unknown>;
    current = (current as { cause?: unknown }).cause;
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    if (e.name === 'PrismaClientInitializationError') return true;
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && (PRISMA_UNAVAILABLE_CODES.has(code) || NODE_NETWORK_CODES.has(code) || PG_UNAVAILABLE_STATES.test(code))) return true;
    const kind = typeof e.kind === 'string' ? e.kind : undefined;
    if (kind && /^(DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections|TransactionAlreadyClosed)$/.test(kind)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

export function isUniqueViolation(error: unknown): boolean {
  for (const e of causes(error)) {
    if (e.code === 'P2002' || e.code === '23505' || e.kind === 'UniqueConstraintViolation') return true;
  }
  return false;
}

export function isRecordMissing(error: unknown): boolean {
  for (const e of causes(error)) if (e.code === 'P2025') return true;
  return false;
}

/** Domain errors pass through; an unreachable database becomes SERVICE_UNAVAILABLE; the rest stays unexpected. */
export function translateDatabaseError(error: unknown): unknown {
  if (isDomainError(error)) return error;
  if (isDatabaseUnavailable(error)) return serviceUnavailable();
  return error;
}

/** Wraps every method of a store so that database failures reach the domain already translated. */
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
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (error) {
          throw translateDatabaseError(error);
        }
      };
      wrapped.set(property, method);
      return method;
    },
  });
}
