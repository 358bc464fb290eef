// Reads an uploaded feature file (format.ts) into a folder an analysis scans as it would the tree
// itself: the included files at their paths under the root folder, and every folder of the tree,
// with the listing of every file (sizes included) for the task's file tree. The upload is untrusted:
// the zip is unpacked with the upload limits by the same unpacker as any archive, and the manifest
// must agree with it exactly (every path inside the root, every included file present with its
// declared size and SHA-256, nothing in the zip the manifest does not declare, no links), or the
// whole file is refused with a Chinese message before anything is scanned.
import { lstat, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import { makePrivateDir, makePrivateTempDir } from '../../files/private.ts';
import { hasFindings, type FileFindings } from '../analyzers/model.ts';
import { resolveLimits, type UnpackLimits } from '../sources/limits.ts';
import { detectFormat, unpackArchive, UnpackError, type UnpackProgress } from '../sources/unpack.ts';
import { badFeature, MANIFEST_NAME, parseManifest, sha256Of, TREE_DIR, VERSIONS_DIR, type FeatureKind, type FeatureManifest, type FeatureProblem } from './format.ts';

export interface ReadFeatureOptions {
  /** The kind the upload's source type takes (9: source, 32: image); any when absent (a check before a launch). */
  kind?: FeatureKind;
  signal?: AbortSignal;
  limits?: Partial<UnpackLimits>;
  /** The upload's original name, for messages. */
  name?: string;
  onProgress?: (event: UnpackProgress) => void;
}

export interface FeatureTree {
  manifest: FeatureManifest;
  /** Every file of the tree (dest-relative paths, under the root folder) with its size. */
  files: Array<{ path: string; size: number }>;
  /** Bytes of those files. */
  bytes: number;
  /** What the writer could not read (nested archives left packed), dest-relative. */
  problems: FeatureProblem[];
  /** The writer's file findings in the files not included (dest-relative), those of the analysis's modes. */
  findingsFor(modes: readonly number[]): FileFindings[];
  /**
   * Image feature files: the folder (`<dest>.versions`) holding the versions of package databases
   * earlier layers left, at `<layer index>/<path>`; null for a source feature file.
   */
  versionsRoot: string | null;
}

/** Whether `file` is a zip with a feature manifest at its top (read from the central directory only). */
export async function isFeatureFile(file: string): Promise<boolean> {
  // A folder (an OCI layout an image analysis is given) is no feature file.
  if (!(await stat(file).catch(() => null))?.isFile()) return false;
  const detected = await detectFormat(file);
  if (detected.kind !== 'archive' || detected.format !== 'zip') return false;
  let zip: yauzl.ZipFile | undefined;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: false, decodeStrings: true });
    for await (const entry of zip.eachEntry()) if (entry.fileName === MANIFEST_NAME) return true;
    return false;
  } catch {
    // A damaged zip is not recognised here: the ordinary unpack reports what is wrong with it.
    return false;
  } finally {
    zip?.close();
  }
}

/** Regular files under `dir` (relative, `/`-separated); a link or special file refuses the whole file. */
async function* strictFiles(dir: string, signal: AbortSignal, rel = ''): AsyncGenerator<string> {
  for (const name of (await readdir(path.join(dir, rel))).sort()) {
    signal.throwIfAborted();
    const child = rel ? `${rel}/${name}` : name;
    const info = await lstat(path.join(dir, child));
    if (info.isDirectory()) yield* strictFiles(dir, signal, child);
    else if (info.isFile()) yield child;
    else throw badFeature(`包含链接或特殊文件 ${child}，已拒绝`);
  }
}

/**
 * Unpacks and checks the feature file `zip` into `dest` (which must not exist or be empty): the
 * tree is then at `dest/<root>/`. Throws UnpackError (Chinese message) for anything malformed.
 */
