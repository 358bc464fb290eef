// Pulling an image from a registry (OCI distribution API v2) into an OCI image layout folder:
// oci-layout, index.json and blobs/<alg>/<hex> holding exactly the chosen platform's manifest, its
// config and its layers, each verified against its digest while it streams to disk. The layout is
// written in a temporary folder beside `layoutDir` and renamed into place at the end, so a failed,
// aborted or refused pull leaves nothing behind. See ../ for reading the layout.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { formatBytes, resolveLimits, type UnpackLimits } from '../../limits.ts';
import { makePrivateDir, makePrivateTempDir, privateWriteStream, writePrivateFile } from '../../../../files/private.ts';
import { maxUploadBytes } from '../../../../uploads/limits.ts';
import { RegistryClient, type RegistryAuth } from './client.ts';
import { RegistryError, Secrets } from './errors.ts';
import { markTransient, networkError } from './http.ts';
import {
  checkImageManifest,
  formatPlatform,
  normalizePlatform,
  parseManifest,
  parsePlatform,
  platformEntries,
  selectPlatform,
  MT,
  type Descriptor,
  type Parsed,
  type Platform,
} from './manifest.ts';
import { formatImageReference, parseImageReference, type ImageReference } from './reference.ts';

export { RegistryError, type RegistryErrorCode } from './errors.ts';
export { formatImageReference, parseImageReference, type ImageReference } from './reference.ts';
export type { RegistryAuth } from './client.ts';

export const DEFAULT_PLATFORM = 'linux/amd64';
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Layers downloaded at once. */
const PARALLEL_BLOBS = 3;
/** More layers than any builder makes (Docker stops at 127): a manifest meant to exhaust the puller. */
const MAX_LAYERS = 1000;
/** An image config is JSON; anything near this size is not one. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

export interface PullProgress {
  /** 1-based index of the layer the bytes came from. */
  layer: number;
  layers: number;
  /** Layer bytes downloaded so far, all layers together. */
  bytes: number;
  /** All layers' sizes added up. */
  total: number;
}

export interface PullOptions {
  auth?: RegistryAuth;
  /** A PEM CA (one or more certificates) trusted besides the system's and node's bundled roots. */
  caPem?: string;
  /** Speak plain HTTP to the registry (and its token service); never chosen silently. */
  insecureHttp?: boolean;
  /** `os/arch[/variant]`; default linux/amd64 for an index. A single-platform image must match it only when given. */
  platform?: string;
  /** maxTotalBytes bounds the image (config and layers as downloaded, also bounded by the upload limit). */
  limits?: Partial<UnpackLimits>;
  signal?: AbortSignal;
  /** An HTTP proxy (`http://[user:pass@]host:port`); undefined: HTTPS_PROXY / HTTP_PROXY / NO_PROXY from the environment; null: none. */
  proxy?: string | null;
  /** No byte for this long ends a request (connect, answer or body); default 30 s. */
  timeoutMs?: number;
  onProgress?: (p: PullProgress) => void;
}

export interface PulledImage {
  layoutDir: string;
  reference: ImageReference;
  /** The digest the reference resolves to (the index's for a multi-platform image): pulling `name@manifestDigest` gives the same image. */
  manifestDigest: string;
  /** The chosen platform's image manifest (equal to manifestDigest for a single-platform image). */
  imageManifestDigest: string;
  /** The image config's digest (Docker's image ID). */
  configDigest: string;
  platform: string;
  /** Every platform the reference offers (one for a single-platform image). */
  platforms: string[];
  layers: { digest: string; size: number; mediaType: string }[];
  /** Config and layers as downloaded. */
  bytes: number;
}

interface Resolved {
  manifestDigest: string;
  platforms: string[];
  /** The index entry chosen, when the reference is an index. */
  chosen: Descriptor | null;
  image: { body: Buffer; contentType: string | undefined; digest: string; parsed: Extract<Parsed, { kind: 'manifest' }> };
}

/**
 * Runs `work` with the pull's client; errors leave with secrets redacted, the client closed. The
 * client's signal follows the caller's and is also aborted by `stopAll(error)`, so one failed
 * download stops the others before the temporary folder is removed.
 */
