// Builds container images at test time: layers as tars (plain, gzip, zstd) with tar-stream, put
// together as OCI image layouts (single image, multi-platform index, nested index) or as legacy
// `docker save` tars, written out as a folder, a tar or a gzip-compressed tar.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { tarball } from '../archives.ts';
import type { TarItem } from '../archives.ts';

export interface LayerSpec {
  items: TarItem[];
  compression?: 'none' | 'gzip' | 'zstd';
  /** Overrides the media type the compression implies. */
  mediaType?: string;
  createdBy?: string;
  /** Stores different bytes than the digest names. */
  tamper?: boolean;
  /** The config's diff_id is wrong. */
  wrongDiffId?: boolean;
  /** Leaves the blob out of the layout (a non-distributable layer). */
  omit?: boolean;
}

export interface ImageSpec {
  layers: LayerSpec[];
  platform?: { os: string; architecture: string; variant?: string };
  env?: string[];
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

const MEDIA = {
  none: 'application/vnd.oci.image.layer.v1.tar',
  gzip: 'application/vnd.oci.image.layer.v1.tar+gzip',
  zstd: 'application/vnd.oci.image.layer.v1.tar+zstd',
};

export type Files = Map<string, Buffer>;

function blob(files: Files, data: Buffer): string {
  const hex = sha(data);
  files.set(`blobs/sha256/${hex}`, data);
  return `sha256:${hex}`;
}

interface Built {
  layers: Array<{ tar: Buffer; stored: Buffer; digest: string; mediaType: string; omit: boolean; tampered: Buffer | null; tamperedTar: Buffer | null }>;
  config: Buffer;
}

async function build(spec: ImageSpec): Promise<Built> {
  const layers: Built['layers'] = [];
  for (const layer of spec.layers) {
    const tar = await tarball(layer.items);
    const compression = layer.compression ?? 'gzip';
    const compress = (t: Buffer) => (compression === 'gzip' ? gzipSync(t) : compression === 'zstd' ? zstdCompressSync(t) : t);
    const stored = compress(tar);
    // Tampered: well-formed, but other content than the digests name (an extra file).
    const tamperedTar = layer.tamper ? await tarball([...layer.items, { name: 'planted.txt', data: 'planted' }]) : null;
    const tampered = tamperedTar && compress(tamperedTar);
    layers.push({ tar, stored, digest: `sha256:${sha(stored)}`, mediaType: layer.mediaType ?? MEDIA[compression], omit: !!layer.omit, tampered, tamperedTar });
  }
  const platform = spec.platform ?? { os: 'linux', architecture: 'amd64' };
  const config = json({
    created: '2026-01-02T03:04:05Z',
    ...platform,
    config: { Env: spec.env ?? ['PATH=/usr/bin'], Cmd: ['/bin/sh'], Labels: { maintainer: 'tests' }, WorkingDir: '/app', User: 'app' },
    rootfs: { type: 'layers', diff_ids: spec.layers.map((l, i) => `sha256:${l.wrongDiffId ? '0'.repeat(64) : sha(layers[i]!.tar)}`) },
    history: [
      { created: '2026-01-01T00:00:00Z', created_by: 'ENV PATH=/usr/bin', empty_layer: true },
      ...spec.layers.map((l, i) => ({ created: `2026-01-02T00:00:0${i}Z`, created_by: l.createdBy ?? `RUN step ${i}` })),
    ],
  });
  return { layers, config };
}

/** One image's manifest (and its blobs) added to `files`; answers the manifest's descriptor. */
async function addImage(files: Files, spec: ImageSpec): Promise<{ mediaType: string; digest: string; size: number; platform: NonNullable<ImageSpec['platform']> }> {
  const built = await build(spec);
  const configDigest = blob(files, built.config);
  const layers = built.layers.map((l) => {
    if (!l.omit) files.set(`blobs/sha256/${l.digest.slice(7)}`, l.tampered ?? l.stored);
    return { mediaType: l.mediaType, digest: l.digest, size: l.stored.length };
  });
  const manifest = json({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: configDigest, size: built.config.length }, layers });
  return { mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: blob(files, manifest), size: manifest.length, platform: spec.platform ?? { os: 'linux', architecture: 'amd64' } };
}

/** An OCI layout of one image, or of several platforms (in a nested index when `nested`). */
export async function ociLayout(images: ImageSpec | ImageSpec[], options: { nested?: boolean; tag?: string } = {}): Promise<Files> {
  const files: Files = new Map();
  files.set('oci-layout', json({ imageLayoutVersion: '1.0.0' }));
  const annotations = { 'org.opencontainers.image.ref.name': options.tag ?? 'latest' };
  if (!Array.isArray(images)) {
    const d = await addImage(files, images);
    files.set('index.json', json({ schemaVersion: 2, manifests: [{ mediaType: d.mediaType, digest: d.digest, size: d.size, annotations }] }));
    return files;
  }
  const descriptors = [];
  for (const image of images) {
    const d = await addImage(files, image);
    descriptors.push({ mediaType: d.mediaType, digest: d.digest, size: d.size, platform: d.platform });
  }
  // buildkit adds an attestation manifest of platform unknown/unknown: it is no image to pick.
  const attestation = json({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: blob(files, json({})), size: 2 }, layers: [] });
  descriptors.push({ mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: blob(files, attestation), size: attestation.length, platform: { os: 'unknown', architecture: 'unknown' }, annotations: { 'vnd.docker.reference.type': 'attestation-manifest' } });
  const index = { schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json', manifests: descriptors };
  if (options.nested) {
    const inner = json(index);
    files.set('index.json', json({ schemaVersion: 2, manifests: [{ mediaType: 'application/vnd.oci.image.index.v1+json', digest: blob(files, inner), size: inner.length, annotations }] }));
  } else files.set('index.json', json({ ...index, manifests: descriptors.map((d) => ({ ...d, annotations: { ...annotations, ...('annotations' in d ? d.annotations : {}) } })) }));
  return files;
}

/** A legacy `docker save` tar's files: manifest.json, `<config hex>.json`, `<id>/layer.tar` (uncompressed). */
export async function dockerSave(spec: ImageSpec, tag = 'demo:latest'): Promise<Files> {
  const built = await build({ ...spec, layers: spec.layers.map((l) => ({ ...l, compression: 'none' as const })) });
  const files: Files = new Map();
  const configName = `${sha(built.config)}.json`;
  files.set(configName, built.config);
  const names = built.layers.map((l, i) => {
    const name = `${sha(Buffer.from(`layer-${i}-${l.digest}`))}/layer.tar`;
    files.set(name, l.tamperedTar ?? l.tar);
    return name;
  });
  files.set('manifest.json', json([{ Config: configName, RepoTags: [tag], Layers: names }]));
  return files;
}

export async function asTar(files: Files): Promise<Buffer> {
  return tarball([...files].map(([name, data]) => ({ name, data })));
}

export async function asFolder(dir: string, files: Files): Promise<string> {
  for (const [name, data] of files) {
    await mkdir(path.join(dir, path.dirname(name)), { recursive: true });
    await writeFile(path.join(dir, name), data);
  }
  return dir;
}
