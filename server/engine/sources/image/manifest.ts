// Reading an image's documents: a docker save's manifest.json and config, or an OCI layout's
// index.json (nested indexes, multi-platform indexes, docker manifest lists) down to one image
// manifest for the wanted platform, its config and its layers' descriptors. Every document read
// through a digest is checked against it.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ImageError, shortDigest } from './errors.ts';
import type { ImageSource } from './source.ts';

export interface ImageLayer {
  /** 0 for the base layer. */
  index: number;
  /** The blob's digest as stored (`sha256:…`); for a legacy docker save, the layer.tar's own digest. */
  digest: string;
  /** The uncompressed layer's digest from the config's rootfs.diff_ids, when it lists one. */
  diffId: string | null;
  mediaType: string;
  /** Bytes as stored. */
  size: number;
  createdBy: string | null;
  created: string | null;
}

export interface ImageInfo {
  manifestDigest: string;
  repoTags: string[];
  platform: { os: string; architecture: string; variant?: string };
  /** Every platform the input holds (`linux/amd64`, `linux/arm/v7`). */
  platforms: string[];
  created: string | null;
  layers: ImageLayer[];
  history: Array<{ createdBy: string | null; created: string | null; emptyLayer: boolean }>;
  /** Layer bytes as stored. */
  size: number;
  config: {
    env: string[];
    entrypoint: string[] | null;
    cmd: string[] | null;
    labels: Record<string, string>;
    workingDir: string | null;
    user: string | null;
  };
}

export type Compression = 'none' | 'gzip' | 'zstd' | 'sniff';

/** A layer as it is to be applied: where its blob is in the source and how it is encoded. */
export interface LayerPlan {
  layer: ImageLayer;
  /** The blob's name in the source; null when a non-distributable layer's blob is not included. */
  blob: string | null;
  compression: Compression;
  foreign: boolean;
  /** The digest the stored bytes must have; null for a legacy docker save (checked through diffId). */
  expect: string | null;
}

export interface ImagePlan {
  format: 'docker-archive' | 'oci-layout';
  /** The other images the input holds (their tags), when it holds several. */
  others: string[];
  info: ImageInfo;
  layers: LayerPlan[];
}

const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const DOCKER_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';

const LAYER_TYPES: Record<string, { compression: Compression; foreign: boolean }> = {
  'application/vnd.oci.image.layer.v1.tar': { compression: 'none', foreign: false },
  'application/vnd.oci.image.layer.v1.tar+gzip': { compression: 'gzip', foreign: false },
  'application/vnd.oci.image.layer.v1.tar+zstd': { compression: 'zstd', foreign: false },
  'application/vnd.oci.image.layer.nondistributable.v1.tar': { compression: 'none', foreign: true },
  'application/vnd.oci.image.layer.nondistributable.v1.tar+gzip': { compression: 'gzip', foreign: true },
  'application/vnd.oci.image.layer.nondistributable.v1.tar+zstd': { compression: 'zstd', foreign: true },
  'application/vnd.docker.image.rootfs.diff.tar': { compression: 'none', foreign: false },
  'application/vnd.docker.image.rootfs.diff.tar.gzip': { compression: 'gzip', foreign: false },
  'application/vnd.docker.image.rootfs.diff.tar.zstd': { compression: 'zstd', foreign: false },
  'application/vnd.docker.image.rootfs.foreign.diff.tar': { compression: 'none', foreign: true },
  'application/vnd.docker.image.rootfs.foreign.diff.tar.gzip': { compression: 'gzip', foreign: true },
};

/** A legacy docker save's layer.tar: its media type as the docker registry would name it. */
const LEGACY_LAYER = 'application/vnd.docker.image.rootfs.diff.tar';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const strings = (value: unknown): string[] | null => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null);

function parseJson(data: Buffer, what: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch (error) {
    throw new ImageError('corrupt', `镜像的${what}不是有效的 JSON`, { cause: error });
  }
  if (!isObject(value)) throw new ImageError('corrupt', `镜像的${what}格式无效`);
  return value;
}

const DIGEST = /^(sha256|sha512):([a-f0-9]+)$/;

/** `blobs/sha256/<hex>` for a digest; refuses a malformed one (it would name a path). */
export function blobPath(digest: string): string {
  const match = DIGEST.exec(digest);
  if (!match || match[2]!.length !== (match[1] === 'sha256' ? 64 : 128)) throw new ImageError('corrupt', `镜像中的摘要 ${digest.slice(0, 80)} 格式无效`);
  return `blobs/${match[1]}/${match[2]}`;
}

