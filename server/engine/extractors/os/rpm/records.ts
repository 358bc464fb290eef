// What each database format yields: the header blob of every installed package, or why one
// record could not be read (the rest of the database is still read).

export interface BlobRecord {
  /** The package's number in the database (hnum, BerkeleyDB key, NDB package index). */
  id: number;
  blob?: Buffer;
  /** Chinese reason when this record is unreadable. */
  error?: string;
}

/** The database as a whole is unreadable (wrong format, truncated before any record). */
export class DatabaseError extends Error {
  override name = 'DatabaseError';
}

/** Header blobs above this are refused before any copy (rpm's own limit is 16 MiB of data). */
export const MAX_BLOB_BYTES = 64 * 1024 * 1024;
