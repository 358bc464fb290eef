// Unpacks one archive into a folder through a Sink, then the archives nested in it (a .jar in a
// .war, a .tgz in a .zip) into `<name>!/` folders beside them, up to the depth limit.
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { makePrivateDirOnce } from '../../../files/private.ts';
import { detectFormat, isTarHeader } from './detect.ts';
import type { ArchiveFormat, Detected } from './detect.ts';
import { UnpackError, corrupt } from './errors.ts';
import { printable } from './names.ts';
import { extractSevenZip } from './sevenzip.ts';
import { archiveLabel, Sink } from './sink.ts';
import type { Budget } from './sink.ts';
import { counter, decompress, peek } from './streams.ts';
import { readTar } from './tar.ts';
import { openZip, readZip, ZipConsumption } from './zip.ts';

/** Names of files unpacked as nested archives (their content is still checked by magic bytes). */
export const NESTED_ARCHIVE = /\.(zip|jar|war|ear|aar|apk|whl|egg|nupkg|hpi|jpi|sar|rar|tar|tgz|tbz|tbz2|txz|crate|tar\.gz|tar\.bz2|tar\.xz|7z)$/i;

/** Names of compressed tars. */
const TAR_NAME = /\.(tar\.[a-z0-9]+|tgz|tbz2?|txz|taz|tz2?)$/i;

export interface ExtractOptions {
  budget: Budget;
  /** Nesting level of this archive: 0 for the archive the user gave. */
  depth: number;
  /** Display prefix for notes (`''` at the top). */
  prefix: string;
  /** The archive's own name, for naming the single file inside a bare .gz/.bz2/.xz. */
  name: string;
  /** Forces the entry-name encoding (e.g. `gbk`); detected per name when absent. */
  encoding?: string;
}

export function unsupported(detected: Detected): UnpackError | undefined {
  if (detected.kind === 'none') return new UnpackError('not-archive', '文件不是支持的压缩格式');
  if (detected.kind === 'unsupported') return new UnpackError('unsupported', `不支持的压缩格式：${detected.format}`);
  return undefined;
}

/** Unpacks `file` into the existing empty folder `root`. */
export async function extractArchive(file: string, root: string, options: ExtractOptions): Promise<void> {
  const detected = await detectFormat(file);
  const refused = unsupported(detected);
  if (refused) throw refused;
  const format = (detected as { format: ArchiveFormat }).format;
  const { budget } = options;
  let written: string[];
  try {
    if (format === 'zip') written = await extractZip(file, root, options);
    else if (format === '7z') written = await extractSevenZip(file, root, { budget, prefix: options.prefix });
    else written = await extractStream(file, format, root, options);
  } catch (error) {
    if (budget.signal.aborted) throw budget.signal.reason;
    // Disk full, permissions: not the archive's fault, so not reported as a corrupt archive.
    if ((error as NodeJS.ErrnoException).syscall !== undefined) throw error;
    throw corrupt(error);
  }
  await extractNested(root, written, options);
}

async function extractZip(file: string, root: string, options: ExtractOptions): Promise<string[]> {
  const size = (await stat(file)).size;
  const zip = await openZip(file);
  const consumption = new ZipConsumption();
  const sink = new Sink(root, options.prefix, options.budget, () => Math.min(consumption.total, size));
  try {
    await readZip(zip, sink, consumption, size, options.encoding);
    await sink.finish();
  } finally {
    zip.close();
  }
  return sink.written;
}

async function extractStream(file: string, format: Exclude<ArchiveFormat, 'zip' | '7z'>, root: string, options: ExtractOptions): Promise<string[]> {
  if (format === 'tar') {
    // Nothing to inflate: what is read is what is written.
    const input = createReadStream(file, { highWaterMark: 64 * 1024 });
    const sink = new Sink(root, options.prefix, options.budget, () => input.bytesRead);
    await readTar(input, sink, options.encoding);
    await sink.finish();
    return sink.written;
  }
  const { output: decompressed, consumed } = decompress(format, file, archiveLabel(options.budget, options.prefix));
  const sink = new Sink(root, options.prefix, options.budget, consumed);
  // Every decoded chunk is counted (tar padding and skipped entries too) before it goes on.
  const meter = decompressed.pipe(counter((n) => sink.decompressedBytes(n)));
  decompressed.on('error', (error) => meter.destroy(error));
  meter.on('close', () => decompressed.destroy());
  const { head, rest } = await peek(meter, 512);
  // A tar, or an empty one (only its end-of-archive zeros) when named like a tar: a bare
  // `disk.img.gz` of zeros is a file of zeros, not a broken tar.
  const emptyTar = head.length === 512 && head.every((b) => b === 0) && TAR_NAME.test(options.name);
  if (isTarHeader(head) || emptyTar) {
    await readTar(rest, sink, options.encoding);
  } else {
    // A single compressed file: `x.json.gz` -> `x.json`.
    const single = singleName(options.name, format);
    const rel = sink.begin(single);
    if (rel === undefined) rest.destroy();
    else await sink.file(single, rel, rest, 0o644);
  }
  await sink.finish();
  return sink.written;
}

function singleName(archive: string, format: 'gzip' | 'bzip2' | 'xz'): string {
  const base = path.basename(archive);
  const suffix = { gzip: /\.(gz|gzip|z|tgz)$/i, bzip2: /\.(bz2|bz|bzip2|tbz2?)$/i, xz: /\.(xz|txz)$/i }[format];
  const stripped = base.replace(suffix, '');
  return stripped && stripped !== base ? stripped : `${base || 'archive'}.out`;
}

async function extractNested(root: string, written: readonly string[], options: ExtractOptions): Promise<void> {
  const { budget } = options;
  for (const rel of written) {
    if (!NESTED_ARCHIVE.test(rel)) continue;
    budget.signal.throwIfAborted();
    const absolute = path.join(root, ...rel.split('/'));
    const display = `${options.prefix}${rel}`;
    if ((await detectFormat(absolute)).kind !== 'archive') continue;
    // `app.zip!/lib/x.jar`: the chain from the upload, as messages name archives.
    const chain = archiveLabel(budget, `${display}!/`);
    const leftPacked = (reason: string, message: string) => {
      budget.notes.push({ entry: printable(display), reason });
      budget.problems.push({ file: printable(display), message });
    };
    if (options.depth >= budget.limits.maxDepth) {
      if (budget.limits.maxDepth > 0) leftPacked(`内嵌压缩包超过 ${budget.limits.maxDepth} 层，未解压`, `嵌套压缩包超过 ${budget.limits.maxDepth} 层，未解压：${chain}`);
      continue;
    }
    const inner = `${absolute}!`;
    try {
      await makePrivateDirOnce(inner);
    } catch {
      leftPacked(`已存在同名的 ${path.basename(inner)}，内嵌压缩包未解压`, `已存在同名的 ${path.basename(inner)}，嵌套压缩包未解压：${chain}`);
      continue;
    }
    try {
      await extractArchive(absolute, inner, { ...options, depth: options.depth + 1, prefix: `${display}!/`, name: path.basename(rel) });
    } catch (error) {
      if (!(error instanceof UnpackError) || error.fatal) throw error;
      await rm(inner, { recursive: true, force: true });
      leftPacked(`内嵌压缩包未解压：${error.message}`, `嵌套压缩包 ${chain} 未解压：${error.message}`);
    }
  }
}
