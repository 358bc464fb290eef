// Kysely's SQLite dialect over better-sqlite3 with a driver that shares the database file with
// other connections without ever blocking the event loop on them. The platform opens the file more
// than once: the HTTP process, the thread that analyses a run and saves its results
// (jobs/run-thread.ts), a CLI import. In WAL mode readers never wait for a writer, but SQLite has one
// writer at a time, and better-sqlite3's busy timeout waits for the write lock by sleeping in the
// calling thread: the whole event loop would stop for as long as another connection writes (a large
// result is saved in one transaction of several seconds). So here:
//   - the busy timeout is 0 and a statement refused with SQLITE_BUSY is tried again after a timer
//     (1 ms, growing to 25 ms, for up to two minutes): the wait is asynchronous, the loop turns;
//   - transactions begin IMMEDIATE, taking the write lock at once (retried the same way), so one
//     that reads before it writes can never fail because another connection wrote in between
//     (SQLITE_BUSY_SNAPSHOT), as it could with SQLite's default deferred transactions;
//   - while a transaction waits for the lock it does not hold the connection: this connection's
//     reads go on; once it holds the lock, other statements on the connection wait for its end, as
//     before (a statement run meanwhile would join it);
//   - prepared statements are kept (the last 256 by SQL text), so a query run again is not parsed again.
import type Database from 'better-sqlite3';
import {
  CompiledQuery, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type DatabaseConnection, type DatabaseIntrospector, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely';

const BUSY_LIMIT_MS = 120_000;
const STATEMENTS_KEPT = 256;

const isBusy = (error: unknown) => (error as { code?: string }).code === 'SQLITE_BUSY';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One connection of better-sqlite3, shared by every lease; a transaction has it to itself. */
class Connection {
  readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** The lease whose transaction is open. */
  private owner: Lease | null = null;
  /** Settles when the open transaction ends. */
  private ended: Promise<void> = Promise.resolve();
  private end: () => void = () => {};

  constructor(db: Database.Database) {
    this.db = db;
  }

  ownedBy(lease: Lease): boolean {
    return this.owner === lease;
  }

  /**
   * Runs `attempt` when no transaction holds the connection, again after a timer for as long as
   * SQLite answers SQLITE_BUSY (another connection has the write lock). `attempt` runs in the same
   * turn as the check that the connection is free, so nothing can take it in between.
   */
  async whenFree<T>(attempt: () => T): Promise<T> {
    const deadline = Date.now() + BUSY_LIMIT_MS;
    for (let wait = 1; ; wait = Math.min(25, wait * 2)) {
      while (this.owner) await this.ended;
      try {
        return attempt();
      } catch (error) {
        if (!isBusy(error) || Date.now() > deadline) throw error;
      }
      await sleep(wait);
    }
  }

  take(lease: Lease): void {
    this.owner = lease;
    this.ended = new Promise((resolve) => { this.end = resolve; });
  }

  give(): void {
    this.owner = null;
    this.end();
  }

  prepare(sql: string): Database.Statement {
    let stmt = this.statements.get(sql);
    if (stmt) {
      this.statements.delete(sql);
    } else {
      stmt = this.db.prepare(sql);
      if (this.statements.size >= STATEMENTS_KEPT) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(sql, stmt);
    return stmt;
  }

  run<R>({ sql, parameters }: CompiledQuery): QueryResult<R> {
    const stmt = this.prepare(sql);
    if (stmt.reader) return { rows: stmt.all(parameters as unknown[]) as R[] };
    const { changes, lastInsertRowid } = stmt.run(parameters as unknown[]);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }
}

/** What Kysely holds while it runs a query or a transaction. */
class Lease implements DatabaseConnection {
  private readonly connection: Connection;

  constructor(connection: Connection) {
    this.connection = connection;
  }

  get inTransaction(): boolean {
    return this.connection.ownedBy(this);
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) return Promise.resolve(this.connection.run<R>(query));
    return this.connection.whenFree(() => this.connection.run<R>(query));
  }

  // eslint-disable-next-line require-yield -- the platform streams no query; Kysely's interface wants one
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('SQLite: streaming queries is not supported');
  }

  async begin(): Promise<void> {
    const { connection } = this;
    await connection.whenFree(() => {
      connection.take(this);
      try {
        connection.run(CompiledQuery.raw('begin immediate'));
      } catch (error) {
        connection.give();
        throw error;
      }
    });
  }

  end(sql: 'commit' | 'rollback'): void {
    const { connection } = this;
    if (!connection.ownedBy(this)) return;
    try {
      if (sql === 'commit' || connection.db.inTransaction) connection.run(CompiledQuery.raw(sql));
    } finally {
      // A failed commit is followed by Kysely's rollback, which gives the connection back.
      if (sql === 'rollback' || !connection.db.inTransaction) connection.give();
    }
  }
}

class SharedSqliteDriver implements Driver {
  private readonly connection: Connection;

  constructor(db: Database.Database) {
    this.connection = new Connection(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this.connection);
  }

  async beginTransaction(lease: DatabaseConnection): Promise<void> {
    await (lease as Lease).begin();
  }

  async commitTransaction(lease: DatabaseConnection): Promise<void> {
    (lease as Lease).end('commit');
  }

  async rollbackTransaction(lease: DatabaseConnection): Promise<void> {
    (lease as Lease).end('rollback');
  }

  async releaseConnection(lease: DatabaseConnection): Promise<void> {
    // A lease let go with its transaction still open (Kysely always ends it first) must not keep the connection.
    if ((lease as Lease).inTransaction) (lease as Lease).end('rollback');
  }

  async destroy(): Promise<void> {
    this.connection.db.close();
  }
}

/** The SQLite dialect over `db` with the driver above; `db` gets busy_timeout = 0. */
export class SharedSqliteDialect implements Dialect {
  private readonly db: Database.Database;

  constructor(db: Database.Database) {
    this.db = db;
    db.pragma('busy_timeout = 0');
  }

  createDriver(): Driver {
    return new SharedSqliteDriver(this.db);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createAdapter() {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
