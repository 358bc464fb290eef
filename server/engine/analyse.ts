// One analysis of one input, as a platform run does it (engine side: no database): prepare the
// input (unpack an archive with limits, or read an SBOM / Excel list), find components, run the
// file analyzers the analysis modes select over every text file (licence texts, mode 4; copyright
// notices, mode 7: analyzers/), and list the file tree. It runs in the analysis thread
// (analyse-thread.ts); the component analyzers (vulnerabilities, licence levels) need the caller's
// knowledge and run afterwards in analyse-project.ts.
import { createHash } from 'node:crypto';
import { lstat, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RunImage } from '../../contract/api/image.ts';
import type { InputKind } from '../../contract/sources.ts';
import { copyPrivateFile, makePrivateDir } from '../files/private.ts';
import { fileAnalyzersFor } from './analyzers/index.ts';
import { hasFindings, noFindings, type AnalyzerOptions, type FileFindings } from './analyzers/model.ts';
import { allExtractors, extractorFamilies, noManifestMessage } from './extractors/index.ts';
import { loadJarIndex, useJarIndex } from './extractors/maven/jar-index.ts';
import { UserError } from '../errors.ts';
import { LICENCE_FILE } from './extractors/js-common/licence-file.ts';
import { ExtractError, type Extractor, type ScanProblem, type ScanResult, type Target } from './model.ts';
import { inventory, type InventoryEntry } from './output/inventory.ts';
import { scanTree } from './scan.ts';
import { resolveOnline, type OnlineResolution } from './resolve/index.ts';
import { ExaminePool, type Found } from './examine.ts';
import { projectRootOf, readProjectLicense, type ProjectLicense } from './project-license.ts';
import { attributeLayers, imageSummary, prepareImage, type PreparedImage } from './image-analysis.ts';
import { featureImageTree } from './feature/image.ts';
import { detectFormat, PACKAGED_ARTEFACT, unpackArchive, UnpackError, type UnpackLimits } from './sources/unpack.ts';
import { confinedPath, walkTree } from './sources/tree.ts';
import { isFeatureFile, readFeatureFile, type FeatureTree } from './feature/read.ts';

export type { FileFindings };

/** What kind of input a project's source type gives (getCodeType: contract/sources.ts). */
export type { InputKind };

export interface AnalyseRequest {
  /** The uploaded file. */
  file: string;
  /** Its original name (uploads are stored under ids). */
  fileName: string;
  kind: InputKind;
  /** Analysis modes (1 dependency, 4 licence text, 7 copyright, ...). */
  modes: number[];
  /** Work folder of this analysis (archives unpack under it); removed by the caller. */
  workDir: string;
  limits?: Partial<UnpackLimits>;
  /** Image inputs: the platform to analyse of a multi-platform image (`linux/arm64`); linux/amd64 by default. */
  platform?: string;
  /** Image inputs: the name the image was asked for (`registry/name:tag`), shown as its reference. */
  imageReference?: string;
  /**
   * The SHA-1 index of Java archives the user imported (jar-index.ts): archives without
   * pom.properties are looked up in it. An unreadable index is a problem of the analysis, not a failure.
   */
  jarIndex?: string;
  /**
   * Online resolution (系统设置 → 扫描配置, off by default): the repositories unlocked manifests
   * are resolved through, credentials included (plain data: the request crosses to the thread).
   */
  online?: OnlineResolution;
  /**
   * Extractor families (extractors/index.ts keys) this analysis leaves out; none when absent. The
   * platform passes skippedExtractorFamilies(kind, modes): binary extractors run on a source input
   * only with mode 8 (extractors/selection.ts).
   */
  skipExtractorFamilies?: string[];
  /** The administrators' settings the file analyzers use (sensitive-information rules). */
  analyzerOptions?: AnalyzerOptions;
}

export type AnalyseStage = 'preparing' | 'scanning' | 'licenses';
export interface AnalyseProgress {
  stage: AnalyseStage;
  /** 0..1 within the stage. */
  fraction: number;
  detail?: string;
}

export interface FileEntry {
  path: string;
  size: number;
}

export interface AnalyseResult {
  components: InventoryEntry[];
  /** purls the analysed project itself depends on (roots of the dependency tree). */
  roots: string[];
  /**
   * The analysed project's own licence as its root manifests declare it (else the full text of its
   * root licence file), with the file it was read from (project-license.ts); null when none says.
   */
  projectLicense: ProjectLicense | null;
  /** The one folder the input wraps the project in (`myapp-1.2`), '' when none (project-license.ts). */
  projectRoot: string;
  targets: Array<{ file: string; type: string; components: number }>;
  files: FileEntry[];
  findings: FileFindings[];
  problems: ScanProblem[];
  stats: { files: number; bytes: number; ms: number };
  /** The container image analysed (image inputs), with the components each layer brought. */
  image?: RunImage;
  /** Sensitive information (mode 9) was looked for: its count belongs in the summary even when 0. */
  leakDetection?: boolean;
}