async function withClient<T>(
  refText: string,
  options: PullOptions | undefined,
  work: (client: RegistryClient, ref: ImageReference, stopAll: (error: unknown) => void) => Promise<T>,
): Promise<T> {
  const secrets = new Secrets();
  secrets.add(options?.auth?.password);
  const timeoutMs = options?.timeoutMs && options.timeoutMs > 0 ? options.timeoutMs : DEFAULT_TIMEOUT_MS;
  const internal = new AbortController();
  const caller = options?.signal;
  const forward = () => internal.abort(caller?.reason);
  if (caller?.aborted) forward();
  else caller?.addEventListener('abort', forward, { once: true });
  const signal = internal.signal;
  let client: RegistryClient | null = null;
  try {
    signal.throwIfAborted();
    const ref = parseImageReference(refText);
    client = new RegistryClient(ref, { ...options, auth: options?.auth, timeoutMs, signal, secrets });
    return await work(client, ref, (error) => internal.abort(error));
  } catch (error) {
    const thrown = signal.aborted ? signal.reason : error;
    throw thrown instanceof Error ? secrets.scrub(thrown) : thrown;
  } finally {
    caller?.removeEventListener('abort', forward);
    client?.close();
  }
}

async function fetchTop(client: RegistryClient, ref: ImageReference) {
  const top = await client.manifest(ref.digest ?? ref.tag ?? 'latest');
  return { ...top, parsed: parseManifest(top.body, top.contentType) };
}

const platformsOf = (manifests: Descriptor[]) => [...new Set(platformEntries(manifests).map((m) => formatPlatform(m.platform!)))];

/** The reference's image manifest: itself, or the index entry for `wanted`, fetched and verified. */
async function resolve(client: RegistryClient, ref: ImageReference, wanted: Platform, explicit: boolean, signal: AbortSignal, fetchedTop?: Awaited<ReturnType<typeof fetchTop>>): Promise<Resolved> {
  const top = fetchedTop ?? (await fetchTop(client, ref));
  const parsed = top.parsed;
  if (parsed.kind === 'manifest') {
    checkImageManifest(parsed);
    return { manifestDigest: top.digest, platforms: [], chosen: null, image: { ...top, parsed } };
  }
  const platforms = platformsOf(parsed.manifests);
  const chosen = selectPlatform(parsed.manifests, wanted);
  if (!chosen) {
    const offered = platforms.length ? `可选平台：${platforms.join('、')}` : '该索引中没有标明平台的镜像';
    throw new RegistryError('platform', `镜像 ${formatImageReference(ref)} 没有 ${formatPlatform(wanted)} 平台${explicit ? '' : '（默认平台）'}，${offered}`);
  }
  if (chosen.mediaType !== MT.ociManifest && chosen.mediaType !== MT.dockerManifest) {
    throw new RegistryError('media-type', `镜像索引中 ${formatPlatform(chosen.platform!)} 平台的条目类型 ${chosen.mediaType} 不受支持`);
  }
  signal.throwIfAborted();
  const fetched = await client.manifest(chosen.digest);
  if (fetched.body.length !== chosen.size) {
    throw new RegistryError('digest', `${formatPlatform(chosen.platform!)} 平台的镜像清单大小 ${fetched.body.length} 字节与索引中记录的 ${chosen.size} 字节不符`);
  }
  const image = parseManifest(fetched.body, fetched.contentType);
  if (image.kind !== 'manifest') throw new RegistryError('media-type', `${formatPlatform(chosen.platform!)} 平台的条目不是镜像清单（嵌套的镜像索引不受支持）`);
  checkImageManifest(image);
  return { manifestDigest: top.digest, platforms, chosen, image: { ...fetched, parsed: image } };
}

