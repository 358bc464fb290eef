// rpm's SQLite package database `rpmdb.sqlite` (rpm >= 4.16: Fedora 33+, RHEL/Rocky/Alma 9,
// CBL-Mariner): table Packages(hnum INTEGER PRIMARY KEY, blob BLOB), one header blob per row.
// Read with Node's own node:sqlite from memory (deserialize), never from the scanned file in place.
import type { BlobRecord } from './records.ts';
import { DatabaseError, MAX_BLOB_BYTES } from './records.ts';

export const isSqlite = (buf: Buffer): boolean => buf.length >= 100 && buf.toString('latin1', 0, 16) === 'SQLite format 3\0';

export async function readSqliteDb(buf: Buffer): Promise<BlobRecord[]> {
  if (!isSqlite(buf)) throw new DatabaseError(buf.length === 0 ? '文件为空' : '不是 SQLite 数据库（文件头不符）');
  const { DatabaseSync } = await import('node:sqlite');
  // rpm keeps the database in WAL mode; a copy in memory has no WAL beside it, so it is opened as
  // a rollback-journal database (header bytes 18/19), which reads the same pages.
  const image = Buffer.from(buf);
  if (image[18] === 2) image[18] = 1;
  if (image[19] === 2) image[19] = 1;
  const db = new DatabaseSync(':memory:');
  try {
    try {
      db.deserialize(image);
    } catch (error) {
      throw new DatabaseError(`SQLite 数据库无法打开：${error instanceof Error ? error.message : String(error)}`);
    }
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Packages'").get();
    if (!table) throw new DatabaseError('SQLite 数据库中没有 Packages 表，不是 rpm 包数据库');
    const records: BlobRecord[] = [];
    // Row by row, so that a damaged page costs the package stored on it, not the database.
    const ids = (db.prepare('SELECT hnum FROM Packages ORDER BY hnum').all() as { hnum: number }[]).map((r) => r.hnum);
    const row = db.prepare('SELECT length(blob) AS size, CASE WHEN typeof(blob) = \'blob\' AND length(blob) <= ? THEN blob END AS blob FROM Packages WHERE hnum = ?');
    for (const id of ids) {
      try {
        const r = row.get(MAX_BLOB_BYTES, id) as { size: number | null; blob: Uint8Array | null } | undefined;
        if (r?.blob instanceof Uint8Array) records.push({ id, blob: Buffer.from(r.blob.buffer, r.blob.byteOffset, r.blob.byteLength) });
        else records.push({ id, error: r?.size == null ? '记录没有头部数据' : `头部长度 ${r.size} 字节超过上限或不是二进制数据` });
      } catch (error) {
        records.push({ id, error: `SQLite 记录读取失败：${error instanceof Error ? error.message : String(error)}` });
      }
    }
    return records;
  } catch (error) {
    if (error instanceof DatabaseError) throw error;
    throw new DatabaseError(`SQLite 数据库读取失败：${error instanceof Error ? error.message : String(error)}`);
  } finally {
    db.close();
  }
}
