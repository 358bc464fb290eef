// One command, one transaction (design §4): a repository or service that needs a transaction joins
// the caller's when it is handed one, and opens its own otherwise, so a command and its audit row
// commit or roll back together. Inside `work`, every query goes through `trx` (on SQLite the
// transaction holds the only connection: a query on the outer handle would wait for ever).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

export type Db = Kysely<Database> | Transaction<Database>;
export type Trx = Transaction<Database>;

export function inTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Trx) : db.transaction().execute(work);
}
