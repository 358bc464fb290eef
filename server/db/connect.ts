// Opens the database named by the config: SQLite (embedded default) or PostgreSQL (team server).
// PostgreSQL type parsers are set so both dialects return identical JS values to repositories.
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { DatabaseConfig } from '../config.ts';
import type { Database } from './schema.ts';
import { makePrivateDirSync, touchPrivateFileSync, tightenSync } from '../files/private.ts';
import { PREPARED_MARK } from './prepared.ts';
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
// than running them (1.4 ms against 0.2 ms for the guard's). A statement marked with
// PREPARED_MARK (prepared.ts) is sent as a named statement instead: each connection parses and
// plans it once, then only binds and executes it. Only marked statements are named: after five
// runs PostgreSQL may keep a generic plan, which must be checked to be as good as a fresh one for
// every parameter (a LIMIT given as a parameter, for one, makes it expect a tenth of the table).
// At most PREPARED_MAX texts are named (filters make distinct texts). A named statement the server
// refuses (its plan outdated by a schema change, or forgotten by a pooler in transaction mode) is
// sent again unnamed at once, and its text unnamed from then on.

const PREPARED_MAX = 300;
const NAMED_FAILURES = new Set(['0A000', '26000']);

const statementNames = new Map<string, string>();
const unnamed = new Set<string>();
/** Names are never reused: a connection may still hold a name whose text was dropped. */
let lastName = 0;

function statementName(text: string): string | undefined {
  if (!text.includes(PREPARED_MARK)) return undefined;
  const known = statementNames.get(text);
  if (known !== undefined || statementNames.size >= PREPARED_MAX || unnamed.has(text)) return known;
  const name = `cairn_${++lastName}`;
  statementNames.set(text, name);
  return name;
}

/** Makes a pool client send marked statements as named ones (see above). */
function nameMarkedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
    if (typeof text !== 'string' || typeof values === 'function' || callback !== undefined) return query(text, values, callback);
    const name = statementName(text);
    if (!name) return query(text, values);
    return (query({ name, text, values }) as Promise<unknown>).catch((error: { code?: string }) => {
      if (!error?.code || !NAMED_FAILURES.has(error.code)) throw error;
      statementNames.delete(text);
      unnamed.add(text);
      // Sent again unnamed. Outside a transaction (where marked statements run) this answers the
      // call; inside one PostgreSQL has aborted it and the retry reports that, as the first would.
      return query(text, values);
    });
  }) as typeof client.query;
}

function openPostgres(url: string): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: pgTypes });
  pool.on('connect', nameMarkedStatements);
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