export async function readFeatureFile(zip: string, dest: string, options: ReadFeatureOptions): Promise<FeatureTree> {
  const signal = options.signal ?? new AbortController().signal;
  const limits = resolveLimits(options.limits);
  const name = options.name ?? path.basename(zip);
  const staging = await makePrivateTempDir(path.join(path.dirname(path.resolve(dest)), '.feature-'));
  try {
    const unpacked = path.join(staging, 'unpacked');
    // Archives among the included files stay packed: the writer already listed what is in them.
    const result = await unpackArchive(zip, unpacked, { signal, name, onProgress: options.onProgress, limits: { ...options.limits, maxDepth: 0 } });
    const skipped = result.entries.find((n) => n.entry === MANIFEST_NAME || n.entry.startsWith(`${TREE_DIR}/`));
    if (skipped) throw badFeature(`条目 ${skipped.entry} 未能解压（${skipped.reason}）`);
    const top = await readdir(unpacked);
    if (!top.includes(MANIFEST_NAME)) throw badFeature(`缺少清单 ${MANIFEST_NAME}：这不是 Cairn 生成的特征文件`);
    const manifestFile = path.join(unpacked, MANIFEST_NAME);
    if (!(await lstat(manifestFile)).isFile()) throw badFeature(`${MANIFEST_NAME} 不是文件`);
    const manifest = parseManifest(await readFile(manifestFile, 'utf8'), limits.maxFiles);
    const extra = top.find((n) => n !== MANIFEST_NAME && n !== TREE_DIR && !(n === VERSIONS_DIR && manifest.kind === 'image'));
    if (extra) throw badFeature(`包含清单之外的条目 ${extra}`);
    if (options.kind && manifest.kind !== options.kind) {
      throw new UnpackError('unsupported', manifest.kind === 'image'
        ? '这是容器镜像的特征文件：请以代码来源“镜像特征文件”上传'
        : '这是源码的特征文件：请以代码来源“特征文件（清单与锁文件）”上传');
    }

    // The listing must describe one tree: no file where another file's folder is.
    const byPath = new Map(manifest.files.map((f) => [f.path, f]));
    const folders = new Set<string>(manifest.dirs);
    for (const f of manifest.files) for (let d = path.posix.dirname(f.path); d !== '.'; d = path.posix.dirname(d)) folders.add(d);
    for (const d of folders) if (byPath.has(d)) throw badFeature(`${d} 同时被列为文件和文件夹`);

    // The zip holds exactly the included files, each as declared.
    const treeDir = path.join(unpacked, TREE_DIR);
    const present = new Set<string>();
    if (top.includes(TREE_DIR)) {
      if (!(await lstat(treeDir)).isDirectory()) throw badFeature(`${TREE_DIR} 不是文件夹`);
      for await (const rel of strictFiles(treeDir, signal)) {
        const entry = byPath.get(rel);
        if (!entry?.included) throw badFeature(`包含清单未声明的文件 ${rel}`);
        const actual = await sha256Of(path.join(treeDir, rel), signal);
        if (actual.size !== entry.size) throw badFeature(`文件 ${rel} 的大小（${actual.size} 字节）与清单声明的 ${entry.size} 字节不符`);
        if (actual.sha256 !== entry.sha256) throw badFeature(`文件 ${rel} 的内容与清单中的 SHA-256 不符（文件被修改或损坏）`);
        present.add(rel);
      }
    }
    const missing = manifest.files.find((f) => f.included && !present.has(f.path));
    if (missing) throw badFeature(`清单列出的文件 ${missing.path} 不在特征文件中`);

    // An image's versions of its package databases: exactly those the image block declares.
    const versionsDir = path.join(unpacked, VERSIONS_DIR);
    const versions = new Map((manifest.image?.versions ?? []).filter((v) => !v.removed).map((v) => [`${v.layer}/${v.path}`, v]));
    const versionsPresent = new Set<string>();
    if (top.includes(VERSIONS_DIR)) {
      if (!(await lstat(versionsDir)).isDirectory()) throw badFeature(`${VERSIONS_DIR} 不是文件夹`);
      for await (const rel of strictFiles(versionsDir, signal)) {
        const version = versions.get(rel);
        if (!version) throw badFeature(`包含镜像信息未声明的文件版本 ${VERSIONS_DIR}/${rel}`);
        const actual = await sha256Of(path.join(versionsDir, rel), signal);
        if (actual.size !== version.size || actual.sha256 !== version.sha256) throw badFeature(`文件版本 ${VERSIONS_DIR}/${rel} 的内容与镜像信息中的大小或 SHA-256 不符（文件被修改或损坏）`);
        versionsPresent.add(rel);
      }
    }
    const missingVersion = [...versions.keys()].find((k) => !versionsPresent.has(k));
    if (missingVersion) throw badFeature(`镜像信息列出的文件版本 ${VERSIONS_DIR}/${missingVersion} 不在特征文件中`);

    // The tree at dest/<root>, with every folder of the listing (extractors list and probe them).
    const root = manifest.root ? path.join(dest, manifest.root) : dest;
    await makePrivateDir(path.dirname(root));
    if ((await readdir(dest).catch(() => [])).length) throw new UnpackError('destination', `解压目录 ${dest} 已存在且不为空`);
    if (present.size) {
      if (!manifest.root) await rm(dest, { recursive: true, force: true });
      await rename(treeDir, root);
    } else {
      await makePrivateDir(root);
    }
    for (const d of folders) await makePrivateDir(path.join(root, ...d.split('/')));
    let versionsRoot: string | null = null;
    if (manifest.kind === 'image') {
      versionsRoot = `${path.resolve(dest)}.versions`;
      if (await lstat(versionsRoot).catch(() => null)) throw new UnpackError('destination', `目录 ${versionsRoot} 已存在`);
      if (versionsPresent.size) await rename(versionsDir, versionsRoot);
      else await makePrivateDir(versionsRoot);
    }

    const under = (p: string) => (manifest.root ? `${manifest.root}/${p}` : p);
    const files = manifest.files.filter((f) => f.walked !== false).map((f) => ({ path: under(f.path), size: f.size }));
    return {
      manifest,
      files,
      bytes: files.reduce((n, f) => n + f.size, 0),
      problems: manifest.problems.map((p) => ({ file: under(p.file), message: p.message })),
      findingsFor: (modes) => manifest.findings
        .map((f) => ({ path: under(f.path), licenses: modes.includes(4) ? f.licenses : [], copyrights: modes.includes(7) ? f.copyrights : [], authors: modes.includes(7) ? f.authors : [] }))
        .filter(hasFindings),
      versionsRoot,
    };
  } finally {
    await rm(staging, { recursive: true, force: true, maxRetries: 3 });
  }
}
