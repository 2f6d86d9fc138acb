import type pg from 'pg';

/**
 * The stores' access to PostgreSQL: `pg` directly, with named prepared statements. A named statement
 * is parsed and planned once per connection and then only bound and executed, which halves
 * PostgreSQL's CPU per request compared with Prisma's unnamed statements, and skips the query
 * engine's per-call work in Node (docs/decisions.md, "Performance").
 */
export interface Queryable {
  query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>>;
}

export interface Statement {
  /** Unique per SQL text: PostgreSQL keeps one prepared statement per name and connection. */
  readonly name: string;
  readonly text: string;
}

const names = new Set<string>();
/** PostgreSQL truncates longer statement names (NAMEDATALEN), which could make two names one. */
const MAX_NAME_LENGTH = 63;

/** A named statement; every name is registered once, so two different texts can never share one. */
export function statement(name: string, text: string): Statement {
  const qualified = `cas_${name}`;
  if (names.has(qualified)) throw new Error(`SQL statement name ${qualified} is used twice`);
  if (qualified.length > MAX_NAME_LENGTH) throw new Error(`SQL statement name ${qualified} is longer than ${MAX_NAME_LENGTH} characters`);
  names.add(qualified);
  return Object.freeze({ name: qualified, text });
}

/**
 * A write whose result nobody reads (an INSERT or UPDATE without RETURNING). Inside a transaction it may
 * be sent later, together with the transaction's other deferred writes, as one statement: before the
 * transaction's next statement or before COMMIT, so it is always in the transaction and always seen by
 * what follows. `translate` turns a failure of this write into the domain's error (e.g. a unique key).
 */
export interface DeferredWrite {
  statement: Statement;
  values: unknown[];
  translate?: (error: unknown) => unknown;
}

/** A connection that can hold writes back (a transaction's); see DeferredWrite. */
export interface DeferringQueryable extends Queryable {
  defer(write: DeferredWrite): void;
}

const isDeferring = (db: Queryable): db is DeferringQueryable => typeof (db as Partial<DeferringQueryable>).defer === 'function';

/** Runs the write now, or, inside a transaction, defers it (DeferredWrite). */
export async function runWrite(db: Queryable, write: DeferredWrite): Promise<void> {
  if (isDeferring(db)) {
    db.defer(write);
    return;
  }
  try {
    await db.query({ name: write.statement.name, text: write.statement.text, values: write.values });
  } catch (error) {
    throw write.translate?.(error) ?? error;
  }
}

const combined = new Map<string, Statement>();
const parameterCounts = new WeakMap<Statement, number>();

/** The highest $n of a statement: how many values it takes. */
function parameterCount(sql: Statement): number {
  let count = parameterCounts.get(sql);
  if (count === undefined) {
    count = Math.max(0, ...[...sql.text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
    parameterCounts.set(sql, count);
  }
  return count;
}

/**
 * Several writes as one statement: each becomes a data-modifying WITH query (PostgreSQL runs every one
 * of them to completion, against the same snapshot), with its parameters renumbered after the previous
 * ones'. One prepared statement per sequence of writes, named by a counter (names must stay short).
 */
export function combineWrites(writes: readonly DeferredWrite[]): { statement: Statement; values: unknown[] } {
  for (const write of writes) {
    const expected = parameterCount(write.statement);
    if (write.values.length !== expected) throw new Error(`${write.statement.name} takes ${expected} parameters, got ${write.values.length}`);
  }
  if (writes.length === 1) return { statement: writes[0]!.statement, values: writes[0]!.values };
  const key = writes.map((write) => write.statement.name).join(' ');
  let sql = combined.get(key);
  if (!sql) {
    let offset = 0;
    const parts = writes.map((write, index) => {
      const text = write.statement.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
      offset += write.values.length;
      return `w${index} AS (${text})`;
    });
    sql = statement(`writes_${combined.size + 1}`, `WITH ${parts.join(', ')} SELECT 1`);
    combined.set(key, sql);
  }
  return { statement: sql, values: writes.flatMap((write) => write.values) };
}

export async function queryRows<R extends pg.QueryResultRow>(db: Queryable, sql: Statement, values: unknown[]): Promise<R[]> {
  const result = await db.query<R>({ name: sql.name, text: sql.text, values });
  return result.rows;
}

/** jsonb parameters go as JSON text: `pg` would turn a JavaScript array into a PostgreSQL array literal. */
export const jsonParameter = (value: unknown): string => JSON.stringify(value);

/**
 * Id lists travel as one comma-separated text (`array_to_string(ARRAY(…), ',')`) and are split here:
 * ids are UUIDs, which never contain a comma, and splitting is several times cheaper than pg's
 * character-by-character parser for PostgreSQL array literals (a visible share of a nested read's CPU).
 */
export const idList = (joined: string): string[] => (joined === '' ? [] : joined.split(','));
