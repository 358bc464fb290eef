// The feature file's format (docs: server/engine/feature/README.md): a zip holding the manifest
// `cairn-feature.json` and, under `tree/`, the files an analysis reads (manifests, lockfiles,
// package databases, licence and notice files); every other file of the tree is only listed, with
// its size and SHA-256. Version 1. Shared by the writer (write.ts) and the reader (read.ts), which
// checks every field of an untrusted manifest against what the zip really holds.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FileFindings } from '../analyzers/model.ts';
import { UnpackError } from '../sources/archive/errors.ts';
import type { ImageLayer } from '../sources/image/manifest.ts';

export const FEATURE_FORMAT = 'cairn-feature';
export const FEATURE_VERSION = 1;
/** The manifest's entry in the zip. */
export const MANIFEST_NAME = 'cairn-feature.json';
/** The folder of the zip that holds the included files, at their paths in the tree. */
export const TREE_DIR = 'tree';
/** Image feature files: the folder of the versions of package databases earlier layers left (`versions/<layer index>/<path>`). */
export const VERSIONS_DIR = 'versions';

export type FeatureKind = 'source' | 'image';

export interface FeatureFileEntry {
  /** Path relative to the tree's root folder, `/`-separated, no `.`/`..`/empty segments. */
  path: string;
  size: number;
  /** SHA-256 of the content, lowercase hex. */
  sha256: string;
  /** Whether the content is in the zip (under `tree/<path>`). */
  included: boolean;
  /**
   * false for a file outside the tree's walk (under node_modules, which the analysis lists not but
   * reads on demand): carried for the analysis, not shown as a file of the tree. Absent: true.
   */
  walked?: boolean;
  /** Image feature files: the digest of the layer the file comes from (the image analysis fills it). */
  layer?: string;
}

export interface FeatureProblem {
  /** Path relative to the tree's root folder. */
  file: string;
  /** Chinese message for the user. */
  message: string;
}

export interface FeatureManifest {
  format: typeof FEATURE_FORMAT;
  version: number;
  /** ISO 8601 time the file was written. */
  created: string;
  tool: { name: string; version: string };
  kind: FeatureKind;
  /** The tree's root folder name (the analysed folder's own name): paths are under it. */
  root: string;
  /** Every file of the tree, in walk order. */
  files: FeatureFileEntry[];
  /** Folders the analysis looks into that hold no listed file (so they exist when it runs). */
  dirs: string[];
  /** What could not be read while writing (nested archives left packed), reported by the analysis. */
  problems: FeatureProblem[];
  /**
   * What the file analyzers (licence texts, mode 4; copyright notices, mode 7) found in the files
   * that are not included (source headers, READMEs), found by the writer: the analysis keeps those
   * of its modes. Only files with a finding; each finding carries the lines that decided it.
   */
  findings: FileFindings[];
  /** Image feature files: the image (reference, digest, platform, os-release, layers). */
  image?: FeatureImage;
}

/** One layer of an image feature file's image, bottom first: the image's own layer record. */
export type FeatureImageLayer = ImageLayer;

/**
 * A version of a package database a layer left (the analysis reads each to tell in which layer a
 * package appeared): its content is in the zip at `versions/<layer>/<path>`; `removed` when that
 * layer removed the file.
 */
export interface FeatureImageVersion {
  path: string;
  layer: number;
  size?: number;
  sha256?: string;
  removed?: true;
}

/** The image an image feature file was written of: what the analysis needs for the run's image record. */
export interface FeatureImage {
  /** The name it was pulled by (`registry/name:tag`); null for an image file (its tags then name it). */
  reference: string | null;
  repoTags: string[];
  manifestDigest: string;
  platform: { os: string; architecture: string; variant?: string };
  /** Every platform the input offered. */
  platforms: string[];
  created: string | null;
  /** Bytes of all layers as stored. */
  size: number;
  /** The base system from os-release (also in the tree, which the analysis reads); null when none. */
  os: { id: string; versionId: string; prettyName: string } | null;
  layers: FeatureImageLayer[];
  /** The image history, empty steps (ENV, CMD …) included. */
  history: Array<{ createdBy: string | null; created: string | null; emptyLayer: boolean }>;
  versions: FeatureImageVersion[];
}

export const badFeature = (message: string) => new UnpackError('corrupt', `特征文件无效：${message}`);

const SHA256 = /^[0-9a-f]{64}$/;
/** An OCI digest: `algorithm:hex`. */
const DIGEST = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[0-9a-f]{32,128}$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const printable = (s: string) => JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);

