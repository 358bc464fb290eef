// Manifests as registries serve them: OCI image indexes and manifests, Docker manifest lists and
// schema 2 manifests. Schema 1 (signed or not) is refused with a message saying so; an artifact
// that is not an image (a Helm chart, a signature) is refused by its config or layer type.
import { RegistryError } from './errors.ts';

export const MT = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerSchema1: 'application/vnd.docker.distribution.manifest.v1+json',
  dockerSchema1Signed: 'application/vnd.docker.distribution.manifest.v1+prettyjws',
  ociConfig: 'application/vnd.oci.image.config.v1+json',
  dockerConfig: 'application/vnd.docker.container.image.v1+json',
} as const;

/** What we ask for, best first; schema 1 is listed so a registry answers it as such rather than 404. */
export const MANIFEST_ACCEPT = [
  MT.ociIndex,
  MT.ociManifest,
  MT.dockerList,
  MT.dockerManifest,
  `${MT.dockerSchema1Signed};q=0.1`,
  `${MT.dockerSchema1};q=0.1`,
].join(', ');

export const LAYER_TYPES = new Set([
  'application/vnd.oci.image.layer.v1.tar',
  'application/vnd.oci.image.layer.v1.tar+gzip',
  'application/vnd.oci.image.layer.v1.tar+zstd',
  'application/vnd.oci.image.layer.nondistributable.v1.tar',
  'application/vnd.oci.image.layer.nondistributable.v1.tar+gzip',
  'application/vnd.oci.image.layer.nondistributable.v1.tar+zstd',
  'application/vnd.docker.image.rootfs.diff.tar',
  'application/vnd.docker.image.rootfs.diff.tar.gzip',
  'application/vnd.docker.image.rootfs.diff.tar.zstd',
  'application/vnd.docker.image.rootfs.foreign.diff.tar.gzip',
]);

const CONFIG_TYPES = new Set<string>([MT.ociConfig, MT.dockerConfig]);

/** Digest algorithms we verify (the layout keeps blobs under blobs/<algorithm>/<hex>). */
export const DIGEST_RE = /^(sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128})$/;

export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
  'os.version'?: string;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: Platform;
  annotations?: Record<string, string>;
  urls?: string[];
}

export type Parsed =
  | { kind: 'index'; mediaType: string; manifests: Descriptor[] }
  | { kind: 'manifest'; mediaType: string; config: Descriptor; layers: Descriptor[] };

function descriptor(value: unknown, where: string): Descriptor {
  const d = value as Partial<Descriptor> | null;
  if (!d || typeof d !== 'object') throw new RegistryError('server', `${where}不是有效的描述符`);
  if (typeof d.digest !== 'string' || !/^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/.test(d.digest)) {
    throw new RegistryError('digest', `${where}的摘要“${String(d.digest).slice(0, 80)}”格式不正确`);
  }
  if (!DIGEST_RE.test(d.digest)) throw new RegistryError('digest', `${where}的摘要 ${d.digest.slice(0, 80)} 使用了不支持的算法（支持 sha256、sha512）`);
  if (typeof d.size !== 'number' || !Number.isSafeInteger(d.size) || d.size < 0) throw new RegistryError('server', `${where}（${d.digest}）的大小无效`);
  if (typeof d.mediaType !== 'string' || !d.mediaType) throw new RegistryError('media-type', `${where}（${d.digest}）没有声明媒体类型`);
  return d as Descriptor;
}

/** The manifest or index in `body`, its type from the body's mediaType, the Content-Type, then its shape. */
export function parseManifest(body: Buffer, contentType: string | undefined): Parsed {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new RegistryError('server', '仓库返回的镜像清单不是有效的 JSON');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new RegistryError('server', '仓库返回的镜像清单不是 JSON 对象');
  const header = contentType?.split(';')[0]?.trim().toLowerCase();
  const declared = typeof json.mediaType === 'string' ? json.mediaType : undefined;
  if (json.schemaVersion === 1 || declared === MT.dockerSchema1 || declared === MT.dockerSchema1Signed || header === MT.dockerSchema1 || header === MT.dockerSchema1Signed) {
    throw new RegistryError('media-type', '该镜像使用已废弃的 Docker 清单格式 v2 schema 1，不受支持；请用新版 Docker 或 skopeo 重新推送该镜像');
  }
  if (json.schemaVersion !== 2) throw new RegistryError('media-type', `不支持的镜像清单版本 schemaVersion=${String(json.schemaVersion)}`);
  const fromShape = Array.isArray(json.manifests) ? MT.ociIndex : Array.isArray(json.layers) ? MT.ociManifest : undefined;
  const mediaType = declared ?? (header && header !== 'application/json' && header !== 'text/plain' ? header : fromShape);
  if (mediaType === MT.ociIndex || mediaType === MT.dockerList) {
    if (!Array.isArray(json.manifests)) throw new RegistryError('server', '镜像索引缺少 manifests 列表');
    return { kind: 'index', mediaType, manifests: json.manifests.map((m, i) => descriptor(m, `镜像索引的第 ${i + 1} 项`)) };
  }
  if (mediaType === MT.ociManifest || mediaType === MT.dockerManifest) {
    if (!Array.isArray(json.layers)) throw new RegistryError('server', '镜像清单缺少 layers 列表');
    const config = descriptor(json.config, '镜像清单的配置');
    const layers = json.layers.map((l, i) => descriptor(l, `第 ${i + 1} 层`));
    return { kind: 'manifest', mediaType, config, layers };
  }
  throw new RegistryError('media-type', `不支持的清单类型 ${String(mediaType ?? header ?? '（未声明）')}：这不是容器镜像`);
}

