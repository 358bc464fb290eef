// Column spellings shared by the migrations. Types differ only where the dialects do (ids,
// timestamps, JSON, booleans); a migration asks here rather than spelling them itself.
// These helpers are used by shipped migrations: change what they produce and every database
// created from now on differs from the ones already installed, so add a new helper instead.
import type { CreateTableBuilder } from 'kysely';
import type { DatabaseKind } from '../connect.ts';

export const types = (kind: DatabaseKind) => ({
  timestamp: kind === 'postgres' ? 'timestamptz' : 'text',
  json: kind === 'postgres' ? 'jsonb' : 'text',
  flag: kind === 'postgres' ? 'boolean' : 'integer',
} as const);

/** An auto-incrementing integer primary key named `id`. */
export const withId = <T extends string>(table: CreateTableBuilder<T, never>, kind: DatabaseKind) =>
  kind === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
