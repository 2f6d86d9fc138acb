import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../src/db/connection/pool.js';
import { createPrismaClient } from '../../src/db/connection/prisma-client.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

/**
 * Fails when prisma/schema.prisma (as compiled into the generated client the service runs with) and
 * the SQL migrations disagree: Prisma's migrate engine, which would normally catch this, cannot run here.
 *
 * The generated client's runtime data model names every model, table, field and column; the schema
 * text embedded in the same client adds what that model leaves out (list, optional, @db native type,
 * defaults, keys, indexes, relations). Both are compared with what the migrations built.
 */

interface RuntimeField {
  name: string;
  kind: 'scalar' | 'object' | 'enum';
  type: string;
  dbName?: string | null;
}
interface RuntimeModel {
  dbName: string | null;
  fields: RuntimeField[];
}
interface GeneratedClientInternals {
  _runtimeDataModel?: { models: Record<string, RuntimeModel> };
  _engineConfig?: { inlineSchema?: string };
}

interface ExpectedColumn {
  type: string;
  notNull: boolean | 'any';
  hasDefault: boolean;
}
interface ExpectedTable {
  columns: Record<string, ExpectedColumn>;
  primaryKey: string[];
  unique: string[][];
  indexes: string[][];
  foreignKeys: { columns: string[]; references: string; referencedColumns: string[]; onDelete: string }[];
}

const NATIVE_TYPES: Record<string, (args: string[]) => string> = {
  Uuid: () => 'uuid',
  Text: () => 'text',
  VarChar: ([n]) => (n ? `character varying(${n})` : 'character varying'),
  Char: ([n]) => `character(${n ?? 1})`,
  Date: () => 'date',
  Timestamptz: ([p]) => `timestamp(${p ?? 6}) with time zone`,
  Timestamp: ([p]) => `timestamp(${p ?? 6}) without time zone`,
  Decimal: ([p, s]) => `numeric(${p},${s})`,
  Json: () => 'json',
  JsonB: () => 'jsonb',
  Integer: () => 'integer',
  BigInt: () => 'bigint',
};
const DEFAULT_TYPES: Record<string, string> = {
  String: 'text',
  Bytes: 'bytea',
  DateTime: 'timestamp(3) without time zone',
  Json: 'jsonb',
  Decimal: 'numeric(65,30)',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Boolean: 'boolean',
};
// Prisma's defaults for a required relation on PostgreSQL.
const DEFAULT_ON_DELETE = 'RESTRICT';
const REFERENTIAL_ACTIONS: Record<string, string> = {
  Cascade: 'CASCADE',
  Restrict: 'RESTRICT',
  NoAction: 'NO ACTION',
  SetNull: 'SET NULL',
  SetDefault: 'SET DEFAULT',
};

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The body of `model <name> { … }` in the schema text, one trimmed line per entry, comments removed. */
function modelLines(schema: string, model: string): string[] {
  const match = new RegExp(`^model\\s+${model}\\s*\\{([\\s\\S]*?)^\\}`, 'm').exec(schema);
  if (!match) throw new Error(`model ${model} not found in the schema embedded in the generated client`);
  return match[1]!
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').trim())
    .filter(Boolean);
}

