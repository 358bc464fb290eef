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

// ---- prepared statements (PostgreSQL) -----------------------------------------------------------
// Kysely sends every statement unnamed, so PostgreSQL parses and plans it on every call; for the
// short reads every request makes (the guard's session look-up, a list page) planning costs more
// than running them (1.4 ms against 0.2 ms for the guard's). A statement text seen a few times is
// sent as a named statement instead: each connection parses and plans it once and then only binds
// and executes it (PostgreSQL keeps a generic plan when it is no worse than a fresh one).
// Only reads and writes are named, never transaction control or DDL, and never a text with a
// `*` other than count(*): a cached `select *` would fail once a migration changed the table.
// A bounded number of texts are named (lists of ids make texts without end). A named statement
// that the server refuses (its plan outdated by a schema change, or forgotten by a pooler in
// transaction mode) fails that one call and its text is sent unnamed from then on.

/** Sightings of a text before it is named. */
const PREPARE_AFTER = 3;
/** Texts named per process. */
const PREPARED_MAX = 300;
/** Texts whose sightings are counted before the count starts again. */
const SIGHTINGS_MAX = 5000;

const NAMEABLE = /^\s*(select|with|insert|update|delete)\s/i;
/** Any `*` but count(*)'s. */
const STAR = /(?<!\()\*|\*(?!\))/;
const NAMED_FAILURES = new Set(['0A000', '26000']);

const statementNames = new Map<string, string>();
const sightings = new Map<string, number>();
const unnamed = new Set<string>();
/** Names are never reused: a connection may still hold a name whose text was dropped. */
let lastName = 0;

function statementName(text: string): string | undefined {
  const known = statementNames.get(text);
  if (known !== undefined || statementNames.size >= PREPARED_MAX || unnamed.has(text)) return known;
  if (!NAMEABLE.test(text) || STAR.test(text)) {
    unnamed.add(text);
    return undefined;
  }
  const seen = (sightings.get(text) ?? 0) + 1;
  if (seen < PREPARE_AFTER) {
    if (sightings.size >= SIGHTINGS_MAX) sightings.clear();
    sightings.set(text, seen);
    return undefined;
  }
  sightings.delete(text);
  const name = `cairn_${++lastName}`;
  statementNames.set(text, name);
  return name;
}

/** Makes a pool client send repeated statements as named ones (see above). */
function nameRepeatedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
    if (typeof text !== 'string' || typeof values === 'function' || callback !== undefined) return query(text, values, callback);
    const name = statementName(text);
    if (!name) return query(text, values);
    return (query({ name, text, values }) as Promise<unknown>).catch((error: { code?: string }) => {
      if (error?.code && NAMED_FAILURES.has(error.code)) {
        statementNames.delete(text);
        unnamed.add(text);
      }
      throw error;
    });
  }) as typeof client.query;
}

function openPostgres(url: string): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: pgTypes });
  pool.on('connect', nameRepeatedStatements);
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
