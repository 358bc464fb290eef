// Opens the database named by the config: SQLite (embedded default) or PostgreSQL (team server).
// PostgreSQL type parsers are set so both dialects return identical JS values to repositories.
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { DatabaseConfig } from '../config.ts';
import type { Database } from './schema.ts';
import { makePrivateDirSync, touchPrivateFileSync, tightenSync } from '../files/private.ts';
import { SharedSqliteDialect } from './sqlite-driver.ts';

export type DatabaseKind = DatabaseConfig['kind'];

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
}

const PG_OID = { int8: 20, json: 114, timestamp: 1114, timestamptz: 1184, jsonb: 3802 } as const;

const toIso = (parse: (v: string) => unknown) => (value: string) => {
  const date = parse(value);
  return date instanceof Date && !Number.isNaN(date.getTime()) ? date.toISOString() : value;
};

/** Timestamps as ISO strings, JSON as text, counts as numbers: the same values SQLite gives. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case PG_OID.int8: return (value: string) => Number(value);
      case PG_OID.json:
      case PG_OID.jsonb: return (value: string) => value;
      case PG_OID.timestamp:
      case PG_OID.timestamptz: return toIso(pg.types.getTypeParser(oid, 'text'));
      default: return pg.types.getTypeParser(oid, format as 'text');
    }
  },
};

function openSqlite(file: string): Kysely<Database> {
  makePrivateDirSync(path.dirname(file));
  // SQLite creates the file 0644 less the umask and gives its -wal and -shm the database's mode:
  // the file is created (or tightened) 0600 first, so all three are private.
  touchPrivateFileSync(file);
  for (const companion of ['-wal', '-shm', '-journal']) tightenSync(`${file}${companion}`);
  const database = new SQLite(file);
  // WAL lets readers (the HTTP process while a run's thread saves its results, tests, a CLI) look
  // in while another connection writes; foreign keys are off by default. Waiting for another
  // connection's write lock is the driver's (sqlite-driver.ts): asynchronous, never a busy timeout.
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SharedSqliteDialect(database) });
}

function openPostgres(url: string): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: pgTypes });
  // An idle client dropped by the server (restart, failover) must not crash the process: the
  // pool replaces it, and a query that fails meanwhile reports through its request's error path.
  pool.on('error', () => {});
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  return config.kind === 'postgres'
    ? { db: openPostgres(config.url), kind: 'postgres' }
    : { db: openSqlite(config.file), kind: 'sqlite' };
}
