// A container image as an analysis input (issue 16): its layers applied into one root folder
// (sources/image: whiteouts, opaque folders, links kept inside the root), that folder scanned like
// any tree, and each component given the layer it first appeared in.
//
// Attribution is exact rather than "the layer that last wrote the file": a package database
// (var/lib/dpkg/status, lib/apk/db/installed, rpmdb.sqlite …) is rewritten by every layer that
// installs a package, so each version a layer left is kept and read again, and a package belongs to
// the layer from which it is present in every later version. A file only one layer wrote (a
// package.json in node_modules, a dist-info METADATA, a jar) belongs to that layer.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunImage } from '../../contract/api/image.ts';
import type { Extractor, InputFile, ScanProblem, ScanResult } from './model.ts';
import { inventory, type InventoryEntry } from './output/inventory.ts';
import { allExtractors } from './extractors/index.ts';
import { scanTree } from './scan.ts';
import { findDistribution } from './extractors/os/index.ts';
import { unpackImage, type ImageInfo, type SquashedImage } from './sources/image/index.ts';
import type { UnpackLimits } from './sources/limits.ts';
import { treeContext } from './sources/tree.ts';

/**
 * Extractors whose file is one package's own executable or archive (its layer is the layer that wrote
 * it), or, for the Nix store, any file of a store entry, which only leads to the store's listing.
 */
const WHOLE_FILE_EXTRACTORS = new Set(['gobinary', 'jar', 'native', 'cargo-auditable', 'dotnet-assembly', 'nupkg', 'deb-file', 'rpm-file', 'apk-file', 'wheel', 'egg', 'npm-tarball', 'nix-store']);

export interface ImageInput {
  /** An image archive (docker save, OCI layout tar) or an OCI layout folder (a registry pull). */
  file: string;
  /** The name the image is known by (`registry/name:tag`), else its tags. */
  reference?: string;
  platform?: string;
  limits?: Partial<UnpackLimits>;
}

/**
 * What the attribution and the run's image record read of an unpacked image: its merged root, each
 * file's layer, the kept versions of package databases, and the image's identity and layers. An
 * image unpacked here (SquashedImage) or read from its feature file (feature/image.ts).
 */
export interface LayeredTree {
  root: string;
  info: Pick<ImageInfo, 'manifestDigest' | 'repoTags' | 'platform' | 'created' | 'size' | 'layers'>;
  layerOf: SquashedImage['layerOf'];
  versionsOf: SquashedImage['versionsOf'];
}

export interface PreparedImage<T extends LayeredTree = LayeredTree> {
  root: string;
  files: number;
  problems: ScanProblem[];
  squashed: T;
}

/** Unpacks the image's layers into `root` (which must not exist), keeping each version of every file an extractor reads. */
export async function prepareImage(
  input: ImageInput, root: string, extractors: readonly Extractor[], fileName: string,
  onProgress: (fraction: number) => void, signal: AbortSignal,
): Promise<PreparedImage<SquashedImage>> {
  // Every version a layer leaves is kept for the files package lists live in, which later layers
  // rewrite; not for executables and archives (a Go binary, a jar: one package, one writer), whose
  // copies would double the image on disk.
  const versioned = extractors.filter((e) => !WHOLE_FILE_EXTRACTORS.has(e.name));
  const squashed = await unpackImage(input.file, root, {
    platform: input.platform,
    limits: input.limits,
    signal,
    keep: (p) => versioned.some((e) => e.matches(p)),
    onProgress: (p) => onProgress(Math.min(0.95, p.layer / Math.max(1, p.layers))),
  });
  const problems = squashed.notes.map((n) => ({ file: n.path || fileName, message: n.reason }));
  return { root, files: squashed.files, problems, squashed };
}

/** The file of a location that a layer wrote: an archive's entry (`app.war!/WEB-INF/lib/x.jar`) lives in the archive. */
const layerFileOf = (file: string): string => file.split('!/')[0]!;

function versionFile(p: string, copy: string, size = 0): InputFile {
  return { path: p, size, read: () => readFile(copy), text: () => readFile(copy, 'utf8') };
}

/**
 * The layer each component first appeared in, by purl. For a target whose file several layers
 * wrote, its extractor reads every version: a package present from version k on (not removed and
 * put back later) belongs to version k's layer.
 */