/** Refuses an artifact that is not a container image, and layers of types we cannot unpack. */
export function checkImageManifest(parsed: Extract<Parsed, { kind: 'manifest' }>): void {
  const config = parsed.config.mediaType;
  if (!CONFIG_TYPES.has(config)) {
    throw new RegistryError('media-type', `这不是容器镜像：配置类型为 ${config}（例如 Helm chart、签名或其他 OCI 制品）`);
  }
  parsed.layers.forEach((layer, i) => {
    if (!LAYER_TYPES.has(layer.mediaType)) {
      throw new RegistryError('media-type', `第 ${i + 1} 层（${layer.digest}）的类型 ${layer.mediaType} 不受支持`);
    }
  });
}

// Platforms: `os/arch[/variant]`, with the aliases Docker accepts and its default variants.

const ARCH_ALIASES: Record<string, string> = { x86_64: 'amd64', 'x86-64': 'amd64', aarch64: 'arm64', armhf: 'arm', armel: 'arm', i386: '386', i686: '386' };
const DEFAULT_VARIANT: Record<string, string> = { arm64: 'v8', arm: 'v7' };

export function normalizePlatform(p: Platform): Platform {
  const os = p.os.toLowerCase();
  const architecture = ARCH_ALIASES[p.architecture.toLowerCase()] ?? p.architecture.toLowerCase();
  let variant = p.variant?.toLowerCase() || undefined;
  if (p.architecture.toLowerCase() === 'armhf') variant ??= 'v7';
  if (p.architecture.toLowerCase() === 'armel') variant ??= 'v6';
  if (architecture === 'arm64' && variant === 'v8') variant = undefined; // arm64 is arm64/v8
  return { os, architecture, ...(variant && { variant }) };
}

export function parsePlatform(text: string): Platform {
  const parts = text.trim().split('/');
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => !/^[A-Za-z0-9_.-]+$/.test(p))) {
    throw new RegistryError('platform', `平台“${text}”格式不正确，应为 操作系统/架构[/变体]，例如 linux/amd64、linux/arm64、linux/arm/v7`);
  }
  return normalizePlatform({ os: parts[0]!, architecture: parts[1]!, ...(parts[2] && { variant: parts[2] }) });
}

export function formatPlatform(p: Platform): string {
  const n = normalizePlatform(p);
  return `${n.os}/${n.architecture}${n.variant ? `/${n.variant}` : ''}`;
}

/** Index entries that are images for a platform (not buildx attestations marked unknown/unknown). */
export function platformEntries(manifests: Descriptor[]): Descriptor[] {
  return manifests.filter(
    (m) => m.platform && m.platform.os !== 'unknown' && m.platform.architecture !== 'unknown' && m.annotations?.['vnd.docker.reference.type'] !== 'attestation-manifest',
  );
}

/**
 * The index entry for `wanted`: same os and architecture; a requested variant must match (arm64's
 * v8 is implied), and without one the default variant (arm/v7) or else the first entry is taken.
 */
export function selectPlatform(manifests: Descriptor[], wanted: Platform): Descriptor | null {
  const w = normalizePlatform(wanted);
  const candidates = platformEntries(manifests).filter((m) => {
    const p = normalizePlatform(m.platform!);
    return p.os === w.os && p.architecture === w.architecture;
  });
  if (w.variant) return candidates.find((m) => normalizePlatform(m.platform!).variant === w.variant) ?? null;
  const preferred = DEFAULT_VARIANT[w.architecture];
  return (
    candidates.find((m) => !normalizePlatform(m.platform!).variant) ??
    (preferred ? candidates.find((m) => normalizePlatform(m.platform!).variant === preferred) : undefined) ??
    candidates[0] ??
    null
  );
}