export function digestOf(algorithm: string, data: Buffer): string {
  return `${algorithm}:${createHash(algorithm).update(data).digest('hex')}`;
}

/** Reads a blob named by a digest and checks it. */
async function readBlob(source: ImageSource, digest: string, what: string): Promise<Buffer> {
  const name = blobPath(digest);
  if (!source.has(name)) throw new ImageError('missing', `镜像中缺少${what}（${shortDigest(digest)}）`);
  const data = await source.read(name);
  if (digestOf(digest.split(':')[0]!, data) !== digest) throw new ImageError('digest', `镜像的${what}（${shortDigest(digest)}）内容与摘要不符，文件已损坏或被篡改`);
  return data;
}

export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
}

export const platformName = (p: Platform) => [p.os, p.architecture, p.variant].filter(Boolean).join('/');

/** `linux/arm64`, `linux/arm/v7`, `arm64` (linux implied). */
export function parsePlatform(text: string): Platform {
  const parts = text.trim().toLowerCase().split('/').filter(Boolean);
  if (parts.length === 1) return { os: 'linux', architecture: parts[0]! };
  if (parts.length < 2 || parts.length > 3) throw new ImageError('platform', `平台 ${text} 格式无效，应为“系统/架构[/变体]”，例如 linux/amd64、linux/arm/v7`);
  return { os: parts[0]!, architecture: parts[1]!, ...(parts[2] && { variant: parts[2] }) };
}

const DEFAULT_VARIANT: Record<string, string> = { arm64: 'v8', arm: 'v7' };

function matches(wanted: Platform, have: Platform): boolean {
  if (wanted.os !== have.os || wanted.architecture !== have.architecture) return false;
  if (!wanted.variant) return !have.variant || have.variant === DEFAULT_VARIANT[have.architecture];
  return (have.variant ?? DEFAULT_VARIANT[have.architecture]) === wanted.variant;
}

interface Candidate {
  descriptor: Json;
  platform: Platform | null;
  tags: string[];
}

function descriptorPlatform(descriptor: Json): Platform | null {
  const p = descriptor.platform;
  if (!isObject(p) || typeof p.os !== 'string' || typeof p.architecture !== 'string') return null;
  return { os: p.os, architecture: p.architecture, ...(typeof p.variant === 'string' && p.variant && { variant: p.variant }) };
}

const refName = (descriptor: Json): string[] => {
  const annotations = isObject(descriptor.annotations) ? descriptor.annotations : {};
  const name = str(annotations['io.containerd.image.name']) ?? str(annotations['org.opencontainers.image.ref.name']);
  return name ? [name] : [];
};

/** Attestations (buildkit provenance/SBOM) ride in indexes as manifests of platform unknown/unknown. */
function isAttestation(descriptor: Json): boolean {
  const annotations = isObject(descriptor.annotations) ? descriptor.annotations : {};
  if (annotations['vnd.docker.reference.type'] === 'attestation-manifest') return true;
  const p = descriptorPlatform(descriptor);
  return p?.os === 'unknown' && p.architecture === 'unknown';
}

/**
 * The image manifests an index leads to, through nested indexes (depth-limited). A descriptor whose
 * blob is absent is passed over: `docker save` from the containerd store writes the whole index
 * but only the blobs of the platforms pulled. Other media types are counted in `unknown`.
 */
async function collect(source: ImageSource, index: Json, tags: string[], depth: number, out: Candidate[], unknown: Set<string>): Promise<void> {
  if (depth > 8) throw new ImageError('unsupported', '镜像索引嵌套过深（超过 8 层）');
  const manifests = Array.isArray(index.manifests) ? index.manifests.filter(isObject) : [];
  for (const descriptor of manifests) {
    const mediaType = str(descriptor.mediaType);
    const digest = str(descriptor.digest);
    if (!digest || !source.has(blobPath(digest))) continue;
    const own = refName(descriptor);
    const names = own.length ? own : tags;
    if (mediaType === OCI_INDEX || mediaType === DOCKER_LIST) {
      await collect(source, parseJson(await readBlob(source, digest, '镜像索引'), '镜像索引'), names, depth + 1, out, unknown);
    } else if (mediaType === OCI_MANIFEST || mediaType === DOCKER_MANIFEST || mediaType === null) {
      if (isAttestation(descriptor)) continue;
      out.push({ descriptor, platform: descriptorPlatform(descriptor), tags: names });
    } else unknown.add(mediaType);
  }
}

function configPlatform(config: Json): Platform {
  return {
    os: str(config.os) ?? 'linux',
    architecture: str(config.architecture) ?? 'amd64',
    ...(typeof config.variant === 'string' && config.variant && { variant: config.variant }),
  };
}