/** Larger files are not notices worth reading (bundles, data). */
export const MAX_TEXT_BYTES = 4 * 1024 * 1024;
/**
 * Larger files are still read for sensitive information (mode 9), by that analyzer alone and in this
 * thread: executables and libraries are often larger than any notice, and their strings are where
 * build paths and secrets hide. Beyond this size a file is not read.
 */
export const MAX_LEAK_BYTES = 64 * 1024 * 1024;
/** Distinct texts whose findings are remembered (name and SHA-1 of the bytes); beyond, the memory starts again. */
const MAX_EXAMINED = 20_000;
const EXCEL_NAME = /\.(xlsx|xlsm|xls|csv)$/i;

export async function analyse(request: AnalyseRequest, onProgress: (p: AnalyseProgress) => void, signal: AbortSignal): Promise<AnalyseResult> {
  const started = performance.now();
  if (request.kind === 'sbom' || request.kind === 'excel') return importList(request, started);

  onProgress({ stage: 'preparing', fraction: 0, detail: request.fileName });
  // The unpacker's file count sizes the progress bar: no extra walk of the tree just to count.
  const image = request.kind === 'image' ? await prepareImageInput(request, onProgress, signal) : null;
  const { root, files: scanned, problems, feature } = image ?? await prepareTree(request, onProgress, signal);

  let indexProblem: ScanProblem | undefined;
  const index = request.jarIndex
    ? await loadJarIndex(request.jarIndex, `数据目录中的 ${path.basename(request.jarIndex)}`).catch((error: unknown) => {
      if (!(error instanceof UserError)) throw error;
      indexProblem = { file: path.basename(request.jarIndex!), message: `${error.message}；本次分析未使用该索引` };
      return undefined;
    })
    : undefined;
  useJarIndex(index);
  let seen = 0;
  const scan = await scanTree(root, {
    extractors: extractorsWithout(request.skipExtractorFamilies ?? []),
    signal,
    onProgress: () => {
      seen++;
      if (seen % 50 === 0) onProgress({ stage: 'scanning', fraction: Math.min(1, seen / Math.max(1, scanned)) });
    },
  });
  if (request.online && !image) {
    onProgress({ stage: 'scanning', fraction: 1, detail: '在线解析依赖' });
    await resolveOnline(root, scan, request.online, signal);
  }
  // Each component's layer, while the kept versions of the package databases are at hand.
  const layers = image ? await attributeLayers(scan, image.squashed, allExtractors, signal) : null;
  onProgress({ stage: 'scanning', fraction: 1 });
  // Nested archives left packed (too deep, damaged) are problems of the scan: their contents were not read.
  useJarIndex(undefined);
  if (indexProblem) problems.push(indexProblem);
  if (problems.length) scan.problems = [...scan.problems, ...problems].sort((a, b) => a.file.localeCompare(b.file));
  // Nothing to read is not a failure (the licence and copyright analyses still ran), but it is said,
  // first, with what would have been read.
  if (!scan.targets.length) scan.problems = [{ file: request.fileName, message: noManifestMessage() }, ...scan.problems];

  const fileAnalyzers = fileAnalyzersFor(request.modes);
  const examiners = await Promise.all(fileAnalyzers.map((analyzer) => analyzer.start(request.analyzerOptions)));
  const leakExaminer = examiners[fileAnalyzers.findIndex((a) => a.name === 'leaks')];
  const pool = ExaminePool.start(examiners, request.modes, scanned, signal, request.analyzerOptions);
  const files: FileEntry[] = [];
  const findings: FileFindings[] = [];
  // In tree order; a text handed to the second thread is its findings' promise.
  const examinedFiles: Array<{ path: string; found: Found | Promise<Found> }> = [];
  const examined = new Map<string, Found | Promise<Found>>();
  let done = 0;
  const examine = async (file: { path: string; size: number; absolute: string }): Promise<void> => {
    if (!examiners.length || file.size === 0) return;
    if (file.size > MAX_TEXT_BYTES) {
      if (leakExaminer && file.size <= MAX_LEAK_BYTES) {
        const bytes = await readFile(file.absolute);
        examinedFiles.push({ path: file.path, found: leakExaminer({ path: file.path, name: path.basename(file.path), text: '', bytes }) });
      }
      return;
    }
    const bytes = await readFile(file.absolute);
    const name = path.basename(file.path);
    // The same text under the same name says the same: an image's /usr/share/doc holds one
    // copyright file per package, a few hundred distinct among thousands; a vendored tree repeats
    // its LICENSE files. Each is examined once.
    const key = `${name}\0${createHash('sha1').update(bytes).digest('base64')}`;
    let found = examined.get(key);
    if (!found) {
      found = pool.examine(file.path, name, bytes);
      if (examined.size >= MAX_EXAMINED) examined.clear();
      examined.set(key, found);
    }
    examinedFiles.push({ path: file.path, found });
  };
  try {
    for await (const file of walkTree(root, signal)) {
      files.push({ path: file.path, size: file.size });
      done++;
      if (done % 200 === 0) onProgress({ stage: 'licenses', fraction: Math.min(1, done / Math.max(1, scanned)) });
      await examine(file);
    }
    // node_modules is not walked (the package scan reads it on demand): the licence files an
    // installed package's licence was read from (its package.json declaring none) are read here.
    for (const file of await packageLicenceFiles(root, scan, signal)) {
      files.push({ path: file.path, size: file.size });
      await examine(file);
    }
    for (const { path: filePath, found } of examinedFiles) {
      const record = { ...noFindings(filePath), ...structuredClone(await found) };
      if (hasFindings(record)) findings.push(record);
    }
  } finally {
    await pool.close();
  }
  onProgress({ stage: 'licenses', fraction: 1 });
  // A feature file holds only the files read: the tree's listing is the one it carries.
  if (feature) {
    // The scan also counted what it reads outside the listing (installed packages' manifests under
    // node_modules), as it did of the tree itself: those stay counted.
    const walkedBytes = files.reduce((n, f) => n + f.size, 0);
    scan.stats = { ...scan.stats, files: feature.files.length + scan.stats.files - files.length, bytes: feature.bytes + scan.stats.bytes - walkedBytes };
    files.splice(0, files.length, ...feature.files);
    findings.push(...feature.findingsFor(request.modes));
  }
  const texts = new Map<string, string[]>();
  for (const f of findings) {
    const ids = f.licenses.filter((l) => l.kind === 'text').map((l) => l.spdx);
    if (ids.length) texts.set(f.path, ids);
  }
  const result = finish(scan, files, findings, started, await readProjectLicense(root, texts), await projectRootOf(root));
  if (fileAnalyzers.some((a) => a.name === 'leaks')) result.leakDetection = true;
  if (image && layers) {
    for (const c of result.components) {
      const layer = layers.get(c.purl);
      if (layer !== undefined) c.layer = layer;
    }
    result.image = await imageSummary(image.squashed, image.reference, result.components, signal);
  }
  return result;
}