/** A path as the format allows it: relative, `/`-separated, no empty, `.` or `..` segment, no NUL or backslash. */
export function isFeaturePath(p: string): boolean {
  if (!p || p.length > 4096 || p.startsWith('/') || /[\\\0]/.test(p) || /^[a-zA-Z]:/.test(p)) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/**
 * Checks a manifest's shape (not yet against the zip's content: read.ts does that), refusing
 * anything an honest writer does not produce, with a Chinese message. `maxFiles` bounds the listing.
 */
export function parseManifest(text: string, maxFiles: number): FeatureManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badFeature(`${MANIFEST_NAME} 不是有效的 JSON`);
  }
  if (!isObject(json) || json.format !== FEATURE_FORMAT) throw badFeature(`${MANIFEST_NAME} 不是 Cairn 特征文件清单（format 应为 ${FEATURE_FORMAT}）`);
  const { version } = json;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw badFeature(`版本号 ${printable(String(version))} 无效`);
  if (version > FEATURE_VERSION) throw new UnpackError('unsupported', `特征文件的格式版本 ${version} 高于本平台支持的版本 ${FEATURE_VERSION}：请升级 Cairn，或用与平台相同版本的 Cairn 重新生成特征文件`);
  if (json.kind !== 'source' && json.kind !== 'image') throw badFeature(`kind ${printable(String(json.kind))} 无效（应为 source 或 image）`);
  const root = json.root;
  if (typeof root !== 'string' || (root !== '' && (!isFeaturePath(root) || root.includes('/')))) throw badFeature(`根文件夹名 ${printable(String(root))} 无效`);
  const tool = isObject(json.tool) && typeof json.tool.name === 'string' && typeof json.tool.version === 'string' ? { name: json.tool.name, version: json.tool.version } : null;
  if (!tool) throw badFeature('缺少生成工具（tool）信息');
  if (typeof json.created !== 'string') throw badFeature('缺少生成时间（created）');
  if (!Array.isArray(json.files)) throw badFeature('缺少文件列表（files）');
  if (json.files.length > maxFiles) throw new UnpackError('too-many-files', `特征文件列出 ${json.files.length} 个文件，超过上限 ${maxFiles} 个`);
  const seen = new Set<string>();
  const files: FeatureFileEntry[] = json.files.map((raw: unknown, i: number) => {
    if (!isObject(raw)) throw badFeature(`文件列表第 ${i + 1} 项格式错误`);
    const { path, size, sha256, included, walked, layer } = raw;
    if (typeof path !== 'string' || !isFeaturePath(path)) throw new UnpackError('traversal', `特征文件无效：文件路径 ${printable(String(path))} 不合法（不得为绝对路径或含有 ..），已拒绝`);
    if (seen.has(path)) throw badFeature(`文件 ${printable(path)} 重复列出`);
    seen.add(path);
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) throw badFeature(`文件 ${printable(path)} 的大小无效`);
    if (typeof sha256 !== 'string' || !SHA256.test(sha256)) throw badFeature(`文件 ${printable(path)} 的 SHA-256 无效`);
    if (typeof included !== 'boolean') throw badFeature(`文件 ${printable(path)} 缺少 included`);
    if (walked !== undefined && typeof walked !== 'boolean') throw badFeature(`文件 ${printable(path)} 的 walked 无效`);
    if (layer !== undefined && typeof layer !== 'string') throw badFeature(`文件 ${printable(path)} 的 layer 无效`);
    const entry: FeatureFileEntry = { path, size, sha256, included };
    if (walked === false) entry.walked = false;
    if (typeof layer === 'string') entry.layer = layer;
    return entry;
  });
  const dirs = json.dirs ?? [];
  if (!Array.isArray(dirs) || dirs.length > maxFiles) throw badFeature('文件夹列表（dirs）无效');
  for (const d of dirs) if (typeof d !== 'string' || !isFeaturePath(d)) throw new UnpackError('traversal', `特征文件无效：文件夹路径 ${printable(String(d))} 不合法（不得为绝对路径或含有 ..），已拒绝`);
  const problems = json.problems ?? [];
  if (!Array.isArray(problems) || problems.length > maxFiles) throw badFeature('问题列表（problems）无效');
  const checkedProblems = problems.map((p: unknown) => {
    if (!isObject(p) || typeof p.file !== 'string' || typeof p.message !== 'string') throw badFeature('问题列表（problems）格式错误');
    return { file: p.file.slice(0, 4096), message: p.message.slice(0, 2000) };
  });
  const findings = parseFindings(json.findings ?? [], new Set(files.filter((f) => !f.included && f.walked !== false).map((f) => f.path)), maxFiles);
  let image: FeatureImage | undefined;
  if (json.kind === 'image') {
    if (root !== '') throw badFeature('镜像特征文件的根文件夹名（root）应为空');
    image = parseImage(json.image, files);
  } else {
    if (json.image !== undefined) throw badFeature('源码特征文件不应包含镜像信息（image）');
    const layered = files.find((f) => f.layer !== undefined);
    if (layered) throw badFeature(`源码特征文件中的文件 ${printable(layered.path)} 不应带有镜像层（layer）`);
  }
  return {
    format: FEATURE_FORMAT, version, created: json.created, tool, kind: json.kind, root, files,
    dirs: dirs as string[], problems: checkedProblems, findings, ...(image ? { image } : {}),
  };
}