export async function attributeLayers(scan: ScanResult, squashed: LayeredTree, extractors: readonly Extractor[], signal: AbortSignal): Promise<Map<string, number>> {
  const ctx = treeContext(squashed.root, signal);
  const byName = new Map(extractors.map((e) => [e.name, e]));
  const layerOf = new Map<string, number>();
  const settle = (purl: string, layer: number) => {
    const was = layerOf.get(purl);
    if (was === undefined || layer < was) layerOf.set(purl, layer);
  };
  // Each multi-version file is read once per version, whatever number of targets it gave.
  const reread = new Map<string, Map<string, number>>();
  for (const target of scan.targets) {
    signal.throwIfAborted();
    const versions = squashed.versionsOf(target.file);
    const extractor = byName.get(target.type) ?? extractors.find((e) => e.matches(target.file));
    if (versions.length > 1 && extractor) {
      let since = reread.get(target.file);
      if (!since) {
        since = new Map<string, number>();
        for (const v of versions) {
          if (v.file === null) { since.clear(); continue; }
          const present = new Set<string>();
          try {
            for (const t of await extractor.extract(versionFile(target.file, v.file), ctx)) for (const c of t.components) present.add(c.purl);
          } catch {
            // An earlier version this extractor cannot read: its packages count from the next readable one.
            continue;
          }
          for (const purl of [...since.keys()]) if (!present.has(purl)) since.delete(purl);
          for (const purl of present) if (!since.has(purl)) since.set(purl, v.layer);
        }
        reread.set(target.file, since);
      }
      for (const c of target.components) {
        const layer = since.get(c.purl) ?? squashed.layerOf(target.file);
        if (layer !== undefined) settle(c.purl, layer);
      }
      continue;
    }
    for (const c of target.components) {
      // A component read from its own file (a package.json, a jar) is that file's layer; else the target's.
      const own = c.locations.map((l) => squashed.layerOf(layerFileOf(l.file))).find((l) => l !== undefined);
      const layer = own ?? squashed.layerOf(layerFileOf(target.file));
      if (layer !== undefined) settle(c.purl, layer);
    }
  }
  return layerOf;
}

/** The run's record of the image: identity, platform, base system, and the components each layer brought. */
export async function imageSummary(squashed: LayeredTree, reference: string | undefined, components: readonly InventoryEntry[], signal: AbortSignal): Promise<RunImage> {
  const { info } = squashed;
  const distro = await findDistribution(treeContext(squashed.root, signal), '');
  const counts = new Map<number, number>();
  for (const c of components) if (c.layer !== undefined) counts.set(c.layer, (counts.get(c.layer) ?? 0) + 1);
  const platform = [info.platform.os, info.platform.architecture, info.platform.variant].filter(Boolean).join('/');
  return {
    reference: reference?.trim() || info.repoTags[0] || null,
    manifestDigest: info.manifestDigest,
    platform,
    os: distro ? { id: distro.id, versionId: distro.versionId, prettyName: distro.name } : null,
    created: info.created,
    size: info.size,
    layers: info.layers.map((l) => ({ index: l.index, digest: l.digest, size: l.size, createdBy: l.createdBy, components: counts.get(l.index) ?? 0 })),
  };
}

/** An image scanned offline (the CLI): the scan, each component's layer by purl, and the image's record. */
export interface ScannedImage {
  scan: ScanResult;
  layers: Map<string, number>;
  image: RunImage;
}

/**
 * Scans an image archive or OCI layout folder as a run does (prepareImage, scanTree,
 * attributeLayers, imageSummary) inside `workDir`, which the caller removes.
 */
export async function scanImage(
  input: ImageInput, workDir: string, options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {},
): Promise<ScannedImage> {
  const signal = options.signal ?? new AbortController().signal;
  const started = performance.now();
  const prepared = await prepareImage(input, path.join(workDir, 'root'), allExtractors, path.basename(input.file), options.onProgress ?? (() => {}), signal);
  const scan = await scanTree(prepared.root, { extractors: allExtractors, signal });
  const layers = await attributeLayers(scan, prepared.squashed, allExtractors, signal);
  if (prepared.problems.length) scan.problems = [...scan.problems, ...prepared.problems].sort((a, b) => a.file.localeCompare(b.file));
  const components = inventory(scan).map((c) => ({ ...c, layer: layers.get(c.purl) }));
  const image = await imageSummary(prepared.squashed, input.reference, components, signal);
  scan.stats = { ...scan.stats, ms: Math.round(performance.now() - started) };
  return { scan, layers, image };
}
