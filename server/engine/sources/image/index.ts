// Container images read from disk: `docker save` tars (legacy and OCI-style, gzip-compressed or
// not) and OCI image layouts (a folder, or packed as a tar), recognised by content. unpackImage
// applies the chosen platform's layers into one squashed root folder, with the layer that last
// wrote each file, and copies of the versions of the files the caller keeps (package databases)
// so it can tell in which layer a package appeared.
//
// Every blob is checked against its digest while it streams, and each layer's uncompressed stream
// against the config's diff_id; the unpack limits of the archive reader apply (total bytes, file
// count, per-file size, compression ratio per layer), the abort signal is honoured, and on any
// error nothing is left: the work happens in a temporary folder beside `dest`, renamed at the end.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink, rename, rm, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { makePrivateDirOnce, makePrivateTempDir } from '../../../files/private.ts';
import { formatBytes, resolveLimits } from '../limits.ts';
import type { UnpackLimits } from '../limits.ts';
import { decoderMessage } from '../archive/errors.ts';
import { LayerApplier } from './apply.ts';
import type { LayerBudget } from './apply.ts';
import { ImageError, layerLabel } from './errors.ts';
import { formatOf, listPlatforms, notImage, planImage } from './manifest.ts';
export { choosePlatform } from './manifest.ts';
import type { ImageInfo, LayerPlan } from './manifest.ts';
import { isGzip, isZstd, MAX_JSON_BYTES, normalName, openSource } from './source.ts';
import type { ImageSource } from './source.ts';
import { emptyOrAbsent } from '../destination.ts';

export { ImageError, type ImageErrorCode } from './errors.ts';
export type { ImageInfo, ImageLayer } from './manifest.ts';

/** The merged tree of an image; `info.manifestDigest` is, for a legacy docker save (no manifest), the config's digest (the image ID). */
export interface SquashedImage {
  /** The merged root folder (`dest`). */
  root: string;
  info: ImageInfo;
  /** Regular files in the merged tree, and their bytes. */
  files: number;
  bytes: number;
  /** The index of the layer that last wrote a regular file or link (root-relative, `/`-separated), or undefined. */
  layerOf(path: string): number | undefined;
  /**
   * For a path `keep` selected: each layer that wrote it (a copy of the file as that layer left it,
   * an absolute path under `versionsRoot`) or removed it (`file: null`), in layer order.
   */
  versionsOf(path: string): Array<{ layer: number; file: string | null }>;
  /**
   * Entries not applied (device files, fifos, names the file system refuses, ...), with why
   * (Chinese); a foreign layer whose blob is not included under its digest; `path: ''` for the
   * input as a whole (other images it holds that were not unpacked).
   */
  notes: Array<{ path: string; reason: string }>;
  /** The folder beside `root` holding the kept versions (`<dest>.versions`); removed by `remove()`. */
  versionsRoot: string;
  /** Removes the root and the versions folder. */
  remove(): Promise<void>;
}

export interface UnpackImageOptions {
  /** `linux/arm64`, `linux/arm/v7`; default linux/amd64, or the image's only platform. */
  platform?: string;
  /** Which image of an input holding several (`nginx:1.25`, as tagged); the first when absent. */
  image?: string;
  limits?: Partial<UnpackLimits>;
  signal?: AbortSignal;
  /** At each layer's start, every 8 MiB of a layer's tar, and at the end (`layer === layers`); `bytes` written so far. */
  onProgress?: (p: { layer: number; layers: number; bytes: number }) => void;
  /** Paths (root-relative, `/`-separated) whose every version a layer writes is kept. */
  keep?: (path: string) => boolean;
}

/** What an input is: a docker save tar (possibly gzip-compressed), an OCI layout (folder or tar), or neither. */
export async function detectImage(input: string): Promise<'docker-archive' | 'oci-layout' | null> {
  const info = await stat(input).catch(() => undefined);
  if (!info) return null;
  if (info.isDirectory()) {
    // Only a folder with a layout's or a docker save's top-level file is walked.
    const top = await readdir(input).catch(() => [] as string[]);
    if (!top.includes('oci-layout') && !top.includes('manifest.json')) return null;
  }
  if (info.isFile() && isGzip(await head(input, 2))) return detectGzip(input);
  try {
    const source = await openSource(input, { limits: resolveLimits(), signal: new AbortController().signal });
    if (!source) return null;
    return await confirmed(formatOf(source), (name) => source.read(name, MAX_JSON_BYTES));
  } catch {
    return null;
  }
}