const nullableString = (v: unknown, max: number): v is string | null => v === null || str(v, max);
const count = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * An image feature file's image block: every field as the writer puts it, each file's layer one of
 * the image's layers, each version of a package database for a listed, included file.
 */
function parseImage(raw: unknown, files: readonly FeatureFileEntry[]): FeatureImage {
  const bad = (what: string) => badFeature(`镜像信息（image）${what}`);
  if (!isObject(raw)) throw bad('缺失或格式错误');
  const { reference, repoTags, manifestDigest, platform, platforms, created, size, os, layers, history, versions } = raw;
  if (!nullableString(reference, 1000)) throw bad('中的镜像地址（reference）无效');
  if (!Array.isArray(repoTags) || repoTags.length > 1000 || !repoTags.every((t) => str(t, 1000))) throw bad('中的标签（repoTags）无效');
  if (typeof manifestDigest !== 'string' || !DIGEST.test(manifestDigest)) throw bad(`中的镜像摘要（manifestDigest）${printable(String(manifestDigest))} 无效`);
  if (!isObject(platform) || !str(platform.os, 100) || !str(platform.architecture, 100) || (platform.variant !== undefined && !str(platform.variant, 100))) throw bad('中的平台（platform）无效');
  if (!Array.isArray(platforms) || platforms.length > 1000 || !platforms.every((p) => str(p, 200))) throw bad('中的平台列表（platforms）无效');
  if (!nullableString(created, 100)) throw bad('中的创建时间（created）无效');
  if (!count(size)) throw bad('中的大小（size）无效');
  if (os !== null && !(isObject(os) && str(os.id, 200) && str(os.versionId, 200) && str(os.prettyName, 1000))) throw bad('中的操作系统（os）无效');
  if (!Array.isArray(layers) || layers.length > 10_000) throw bad('中的镜像层列表（layers）无效');
  const checkedLayers = layers.map((l: unknown, i: number): FeatureImageLayer => {
    if (!isObject(l) || l.index !== i) throw bad(`中第 ${i + 1} 层的序号无效（应从 0 起依次排列）`);
    if (typeof l.digest !== 'string' || !DIGEST.test(l.digest)) throw bad(`中第 ${i + 1} 层的摘要 ${printable(String(l.digest))} 无效`);
    if (!(l.diffId === null || (typeof l.diffId === 'string' && DIGEST.test(l.diffId))) || !str(l.mediaType, 300) || !count(l.size) || !nullableString(l.createdBy, 100_000) || !nullableString(l.created, 100)) throw bad(`中第 ${i + 1} 层的记录无效`);
    return { index: i, digest: l.digest, diffId: l.diffId, mediaType: l.mediaType, size: l.size, createdBy: l.createdBy, created: l.created };
  });
  if (!Array.isArray(history) || history.length > 10_000) throw bad('中的构建历史（history）无效');
  const checkedHistory = history.map((h: unknown) => {
    if (!isObject(h) || !nullableString(h.createdBy, 100_000) || !nullableString(h.created, 100) || typeof h.emptyLayer !== 'boolean') throw bad('中的构建历史（history）记录无效');
    return { createdBy: h.createdBy, created: h.created, emptyLayer: h.emptyLayer };
  });
  const digests = new Set(checkedLayers.map((l) => l.digest));
  for (const f of files) {
    if (f.layer !== undefined && !digests.has(f.layer)) throw bad(`中没有文件 ${printable(f.path)} 所属的镜像层 ${printable(f.layer)}`);
  }
  const included = new Set(files.filter((f) => f.included).map((f) => f.path));
  if (!Array.isArray(versions) || versions.length > 100_000) throw bad('中的软件包数据库版本（versions）无效');
  const last = new Map<string, number>();
  const checkedVersions = versions.map((v: unknown): FeatureImageVersion => {
    if (!isObject(v) || typeof v.path !== 'string' || !included.has(v.path)) throw bad(`中的版本记录（versions）须属于清单中包含内容的文件：${printable(String(isObject(v) ? v.path : v))}`);
    const { path, layer } = v;
    if (typeof layer !== 'number' || !Number.isSafeInteger(layer) || layer < 0 || layer >= checkedLayers.length || layer <= (last.get(path) ?? -1)) throw bad(`中文件 ${printable(path)} 的版本所属层无效（须为镜像的层，按层序排列）`);
    last.set(path, layer);
    if (v.removed === true) return { path, layer, removed: true };
    if (!count(v.size) || typeof v.sha256 !== 'string' || !SHA256.test(v.sha256)) throw bad(`中文件 ${printable(path)} 第 ${layer} 层版本的大小或 SHA-256 无效`);
    return { path, layer, size: v.size, sha256: v.sha256 };
  });
  return {
    reference, repoTags: repoTags as string[], manifestDigest,
    platform: { os: platform.os as string, architecture: platform.architecture as string, ...(platform.variant ? { variant: platform.variant as string } : {}) },
    platforms: platforms as string[], created, size,
    os: os === null ? null : { id: (os as Record<string, string>).id!, versionId: (os as Record<string, string>).versionId!, prettyName: (os as Record<string, string>).prettyName! },
    layers: checkedLayers, history: checkedHistory, versions: checkedVersions,
  };
}

