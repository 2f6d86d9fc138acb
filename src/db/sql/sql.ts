// The generated client's type, not src/db/connection/prisma-client.ts: that module names statements with
// `statementName` below, and importing it back would make the two a cycle.
import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * The raw SQL the stores send through Prisma Client (`$queryRawUnsafe` / `$executeRawUnsafe`), for the
 * reads and writes where the benchmark showed the typed API to be the bottleneck (docs/adr/0020-prisma-client-one-path.md,
 * "Data layer"). Every such statement is declared here once, with a name: Prisma's pg adapter asks
 * `statementName` for each query it sends (src/db/connection/prisma-client.ts), and a named statement is parsed and
 * planned once per connection, then only bound and executed. SQL text that was never declared (the typed
 * API's, Prisma's own) stays unnamed, so the set of prepared statements per connection is bounded by
 * the statements below, whatever text the typed API generates.
 */
export interface Statement {
  /** Unique per SQL text: PostgreSQL keeps one prepared statement per name and connection. */
  readonly name: string;
  readonly text: string;
}

/** The part of Prisma Client the raw statements use: the client itself, or an interactive transaction's. */
export type SqlClient = Pick<PrismaClient, '$queryRawUnsafe' | '$executeRawUnsafe'>;

const namesByText = new Map<string, string>();
const names = new Set<string>();
/** PostgreSQL truncates longer statement names (NAMEDATALEN), which could make two names one. */
const MAX_NAME_LENGTH = 63;

/** A named statement; every name and every text is registered once, so two texts can never share a name. */
export function statement(name: string, text: string): Statement {
  const qualified = `cas_${name}`;
  if (names.has(qualified)) throw new Error(`SQL statement name ${qualified} is used twice`);
  if (namesByText.has(text))
    throw new Error(`SQL statement ${qualified} has the same text as ${namesByText.get(text)}`);
  if (qualified.length > MAX_NAME_LENGTH)
    throw new Error(`SQL statement name ${qualified} is longer than ${MAX_NAME_LENGTH} characters`);
  names.add(qualified);
  namesByText.set(text, qualified);
  return Object.freeze({ name: qualified, text });
}

/**
 * Every statement declared so far, in declaration order: what `npm run sql:generate` (scripts/sql-generate.ts)
 * writes beside each declaring module as `<module>.sql`, so that a statement's final text shows in review.
 */
export const declaredStatements = (): Statement[] => [...namesByText].map(([text, name]) => ({ name, text }));

/** The prepared-statement name of a declared statement's text; undefined for any other SQL. */
export const statementName = (text: string): string | undefined => namesByText.get(text);

export function queryRows<R>(db: SqlClient, sql: Statement, values: readonly unknown[]): Promise<R[]> {
  return db.$queryRawUnsafe<R[]>(sql.text, ...values);
}

/** The number of rows the statement changed. */
export function execute(db: SqlClient, sql: Statement, values: readonly unknown[]): Promise<number> {
  return db.$executeRawUnsafe(sql.text, ...values);
}

/** jsonb parameters go as JSON text with a `::jsonb` cast: one form for objects, arrays and strings alike. */
export const jsonParameter = (value: unknown): string => JSON.stringify(value);

/**
 * Id lists travel as one comma-separated text (`array_to_string(ARRAY(…), ',')`) and are split here:
 * ids are UUIDs, which never contain a comma, and splitting is several times cheaper than parsing a
 * PostgreSQL array (a visible share of a nested read's CPU).
 */
export const idList = (joined: string): string[] => (joined === '' ? [] : joined.split(','));

/**
 * A keyset bound on a uuid column: `column` after the uuid parameter `parameter`, or every row when the parameter is
 * NULL (the first page or batch). Not `($n IS NULL OR column > $n)`: a named statement is planned for any value after
 * its fifth execution (PostgreSQL's generic plan), and then the OR is only a filter, so every page or batch scans the
 * index from its first row (measured: the interest accrual's batches each read the environment's accounts up to the
 * bound, quadratic in the accounts). The nil UUID sorts first and is no row's id: a random (v4) UUID's version is 4.
 */
export const uuidAfter = (column: string, parameter: string): string =>
  `${column} > coalesce(${parameter}::uuid, '00000000-0000-0000-0000-000000000000'::uuid)`;