function configPlatform(config: Buffer, digest: string): Platform {
  let json: { os?: unknown; architecture?: unknown; variant?: unknown };
  try {
    json = JSON.parse(config.toString('utf8')) as typeof json;
  } catch {
    throw new RegistryError('server', `镜像配置（${digest}）不是有效的 JSON`);
  }
  if (typeof json.os !== 'string' || typeof json.architecture !== 'string') throw new RegistryError('server', `镜像配置（${digest}）缺少 os 或 architecture`);
  return normalizePlatform({ os: json.os, architecture: json.architecture, ...(typeof json.variant === 'string' && { variant: json.variant }) });
}

/**
 * Checks that the reference resolves and the credentials work (a form's 校验 button): the manifest
 * only, plus the small config of a single-platform image to name its platform. Without
 * `options.platform` a multi-platform image just lists its platforms (the user picks one); with
 * it, that platform's manifest is fetched and verified too.
 */
export async function checkRegistryAccess(ref: string, options?: PullOptions): Promise<{ manifestDigest: string; platforms: string[] }> {
  return withClient(ref, options, async (client, reference) => {
    const wanted = parsePlatform(options?.platform ?? DEFAULT_PLATFORM);
    const top = await fetchTop(client, reference);
    if (top.parsed.kind === 'index' && options?.platform === undefined) {
      const platforms = platformsOf(top.parsed.manifests);
      if (platforms.length === 0) throw new RegistryError('platform', `镜像 ${formatImageReference(reference)} 的索引中没有标明平台的镜像`);
      return { manifestDigest: top.digest, platforms };
    }
    const resolved = await resolve(client, reference, wanted, options?.platform !== undefined, client.transport.signal, top);
    let platforms = resolved.platforms;
    if (!resolved.chosen) {
      const config = resolved.image.parsed.config;
      if (config.size > MAX_CONFIG_BYTES) throw new RegistryError('limits', `镜像配置（${config.digest}）超过 ${formatBytes(MAX_CONFIG_BYTES)}，不是有效的镜像`);
      const body = await client.transport.retrying(async () => client.transport.readBody(await client.blob(config.digest, '镜像配置'), config.size, '镜像配置'));
      checkDigest(body, config, '镜像配置');
      const platform = formatPlatform(configPlatform(body, config.digest));
      if (options?.platform !== undefined && platform !== formatPlatform(wanted)) {
        throw new RegistryError('platform', `镜像 ${formatImageReference(reference)} 只有 ${platform} 平台，没有 ${formatPlatform(wanted)}`);
      }
      platforms = [platform];
    }
    return { manifestDigest: resolved.manifestDigest, platforms };
  });
}

function checkDigest(body: Buffer, desc: Descriptor, label: string): void {
  const [alg] = desc.digest.split(':');
  const actual = `${alg}:${createHash(alg!).update(body).digest('hex')}`;
  if (actual !== desc.digest) throw new RegistryError('digest', `${label}校验失败：内容摘要为 ${actual}，与清单中的 ${desc.digest} 不符`);
}

async function checkDestination(layoutDir: string): Promise<void> {
  const info = await stat(layoutDir).catch(() => null);
  if (!info) return;
  if (!info.isDirectory() || (await readdir(layoutDir)).length > 0) throw new Error(`pullImage: destination ${layoutDir} exists and is not an empty folder`);
}

/**
 * Pulls `ref` into an OCI image layout at `layoutDir` (which must not exist, or be an empty
 * folder). Throws RegistryError (Chinese message, credentials redacted) or the signal's reason.
 */
