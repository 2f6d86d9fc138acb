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

/** A named statement; every name is registered once, so two different texts can never share one. */
export function statement(name: string, text: string): Statement {
  const qualified = `cas_${name}`;
  if (names.has(qualified)) throw new Error(`SQL statement name ${qualified} is used twice`);
  names.add(qualified);
  return Object.freeze({ name: qualified, text });
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