/** What the migrations must have built for each model, derived from the generated client. */
function expectedTables(models: Record<string, RuntimeModel>, schema: string): Record<string, ExpectedTable> {
  const tableOf = (model: string) => models[model]?.dbName ?? model;
  const tables: Record<string, ExpectedTable> = {};
  for (const [modelName, model] of Object.entries(models)) {
    const lines = modelLines(schema, modelName);
    const columnOf = (field: string) => {
      const found = model.fields.find((f) => f.name === field);
      if (!found)
        throw new Error(`${modelName}.${field} is referenced in the schema but absent from the generated client`);
      return found.dbName ?? found.name;
    };
    const table: ExpectedTable = { columns: {}, primaryKey: [], unique: [], indexes: [], foreignKeys: [] };
    for (const field of model.fields) {
      const line = lines.find((l) => l.split(/\s+/)[0] === field.name);
      if (!line)
        throw new Error(`${modelName}.${field.name} is in the generated client but not in its embedded schema`);
      const [, , isList, isOptional, attributes = ''] = /^(\w+)\s+\w+(\[\])?(\?)?\s*(.*)$/.exec(line) ?? [];
      if (field.kind === 'object') {
        const relation = /@relation\(([^)]*\[[^\]]*\][^)]*)\)/.exec(attributes)?.[1];
        if (relation) {
          table.foreignKeys.push({
            columns: list(/fields:\s*\[([^\]]*)\]/.exec(relation)?.[1]).map(columnOf),
            references: tableOf(field.type),
            referencedColumns: list(/references:\s*\[([^\]]*)\]/.exec(relation)?.[1]).map((f) => {
              const target = models[field.type]!.fields.find((candidate) => candidate.name === f)!;
              return target.dbName ?? target.name;
            }),
            onDelete: REFERENTIAL_ACTIONS[/onDelete:\s*(\w+)/.exec(relation)?.[1] ?? ''] ?? DEFAULT_ON_DELETE,
          });
        }
        continue;
      }
      const native = /@db\.(\w+)(?:\(([^)]*)\))?/.exec(attributes);
      let type = native ? NATIVE_TYPES[native[1]!]?.(list(native[2])) : DEFAULT_TYPES[field.type];
      if (!type) throw new Error(`the drift test does not know the type of ${modelName}.${field.name}; teach it`);
      if (isList) type += '[]';
      const column = field.dbName ?? field.name;
      // Prisma's own migrations leave scalar lists nullable; the client never writes NULL into one.
      table.columns[column] = {
        type,
        notNull: isList ? 'any' : !isOptional,
        hasDefault: /@default\(/.test(attributes),
      };
      if (/@id\b/.test(attributes)) table.primaryKey = [column];
      if (/@unique\b/.test(attributes)) table.unique.push([column]);
    }
    for (const line of lines.filter((l) => l.startsWith('@@'))) {
      const [, attribute, fields] = /^@@(\w+)\(\s*\[([^\]]*)\]/.exec(line) ?? [];
      // An operator class (`metadata(ops: JsonbPathOps)`) is not part of the column's name.
      const columns = list(fields).map((field) => columnOf(field.replace(/\(.*$/, '')));
      if (attribute === 'id') table.primaryKey = columns;
      else if (attribute === 'unique') table.unique.push(columns);
      else if (attribute === 'index') table.indexes.push(columns);
    }
    tables[tableOf(modelName)] = table;
  }
  return tables;
}

let db: TestDatabase;
let internals: GeneratedClientInternals;
beforeAll(async () => {
  db = await createTestDatabase();
  const pool = createPool({ connectionString: db.url, max: 1, connectTimeoutMs: 60_000, statementTimeoutMs: 5000 });
  internals = createPrismaClient(pool) as unknown as GeneratedClientInternals;
  await pool.end();
});
afterAll(async () => db.drop());

