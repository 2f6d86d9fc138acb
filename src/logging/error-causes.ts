/**
 * Reading what an error wraps, without knowing who threw it: shared by the database layer (src/db/sql/errors.ts
 * classifies failures) and the HTTP layer (src/http/errors.ts logs an unexpected error's SQLSTATE), which
 * must not import each other.
 */

/**
 * The error and what it wraps: `cause` chains, and Prisma's `meta.driverAdapterError`, where a known request
 * error (P2010 …) keeps the driver's own error and PostgreSQL's SQLSTATE.
 */
export function* errorCauses(error: unknown): Generator<Record<string, unknown>> {
  const pending: unknown[] = [error];
  for (let seen = 0; seen < 12 && pending.length > 0; seen++) {
    const current = pending.shift();
    if (typeof current !== 'object' || current === null) continue;
    yield current as Record<string, unknown>;
    const { cause, meta } = current as { cause?: unknown; meta?: { driverAdapterError?: unknown } };
    pending.push(cause, meta?.driverAdapterError);
  }
}

/**
 * PostgreSQL's SQLSTATE of the error, wherever it sits: pg's own error (`code`), or the driver adapter's
 * translation inside Prisma's P2010 (`meta.driverAdapterError.cause.originalCode`).
 */
export function sqlState(error: unknown): string | undefined {
  for (const e of errorCauses(error)) {
    if (typeof e.originalCode === 'string') return e.originalCode;
    // pg's errors carry a severity; Prisma's own codes (P2010 …) have the same shape but none.
    if (typeof e.code === 'string' && typeof e.severity === 'string') return e.code;
  }
  return undefined;
}
