// Zip containers (zip, jar, war, ear, aar, apk, whl, nupkg, ...) streamed into a Sink with yauzl:
// the central directory is read entry by entry (lazyEntries), each entry's raw data is streamed
// through our own inflater, so the limits see what it has consumed and produced as it goes, and
// an entry that inflates to more than its header declares is stopped at that point. Entries whose
// data overlap (the "overlapping files" bomb: thousands of entries sharing one compressed kernel)
// are refused as soon as the space they claim exceeds the file.
import { Readable, Transform } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import yauzl from 'yauzl';
import type { Entry } from 'yauzl';
import { UnpackError, tooManyEntries } from './errors.ts';
import { decodeName, printable, unicodePathField } from './names.ts';
import type { Sink } from './sink.ts';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
/** Hosts whose external attributes carry a Unix mode: Unix, and OS X (Info-ZIP on macOS). */
const UNIX_HOSTS = new Set([3, 19]);

/**
 * Compressed bytes the inflater has consumed (the ratio's denominator): the entries finished so
 * far plus the current one's progress.
 */
export class ZipConsumption {
  private finished = 0;
  private current: () => number = () => 0;
  /** Local headers and data of the entries read so far (overlapping entries claim more than the file has). */
  claimed = 0;

  get total(): number {
    return this.finished + this.current();
  }

  start(progress: () => number): void {
    this.finished += this.current();
    this.current = progress;
  }
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

export async function readZip(zip: yauzl.ZipFile, sink: Sink, consumption: ZipConsumption, fileSize: number, encoding?: string): Promise<void> {
  const { budget } = sink;
  if (budget.entries + zip.entryCount > budget.limits.maxFiles) throw tooManyEntries(sink.label, budget.limits.maxFiles);
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
      const chunks: Buffer[] = [];
      for await (const chunk of await entryData(zip, entry, name, sink, consumption, fileSize)) chunks.push(chunk as Buffer);
      sink.symlink(name, rel, decodeName(Buffer.concat(chunks), (entry.generalPurposeBitFlag & 0x800) !== 0, encoding));
      continue;
    }
    sink.announce(name, entry.uncompressedSize, entry.compressedSize);
    await sink.file(name, rel, await entryData(zip, entry, name, sink, consumption, fileSize), mode);
  }
}

/** An entry's data, inflated here (zlib chunks of 16 KiB), no longer than its header declares. */
async function entryData(zip: yauzl.ZipFile, entry: Entry, name: string, sink: Sink, consumption: ZipConsumption, fileSize: number): Promise<Readable> {
  const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
  consumption.claimed += fileDataStart - entry.relativeOffsetOfLocalHeader + entry.compressedSize;
  if (consumption.claimed > fileSize) throw new UnpackError('ratio', `压缩包 ${sink.label} 中的条目数据相互重叠，疑似压缩炸弹，已拒绝`);
  // (yauzl 3.4's openReadStreamLowLevelPromise calls openReadStream: the callback form is used.)
  const raw = await new Promise<Readable>((resolve, reject) => {
    zip.openReadStreamLowLevel(fileDataStart, entry.compressedSize, 0, entry.compressedSize, false, entry.uncompressedSize, (error, stream) => (error ? reject(error) : resolve(stream)));
  });
  let data: Readable;
  if (entry.compressionMethod === 8) {
    const inflate = createInflateRaw();
    raw.on('error', (error: Error) => inflate.destroy(error));
    inflate.on('close', () => raw.destroy());
    raw.pipe(inflate);
    consumption.start(() => inflate.bytesWritten);
    data = inflate;
  } else {
    let read = 0;
    consumption.start(() => read);
    data = raw.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          read += chunk.length;
          done(null, chunk);
        },
      }),
    );
    raw.on('error', (error: Error) => data.destroy(error));
    data.on('close', () => raw.destroy());
  }
  const declared = entry.uncompressedSize;
  let size = 0;
  // The CRC-32 the central directory declares, over what came out: a stored entry with a flipped
  // byte inflates "fine" and only its checksum tells.
  let crc = 0;
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > declared) return done(new UnpackError('corrupt', `压缩包已损坏：条目 ${printable(name)} 解压后超过其声明的 ${declared} 字节`));
      crc = crc32(chunk, crc);
      done(null, chunk);
    },
    flush(done) {
      if (size < declared) done(new UnpackError('corrupt', `压缩包已损坏：条目 ${printable(name)} 解压后不足其声明的 ${declared} 字节`));
      else if (crc >>> 0 !== entry.crc32 >>> 0) done(new UnpackError('corrupt', `压缩包已损坏：条目 ${printable(name)} 的数据校验（CRC-32）失败`));
      else done();
    },
  });
  data.on('error', (error) => checked.destroy(error));
  checked.on('close', () => data.destroy());
  // A small entry flows in whole while the sink is still opening its file, so the size or CRC
  // check can fail before the sink's pipeline listens: the stream keeps the error (`errored`),
  // which the pipeline then rejects with, rather than it being thrown as an uncaught event.
  checked.on('error', () => {});
  return data.pipe(checked);
}
