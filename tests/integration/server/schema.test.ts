// server/db/schema.ts (the Kysely Database interface) against the database the migrations build,
// on each test database: the same tables, the same columns, and a column typed `T | null` exactly
// where the database allows NULL. The types are read from schema.ts with the TypeScript compiler,
// as Kysely reads them (the select type of Generated<> and ColumnType<> columns), so a column
// added on one side only fails here.
import { fileURLToPath } from 'node:url';
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, sql, type Kysely } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseKind } from '../../../server/db/connect.ts';
import { migrateToLatest } from '../../../server/db/migrations/index.ts';
import { databases } from './harness.ts';

interface Column {
  nullable: boolean;
  /** schema.ts: an insert may leave it out. Database: it has a default (or is SQLite's rowid). */
  omittable: boolean;
}
/** table → column → facts */
type Tables = Record<string, Record<string, Column>>;

const schemaFile = fileURLToPath(new URL('../../../server/db/schema.ts', import.meta.url));

function readSchemaTypes(): Tables {
  const program = ts.createProgram([schemaFile], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
  });
  // An unresolved import would make every wrapper `any` and every column look non-null.
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (problems.length) throw new Error(`schema.ts does not compile:\n${problems.join('\n')}`);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(schemaFile)!;
  const database = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Database');
  if (!database) throw new Error('schema.ts declares no Database interface');

  const has = (type: ts.Type, flag: ts.TypeFlags) => (type.isUnion() ? type.types : [type]).some((t) => (t.flags & flag) !== 0);
  // Generated<T>, ColumnType<S, I, U> and aliases of them carry __select__/__insert__; a plain type is all three.
  const part = (type: ts.Type, name: '__select__' | '__insert__') => {
    const symbol = type.getProperty(name);
    return symbol ? checker.getTypeOfSymbol(symbol) : type;
  };
  const tables: Tables = {};
  for (const table of checker.getTypeAtLocation(database).getProperties()) {
    const columns: Record<string, Column> = {};
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      const type = checker.getTypeOfSymbol(column);
      const select = part(type, '__select__');
      const insert = part(type, '__insert__');
      if (has(select, ts.TypeFlags.Any | ts.TypeFlags.Unknown)) throw new Error(`${table.name}.${column.name}: type not readable`);
      columns[column.name] = {
        nullable: has(select, ts.TypeFlags.Null),
        // Kysely's Insertable makes a column optional when its insert type admits undefined or null.
        omittable: has(insert, ts.TypeFlags.Undefined | ts.TypeFlags.Null) || (column.flags & ts.SymbolFlags.Optional) !== 0,
      };
    }
    tables[table.name] = columns;
  }
  return tables;
}

const kyselyTables = [DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE];

interface Row { table_name: string; column_name: string; nullable: boolean | number; has_default: boolean | number }

async function readDatabase(db: Kysely<any>, kind: DatabaseKind): Promise<Tables> {
  // SQLite lets a primary-key column hold NULL unless it says NOT NULL (a documented quirk kept
  // for compatibility), except a lone INTEGER PRIMARY KEY, which is the rowid and numbers itself.
  // Primary keys count as NOT NULL here; PostgreSQL, which enforces that, checks them for real.
  const query = kind === 'postgres'
    ? sql<Row>`select c.table_name, c.column_name, c.is_nullable = 'YES' as nullable, c.column_default is not null as has_default
        from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`
    : sql<Row>`select m.name as table_name, p.name as column_name, p."notnull" = 0 and p.pk = 0 as nullable,
          p.dflt_value is not null or (p.pk = 1 and lower(p.type) = 'integer'
            and (select count(*) from pragma_table_info(m.name) k where k.pk > 0) = 1) as has_default
        from sqlite_master m join pragma_table_info(m.name) p
        where m.type = 'table' and substr(m.name, 1, 7) <> 'sqlite_'`;
  const tables: Tables = {};
  for (const row of (await query.execute(db)).rows) {
    if (kyselyTables.includes(row.table_name)) continue;
    (tables[row.table_name] ??= {})[row.column_name] = { nullable: Boolean(row.nullable), omittable: Boolean(row.has_default) };
  }
  return tables;
}

const types = readSchemaTypes();

/** What one side has and the other lacks, each side sorted. */
const difference = (fromTypes: string[], fromDatabase: string[]) => ({
  onlyInSchemaTs: fromTypes.filter((n) => !fromDatabase.includes(n)).sort(),
  onlyInDatabase: fromDatabase.filter((n) => !fromTypes.includes(n)).sort(),
});
const none = { onlyInSchemaTs: [], onlyInDatabase: [] };
const columnsOf = (tables: Tables) => Object.entries(tables).flatMap(([t, columns]) => Object.keys(columns).map((c) => `${t}.${c}`));

describe.each(databases)('schema.ts matches the migrated database on $name', (database) => {
  let actual: Tables;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const created = await database.create();
    const { db, kind } = openDatabase(created.config);
    try {
      await migrateToLatest(db, kind);
      actual = await readDatabase(db, kind);
    } finally {
      await db.destroy();
    }
    drop = created.drop;
  });
  afterAll(() => drop?.());

  it('has a table for every table of the Database interface, and no other (Kysely\'s own aside)', () => {
    expect(Object.keys(types).length).toBeGreaterThan(0);
    expect(difference(Object.keys(types), Object.keys(actual))).toEqual(none);
  });

  it('has the same columns in every table', () => {
    expect(difference(columnsOf(types), columnsOf(actual))).toEqual(none);
  });

  it('allows NULL exactly in the columns typed `| null`', () => {
    const disagree = Object.entries(types).flatMap(([table, columns]) => Object.entries(columns)
      .filter(([column, typed]) => actual[table]?.[column] && actual[table][column].nullable !== typed.nullable)
      .map(([column, typed]) => `${table}.${column}: ${typed.nullable ? 'T | null in schema.ts, NOT NULL in the database' : 'T in schema.ts, nullable in the database'}`));
    expect(disagree).toEqual([]);
  });

  it('fills every NOT NULL column an insert may leave out (Generated<>, ColumnType<…, … | undefined>) with a default', () => {
    const missing = Object.entries(types).flatMap(([table, columns]) => Object.entries(columns)
      .filter(([column, typed]) => typed.omittable && actual[table]?.[column] && !actual[table][column].nullable && !actual[table][column].omittable)
      .map(([column]) => `${table}.${column}`));
    expect(missing).toEqual([]);
  });
});