/** The format the names suggest, when its small document has the expected shape. */
async function confirmed(format: 'docker-archive' | 'oci-layout' | null, read: (name: string) => Promise<Buffer | undefined>): Promise<'docker-archive' | 'oci-layout' | null> {
  try {
    if (format === 'oci-layout') {
      const layout = JSON.parse((await read('oci-layout'))?.toString('utf8') ?? 'null') as { imageLayoutVersion?: unknown } | null;
      return typeof layout?.imageLayoutVersion === 'string' ? format : null;
    }
    if (format === 'docker-archive') {
      const manifest = JSON.parse((await read('manifest.json'))?.toString('utf8') ?? 'null') as unknown;
      const ok = Array.isArray(manifest) && manifest.length > 0 && manifest.every((m) => typeof (m as { Config?: unknown }).Config === 'string' && Array.isArray((m as { Layers?: unknown }).Layers));
      return ok ? format : null;
    }
  } catch {}
  return null;
}

/** A gzip-compressed tar, streamed once: the names, and the small documents that tell the format. */
async function detectGzip(input: string): Promise<'docker-archive' | 'oci-layout' | null> {
  const docs = new Map<string, Buffer>();
  const names = new Set<string>();
  const extract = tar.extract();
  const raw = createReadStream(input);
  const gunzip = zlib.createGunzip();
  raw.pipe(gunzip);
  gunzip.on('error', (error) => extract.destroy(error));
  gunzip.pipe(extract as unknown as NodeJS.WritableStream);
  try {
    let count = 0;
    for await (const entry of extract) {
      const name = normalName(entry.header.name);
      names.add(name);
      if ((name === 'manifest.json' || name === 'oci-layout') && (entry.header.size ?? 0) < MAX_JSON_BYTES) {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        docs.set(name, Buffer.concat(chunks));
      } else entry.resume();
      if (++count > resolveLimits().maxFiles) break;
    }
  } catch {
    return null;
  } finally {
    raw.destroy();
    gunzip.destroy();
  }
  const format = names.has('oci-layout') && names.has('index.json') ? 'oci-layout' : names.has('manifest.json') ? 'docker-archive' : null;
  return confirmed(format, async (name) => docs.get(name));
}

