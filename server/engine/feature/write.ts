// Writes a feature file of a local folder (format.ts; README.md beside this file): what an analysis
// of the folder reads, and a SHA-256 of everything else, so a platform can analyse the project
// without receiving its source. What "reads" means is not guessed from file names: the writer runs
// the engine's own extractors over the folder as the platform would see it uploaded (view.ts) and
// records every file they claim and every file, folder and listing they look at on demand
// (node_modules/*/package.json, dist-info METADATA, parent POMs, go.sum beside go.mod, ...), then
// adds the licence and notice files and the root manifests the project licence is read from.
// Every file is hashed as a stream; nothing is read whole into memory but the claimed manifests.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { privateWriteStream } from '../../files/private.ts';
import { MAX_TEXT_BYTES } from '../analyse.ts';
import { fileAnalyzersFor } from '../analyzers/index.ts';
import { hasFindings, noFindings, type FileFindingFields, type FileFindings } from '../analyzers/model.ts';
import { allExtractors } from '../extractors/index.ts';
import { readableText } from '../text-decode.ts';
import type { ExtractContext, Extractor } from '../model.ts';
import { LICENSE_FILE, MANIFEST_READERS } from '../project-license.ts';
import { FEATURE_FORMAT, FEATURE_VERSION, MANIFEST_NAME, sha256Of, TREE_DIR, VERSIONS_DIR, type FeatureFileEntry, type FeatureImage, type FeatureKind, type FeatureManifest } from './format.ts';
import { UploadView, type TreeView } from './view.ts';

/** Licence, notice and copyright files by name (anywhere in the tree), and REUSE's LICENSES/ folder. */
const NOTICE_FILE = /^(licen[cs]e|copying|copyright|notice|unlicense|patents|authors|third[-_ ]?party[-_ ]?notices?|thirdpartynotices|credits|legal)([-_.][^/]*)?$/i;
const inLicensesFolder = (p: string) => /(^|\/)LICENSES\/[^/]+$/.test(p) || /(^|\/)\.reuse\/dep5$/.test(p);

export interface WriteFeatureOptions {
  signal?: AbortSignal;
  tool?: { name: string; version: string };
  extractors?: readonly Extractor[];
  onProgress?: (event: { files: number; bytes: number; path: string }) => void;
}

export interface WriteFeatureResult {
  file: string;
  /** Files listed (those read on demand outside the walk too), included (content in the zip), and the bytes of the listed ones. */
  files: number;
  included: number;
  bytes: number;
  /** Bytes of the included files (what leaves the machine besides the listing). */
  includedBytes: number;
  problems: number;
}

/** Whether a file's content goes into the feature file without any extractor asking for it. */
function isNoticeOrRootManifest(viewPath: string, rootName: string): boolean {
  const name = path.posix.basename(viewPath);
  if (NOTICE_FILE.test(name) || inLicensesFolder(viewPath)) return true;
  if (path.posix.dirname(viewPath) !== (rootName || '.')) return false;
  return LICENSE_FILE.test(name) || MANIFEST_READERS.some((r) => r.match(name));
}

const normalise = (p: string) => p.split(/[\\/]/).filter((s) => s && s !== '.').join('/');

/**
 * Writes the feature file of `root` (a folder) to `outFile` (replaced when there; written beside it
 * first and renamed, so a failed or aborted run leaves nothing half-written).
 */
export async function writeFeatureFile(root: string, outFile: string, options: WriteFeatureOptions = {}): Promise<WriteFeatureResult> {
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) throw new Error(`${root} 不是文件夹：特征文件只能从文件夹生成`);
  const view = new UploadView(root);
  try {
    return await writeViewFeature(view, outFile, options, { kind: 'source' });
  } finally {
    await view.close();
  }
}

/** What a kind adds to the common writing: the image block, the kept versions of files, the listing's layers. */
export interface FeatureExtras {
  kind: FeatureKind;
  /** Called once the included files are known (view paths), before the manifest is written: the image block. */
  finish?: (included: ReadonlySet<string>, signal: AbortSignal) => Promise<{ image: FeatureImage; versions: Array<{ name: string; absolute: string }> }>;
  /** Added to each listed file (view path): its layer. */
  annotate?: (viewPath: string) => Partial<FeatureFileEntry>;
  /** More paths looked at on demand, beyond the extractors' (the image's os-release). */
  looked?: (ctx: ExtractContext) => Promise<void>;
}

