// What route handlers get from the app: the database and the settings fixed at start-up.
import type { Kysely } from 'kysely';
import type { DatabaseKind } from './db/connect.ts';
import type { Database } from './db/schema.ts';

export interface ServerContext {
  db: Kysely<Database>;
  databaseKind: DatabaseKind;
  /** Where uploads and analysis work files live. */
  dataDir: string;
  csrfSecret: string;
  sessionTtlMinutes: number;
  version: string;
}
