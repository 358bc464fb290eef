// What an upload sends: a regular file as it is, a folder packed into a zip first, or a folder's
// feature file (feature-writer.ts: its manifests and lockfiles, the rest only hashed). The zip is
// written to the app's own temp folder under its data dir (not /tmp, which is often a RAM disk),
// streamed by yazl file by file, and removed when the upload ends. Symbolic links and special
// files are skipped so a folder can never pull in files from outside itself. Either way the
// SHA-256 of what is sent is known before the first byte goes, and the platform checks it.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import yazl from 'yazl';
import { DesktopError } from './errors.ts';
import type { FeatureWriteResult, FeatureWriter } from './feature-writer.ts';
import { makePrivateDir, privateWriteStream } from './private-files.ts';

export interface UploadSource {
  /** The file whose bytes are sent. */
  file: string;
  /** Name on the platform. */
  fileName: string;
  size: number;
  /** Modification time when prepared: a file changed mid-upload is refused rather than sent mixed. */
  mtimeMs: number;
  /** SHA-256 (hex) of what is sent: the platform checks the assembled file against it. */
  sha256: string;
  /** Removes what was created for the upload (the temp zip); a no-op for a plain file. */
  cleanup(): Promise<void>;
  /** A folder's feature file: what went in. */
  feature?: FeatureWriteResult;
}

export interface PrepareOptions {
  /**
   * Send a folder as its feature file, written by this writer, instead of a zip of it; `kind:
   * 'image'`: the target is a container image (an image file or OCI layout folder) sent as its
   * feature file (镜像特征文件).
   */
  feature?: { write: FeatureWriter; onProgress?: (files: number, bytes: number) => void; kind?: 'source' | 'image'; platform?: string };
}

/** Files of a folder, depth first, as zip entry names with forward slashes. Links are not followed. */
async function* walk(root: string, prefix: string): AsyncGenerator<{ file: string; name: string; mtime: Date; mode: number }> {
  const dir = await opendir(path.join(root, prefix));
  const entries: string[] = [];
  for await (const entry of dir) entries.push(entry.name);
  entries.sort();
  for (const name of entries) {
    const rel = prefix ? `${prefix}/${name}` : name;
    const full = path.join(root, rel);
    const info = await lstat(full);
    if (info.isDirectory()) yield* walk(root, rel);
    else if (info.isFile()) yield { file: full, name: rel, mtime: info.mtime, mode: info.mode };
  }
}

/** Packs `folder` into `<tempDir>/<random>/<folder name>.zip`. */
async function zipFolder(folder: string, tempDir: string, signal?: AbortSignal): Promise<{ file: string; dir: string; sha256: string }> {
  const dir = path.join(tempDir, randomUUID());
  await makePrivateDir(dir);
  const base = path.basename(path.resolve(folder)) || 'folder';
  const file = path.join(dir, `${base}.zip`);
  const zip = new yazl.ZipFile();
  // The zip is hashed as it is written, so a folder costs no second read.
  const hash = createHash('sha256');
  const hashing = new Transform({ transform(chunk: Buffer, _encoding, done) { hash.update(chunk); done(null, chunk); } });
  const written = pipeline(zip.outputStream, hashing, privateWriteStream(file), { signal });
  try {
    let count = 0;
    for await (const entry of walk(folder, '')) {
      if (signal?.aborted) throw signal.reason;
      // Entries are read lazily by yazl, one at a time, as the output stream drains.
      zip.addFile(entry.file, `${base}/${entry.name}`, { mtime: entry.mtime, mode: entry.mode });
      count += 1;
    }
    if (count === 0) throw new DesktopError('empty-folder', `文件夹“${base}”中没有文件`);
    zip.end();
    await written;
  } catch (error) {
    (zip.outputStream as Readable).destroy();
    await written.catch(() => {});
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { file, dir, sha256: hash.digest('hex') };
}

/** SHA-256 of a file, streamed (a 2 GB archive is never in memory). */
async function sha256OfFile(file: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { signal, highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The feature file's name: the folder's, or the image file's without `.tar` / `.tar.gz` / `.tgz`. */
export const featureFileName = (target: string): string =>
  `${path.basename(path.resolve(target)).replace(/\.(tar\.gz|tgz|tar)$/i, '') || 'folder'}.cairn-feature.zip`;

/** Writes the feature file of `folder` (or image) to `<tempDir>/<random>/<name>.cairn-feature.zip`. */
async function featureOfFolder(folder: string, tempDir: string, feature: NonNullable<PrepareOptions['feature']>, signal?: AbortSignal): Promise<UploadSource> {
  const dir = path.join(tempDir, randomUUID());
  await makePrivateDir(dir);
  const file = path.join(dir, featureFileName(folder));
  try {
    const summary = await feature.write(folder, file, { signal, onProgress: feature.onProgress, kind: feature.kind, platform: feature.platform });
    const info = await stat(file);
    return {
      file,
      fileName: path.basename(file),
      size: info.size,
      mtimeMs: info.mtimeMs,
      sha256: await sha256OfFile(file, signal),
      cleanup: () => rm(dir, { recursive: true, force: true }),
      feature: summary,
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Checks `target` and turns it into something to send (zipping a folder, or writing its feature file). */
export async function prepareSource(target: string, tempDir: string, signal?: AbortSignal, options: PrepareOptions = {}): Promise<UploadSource> {
  const info = await stat(target).catch(() => null);
  if (!info) throw new DesktopError('not-found', `找不到文件：${target}`);
  if (options.feature?.kind === 'image') {
    if (!info.isDirectory() && !info.isFile()) throw new DesktopError('not-a-file', `无法读取“${path.basename(target)}”：它不是镜像文件或镜像目录`);
    return featureOfFolder(target, tempDir, options.feature, signal);
  }
  if (options.feature) {
    if (!info.isDirectory()) throw new DesktopError('not-a-folder', `特征文件只能从文件夹生成：“${path.basename(target)}”不是文件夹`);
    return featureOfFolder(target, tempDir, options.feature, signal);
  }
  if (info.isFile()) {
    if (info.size === 0) throw new DesktopError('empty-file', `文件“${path.basename(target)}”是空文件，无法上传`);
    const sha256 = await sha256OfFile(target, signal);
    return { file: target, fileName: path.basename(target), size: info.size, mtimeMs: info.mtimeMs, sha256, cleanup: async () => {} };
  }
  if (!info.isDirectory()) throw new DesktopError('not-a-file', `无法上传“${path.basename(target)}”：它不是普通文件或文件夹`);
  const zipped = await zipFolder(target, tempDir, signal);
  const zipInfo = await stat(zipped.file);
  return {
    file: zipped.file,
    fileName: path.basename(zipped.file),
    size: zipInfo.size,
    mtimeMs: zipInfo.mtimeMs,
    sha256: zipped.sha256,
    cleanup: () => rm(zipped.dir, { recursive: true, force: true }),
  };
}