async function head(file: string, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(file, { start: 0, end: n - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The platforms the image offers (`linux/amd64`, `linux/arm/v7`), read from its index and
 * manifests only (no layer). A gzip-compressed tar is decompressed into a folder under `tempDir`
 * (default the system's) first, and removed.
 */
export async function imagePlatforms(input: string, tempDir?: string): Promise<string[]> {
  const scratch = await makePrivateTempDir(path.join(tempDir ?? tmpdir(), 'cairn-image-'));
  try {
    const source = await openSource(input, { limits: resolveLimits(), signal: new AbortController().signal, scratch: async () => scratch });
    if (!source) throw notImage();
    return await listPlatforms(source);
  } finally {
    await rm(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * Applies the image's layers (of the chosen platform) into `dest`, which must not exist or be an
 * empty folder; kept versions go to `<dest>.versions`. Throws ImageError for a refused image, the
 * signal's reason when aborted; nothing is left behind then.
 */
export async function unpackImage(input: string, dest: string, options: UnpackImageOptions = {}): Promise<SquashedImage> {
  const limits = resolveLimits(options.limits);
  const signal = options.signal ?? new AbortController().signal;
  signal.throwIfAborted();
  const target = path.resolve(dest);
  const versionsRoot = `${target}.versions`;
  const emptyDir = await emptyOrAbsent(target, () => new ImageError('destination', `目录 ${target} 已存在且不为空`));
  if ((await lstat(versionsRoot).catch(() => undefined)) !== undefined) throw new ImageError('destination', `目录 ${versionsRoot} 已存在`);
  const work = await makePrivateTempDir(path.join(path.dirname(target), `.${path.basename(target)}.unpacking-`));
  const workRoot = path.join(work, 'root');
  const workVersions = path.join(work, 'versions');
  try {
    await makePrivateDirOnce(workRoot);
    await makePrivateDirOnce(workVersions);
    const scratch = async () => {
      const dir = path.join(work, 'scratch');
      await makePrivateDirOnce(dir);
      return dir;
    };
    const source = await openSource(input, { limits, signal, scratch });
    if (!source) throw notImage();
    const plan = await planImage(source, options.platform, options.image);
    const budget: LayerBudget = { limits, signal, entries: 0, bytes: 0, notes: [] };
    if (plan.others.length) {
      const chosen = plan.info.repoTags.join('、') || '（无标签）';
      budget.notes.push({ path: '', reason: `输入包含多个镜像，已分析 ${chosen}；其余镜像（${plan.others.join('；')}）未分析，可指定要分析的镜像` });
    }
    const applier = new LayerApplier(workRoot, workVersions, budget, options.keep);
    const layers = plan.layers.length;
    for (const layer of plan.layers) {
      signal.throwIfAborted();
      const report = () => options.onProgress?.({ layer: layer.layer.index, layers, bytes: budget.bytes });
      report();
      await applyLayer(source, layer, applier, budget, report);
    }
    options.onProgress?.({ layer: layers, layers, bytes: budget.bytes });
    const { layers: attribution, files, bytes } = applier.attribution();
    signal.throwIfAborted();
    await rm(path.join(work, 'scratch'), { recursive: true, force: true, maxRetries: 3 });
    if (emptyDir) await rmdir(target);
    await rename(workRoot, target);
    try {
      await rename(workVersions, versionsRoot);
    } catch (error) {
      await rename(target, workRoot).catch(() => {});
      throw error;
    }
    await rm(work, { recursive: true, force: true, maxRetries: 3 });
    const versions = applier.versions;
    const notes = budget.notes;
    return {
      root: target,
      info: plan.info,
      files,
      bytes,
      notes,
      versionsRoot,
      layerOf: (p) => attribution.get(normalName(p)),
      versionsOf: (p) => (versions.get(normalName(p)) ?? []).map((v) => ({ layer: v.layer, file: v.file === null ? null : path.join(versionsRoot, ...v.file.split('/')) })),
      remove: async () => {
        await rm(target, { recursive: true, force: true, maxRetries: 3 });
        await rm(versionsRoot, { recursive: true, force: true, maxRetries: 3 });
      },
    };
  } catch (error) {
    await rm(work, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
}

/** Hashes and counts what passes; `check` may refuse (limits) by throwing. */
function meter(algorithm: string, check: (total: number) => void): Transform & { digest: () => string; total: () => number } {
  const hash = createHash(algorithm);
  let total = 0;
  let digest = '';
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      try {
        check(total);
      } catch (error) {
        return done(error as Error);
      }
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      digest = `${algorithm}:${hash.digest('hex')}`;
      done();
    },
  });
  return Object.assign(stream, { digest: () => digest, total: () => total });
}

async function sniff(source: ImageSource, name: string): Promise<'none' | 'gzip' | 'zstd'> {
  const chunks: Buffer[] = [];
  let length = 0;
  const stream = source.open(name);
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length >= 4) break;
  }
  stream.destroy();
  const first = Buffer.concat(chunks);
  return isGzip(first) ? 'gzip' : isZstd(first) ? 'zstd' : 'none';
}

/** Streams one layer's blob through its checks and decompressor into the applier. */
async function applyLayer(source: ImageSource, plan: LayerPlan, applier: LayerApplier, budget: LayerBudget, report: () => void): Promise<void> {
  const { layer } = plan;
  const label = layerLabel(layer.index, layer.digest || layer.diffId);
  if (!plan.blob) {
    budget.notes.push({ path: layer.digest, reason: `镜像${label}是不可分发层，其数据未包含在输入中，该层的文件未还原` });
    return;
  }
  const { limits } = budget;
  const compression = plan.compression === 'sniff' ? await sniff(source, plan.blob) : plan.compression;
  const stored = source.size(plan.blob) ?? 0;
  const algorithm = plan.expect?.split(':')[0] ?? 'sha256';
  const outer = meter(algorithm, (total) => {
    if (plan.expect && total > layer.size && layer.size > 0) throw digestMismatch(label);
  });
  let reported = 0;
  const inner = meter('sha256', (total) => {
    if (total - reported >= PROGRESS_STEP) {
      reported = total;
      report();
    }
    if (compression !== 'none' && total > limits.ratioGraceBytes && total / Math.max(1, outer.total()) > limits.maxRatio) {
      throw new ImageError('ratio', `镜像${label}的压缩比超过 ${limits.maxRatio}:1 上限，疑似压缩炸弹，已拒绝`);
    }
    // The layer's tar itself (headers, padding, entries skipped) may not outgrow the whole budget.
    if (total > limits.maxTotalBytes + 1024 * 1024) throw new ImageError('too-large', `镜像${label}解压后超过 ${formatBytes(limits.maxTotalBytes)} 上限，疑似压缩炸弹，已拒绝`);
  });
  if (compression === 'zstd' && typeof zlib.createZstdDecompress !== 'function') {
    throw new ImageError('unsupported', `镜像${label}使用 zstd 压缩，当前运行环境（Node.js ${process.versions.node}）不支持解压 zstd`);
  }
  const raw = source.open(plan.blob);
  const decoder = compression === 'gzip' ? zlib.createGunzip() : compression === 'zstd' ? zlib.createZstdDecompress() : undefined;
  const chain: Readable[] = [raw, outer, ...(decoder ? [decoder] : []), inner];
  for (let i = 0; i + 1 < chain.length; i++) {
    const from = chain[i]!;
    const to = chain[i + 1]! as unknown as Transform;
    from.on('error', (error) => to.destroy(error));
    from.pipe(to);
  }
  const ended = new Promise<void>((resolve, reject) => {
    inner.on('end', resolve);
    inner.on('error', reject);
    inner.on('close', () => (inner.readableEnded ? resolve() : reject(new Error('premature close'))));
  });
  ended.catch(() => {});
  try {
    await applier.apply(layer.index, label, inner);
    inner.resume();
    await ended;
  } catch (error) {
    for (const stream of chain) stream.destroy();
    if (error instanceof ImageError || budget.signal.aborted) throw error;
    // A file-system error (ENOSPC, EACCES, ...) is not the image's fault: it stays as it is.
    if (/^E[A-Z]+$/.test(String((error as NodeJS.ErrnoException).code ?? ''))) throw error;
    throw new ImageError('corrupt', `镜像${label}已损坏：${decoderMessage(error instanceof Error ? error.message : String(error))}`, { cause: error });
  }
  if (plan.expect) {
    if (outer.digest() !== plan.expect || (layer.size > 0 && outer.total() !== layer.size)) throw digestMismatch(label);
  } else {
    layer.digest = outer.digest();
    layer.size = stored;
  }
  if (layer.diffId && inner.digest() !== layer.diffId) {
    throw new ImageError('digest', `镜像${label}解压后的内容与配置中的 diff_id（${layer.diffId.slice(0, 19)}）不符，文件已损坏或被篡改`);
  }
}

/** A large layer reports its progress every this many uncompressed bytes. */
const PROGRESS_STEP = 8 * 1024 * 1024;

const digestMismatch = (label: string) => new ImageError('digest', `镜像${label}的内容与摘要不符，文件已损坏或被篡改`);

/**
 * Resolves a root-relative path in an unpacked image as the container would see it: links are
 * followed inside the root (absolute targets from the root, `..` stops at the root as in a chroot).
 * The absolute path of what it leads to, or null when nothing is there; refused (ImageError
 * `symlink-loop`) when the links cycle or nest deeper than 40.
 */
export async function resolveInImage(root: string, p: string): Promise<string | null> {
  const stack: string[] = [];
  const pending = p.replace(/\\/g, '/').split('/');
  let hops = 0;
  while (pending.length) {
    const segment = pending.shift()!;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      stack.pop();
      continue;
    }
    const absolute = path.join(root, ...stack, segment);
    let info;
    try {
      info = await lstat(absolute);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw error;
    }
    if (info.isSymbolicLink()) {
      if (++hops > 40) throw new ImageError('symlink-loop', `镜像中的路径 ${p} 经过的符号链接超过 40 层或形成循环，已拒绝`);
      const target = (await readlink(absolute)).replace(/\\/g, '/');
      if (target.startsWith('/')) stack.length = 0;
      pending.unshift(...target.split('/'));
      continue;
    }
    if (!info.isDirectory() && pending.some((s) => s !== '' && s !== '.')) return null;
    stack.push(segment);
  }
  return stack.length ? path.join(root, ...stack) : root;
}