const LICENSE_KINDS = new Set(['text', 'header', 'tag', 'reference']);
const str = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
const line = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The writer's file findings: each for a listed file that is not included, in the analyzers' shapes. */
function parseFindings(raw: unknown, listed: ReadonlySet<string>, maxFiles: number): FileFindings[] {
  if (!Array.isArray(raw) || raw.length > maxFiles) throw badFeature('文件分析结果（findings）无效');
  const seen = new Set<string>();
  return raw.map((record: unknown) => {
    const bad = (what: string) => badFeature(`文件分析结果（findings）${what}`);
    if (!isObject(record) || typeof record.path !== 'string') throw bad('格式错误');
    const { path } = record;
    if (!listed.has(path) || seen.has(path)) throw bad(`中的文件 ${printable(path)} 不是清单中未包含内容的文件，或重复出现`);
    seen.add(path);
    const list = (v: unknown) => {
      if (v === undefined) return [];
      if (!Array.isArray(v) || v.length > 1000) throw bad(`中文件 ${printable(path)} 的记录无效`);
      return v as unknown[];
    };
    const licenses = list(record.licenses).map((m) => {
      if (!isObject(m) || !str(m.spdx, 300) || typeof m.score !== 'number' || !(m.score >= 0 && m.score <= 1) || !line(m.startLine) || !line(m.endLine) || !LICENSE_KINDS.has(m.kind as string)) throw bad(`中文件 ${printable(path)} 的许可证记录无效`);
      const evidence = m.evidence === undefined ? undefined : Array.isArray(m.evidence) && m.evidence.length <= 10 && m.evidence.every((e) => str(e, 1000)) ? (m.evidence as string[]) : null;
      if (evidence === null || (m.nearest !== undefined && !str(m.nearest, 300))) throw bad(`中文件 ${printable(path)} 的许可证记录无效`);
      return { spdx: m.spdx, score: m.score, startLine: m.startLine, endLine: m.endLine, kind: m.kind as 'text' | 'header' | 'tag' | 'reference', ...(evidence ? { evidence } : {}), ...(m.nearest !== undefined ? { nearest: m.nearest as string } : {}) };
    });
    const copyrights = list(record.copyrights).map((c) => {
      if (!isObject(c) || !str(c.statement, 5000) || !(c.holder === null || str(c.holder, 2000)) || !line(c.line)) throw bad(`中文件 ${printable(path)} 的版权记录无效`);
      return { statement: c.statement, holder: c.holder as string | null, line: c.line };
    });
    const authors = list(record.authors).map((a) => {
      if (!isObject(a) || !str(a.value, 2000) || !line(a.line)) throw bad(`中文件 ${printable(path)} 的作者记录无效`);
      return { value: a.value, line: a.line };
    });
    return { path, licenses, copyrights, authors };
  });
}

/** A file's SHA-256 (hex) and size, streamed: the listing's hash on writing, its check on reading. */
export async function sha256Of(file: string, signal: AbortSignal): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file, { signal, highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}