async function actualTables(): Promise<Record<string, ExpectedTable>> {
  const q = async <T>(sql: string) => (await db.pool.query(sql)).rows as T[];
  const columns = await q<{
    table_name: string;
    column_name: string;
    type: string;
    is_nullable: 'YES' | 'NO';
    column_default: string | null;
  }>(`
    SELECT c.table_name, c.column_name, c.is_nullable, c.column_default,
           format_type(a.atttypid, a.atttypmod) AS type
    FROM information_schema.columns c
    JOIN pg_attribute a ON a.attrelid = format('%I.%I', c.table_schema, c.table_name)::regclass AND a.attname = c.column_name
    WHERE c.table_schema = 'public' AND c.table_name <> '_prisma_migrations'`);
  const indexes = await q<{ table_name: string; columns: string[]; is_unique: boolean; is_primary: boolean }>(`
    SELECT t.relname AS table_name, i.indisunique AS is_unique, i.indisprimary AS is_primary,
           array(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n) AS columns
    FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
    WHERE ns.nspname = 'public' AND t.relname <> '_prisma_migrations'
      -- Indexes on expressions (customer search's folded names and emails) have no form in schema.prisma;
      -- test/db/customer-search-plans.test.ts holds them to the queries that need them.
      AND i.indexprs IS NULL`);
  const foreignKeys = await q<{
    table_name: string;
    columns: string[];
    references: string;
    referenced_columns: string[];
    on_delete: string;
  }>(`
    SELECT t.relname AS table_name, r.relname AS references,
           array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns,
           array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.n) AS referenced_columns,
           CASE c.confdeltype WHEN 'a' THEN 'NO ACTION' WHEN 'r' THEN 'RESTRICT' WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' ELSE 'SET DEFAULT' END AS on_delete
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
    JOIN pg_namespace ns ON ns.oid = t.relnamespace
    WHERE c.contype = 'f' AND ns.nspname = 'public'`);

  const tables: Record<string, ExpectedTable> = {};
  const table = (name: string) =>
    (tables[name] ??= { columns: {}, primaryKey: [], unique: [], indexes: [], foreignKeys: [] });
  for (const c of columns) {
    table(c.table_name).columns[c.column_name] = {
      type: c.type,
      notNull: c.is_nullable === 'NO',
      hasDefault: c.column_default !== null,
    };
  }
  for (const i of indexes) {
    if (i.is_primary) table(i.table_name).primaryKey = i.columns;
    else if (i.is_unique) table(i.table_name).unique.push(i.columns);
    else table(i.table_name).indexes.push(i.columns);
  }
  for (const f of foreignKeys) {
    table(f.table_name).foreignKeys.push({
      columns: f.columns,
      references: f.references,
      referencedColumns: f.referenced_columns,
      onDelete: f.on_delete,
    });
  }
  return tables;
}

/** Order-free form for comparison; a column whose nullability Prisma leaves open takes the actual one. */
function normalise(tables: Record<string, ExpectedTable>, actual?: Record<string, ExpectedTable>) {
  const sortLists = (lists: string[][]) => lists.map((l) => l.join(',')).sort();
  return Object.fromEntries(
    Object.entries(tables)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, t]) => [
        name,
        {
          columns: Object.fromEntries(
            Object.entries(t.columns)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([column, c]) => [
                column,
                {
                  ...c,
                  notNull: c.notNull === 'any' ? (actual?.[name]?.columns[column]?.notNull ?? 'any') : c.notNull,
                },
              ]),
          ),
          primaryKey: t.primaryKey,
          unique: sortLists(t.unique),
          indexes: sortLists(t.indexes),
          foreignKeys: t.foreignKeys
            .map(
              (f) =>
                `${f.columns.join(',')} -> ${f.references}(${f.referencedColumns.join(',')}) ON DELETE ${f.onDelete}`,
            )
            .sort(),
        },
      ]),
  );
}

describe('schema.prisma and the migrations', () => {
  it('can be read from the generated client', () => {
    // If Prisma renames these internals, this test must be taught where they went; it must not pass blind.
    expect(Object.keys(internals._runtimeDataModel?.models ?? {})).toEqual(
      expect.arrayContaining(['Customer', 'Account', 'AccountCustomer']),
    );
    expect(internals._engineConfig?.inlineSchema).toMatch(/^model Customer \{/m);
  });

  it('describe the same tables, columns, types, nullability, defaults, keys, indexes and foreign keys', async () => {
    const expected = expectedTables(internals._runtimeDataModel!.models, internals._engineConfig!.inlineSchema!);
    const actual = await actualTables();
    expect(normalise(actual)).toEqual(normalise(expected, actual));
  });
});
