// Image feature files (kind "image", uploaded as 镜像特征文件, getCodeType 32): a container image
// unpacked as its analysis unpacks it (image-analysis.ts prepareImage: the same platform choice,
// layers applied into one squashed root, every version of the package databases kept), then that
// root written as a source folder is (write.ts: what the extractors read, licence and notice files,
// the rest hashed), each listed file with the digest of the layer that last wrote it, the versions
// of the package databases earlier layers left under versions/, and the image itself (identity,
// platform, base system, layers, history) in the manifest's image block. Read back (read.ts), it
// gives the analysis the same tree, layer attribution and run image record as the image itself.
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makePrivateTempDir } from '../../files/private.ts';
import { findDistribution } from '../extractors/os/index.ts';
import { allExtractors } from '../extractors/index.ts';
import { attributeLayers, imageSummary, prepareImage, type LayeredTree, type ScannedImage } from '../image-analysis.ts';
import { inventory } from '../output/inventory.ts';
import { scanTree } from '../scan.ts';
import type { ExtractContext } from '../model.ts';
import { detectImage, type SquashedImage } from '../sources/image/index.ts';
import type { UnpackLimits } from '../sources/limits.ts';
import { confinedPath, treeContext, walkTree, type WalkedFile } from '../sources/tree.ts';
import type { UnpackProblem } from '../sources/unpack.ts';
import { sha256Of, type FeatureImage, type FeatureImageVersion } from './format.ts';
import type { FeatureTree } from './read.ts';
import type { TreeView } from './view.ts';
import { writeViewFeature, type WriteFeatureOptions, type WriteFeatureResult } from './write.ts';

export interface WriteImageFeatureOptions extends WriteFeatureOptions {
  /** The platform of a multi-platform image (`linux/arm64`); linux/amd64 by default, as the analysis chooses. */
  platform?: string;
  /** The name the image was pulled by (`registry/name:tag`); else its tags name it. */
  reference?: string;
  limits?: Partial<UnpackLimits>;
  /** Where the image is unpacked meanwhile (a private folder under it, removed after); the system's temp folder by default. */
  tempDir?: string;
  /** 0..1 while the layers are applied, before the files are listed. */
  onUnpack?: (fraction: number) => void;
}

/** A file the analysis's listing leaves out: under node_modules (an installed package's manifest, read by the scan). */
const outsideListing = (p: string) => p.split('/').slice(0, -1).some((s) => s === 'node_modules' || s === 'bower_components');

/** The squashed root of an image as the analysis scans it: paths from the root, packages under node_modules offered as the scan offers them. */
class ImageView implements TreeView {
  readonly rootName = '';
  readonly problems: UnpackProblem[];
  private readonly root: string;
  constructor(root: string, problems: UnpackProblem[]) {
    this.root = root;
    this.problems = problems;
  }

  async *walk(signal: AbortSignal): AsyncGenerator<WalkedFile & { walked?: boolean }> {
    for await (const file of walkTree(this.root, signal, { installedPackages: true })) yield outsideListing(file.path) ? { ...file, walked: false } : file;
  }

  resolve(rel: string): Promise<string | undefined> {
    return confinedPath(this.root, rel);
  }

  async list(rel: string): Promise<string[]> {
    const dir = await confinedPath(this.root, rel || '.');
    return dir ? readdir(dir).catch(() => []) : [];
  }

  context(signal: AbortSignal, seen: { read(p: string): void; exists(p: string): void; list(p: string): void }): ExtractContext {
    const ctx = treeContext(this.root, signal);
    return {
      signal,
      readText: async (rel) => {
        const text = await ctx.readText(rel);
        if (text !== undefined) seen.read(rel);
        return text;
      },
      list: async (rel) => {
        const names = await ctx.list(rel);
        seen.list(rel);
        return names;
      },
      exists: async (rel) => {
        const found = await ctx.exists(rel);
        if (found) seen.exists(rel);
        return found;
      },
    };
  }
}

/**
 * Writes the feature file of a container image (`input`: a docker save tar, an OCI layout folder
 * or tar) to `outFile`. Throws ImageError (Chinese) for an input that is not a readable image.
 */