/** `nginx:1.25`, `docker.io/library/nginx:1.25` and `nginx` (`:latest`) name the same image. */
function sameReference(tag: string, reference: string): boolean {
  const normal = (ref: string) => {
    let r = ref.trim().toLowerCase().replace(/^docker\.io\/(library\/)?/, '').replace(/^index\.docker\.io\/(library\/)?/, '');
    if (!r.includes('@') && !/:[^/]+$/.test(r)) r += ':latest';
    return r;
  };
  return tag === reference || normal(tag) === normal(reference);
}

/**
 * Picks the image named by `reference` (a tag; any when absent) for the wanted platform (default
 * linux/amd64; the only one when there is one). `others`: the other images the input holds.
 */
function choose<T extends { platform: Platform; tags: string[] }>(all: T[], wanted: string | undefined, reference: string | undefined): { chosen: T; others: string[] } {
  if (!all.length) throw new ImageError('not-image', '镜像中没有可用的镜像清单');
  let candidates = all;
  if (reference) {
    candidates = all.filter((c) => c.tags.some((t) => sameReference(t, reference)));
    const tags = [...new Set(all.flatMap((c) => c.tags))];
    if (!candidates.length) throw new ImageError('reference', `输入中没有镜像 ${reference}，其中的镜像：${tags.join('、') || '（均无标签）'}`);
  }
  const names = [...new Set(candidates.map((c) => platformName(c.platform)))];
  let chosen: T | undefined;
  if (!wanted && names.length === 1) chosen = candidates[0]!;
  else {
    const want = parsePlatform(wanted ?? 'linux/amd64');
    chosen = candidates.find((c) => matches(want, c.platform));
    if (!chosen) throw new ImageError('platform', `镜像中没有 ${platformName(want)} 平台的镜像，可用平台：${names.join('、')}`);
  }
  const key = chosen.tags.join('\n');
  const others = [...new Set(candidates.filter((c) => c.tags.join('\n') !== key).map((c) => c.tags.join('、') || '（无标签）'))];
  return { chosen, others };
}

/**
 * The platform of those an input offers (names as listPlatforms gives them) that an unpack for
 * `wanted` analyses: the choice unpackImage makes (default linux/amd64, the only one when there is
 * one). ImageError('platform'), naming the platforms there are, when none fits.
 */
export function choosePlatform(names: string[], wanted: string | undefined): string {
  return platformName(choose(names.map((name) => ({ platform: parsePlatform(name), tags: [] as string[] })), wanted, undefined).chosen.platform);
}

function imageConfig(config: Json): ImageInfo['config'] {
  const c = isObject(config.config) ? config.config : {};
  const labels: Record<string, string> = {};
  if (isObject(c.Labels)) for (const [k, v] of Object.entries(c.Labels)) if (typeof v === 'string') labels[k] = v;
  return {
    env: strings(c.Env) ?? [],
    entrypoint: strings(c.Entrypoint),
    cmd: strings(c.Cmd),
    labels,
    workingDir: str(c.WorkingDir) || null,
    user: str(c.User) || null,
  };
}

function history(config: Json): ImageInfo['history'] {
  const entries = Array.isArray(config.history) ? config.history.filter(isObject) : [];
  return entries.map((h) => ({ createdBy: str(h.created_by), created: str(h.created), emptyLayer: h.empty_layer === true }));
}

function diffIds(config: Json): string[] {
  const rootfs = isObject(config.rootfs) ? config.rootfs : {};
  return strings(rootfs.diff_ids) ?? [];
}

/** Layers and history: history entries with empty_layer unset belong to the layers, in order. */
function layerHistory(config: Json, count: number): Array<{ createdBy: string | null; created: string | null }> {
  const own = history(config).filter((h) => !h.emptyLayer);
  return Array.from({ length: count }, (_, i) => own[i] ?? { createdBy: null, created: null });
}

function info(base: Omit<ImageInfo, 'history' | 'config' | 'created' | 'size'>, config: Json): ImageInfo {
  return {
    ...base,
    created: str(config.created),
    history: history(config),
    size: base.layers.reduce((n, l) => n + l.size, 0),
    config: imageConfig(config),
  };
}

/** What an input holds, without reading the manifests: a docker save, an OCI layout, or neither. */
export function formatOf(source: ImageSource): 'docker-archive' | 'oci-layout' | null {
  if (source.has('oci-layout') && source.has('index.json')) return 'oci-layout';
  if (source.has('manifest.json')) return 'docker-archive';
  return null;
}

