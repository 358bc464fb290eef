// Before a file is uploaded: is it an archive Cairn can read? Magic bytes and a cheap structural
// check, so a renamed text file, a truncated download or an empty zip is refused on the desktop
// in seconds, in Chinese, rather than after the upload. A zip's central directory is read whole
// (and, up to 256 MiB, every entry's data inflated and checked against its CRC-32); a gzip's first block is decoded and, for a .tar.gz,
// its first tar header checked; a 7z's start header is checked against its CRC and the file's
// size; bzip2 and xz by their headers. The platform reads the whole archive through again before
// it launches an analysis (entry data, CRCs, limits): this is the early answer, not the last word.
// A file whose name does not promise an archive and whose content is not one (a lockfile, an SBOM,
// a binary) passes: its source type decides on the platform.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { constants as zlibConstants, crc32, gunzipSync } from 'node:zlib';
import yauzl from 'yauzl';
import { isArchiveName } from '../../contract/sources.ts';
import { DesktopError } from './errors.ts';

export const ARCHIVE_CHECK_MSG = {
  notArchive: (name: string) => `文件“${name}”不是可读取的压缩包（内容不是 zip、tar、gzip、bzip2、xz 或 7z 格式），未上传`,
  unsupported: (name: string, format: string) => `压缩包“${name}”的格式（${format}）不受支持，请改用 zip、tar.gz 或 7z，未上传`,
  corrupt: (name: string, reason: string) => `压缩包“${name}”已损坏：${reason}，未上传`,
  empty: (name: string) => `压缩包“${name}”中没有任何文件，未上传`,
} as const;

const REASON = {
  zipDirectory: '找不到目录区或目录区已损坏（文件可能不完整）',
  gzip: 'gzip 数据无法解码（文件可能不完整）',
  tarHeader: '解压后的内容不是有效的 tar 包',
  sevenZipHeader: '7z 文件头校验失败',
  sevenZipTruncated: '文件不完整（7z 目录超出文件末尾）',
  truncatedHeader: '文件不完整',
  zipEntry: (entry: string) => `条目 ${entry.replace(/[\p{Cc}]/gu, '?')} 的数据校验（CRC-32）失败`,
} as const;

type Format = 'zip' | 'gzip' | 'bzip2' | 'xz' | '7z' | 'tar';
type Detected = { format: Format } | { unsupported: string } | null;

const HEAD = 64 * 1024;
const EOCD_SEARCH = 22 + 0xffff;

const startsWith = (buf: Buffer, bytes: readonly number[]) => buf.length >= bytes.length && bytes.every((b, i) => buf[i] === b);

function isTarHeader(block: Buffer): boolean {
  if (block.length < 512) return false;
  if (block.toString('latin1', 257, 262) === 'ustar') return true;
  if (block[0] === 0) return false;
  const field = block.toString('latin1', 148, 156).replace(/[\0 ]+$/, '').trim();
  if (!/^[0-7]{1,7}$/.test(field)) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum === parseInt(field, 8);
}

const isZeros = (block: Buffer) => block.length >= 512 && block.subarray(0, 512).every((b) => b === 0);

function detect(head: Buffer): Detected {
  if ([[0x50, 0x4b, 0x03, 0x04], [0x50, 0x4b, 0x05, 0x06], [0x50, 0x4b, 0x07, 0x08]].some((m) => startsWith(head, m))) return { format: 'zip' };
  if (startsWith(head, [0x1f, 0x8b])) return { format: 'gzip' };
  if (startsWith(head, [0x42, 0x5a, 0x68]) && head.length > 3 && head[3]! >= 0x31 && head[3]! <= 0x39) return { format: 'bzip2' };
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return { format: 'xz' };
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return { format: '7z' };
  if (startsWith(head, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07])) return { unsupported: 'rar' };
  if (startsWith(head, [0x28, 0xb5, 0x2f, 0xfd])) return { unsupported: 'zstd' };
  if (startsWith(head, [0x4c, 0x5a, 0x49, 0x50])) return { unsupported: 'lzip' };
  if (isTarHeader(head)) return { format: 'tar' };
  return null;
}

/** Zips up to this size have every entry's data inflated and checked against its CRC-32 too. */
const ZIP_DATA_CHECK_BYTES = 256 * 1024 * 1024;

type ZipVerdict = { files: number; damaged: string | null };

/** The CRC-32 of an entry's inflated data against the central directory's. */
function entryIntact(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<boolean> {
  return new Promise((resolve) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return resolve(false);
      let crc = 0;
      stream.on('data', (chunk: Buffer) => { crc = crc32(chunk, crc); });
      stream.on('error', () => resolve(false));
      stream.on('end', () => resolve(crc >>> 0 === entry.crc32 >>> 0));
    });
  });
}