/** Every extractor but those of the skipped families, in registry order. */
function extractorsWithout(skipped: readonly string[]): readonly Extractor[] {
  if (!skipped.length) return allExtractors;
  return Object.entries(extractorFamilies).filter(([name]) => !skipped.includes(name)).flatMap(([, list]): readonly Extractor[] => list);
}

/**
 * The licence files under node_modules that components name as locations (an installed package's
 * LICENSE its licence was read from: extractors/js-common/licence-file.ts), each once, regular
 * files inside the root only.
 */
async function packageLicenceFiles(root: string, scan: ScanResult, signal: AbortSignal): Promise<Array<{ path: string; size: number; absolute: string }>> {
  const paths = new Set<string>();
  for (const target of scan.targets) {
    for (const c of target.components) {
      for (const l of c.locations) if (l.file.split('/').includes('node_modules') && LICENCE_FILE.test(path.posix.basename(l.file))) paths.add(l.file);
    }
  }
  const out: Array<{ path: string; size: number; absolute: string }> = [];
  for (const rel of [...paths].sort()) {
    signal.throwIfAborted();
    if (!(await confinedPath(root, rel))) continue;
    const absolute = path.join(root, rel);
    const info = await lstat(absolute).catch(() => null);
    if (info?.isFile()) out.push({ path: rel, size: info.size, absolute });
  }
  return out;
}

/**
 * An image's squashed root: its layers applied, or its feature file (镜像特征文件, cairn feature of
 * an image) read, which carries the same tree, each file's layer and the image record.
 */
async function prepareImageInput(request: AnalyseRequest, onProgress: (p: AnalyseProgress) => void, signal: AbortSignal): Promise<PreparedImage & { reference: string | undefined; feature?: FeatureTree }> {
  const root = path.join(request.workDir, 'root');
  if (await isFeatureFile(request.file)) {
    const feature = await readFeatureFile(request.file, root, { kind: 'image', signal, limits: request.limits, name: request.fileName });
    const squashed = featureImageTree(feature, root);
    const problems = feature.problems.map((p) => ({ file: p.file || request.fileName, message: p.message }));
    return { root, files: feature.files.length, problems, squashed, feature, reference: request.imageReference ?? squashed.reference ?? undefined };
  }
  const prepared = await prepareImage({ file: request.file, reference: request.imageReference, platform: request.platform, limits: request.limits }, root, allExtractors, request.fileName, (fraction) => onProgress({ stage: 'preparing', fraction }), signal);
  return { ...prepared, reference: request.imageReference };
}