/** Every platform the image input offers. */
export async function listPlatforms(source: ImageSource): Promise<string[]> {
  const format = formatOf(source);
  if (format === 'docker-archive') {
    const plans = await dockerCandidates(source);
    return [...new Set(plans.map((p) => platformName(p.platform)))];
  }
  if (format === 'oci-layout') {
    const candidates = await ociCandidates(source);
    return [...new Set(candidates.map((c) => platformName(c.platform)))];
  }
  throw notImage();
}

export const notImage = () => new ImageError('not-image', '输入不是容器镜像：既不是 docker save 导出的 tar，也不是 OCI 镜像布局');

// ---- docker save ----------------------------------------------------------------------------------

interface DockerCandidate {
  entry: Json;
  tags: string[];
  config: Json;
  configName: string;
  configData: Buffer;
  platform: Platform;
}

async function dockerCandidates(source: ImageSource): Promise<DockerCandidate[]> {
  let manifest: unknown;
  try {
    manifest = JSON.parse((await source.read('manifest.json')).toString('utf8'));
  } catch (error) {
    throw new ImageError('corrupt', '镜像的 manifest.json 不是有效的 JSON', { cause: error });
  }
  // Another tool's manifest.json (a web app's) is no docker save.
  if (!Array.isArray(manifest) || !manifest.length || !manifest.every((m) => isObject(m) && typeof m.Config === 'string' && Array.isArray(m.Layers))) throw notImage();
  const out: DockerCandidate[] = [];
  for (const entry of manifest.filter(isObject)) {
    const configName = str(entry.Config);
    if (!configName) throw new ImageError('corrupt', '镜像的 manifest.json 缺少 Config');
    const name = path.posix.normalize(configName).replace(/^\.\//, '');
    if (!source.has(name)) throw new ImageError('missing', `镜像中缺少配置文件 ${configName}`);
    const configData = await source.read(name);
    const config = parseJson(configData, '配置');
    out.push({ entry, tags: strings(entry.RepoTags) ?? [], config, configName: name, configData, platform: configPlatform(config) });
  }
  return out;
}

async function dockerPlan(source: ImageSource, wanted: string | undefined, reference: string | undefined): Promise<ImagePlan> {
  const candidates = await dockerCandidates(source);
  const { chosen, others } = choose(candidates, wanted, reference);
  const { entry, config, configName, configData } = chosen;
  // Legacy saves name the config `<hex>.json`, new ones `blobs/sha256/<hex>`: either way its digest.
  const hex = /(?:^|\/)([a-f0-9]{64})(?:\.json)?$/.exec(configName)?.[1];
  const configDigest = digestOf('sha256', configData);
  if (hex && `sha256:${hex}` !== configDigest) throw new ImageError('digest', `镜像的配置文件（sha256:${hex.slice(0, 12)}）内容与摘要不符，文件已损坏或被篡改`);
  const layerNames = strings(entry.Layers) ?? [];
  const ids = diffIds(config);
  const hist = layerHistory(config, layerNames.length);
  const layers: LayerPlan[] = layerNames.map((raw, index) => {
    const name = path.posix.normalize(raw).replace(/^\.\//, '');
    const blobHex = /^blobs\/sha256\/([a-f0-9]{64})$/.exec(name)?.[1];
    const diffId = ids[index] ?? null;
    const digest = blobHex ? `sha256:${blobHex}` : (diffId ?? '');
    const has = source.has(name);
    if (!has) throw new ImageError('missing', `镜像中缺少第 ${index + 1} 层的数据（${name}）`);
    return {
      layer: { index, digest, diffId, mediaType: LEGACY_LAYER, size: source.size(name) ?? 0, ...hist[index]! },
      blob: name,
      compression: 'sniff',
      foreign: false,
      expect: blobHex ? digest : null,
    };
  });
  const repoTags = strings(entry.RepoTags) ?? [];
  const platforms = [...new Set(candidates.map((c) => platformName(c.platform)))];
  return {
    format: 'docker-archive',
    others,
    info: info({ manifestDigest: configDigest, repoTags, platform: chosen.platform, platforms, layers: layers.map((l) => l.layer) }, config),
    layers,
  };
}

// ---- OCI layout -----------------------------------------------------------------------------------

interface OciCandidate {
  descriptor: Json;
  manifest: Json;
  config: Json;
  platform: Platform;
  tags: string[];
}

async function ociCandidates(source: ImageSource): Promise<OciCandidate[]> {
  const layout = parseJson(await source.read('oci-layout'), ' oci-layout 文件');
  if (typeof layout.imageLayoutVersion !== 'string') throw new ImageError('corrupt', '镜像的 oci-layout 文件缺少 imageLayoutVersion');
  const index = parseJson(await source.read('index.json'), '索引 index.json');
  const found: Candidate[] = [];
  const unknown = new Set<string>();
  await collect(source, index, [], 0, found, unknown);
  const out: OciCandidate[] = [];
  for (const candidate of found) {
    const digest = str(candidate.descriptor.digest)!;
    const manifest = parseJson(await readBlob(source, digest, '镜像清单'), '镜像清单');
    const mediaType = str(manifest.mediaType) ?? str(candidate.descriptor.mediaType);
    if (mediaType === OCI_INDEX || mediaType === DOCKER_LIST) {
      // An index named without its media type: walk it like a nested index.
      const nested: Candidate[] = [];
      await collect(source, manifest, candidate.tags, 1, nested, unknown);
      found.push(...nested);
      continue;
    }
    const configDescriptor = isObject(manifest.config) ? manifest.config : {};
    const configDigest = str(configDescriptor.digest);
    if (!configDigest) throw new ImageError('corrupt', `镜像清单（${shortDigest(digest)}）缺少配置描述`);
    if (!source.has(blobPath(configDigest))) continue; // a platform whose blobs were not saved
    const config = parseJson(await readBlob(source, configDigest, '配置'), '配置');
    out.push({ descriptor: candidate.descriptor, manifest, config, platform: candidate.platform ?? configPlatform(config), tags: candidate.tags });
  }
  if (!out.length && unknown.size) throw new ImageError('unsupported', `镜像清单的媒体类型 ${[...unknown].join('、').slice(0, 200)} 不受支持`);
  return out;
}

async function ociPlan(source: ImageSource, wanted: string | undefined, reference: string | undefined): Promise<ImagePlan> {
  const candidates = await ociCandidates(source);
  const { chosen, others } = choose(candidates, wanted, reference);
  const { manifest, config } = chosen;
  const descriptors = Array.isArray(manifest.layers) ? manifest.layers.filter(isObject) : [];
  const ids = diffIds(config);
  const hist = layerHistory(config, descriptors.length);
  const layers: LayerPlan[] = descriptors.map((d, index) => {
    const digest = str(d.digest) ?? '';
    const mediaType = str(d.mediaType) ?? '';
    const label = `第 ${index + 1} 层（${shortDigest(digest)}）`;
    const type = LAYER_TYPES[mediaType];
    if (!type) throw new ImageError('unsupported', `镜像${label}的媒体类型 ${mediaType.slice(0, 120) || '（未标明）'} 不受支持`);
    const name = blobPath(digest);
    const size = typeof d.size === 'number' ? d.size : (source.size(name) ?? 0);
    const present = source.has(name);
    if (!present && !type.foreign) throw new ImageError('missing', `镜像中缺少${label}的数据`);
    return {
      layer: { index, digest, diffId: ids[index] ?? null, mediaType, size, ...hist[index]! },
      blob: present ? name : null,
      compression: type.compression,
      foreign: type.foreign,
      expect: digest,
    };
  });
  // A docker save that is also an OCI layout names its tags in manifest.json.
  let repoTags = chosen.tags;
  if (source.has('manifest.json')) {
    try {
      const docker = JSON.parse((await source.read('manifest.json')).toString('utf8')) as unknown;
      const configDigest = str(isObject(manifest.config) ? manifest.config.digest : null);
      if (Array.isArray(docker)) {
        for (const entry of docker.filter(isObject)) {
          if (configDigest && str(entry.Config) === blobPath(configDigest)) repoTags = strings(entry.RepoTags) ?? repoTags;
        }
      }
    } catch {
      // manifest.json is a convenience here; the OCI documents are authoritative.
    }
  }
  const platforms = [...new Set(candidates.map((c) => platformName(c.platform)))];
  return {
    format: 'oci-layout',
    others,
    info: info({ manifestDigest: str(chosen.descriptor.digest)!, repoTags, platform: chosen.platform, platforms, layers: layers.map((l) => l.layer) }, config),
    layers,
  };
}

/** The image to unpack: the one `reference` names (the first when absent), for the wanted platform. */
export async function planImage(source: ImageSource, wanted: string | undefined, reference?: string): Promise<ImagePlan> {
  const format = formatOf(source);
  if (format === 'oci-layout') return ociPlan(source, wanted, reference);
  if (format === 'docker-archive') return dockerPlan(source, wanted, reference);
  throw notImage();
}