/**
 * A zip's central directory read to the end: how many files it lists and, when `data`, the first
 * entry whose data does not inflate to its CRC-32 (encrypted entries and compression methods Cairn
 * skips are not read). Rejects when the directory cannot be read.
 */
function readZip(file: string, data: boolean): Promise<ZipVerdict> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, strictFileNames: false, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('zip'));
      let files = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (/[/\\]$/.test(entry.fileName)) return zip.readEntry();
        files++;
        const readable = data && !entry.isEncrypted() && (entry.compressionMethod === 0 || entry.compressionMethod === 8);
        if (!readable) return zip.readEntry();
        void entryIntact(zip, entry).then((intact) => {
          if (intact) return zip.readEntry();
          zip.close();
          resolve({ files, damaged: entry.fileName });
        });
      });
      zip.on('end', () => resolve({ files, damaged: null }));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/**
 * Refuses (DesktopError `bad-archive`, Chinese message) a regular file that is not an archive Cairn
 * reads when its name says it is one, or an archive whose structure is broken or that is empty.
 */
export async function checkArchive(file: string, name = path.basename(file)): Promise<void> {
  const handle = await open(file, 'r');
  let head: Buffer;
  let size: number;
  let tail = Buffer.alloc(0);
  try {
    size = (await handle.stat()).size;
    head = Buffer.alloc(Math.min(HEAD, size));
    await handle.read(head, 0, head.length, 0);
    if (size >= 22) {
      tail = Buffer.alloc(Math.min(EOCD_SEARCH, size));
      await handle.read(tail, 0, tail.length, size - tail.length);
    }
  } finally {
    await handle.close();
  }
  const refuse = (message: string): never => {
    throw new DesktopError('bad-archive', message);
  };
  let found = detect(head);
  // A zip with a preamble (self-extracting, launcher scripts): its end-of-central-directory record.
  if (!found && tail.length && tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) >= 0) found = { format: 'zip' };
  if (!found) {
    if (/\.tar$/i.test(name) && isZeros(head)) refuse(ARCHIVE_CHECK_MSG.empty(name));
    if (isArchiveName(name)) refuse(ARCHIVE_CHECK_MSG.notArchive(name));
    return;
  }
  if ('unsupported' in found) {
    if (isArchiveName(name)) refuse(ARCHIVE_CHECK_MSG.unsupported(name, found.unsupported));
    return;
  }
  switch (found.format) {
    case 'zip': {
      const zip = await readZip(file, size <= ZIP_DATA_CHECK_BYTES).catch(() => refuse(ARCHIVE_CHECK_MSG.corrupt(name, REASON.zipDirectory)));
      if (zip.damaged !== null) refuse(ARCHIVE_CHECK_MSG.corrupt(name, REASON.zipEntry(zip.damaged)));
      if (zip.files === 0) refuse(ARCHIVE_CHECK_MSG.empty(name));
      return;
    }
    case 'gzip': {
      let out: Buffer;
      try {
        // What the first 64 KiB decode to; a stream cut off later is the platform's to find.
        out = gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
      } catch {
        return refuse(ARCHIVE_CHECK_MSG.corrupt(name, REASON.gzip));
      }
      if (/\.(tar\.gz|tgz)$/i.test(name) && out.length >= 512) {
        if (isZeros(out)) refuse(ARCHIVE_CHECK_MSG.empty(name));
        if (!isTarHeader(out)) refuse(ARCHIVE_CHECK_MSG.corrupt(name, REASON.tarHeader));
      }
      if (size === head.length && out.length === 0) refuse(ARCHIVE_CHECK_MSG.empty(name));
      return;
    }
    case '7z': {
      if (head.length < 32) return refuse(ARCHIVE_CHECK_MSG.corrupt(name, REASON.truncatedHeader));
      if (crc32(head.subarray(12, 32)) !== head.readUInt32LE(8)) refuse(ARCHIVE_CHECK_MSG.corrupt(name, REASON.sevenZipHeader));
      const end = 32n + head.readBigUInt64LE(12) + head.readBigUInt64LE(20);
      if (end > BigInt(size)) refuse(ARCHIVE_CHECK_MSG.corrupt(name, REASON.sevenZipTruncated));
      if (head.readBigUInt64LE(20) === 0n) refuse(ARCHIVE_CHECK_MSG.empty(name));
      return;
    }
    case 'tar':
    case 'bzip2':
    case 'xz':
      // Recognised by a checked header (tar) or a magic that does not occur by chance.
      if (size < 32 && found.format !== 'tar') refuse(ARCHIVE_CHECK_MSG.corrupt(name, REASON.truncatedHeader));
      return;
  }
}