export async function pullImage(ref: string, layoutDir: string, options?: PullOptions): Promise<PulledImage> {
  await checkDestination(layoutDir);
  let temp: string | null = null;
  try {
    return await withClient(ref, options, async (client, reference, stopAll) => {
      const signal = client.transport.signal;
      const limits = resolveLimits(options?.limits);
      const budget = Math.min(limits.maxTotalBytes, maxUploadBytes());
      const wanted = parsePlatform(options?.platform ?? DEFAULT_PLATFORM);
      const resolved = await resolve(client, reference, wanted, options?.platform !== undefined, signal);
      const { config, layers } = resolved.image.parsed;

      if (layers.length > MAX_LAYERS) throw new RegistryError('limits', `镜像 ${formatImageReference(reference)} 有 ${layers.length} 层，超过 ${MAX_LAYERS} 层上限，已拒绝`);
      const unique = new Map<string, Descriptor>();
      for (const d of [config, ...layers]) if (!unique.has(d.digest)) unique.set(d.digest, d);
      const bytes = [...unique.values()].reduce((sum, d) => sum + d.size, 0);
      if (bytes > budget) throw new RegistryError('limits', `镜像 ${formatImageReference(reference)} 的大小 ${formatBytes(bytes)} 超过 ${formatBytes(budget)} 上限，已拒绝`);
      if (config.size > MAX_CONFIG_BYTES) throw new RegistryError('limits', `镜像配置（${config.digest}）超过 ${formatBytes(MAX_CONFIG_BYTES)}，不是有效的镜像`);

      const root = await makePrivateTempDir(join(dirname(layoutDir), `.${basename(layoutDir)}.pull-`));
      temp = root;
      for (const alg of new Set([...unique.keys(), resolved.image.digest].map((d) => d.split(':')[0]!))) await makePrivateDir(join(root, 'blobs', alg));

      // The config first: it names the platform of a single-platform image.
      await downloadBlob(client, config, root, '镜像配置', () => undefined);
      const configBody = await readFile(blobPath(root, config.digest));
      const actualPlatform = configPlatform(configBody, config.digest);
      let platform: Platform;
      if (resolved.chosen) {
        platform = normalizePlatform(resolved.chosen.platform!);
      } else {
        platform = actualPlatform;
        if (options?.platform !== undefined && formatPlatform(platform) !== formatPlatform(wanted)) {
          throw new RegistryError('platform', `镜像 ${formatImageReference(reference)} 只有 ${formatPlatform(platform)} 平台，没有 ${formatPlatform(wanted)}`);
        }
      }

      // Layers, a few at a time, each verified while it streams.
      const total = layers.reduce((sum, l) => sum + l.size, 0);
      let done = 0;
      let reported = 0;
      const report = (layer: number, force: boolean) => {
        if (!options?.onProgress || (!force && done - reported < 1024 * 1024)) return;
        reported = done;
        options.onProgress({ layer, layers: layers.length, bytes: done, total });
      };
      const queue = layers.map((layer, i) => ({ layer, i }));
      const started = new Set<string>([config.digest]);
      const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const { layer, i } = item;
          signal.throwIfAborted();
          if (started.has(layer.digest)) {
            // the same blob twice in one image: downloaded once, counted once
            done += layer.size;
            report(i + 1, true);
            continue;
          }
          started.add(layer.digest);
          await downloadBlob(client, layer, root, `第 ${i + 1} 层`, (n) => {
            done += n;
            report(i + 1, false);
          });
          report(i + 1, true);
        }
      };
      const workers = Array.from({ length: Math.min(PARALLEL_BLOBS, Math.max(1, layers.length)) }, () =>
        worker().catch((error: unknown) => {
          stopAll(error); // the other downloads stop; the first failure is what the pull throws
          throw error;
        }));
      const settled = await Promise.allSettled(workers);
      signal.throwIfAborted();
      for (const result of settled) if (result.status === 'rejected') throw result.reason;

      // The manifest as received (its digest is over these bytes), then index.json and oci-layout.
      await writePrivateFile(blobPath(root, resolved.image.digest), resolved.image.body);
      const annotations: Record<string, string> = { 'io.containerd.image.name': formatImageReference(reference) };
      if (reference.tag) annotations['org.opencontainers.image.ref.name'] = reference.tag;
      const index = {
        schemaVersion: 2,
        mediaType: MT.ociIndex,
        manifests: [
          {
            mediaType: resolved.image.parsed.mediaType,
            digest: resolved.image.digest,
            size: resolved.image.body.length,
            platform: { architecture: platform.architecture, os: platform.os, ...(platform.variant && { variant: platform.variant }) },
            annotations,
          },
        ],
      };
      await writePrivateFile(join(root, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
      await writePrivateFile(join(root, 'oci-layout'), `${JSON.stringify({ imageLayoutVersion: '1.0.0' })}\n`);

      signal.throwIfAborted();
      await checkDestination(layoutDir);
      await rmdir(layoutDir).catch(() => undefined);
      await rename(root, layoutDir);
      temp = null;
      const platformText = formatPlatform(platform);
      return {
        layoutDir,
        reference,
        manifestDigest: resolved.manifestDigest,
        imageManifestDigest: resolved.image.digest,
        configDigest: config.digest,
        platform: platformText,
        platforms: resolved.chosen ? resolved.platforms : [platformText],
        layers: layers.map((l) => ({ digest: l.digest, size: l.size, mediaType: l.mediaType })),
        bytes,
      };
    });
  } catch (error) {
    if (temp) await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

const blobPath = (root: string, digest: string) => {
  const [alg, hex] = digest.split(':');
  return join(root, 'blobs', alg!, hex!);
};

/**
 * Streams one blob to blobs/<alg>/<hex>, hashing as it goes; more bytes than the descriptor says
 * stop the download at once, a wrong digest names the layer. A transient failure part-way resumes
 * with a Range request where the registry (or its storage) honours it, else starts again.
 */
async function downloadBlob(client: RegistryClient, desc: Descriptor, root: string, label: string, onBytes: (n: number) => void): Promise<void> {
  const final = blobPath(root, desc.digest);
  const part = `${final}.part`;
  const signal = client.transport.signal;
  const alg = desc.digest.split(':')[0]!;
  let have = 0; // bytes in `part`, reported through onBytes
  const restart = async () => {
    onBytes(-have);
    have = 0;
    await rm(part, { force: true });
  };
  try {
    await client.transport.retrying(async () => {
      // What is on disk is what counts (a failed pipeline may not have flushed what it read).
      const onDisk = have > 0 ? ((await stat(part).catch(() => null))?.size ?? 0) : 0;
      if (onDisk !== have) {
        onBytes(onDisk - have);
        have = onDisk;
      }
      if (have >= desc.size) await restart();
      const from = have;
      const res = await client.blob(desc.digest, label, from > 0 ? from : undefined);
      let append = false;
      if (from > 0) {
        const range = /^bytes (\d+)-/.exec(String(res.headers['content-range'] ?? ''));
        if (res.status === 206 && range && Number(range[1]) === from) append = true;
        else if (res.status === 206) {
          res.body.destroy();
          await restart();
          throw markTransient(new RegistryError('network', `${label}（${desc.digest}）续传时仓库返回了错误的数据范围`));
        } else await restart();
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared + (append ? from : 0) > desc.size) {
        res.body.destroy();
        throw new RegistryError('limits', `${label}（${desc.digest}）的大小 ${formatBytes(declared + (append ? from : 0))} 超过清单声明的 ${formatBytes(desc.size)}，已拒绝`);
      }
      const hash = createHash(alg);
      if (append) for await (const chunk of createReadStream(part)) hash.update(chunk as Buffer);
      let size = append ? from : 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > desc.size) {
            callback(new RegistryError('limits', `${label}（${desc.digest}）的数据超过清单声明的 ${formatBytes(desc.size)}，已停止下载`));
            return;
          }
          hash.update(chunk);
          have += chunk.length;
          onBytes(chunk.length);
          callback(null, chunk);
        },
      });
      try {
        await pipeline(res.body, meter, privateWriteStream(part, { flags: append ? 'a' : 'w' }), { signal });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (error instanceof RegistryError) throw error;
        throw networkError(error, res.url, { timeoutMs: client.transport.timeoutMs });
      }
      if (size < desc.size) throw markTransient(new RegistryError('network', `${label}（${desc.digest}）下载不完整：收到 ${size} 字节，应为 ${desc.size} 字节`));
      const actual = `${alg}:${hash.digest('hex')}`;
      if (actual !== desc.digest) throw new RegistryError('digest', `${label}校验失败：下载内容的摘要为 ${actual}，与清单中的 ${desc.digest} 不符`);
      await rename(part, final);
    }, 4);
  } catch (error) {
    await restart();
    throw error;
  }
}