/** The common writing over a view of a tree (a local folder, an image's squashed root). */
export async function writeViewFeature(view: TreeView, outFile: string, options: WriteFeatureOptions, extras: FeatureExtras): Promise<WriteFeatureResult> {
  const signal = options.signal ?? new AbortController().signal;
  const extractors = options.extractors ?? allExtractors;
  const { rootName } = view;
  // View paths start with the root folder's name (as in an uploaded zip), or not when it is ''.
  const strip = (p: string) => (rootName ? p.slice(rootName.length + 1) : p);
  const inRoot = (p: string) => (rootName ? p.startsWith(`${rootName}/`) : p !== '');
  // View path → entry.
  const entries = new Map<string, FeatureFileEntry & { absolute: string }>();
  const wanted = new Set<string>();
  const looked = { reads: new Set<string>(), exists: new Set<string>(), lists: new Set<string>() };
  const ctx = view.context(signal, {
    read: (p) => looked.reads.add(normalise(p)),
    exists: (p) => looked.exists.add(normalise(p)),
    list: (p) => looked.lists.add(normalise(p)),
  });
  const running = new Set<Promise<void>>();
  let bytes = 0;
  for await (const file of view.walk(signal)) {
    const { sha256, size } = await sha256Of(file.absolute, signal);
    bytes += size;
    entries.set(file.path, { path: file.path, size, sha256, included: false, ...(file.walked === false ? { walked: false } : {}), absolute: file.absolute });
    options.onProgress?.({ files: entries.size, bytes, path: file.path });
    if (isNoticeOrRootManifest(file.path, rootName) && file.walked !== false) wanted.add(file.path);
    for (const extractor of extractors) {
      if (!extractor.matches(file.path)) continue;
      wanted.add(file.path);
      // The result is not kept: the platform extracts again. A failure is its problem to report.
      const job: Promise<void> = extractor.extract(file, ctx).then(() => {}, () => {}).finally(() => running.delete(job));
      running.add(job);
      if (running.size >= 8) await Promise.race(running);
    }
  }
  await Promise.all(running);
  await extras.looked?.(ctx);
  signal.throwIfAborted();
  if (!entries.size) throw new Error(rootName ? `文件夹“${rootName}”中没有文件` : '镜像中没有文件');

  // What the extractors looked at on demand: files go in (with an entry of their own when outside
  // the walk), folders are recreated so the same lookups find them.
  const dirs = new Set<string>();
  const addLooked = async (p: string) => {
    if (!p || p === rootName || wanted.has(p)) return;
    const real = await view.resolve(p);
    if (!real) return;
    const found = await stat(real);
    if (found.isDirectory()) dirs.add(p);
    else if (found.isFile()) {
      wanted.add(p);
      if (!entries.has(p)) entries.set(p, { path: p, ...(await sha256Of(real, signal)), included: false, walked: false, absolute: real });
    }
  };
  for (const p of [...looked.reads, ...looked.exists]) await addLooked(p);
  for (const dir of looked.lists) {
    if (!dir) continue;
    for (const name of await view.list(dir)) {
      const child = `${dir}/${name}`;
      const real = await view.resolve(child);
      if (real && (await stat(real)).isDirectory()) dirs.add(child);
    }
  }
  for (const p of wanted) {
    const entry = entries.get(p);
    if (entry) entry.included = true;
  }

  // The file analyses of the files that stay here, as the analysis would run them (analyse.ts):
  // what it finds goes in the manifest, the content does not.
  // The same text under the same name says the same (an image's or a vendored tree's repeated
  // files): examined once, as the analysis does.
  const examiners = await Promise.all(fileAnalyzersFor([4, 7]).map((analyzer) => analyzer.start()));
  const findings: FileFindings[] = [];
  const examined = new Map<string, Partial<FileFindingFields>>();
  for (const entry of entries.values()) {
    signal.throwIfAborted();
    if (entry.included || entry.walked === false || entry.size === 0 || entry.size > MAX_TEXT_BYTES) continue;
    const name = path.posix.basename(entry.path);
    const key = `${name}\0${entry.sha256}`;
    let found = examined.get(key);
    if (!found) {
      const { text } = readableText(await readFile(entry.absolute));
      found = {};
      if (text) for (const examine of examiners) Object.assign(found, examine({ path: entry.path, name, text }));
      if (examined.size >= 20_000) examined.clear();
      examined.set(key, found);
    }
    const record = { ...noFindings(strip(entry.path)), ...structuredClone(found) };
    if (hasFindings(record)) findings.push(record);
  }
  const listed = [...entries.values()];
  const fileDirs = new Set<string>();
  for (const e of listed) for (let d = path.posix.dirname(e.path); d !== '.' && d !== rootName; d = path.posix.dirname(d)) fileDirs.add(d);
  const included = listed.filter((e) => e.included);
  const extra = await extras.finish?.(new Set(included.map((e) => e.path)), signal);
  const manifest: FeatureManifest = {
    format: FEATURE_FORMAT,
    version: FEATURE_VERSION,
    created: new Date().toISOString(),
    tool: options.tool ?? { name: 'Cairn', version: '' },
    kind: extras.kind,
    root: rootName,
    files: [],
    dirs: [...dirs].filter((d) => inRoot(d) && !fileDirs.has(d)).map(strip).sort(),
    problems: view.problems.map((p) => ({ file: rootName ? strip(p.file) : p.file, message: p.message })),
    findings,
    ...(extra ? { image: extra.image } : {}),
  };
  const zipped = [
    ...included.map((e) => ({ entry: e, name: `${TREE_DIR}/${strip(e.path)}` })),
    ...(extra?.versions ?? []).map((v) => ({ entry: { path: v.name, size: 0, sha256: '', included: true, absolute: v.absolute }, name: `${VERSIONS_DIR}/${v.name}` })),
  ];
  await writeZip(outFile, zipped, signal, () => {
    manifest.files = listed.map((e) => ({
      path: strip(e.path), size: e.size, sha256: e.sha256, included: e.included, ...(e.walked === false ? { walked: false } : {}), ...extras.annotate?.(e.path),
    }));
    return Buffer.from(JSON.stringify(manifest));
  });
  return {
    file: outFile,
    files: listed.length,
    included: included.length,
    bytes: listed.reduce((n, e) => n + e.size, 0),
    includedBytes: included.reduce((n, e) => n + e.size, 0),
    problems: manifest.problems.length,
  };
}