/** The folder to scan: an unpacked archive, or the single uploaded file under its own name. */
async function prepareTree(request: AnalyseRequest, onProgress: (p: AnalyseProgress) => void, signal: AbortSignal): Promise<{ root: string; files: number; problems: ScanProblem[]; feature?: FeatureTree }> {
  const root = path.join(request.workDir, 'root');
  const detected = await detectFormat(request.file);
  // A Cairn feature file (a zip with cairn-feature.json): the project's manifests and the listing of the rest (feature/).
  if (request.kind === 'feature' && (await isFeatureFile(request.file))) {
    const feature = await readFeatureFile(request.file, root, { kind: 'source', signal, limits: request.limits, name: request.fileName });
    return { root, files: feature.files.length, problems: feature.problems, feature };
  }
  // Unsupported formats (rar, zstd, ...) go through unpackArchive too, which refuses them clearly.
  // A single built artefact of a binary upload (a jar, a wheel, a .deb) is read whole, not unpacked.
  if (detected.kind !== 'none' && !(request.kind === 'binary' && PACKAGED_ARTEFACT.test(request.fileName))) {
    const { size } = await stat(request.file);
    const unpacked = await unpackArchive(request.file, root, {
      name: request.fileName,
      signal,
      limits: request.limits,
      // Unpacked bytes against a guess of 4x the packed size: a rough but moving bar.
      onProgress: (event) => onProgress({ stage: 'preparing', fraction: Math.min(0.95, event.bytes / Math.max(1, size * 4)) }),
    });
    return { root, files: unpacked.files, problems: unpacked.problems };
  }
  if (request.kind === 'source') {
    const { describeSbomAt, sbomNotArchiveMessage } = await import('./extractors/sbom/index.ts');
    const sbom = await describeSbomAt(request.file, request.fileName);
    if (sbom) throw new UnpackError('not-archive', sbomNotArchiveMessage(request.fileName, sbom));
    throw new UnpackError('not-archive', `上传的文件 ${request.fileName} 不是可识别的压缩包（支持 zip、jar、war、tar、tar.gz、tar.bz2、tar.xz、7z）`);
  }
  // A feature file or a single binary artifact is analysed as a folder holding just that file.
  await makePrivateDir(root);
  await copyPrivateFile(request.file, path.join(root, path.basename(request.fileName)));
  return { root, files: 1, problems: [] };
}

async function importList(request: AnalyseRequest, started: number): Promise<AnalyseResult> {
  const { size } = await stat(request.file);
  let target: Target;
  const problems: ScanProblem[] = [];
  if (request.kind === 'excel') {
    if (!EXCEL_NAME.test(request.fileName)) throw new ExtractError(`组件清单 ${request.fileName} 不是 Excel 或 CSV 文件（支持 .xlsx、.xlsm、.xls、.csv）`);
    const { importComponentList } = await import('./extractors/excel/index.ts');
    const imported = await importComponentList({ path: request.fileName, read: () => readFile(request.file) });
    for (const r of imported.rejected) problems.push({ file: request.fileName, message: r.reason });
    target = imported.target;
  } else {
    // The content decides (a .textproto, a .jsonld, a binary .pb is named by what it is).
    const { importSbomFile } = await import('./extractors/sbom/index.ts');
    target = await importSbomFile(await readFile(request.file), request.fileName);
  }
  const scan: ScanResult = { root: request.fileName, targets: [target], problems, stats: { files: 1, bytes: size, ms: 0 } };
  return finish(scan, [{ path: request.fileName, size }], [], started, null, '');
}

function finish(scan: ScanResult, files: FileEntry[], findings: FileFindings[], started: number, projectLicense: ProjectLicense | null, projectRoot: string): AnalyseResult {
  const components = inventory(scan);
  const roots = new Set<string>();
  for (const t of scan.targets) for (const r of t.roots) roots.add(r);
  // A target without explicit roots (a flat lockfile) still has its direct components as roots.
  for (const c of components) if (c.direct) roots.add(c.purl);
  const known = new Set(components.map((c) => c.purl));
  return {
    components,
    roots: [...roots].filter((purl) => known.has(purl)),
    projectLicense,
    projectRoot,
    targets: scan.targets.map((t) => ({ file: t.file, type: t.type, components: t.components.length })),
    files,
    findings,
    problems: scan.problems,
    stats: { files: scan.stats.files, bytes: scan.stats.bytes, ms: Math.round(performance.now() - started) },
  };
}
