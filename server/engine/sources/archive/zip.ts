// Zip containers (zip, jar, war, ear, aar, apk, whl, nupkg, ...) streamed into a Sink with yauzl:
// the central directory is read entry by entry (lazyEntries), each entry's data is streamed.
import yauzl from 'yauzl';
import type { Entry } from 'yauzl';
import { UnpackError } from './errors.ts';
import { decodeName, unicodePathField } from './names.ts';
import type { Sink } from './sink.ts';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
/** Hosts whose external attributes carry a Unix mode: Unix, and OS X (Info-ZIP on macOS). */
const UNIX_HOSTS = new Set([3, 19]);

export interface ZipHandle {
  /** Compressed bytes of the entries started so far (the ratio's denominator). */
  compressed: number;
}

function nameOf(entry: Entry, encoding?: string): string {
  const raw = entry.fileName as unknown as Buffer; // decodeStrings: false
  const unicode = unicodePathField(entry.extraFields, raw);
  if (unicode !== undefined) return unicode;
  return decodeName(raw, (entry.generalPurposeBitFlag & 0x800) !== 0, encoding);
}

export async function openZip(file: string): Promise<yauzl.ZipFile> {
  return yauzl.openPromise(file, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false, strictFileNames: false });
}

export async function readZip(zip: yauzl.ZipFile, sink: Sink, handle: ZipHandle, encoding?: string): Promise<void> {
  const { budget } = sink;
  if (budget.entries + zip.entryCount > budget.limits.maxFiles) {
    throw new UnpackError('too-many-files', `压缩包中的条目超过数量上限（${budget.limits.maxFiles} 个），疑似压缩炸弹，已拒绝`);
  }
  for await (const entry of zip.eachEntry()) {
    const name = nameOf(entry, encoding);
    const rel = sink.begin(name);
    if (rel === undefined) continue;
    const mode = UNIX_HOSTS.has(entry.versionMadeBy >> 8) ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
    const type = mode & S_IFMT;
    const isDir = /[/\\]$/.test(name) || type === S_IFDIR || (mode === 0 && (entry.externalFileAttributes & 0x10) !== 0 && entry.uncompressedSize === 0);
    if (isDir) {
      await sink.directory(name, rel);
      continue;
    }
    if (type !== 0 && type !== S_IFREG && type !== S_IFLNK) {
      sink.skip(name, '设备文件、管道等特殊条目，已忽略');
      continue;
    }
    if (entry.isEncrypted()) {
      sink.skip(name, '条目已加密，无法解压，已忽略');
      continue;
    }
    if (!entry.canDecodeFileData()) {
      sink.skip(name, `条目使用了不支持的压缩方法（${entry.compressionMethod}），已忽略`);
      continue;
    }
    if (type === S_IFLNK) {
      if (entry.uncompressedSize > 4096) {
        sink.skip(name, '符号链接的目标过长，已忽略');
        continue;
      }
      handle.compressed += entry.compressedSize;
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      sink.symlink(name, rel, decodeName(Buffer.concat(chunks), (entry.generalPurposeBitFlag & 0x800) !== 0, encoding));
      continue;
    }
    sink.announce(name, entry.uncompressedSize, entry.compressedSize);
    handle.compressed += entry.compressedSize;
    const stream = await zip.openReadStreamPromise(entry);
    await sink.file(name, rel, stream, mode);
  }
}