/**
 * The zip: each included file under tree/, hashed again as it is packed (so the manifest states
 * exactly what the zip holds even if a file changed since the walk), then the manifest.
 */
async function writeZip(outFile: string, zipped: Array<{ entry: FeatureFileEntry & { absolute: string }; name: string }>, signal: AbortSignal, manifest: () => Buffer): Promise<void> {
  const partial = `${outFile}.partial`;
  const zip = new yazl.ZipFile();
  const written = pipeline(zip.outputStream, privateWriteStream(partial), { signal });
  try {
    const hashed: Array<Promise<void>> = [];
    for (const { entry, name } of zipped) {
      hashed.push(new Promise<void>((resolve, reject) => {
        zip.addReadStreamLazy(name, (cb) => {
          const hash = createHash('sha256');
          let size = 0;
          const source = createReadStream(entry.absolute, { highWaterMark: 256 * 1024 });
          const meter = new Transform({
            transform(chunk: Buffer, _encoding, done) { hash.update(chunk); size += chunk.length; done(null, chunk); },
            flush(done) { entry.sha256 = hash.digest('hex'); entry.size = size; resolve(); done(); },
          });
          source.on('error', (error) => { meter.destroy(error); reject(error); });
          cb(null, source.pipe(meter));
        });
      }));
    }
    // Entries are streamed one at a time as the output drains: the manifest can only follow them.
    void Promise.all(hashed).then(() => {
      zip.addBuffer(manifest(), MANIFEST_NAME);
      zip.end();
    }, (error: unknown) => (zip.outputStream as Readable).destroy(error as Error));
    await written;
    await Promise.all(hashed);
    await rename(partial, outFile);
  } catch (error) {
    (zip.outputStream as Readable).destroy();
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw error;
  }
}