export async function writeImageFeatureFile(input: string, outFile: string, options: WriteImageFeatureOptions = {}): Promise<WriteFeatureResult> {
  const signal = options.signal ?? new AbortController().signal;
  if (!(await detectImage(input))) throw new Error(`${path.basename(input)} 不是容器镜像：请选择 docker save 导出的 tar（可为 tar.gz）、OCI 镜像布局目录或其 tar`);
  const extractors = options.extractors ?? allExtractors;
  const work = await makePrivateTempDir(path.join(options.tempDir ?? tmpdir(), 'cairn-image-feature-'));
  try {
    const prepared = await prepareImage(
      { file: input, platform: options.platform, limits: options.limits, reference: options.reference },
      path.join(work, 'root'), extractors, path.basename(input), options.onUnpack ?? (() => {}), signal,
    );
    const squashed = prepared.squashed;
    const { info } = squashed;
    const view = new ImageView(squashed.root, squashed.notes.map((n) => ({ file: n.path, message: n.reason })));
    let os: FeatureImage['os'] = null;
    return await writeViewFeature(view, outFile, { ...options, extractors }, {
      kind: 'image',
      annotate: (p) => {
        const layer = squashed.layerOf(p);
        return layer === undefined ? {} : { layer: info.layers[layer]!.digest };
      },
      // The run's image record reads the base system from os-release: it goes in as the extractors' reads do.
      looked: async (ctx) => {
        const distro = await findDistribution(ctx, '');
        os = distro ? { id: distro.id, versionId: distro.versionId, prettyName: distro.name } : null;
      },
      finish: async (included) => {
        const versions: FeatureImageVersion[] = [];
        const files: Array<{ name: string; absolute: string }> = [];
        for (const p of [...included].sort()) {
          const kept = squashed.versionsOf(p);
          // One version tells nothing the file itself does not: the attribution reads several.
          if (kept.length < 2) continue;
          for (const v of kept) {
            if (v.file === null) {
              versions.push({ path: p, layer: v.layer, removed: true });
              continue;
            }
            const { sha256, size } = await sha256Of(v.file, signal);
            versions.push({ path: p, layer: v.layer, size, sha256 });
            files.push({ name: `${v.layer}/${p}`, absolute: v.file });
          }
        }
        return { image: imageBlock(squashed, options.reference ?? null, os, versions), versions: files };
      },
    });
  } finally {
    await rm(work, { recursive: true, force: true, maxRetries: 3 });
  }
}

function imageBlock(squashed: SquashedImage, reference: string | null, os: FeatureImage['os'], versions: FeatureImageVersion[]): FeatureImage {
  const { info } = squashed;
  return {
    reference,
    repoTags: info.repoTags,
    manifestDigest: info.manifestDigest,
    platform: { os: info.platform.os, architecture: info.platform.architecture, ...(info.platform.variant ? { variant: info.platform.variant } : {}) },
    platforms: info.platforms,
    created: info.created,
    size: info.size,
    os,
    layers: info.layers.map((l) => ({ index: l.index, digest: l.digest, diffId: l.diffId, mediaType: l.mediaType, size: l.size, createdBy: l.createdBy, created: l.created })),
    history: info.history,
    versions,
  };
}

/**
 * The image an image feature file describes, as the attribution and the run's image record read
 * it: each file's layer (the last layer with the digest its entry names: identical layers write the
 * same files), and the kept versions of the package databases.
 */
export function featureImageTree(tree: FeatureTree, root: string): LayeredTree & { reference: string | null } {
  const image = tree.manifest.image;
  if (!image || !tree.versionsRoot) throw new Error('not an image feature file');
  const versionsRoot = tree.versionsRoot;
  const indexOf = new Map(image.layers.map((l) => [l.digest, l.index]));
  const layers = new Map<string, number>();
  for (const f of tree.manifest.files) if (f.layer !== undefined) layers.set(f.path, indexOf.get(f.layer)!);
  const versions = new Map<string, Array<{ layer: number; file: string | null }>>();
  for (const v of image.versions) {
    const list = versions.get(v.path) ?? [];
    list.push({ layer: v.layer, file: v.removed ? null : path.join(versionsRoot, String(v.layer), ...v.path.split('/')) });
    versions.set(v.path, list);
  }
  const clean = (p: string) => p.split('/').filter((s) => s !== '' && s !== '.').join('/');
  return {
    root,
    reference: image.reference,
    info: { manifestDigest: image.manifestDigest, repoTags: image.repoTags, platform: image.platform, created: image.created, size: image.size, layers: image.layers },
    layerOf: (p) => layers.get(clean(p)),
    versionsOf: (p) => versions.get(clean(p)) ?? [],
  };
}

/**
 * Scans an image feature file read into `root` (readFeatureFile) as `scanImage` scans the image
 * (the CLI): the scan, each component's layer, the image record; stats as the image's own scan.
 */
export async function scanImageFeature(tree: FeatureTree, root: string, fileName: string, options: { signal?: AbortSignal } = {}): Promise<ScannedImage> {
  const signal = options.signal ?? new AbortController().signal;
  const started = performance.now();
  const image = featureImageTree(tree, root);
  const scan = await scanTree(root, { extractors: allExtractors, signal });
  const layers = await attributeLayers(scan, image, allExtractors, signal);
  if (tree.problems.length) scan.problems = [...scan.problems, ...tree.problems.map((p) => ({ file: p.file || fileName, message: p.message }))].sort((a, b) => a.file.localeCompare(b.file));
  // The scan counts the listing, and what it reads outside it (installed packages' manifests).
  let walked = 0;
  let walkedBytes = 0;
  for await (const f of walkTree(root, signal)) {
    walked++;
    walkedBytes += f.size;
  }
  scan.stats = { files: tree.files.length + scan.stats.files - walked, bytes: tree.bytes + scan.stats.bytes - walkedBytes, ms: Math.round(performance.now() - started) };
  const components = inventory(scan).map((c) => ({ ...c, layer: layers.get(c.purl) }));
  return { scan, layers, image: await imageSummary(image, image.reference ?? undefined, components, signal) };
}
