// Imports one input into the knowledge base and keeps an import record (kb_import_records) of it.
// The input's format is detected: an OSV zip (OSV's all.zip), a folder of OSV JSON/YAML files or a
// trivy YAML database, an NVD CVE 2.0 feed (.json / .json.gz) or a CNNVD/CNVD mapping file (.csv
// or a JSON array). A malformed file is reported in the record's errors and skipped; the record
// ends 导入失败 only when nothing at all could be imported or the input itself is unreadable.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { saveAdvisories, saveIdMappings, type AdvisoryRecord } from '../db/repositories/knowledge-base.ts';
import {
  FILE_OUTCOME, IMPORT_STATUS, addImportFiles, createImportRecord, failRunningImports, finishImportRecord, reportImportProgress,
  setImportFilesOmitted, type ImportFileOutcome,
} from '../db/repositories/knowledge-base-imports.ts';
import { IMPORT_FILE_ROWS_MAX } from '../../contract/api/kb-import.ts';
import { makePrivateTempDir, privateWriteStream } from '../files/private.ts';
import os from 'node:os';
import { pipeline } from 'node:stream/promises';
import { parseOsv } from './formats/osv.ts';
import { parseTrivyDb, TRIVY_MARKERS } from './formats/trivy.ts';
import { decodeFeed, looksLikeNvd, parseNvdFeed } from './formats/nvd.ts';
import { isMappingJson, parseIdMapping } from './formats/id-mapping.ts';

export interface ImportSummary {
  recordId: number;
  kind: string;
  files: number;
  imported: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: { file: string; message: string }[];
}

export interface ImportOptions {
  userId?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Shown in the record list; the input's file name by default. */
  name?: string;
  /** Record kind to file the import under instead of the detected one (mirror sync uses `sync`). */
  kind?: string;
}

/** One input of an import job: where it is and the name it is known by (its extension tells the format). */
export interface ImportInput {
  path: string;
  name: string;
}

/** AbortSignal reasons: an administrator's cancel ends the record 已取消; a shutdown ends it failed. */
export const IMPORT_CANCELLED = 'cancelled';
export const IMPORT_INTERRUPTED_MESSAGE = '平台在导入过程中停止，导入未完成，请重新导入';

/** Advisories per saveAdvisories call: one transaction each, so a crash loses at most one batch. */
const BATCH = 500;
/** Files read concurrently from a folder. */
const READ_AHEAD = 64;
/** Zip limits: OSV's largest all.zip (npm, Maven) has a few hundred thousand small entries. */
const ZIP_MAX_ENTRIES = 2_000_000;
const ZIP_MAX_ENTRY_BYTES = 32 * 1024 * 1024;
const ZIP_MAX_TOTAL_BYTES = 16 * 1024 * 1024 * 1024;
/** Single-file limit for documents read whole (NVD yearly feeds are a few hundred MB unpacked). */
const MAX_FILE_BYTES = 1024 * 1024 * 1024;
/** Errors kept in a record: a broken dump must not produce a megabyte of JSON. */
const MAX_ERRORS = 1000;

type Listener = () => void;
const listeners = new Set<Listener>();

/** Fired after every import that changed rows, so in-memory indexes reload. */
export const knowledgeChanged = {
  subscribe(fn: Listener): () => void {
    listeners.add(fn);
    return () => { listeners.delete(fn); };
  },
  emit(): void {
    for (const fn of [...listeners]) {
      try { fn(); } catch { /* a listener's failure is its own business */ }
    }
  },
};

type Format =
  | { kind: 'osv'; type: 'zip' }
  | { kind: 'osv'; type: 'dir' }
  | { kind: 'osv'; type: 'file' }
  | { kind: 'trivy' }
  | { kind: 'nvd' }
  | { kind: 'id-map' };

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

async function readHead(file: string, bytes = 4096): Promise<string> {
  const handle = await fsp.open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Works out what the input is from its type, name (extension) and first bytes. */
async function detectFormat(input: string, name = input): Promise<Format> {
  let stat: fs.Stats;
  try {
    stat = await fsp.stat(input);
  } catch {
    throw new Error(`找不到导入文件或目录：${input}`);
  }
  if (stat.isDirectory()) {
    const names = await fsp.readdir(input);
    if (TRIVY_MARKERS.every((m) => names.includes(m))) return { kind: 'trivy' };
    return { kind: 'osv', type: 'dir' };
  }
  if (!stat.isFile()) throw new Error(`不是普通文件或目录：${input}`);
  const lower = name.toLowerCase();
  if (lower.endsWith('.zip')) return { kind: 'osv', type: 'zip' };
  if (lower.endsWith('.csv')) return { kind: 'id-map' };
  if (lower.endsWith('.gz')) return { kind: 'nvd' };
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return { kind: 'osv', type: 'file' };
  const head = await readHead(input);
  if (head.startsWith('PK\u0003\u0004')) return { kind: 'osv', type: 'zip' };
  if (looksLikeNvd(head)) return { kind: 'nvd' };
  if (/^\uFEFF?\s*\[/.test(head)) return { kind: 'id-map' };
  if (lower.endsWith('.json')) return { kind: 'osv', type: 'file' };
  throw new Error(`无法识别的导入文件格式：${path.basename(name)}（支持 OSV 的 zip/JSON/YAML、trivy 数据库目录、NVD JSON 2.0 和 CNNVD/CNVD 编号映射 CSV）`);
}

/** Counters and error list of one running import, flushed to its record. */
class Progress {
  summary: ImportSummary;
  total = 0;
  done = 0;
  /** Inputs of the job finished before the current one, and how many there are. */
  inputIndex = 0;
  inputCount = 1;
  /** Prefixed to file labels of a folder or zip when the job has several inputs. */
  prefix = '';
  private lastPercent = -1;
  private fileRows: ImportFileOutcome[] = [];
  private filesKept = 0;
  filesOmitted = 0;
  private readonly db: Kysely<Database>;
  private readonly options: ImportOptions;

  constructor(db: Kysely<Database>, recordId: number, kind: string, options: ImportOptions) {
    this.db = db;
    this.options = options;
    this.summary = { recordId, kind, files: 0, imported: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
  }

  fail(file: string, message: string): void {
    this.summary.failed++;
    if (this.summary.errors.length < MAX_ERRORS) this.summary.errors.push({ file: this.prefix + file, message });
    this.file(file, FILE_OUTCOME.REFUSED, 0, message);
  }

  /** One file's outcome row (kept up to IMPORT_FILE_ROWS_MAX, the rest counted). */
  file(file: string, outcome: number, advisories = 0, reason = ''): void {
    if (this.filesKept >= IMPORT_FILE_ROWS_MAX) { this.filesOmitted++; return; }
    this.filesKept++;
    this.fileRows.push({ file: this.prefix + file, outcome, advisories, reason });
  }

  async flushFiles(): Promise<void> {
    while (this.fileRows.length > 0) {
      const rows = this.fileRows.splice(0, 500);
      await addImportFiles(this.db, this.summary.recordId, rows);
    }
  }

  /** 0–99 over the whole job: each input is an equal share. */
  percent(): number {
    const share = this.total > 0 ? this.done / this.total : 0;
    return Math.min(99, Math.floor(((this.inputIndex + share) / this.inputCount) * 100));
  }

  note(file: string, message: string): void {
    if (this.summary.errors.length < MAX_ERRORS) this.summary.errors.push({ file, message });
  }

  add(result: { inserted: number; updated: number; unchanged: number }): void {
    this.summary.imported += result.inserted;
    this.summary.updated += result.updated;
    this.summary.unchanged += result.unchanged;
  }

  checkAborted(): void {
    if (this.options.signal?.aborted) throw new Error('导入已取消');
  }

  async report(): Promise<void> {
    this.options.onProgress?.(this.done, this.total);
    if (this.fileRows.length >= 200) await this.flushFiles();
    const percent = this.percent();
    if (percent === this.lastPercent) return;
    this.lastPercent = percent;
    await reportImportProgress(this.db, this.summary.recordId, {
      progress: percent,
      total: this.total,
      imported: this.summary.imported,
      updated: this.summary.updated,
      unchanged: this.summary.unchanged,
      failed: this.summary.failed,
    });
  }
}

/** Collects records and saves them BATCH at a time. */
class Saver {
  private pending: { record: AdvisoryRecord; label: string }[] = [];
  private readonly db: Kysely<Database>;
  private readonly progress: Progress;

  constructor(db: Kysely<Database>, progress: Progress) {
    this.db = db;
    this.progress = progress;
  }

  async push(record: AdvisoryRecord, label: string): Promise<void> {
    this.pending.push({ record, label });
    if (this.pending.length >= BATCH) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.progress.checkAborted();
    try {
      this.progress.add(await saveAdvisories(this.db, batch.map((b) => b.record)));
    } catch {
      // One record the database refuses (an over-long field, say) must not sink its whole batch:
      // the batch was rolled back, so save one by one and report just the ones refused.
      for (const { record, label } of batch) {
        try {
          this.progress.add(await saveAdvisories(this.db, [record]));
        } catch (error) {
          this.progress.fail(label, `漏洞 ${record.advisory.id} 无法保存：${errorText(error)}`);
        }
      }
    }
    await this.progress.report();
  }
}

/** Skipped files named in the record: why a file of another type was not read. */
const NOT_DATA = '不是漏洞数据文件（支持 .json、.yaml、.json.gz），已跳过';
const NOT_OSV_ENTRY = '不是 OSV 数据文件（.json、.yaml），已跳过';

/**
 * Every OSV / NVD candidate file under a folder, sorted, and the other files (skipped); hidden
 * entries and symbolic links are not followed.
 */
async function walk(dir: string): Promise<{ files: string[]; skipped: string[] }> {
  const out: string[] = [];
  const skipped: string[] = [];
  const visit = async (current: string) => {
    const entries = await fsp.readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile() && /\.(json|ya?ml|json\.gz)$/i.test(entry.name)) out.push(full);
      else skipped.push(full);
    }
  };
  await visit(dir);
  return { files: out.sort(), skipped: skipped.sort() };
}

async function importOsvFolder(db: Kysely<Database>, dir: string, progress: Progress): Promise<void> {
  const { files, skipped } = await walk(dir);
  for (const file of skipped) progress.file(path.relative(dir, file).split(path.sep).join('/'), FILE_OUTCOME.SKIPPED, 0, NOT_DATA);
  progress.total = files.length;
  const saver = new Saver(db, progress);
  for (let i = 0; i < files.length; i += READ_AHEAD) {
    progress.checkAborted();
    const chunk = files.slice(i, i + READ_AHEAD);
    const contents = await Promise.all(chunk.map(async (file) => {
      try {
        const stat = await fsp.stat(file);
        if (stat.size > MAX_FILE_BYTES) return { file, error: '文件过大，已跳过' };
        return { file, bytes: await fsp.readFile(file) };
      } catch (error) {
        return { file, error: `无法读取：${errorText(error)}` };
      }
    }));
    for (const item of contents) {
      const label = path.relative(dir, item.file).split(path.sep).join('/');
      progress.summary.files++;
      progress.done++;
      if ('error' in item) { progress.fail(label, item.error!); continue; }
      const bytes = item.bytes!;
      try {
        // A feed dropped beside OSV files is still imported, as its own kind of record rows.
        if (/\.gz$/i.test(item.file) || looksLikeNvd(bytes.subarray(0, 4096).toString('utf8'))) {
          const { records, errors } = parseNvdFeed(decodeFeed(bytes));
          for (const message of errors) progress.note(label, message);
          progress.file(label, records.length ? FILE_OUTCOME.IMPORTED : FILE_OUTCOME.SKIPPED, records.length, records.length ? '' : '文件中没有漏洞记录');
          for (const record of records) await saver.push(record, `${label}#${record.advisory.id}`);
          continue;
        }
        const record = parseOsv(bytes.toString('utf8'), item.file);
        progress.file(label, FILE_OUTCOME.IMPORTED, 1);
        await saver.push(record, label);
      } catch (error) {
        progress.fail(label, errorText(error));
      }
    }
    await progress.report();
  }
  await saver.flush();
}

function decodeZipName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer | string;
  const name = typeof raw === 'string' ? raw : raw.toString((entry.generalPurposeBitFlag & 0x800) !== 0 ? 'utf8' : 'latin1');
  // The name is only a label in messages: never a path we open or write.
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 300);
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) { reject(err ?? new Error('无法读取压缩包条目')); return; }
      const parts: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > ZIP_MAX_ENTRY_BYTES) { stream.destroy(new Error('条目解压后过大，已跳过')); return; }
        parts.push(chunk);
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(parts)));
    });
  });
}

async function importOsvZip(db: Kysely<Database>, file: string, progress: Progress): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
      // decodeStrings off: entry names are labels only, so a hostile path cannot stop the import.
      yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true, decodeStrings: false }, (err, z) => (err || !z ? reject(err ?? new Error('无法打开')) : resolve(z)));
    });
  } catch (error) {
    throw new Error(`无法读取压缩包：${errorText(error)}`, { cause: error });
  }
  if (zip.entryCount > ZIP_MAX_ENTRIES) {
    zip.close();
    throw new Error(`压缩包条目过多（${zip.entryCount}），超过上限 ${ZIP_MAX_ENTRIES}`);
  }
  progress.total = zip.entryCount;
  const saver = new Saver(db, progress);
  let totalBytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        if (error) reject(error); else resolve();
      };
      zip.on('error', (error: unknown) => finish(new Error(`压缩包已损坏：${errorText(error)}`)));
      zip.on('end', () => finish());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          progress.checkAborted();
          progress.done++;
          const name = decodeZipName(entry);
          if (name.endsWith('/')) return;
          if (!/\.(json|ya?ml)$/i.test(name)) { progress.file(name, FILE_OUTCOME.SKIPPED, 0, NOT_OSV_ENTRY); return; }
          progress.summary.files++;
          if (entry.uncompressedSize > ZIP_MAX_ENTRY_BYTES) { progress.fail(name, '条目解压后过大，已跳过'); return; }
          totalBytes += entry.uncompressedSize;
          if (totalBytes > ZIP_MAX_TOTAL_BYTES) throw new Error('压缩包解压后总大小超过上限');
          let bytes: Buffer;
          try {
            bytes = await readEntry(zip, entry);
          } catch (error) {
            progress.fail(name, `无法解压：${errorText(error)}`);
            return;
          }
          try {
            const record = parseOsv(bytes.toString('utf8'), name);
            progress.file(name, FILE_OUTCOME.IMPORTED, 1);
            await saver.push(record, name);
          } catch (error) {
            if (error instanceof Error && error.message === '导入已取消') throw error;
            progress.fail(name, errorText(error));
          }
          if (progress.done % 200 === 0) await progress.report();
        })().then(() => { if (!settled) zip.readEntry(); }, finish);
      });
      zip.readEntry();
    });
  } finally {
    // Nothing to release when autoClose already closed it at the end.
    if (zip.isOpen) zip.close();
  }
  await saver.flush();
}

async function importTrivy(db: Kysely<Database>, dir: string, progress: Progress): Promise<void> {
  const parsed = await parseTrivyDb(dir);
  progress.summary.files += parsed.files;
  for (const e of parsed.errors) progress.fail(e.file, e.message);
  const refused = new Set(parsed.errors.map((e) => e.file));
  const names = (await fsp.readdir(dir)).filter((n) => /\.ya?ml$/i.test(n) && !refused.has(n)).sort();
  for (const n of names) progress.file(n, FILE_OUTCOME.IMPORTED, n === 'vulnerability.yaml' ? parsed.records.length : 0);
  progress.total = parsed.records.length;
  const saver = new Saver(db, progress);
  for (const record of parsed.records) {
    progress.done++;
    await saver.push(record, record.advisory.id);
  }
  await saver.flush();
}

async function readWhole(file: string): Promise<Buffer> {
  const stat = await fsp.stat(file);
  if (stat.size > MAX_FILE_BYTES) throw new Error(`文件过大（${stat.size} 字节）`);
  return fsp.readFile(file);
}

async function importNvd(db: Kysely<Database>, file: string, progress: Progress, label = path.basename(file)): Promise<void> {
  const { records, errors } = parseNvdFeed(decodeFeed(await readWhole(file)));
  progress.summary.files += 1;
  for (const message of errors) progress.fail(label, message);
  progress.file(label, records.length ? FILE_OUTCOME.IMPORTED : FILE_OUTCOME.SKIPPED, records.length, records.length ? '' : '文件中没有漏洞记录');
  progress.total = records.length;
  const saver = new Saver(db, progress);
  for (const record of records) {
    progress.done++;
    await saver.push(record, `${label}#${record.advisory.id}`);
  }
  await saver.flush();
}

async function importOsvFile(db: Kysely<Database>, file: string, progress: Progress, label = path.basename(file)): Promise<void> {
  progress.summary.files += 1;
  progress.total = 1;
  const record = parseOsv((await readWhole(file)).toString('utf8'), label);
  progress.done = 1;
  progress.add(await saveAdvisories(db, [record]));
  progress.file(label, FILE_OUTCOME.IMPORTED, 1);
}

async function importIdMap(db: Kysely<Database>, file: string, progress: Progress, label = path.basename(file)): Promise<void> {
  const text = (await readWhole(file)).toString('utf8');
  if (/\.json$/i.test(label)) {
    let doc: unknown = null;
    try { doc = JSON.parse(text.replace(/^\uFEFF/, '')); } catch { /* reported by parseIdMapping */ }
    if (doc !== null && !Array.isArray(doc)) throw new Error('编号映射 JSON 应为 {cve, cnnvd, cnvd} 数组');
    if (Array.isArray(doc) && doc.length > 0 && !isMappingJson(doc) && !doc.some((r) => typeof r === 'object' && r !== null && 'cve' in r)) {
      throw new Error('不是 CNNVD/CNVD 编号映射文件：数组元素应包含 cve 以及 cnnvd 或 cnvd 字段');
    }
  }
  const { rows, errors } = parseIdMapping(text, label);
  progress.summary.files += 1;
  progress.total = rows.length;
  for (const e of errors) progress.fail(`${label}:${e.line}`, e.message);
  progress.checkAborted();
  const written = await saveIdMappings(db, rows);
  progress.done = rows.length;
  const distinct = new Set(rows.map((r) => `${r.cve}|${r.cnnvd ?? ''}|${r.cnvd ?? ''}`)).size;
  progress.add({ inserted: written, updated: 0, unchanged: Math.max(0, distinct - written) });
  progress.file(label, rows.length ? FILE_OUTCOME.IMPORTED : FILE_OUTCOME.SKIPPED, rows.length, rows.length ? '' : '文件中没有编号映射');
}

/** The one-line Chinese summary used in records and by the CLI. */
export function summaryLine(s: Pick<ImportSummary, 'imported' | 'updated' | 'unchanged' | 'failed'>): string {
  return `新增 ${s.imported}，更新 ${s.updated}，未变 ${s.unchanged}，失败 ${s.failed}`;
}

/**
 * The folder inside a zip that is a trivy database (a folder packed by the desktop): the entry
 * prefix under which both TRIVY_MARKERS sit, or null. Reads the central directory only.
 */
async function trivyFolderInZip(file: string): Promise<string | null> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, decodeStrings: false }, (err, z) => (err || !z ? reject(err ?? new Error('无法打开')) : resolve(z)));
  }).catch(() => null);
  if (!zip) return null;
  if (zip.entryCount > ZIP_MAX_ENTRIES) { zip.close(); return null; }
  const seen = new Map<string, Set<string>>();
  return new Promise((resolve) => {
    let found: string | null = null;
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = decodeZipName(entry);
      const slash = name.lastIndexOf('/');
      const base = name.slice(slash + 1);
      if (TRIVY_MARKERS.includes(base)) {
        const prefix = name.slice(0, slash + 1);
        const set = seen.get(prefix) ?? new Set<string>();
        set.add(base);
        seen.set(prefix, set);
        if (set.size === TRIVY_MARKERS.length) { found = prefix; zip.close(); resolve(found); return; }
      }
      zip.readEntry();
    });
    zip.on('end', () => resolve(found));
    zip.on('error', () => resolve(null));
    zip.readEntry();
  });
}

/** Extracts the YAML files directly under `prefix` (the trivy folder) into a private folder and imports them. */
async function importTrivyZip(db: Kysely<Database>, file: string, prefix: string, progress: Progress): Promise<void> {
  const dir = await makePrivateTempDir(path.join(os.tmpdir(), 'cairn-kb-trivy-'));
  try {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
      yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true, decodeStrings: false }, (err, z) => (err || !z ? reject(err ?? new Error('无法打开')) : resolve(z)));
    });
    let totalBytes = 0;
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (error: unknown) => reject(new Error(`压缩包已损坏：${errorText(error)}`)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = decodeZipName(entry);
        const rest = name.startsWith(prefix) ? name.slice(prefix.length) : null;
        // Only plain names directly in the folder: never a path that could leave `dir`.
        if (rest === null || !/^[\w.-]+\.ya?ml$/i.test(rest) || rest.startsWith('.')) {
          if (rest !== null && !rest.endsWith('/') && rest !== '') progress.file(rest, FILE_OUTCOME.SKIPPED, 0, '不是 trivy 数据库的 YAML 文件，已跳过');
          zip.readEntry();
          return;
        }
        totalBytes += entry.uncompressedSize;
        if (entry.uncompressedSize > ZIP_MAX_ENTRY_BYTES || totalBytes > ZIP_MAX_TOTAL_BYTES) { reject(new Error('压缩包解压后过大')); return; }
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) { reject(err ?? new Error('无法读取压缩包条目')); return; }
          pipeline(stream, privateWriteStream(path.join(dir, rest), { flags: 'wx' })).then(() => zip.readEntry(), reject);
        });
      });
      zip.readEntry();
    });
    await importTrivy(db, dir, progress);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

type DetectedInput = ImportInput & { format: Format | Error };

async function importOne(db: Kysely<Database>, input: DetectedInput, progress: Progress, several: boolean): Promise<void> {
  const { format } = input;
  if (format instanceof Error) throw format;
  const container = format.kind === 'trivy' || (format.kind === 'osv' && format.type !== 'file');
  progress.prefix = several && container ? `${input.name}/` : '';
  if (format.kind === 'trivy') await importTrivy(db, input.path, progress);
  else if (format.kind === 'nvd') await importNvd(db, input.path, progress, input.name);
  else if (format.kind === 'id-map') await importIdMap(db, input.path, progress, input.name);
  else if (format.type === 'zip') {
    const trivy = await trivyFolderInZip(input.path);
    if (trivy !== null) await importTrivyZip(db, input.path, trivy, progress);
    else await importOsvZip(db, input.path, progress);
  } else if (format.type === 'dir') await importOsvFolder(db, input.path, progress);
  else await importOsvFile(db, input.path, progress, input.name);
}

async function run(db: Kysely<Database>, inputs: DetectedInput[], progress: Progress, signal?: AbortSignal): Promise<ImportSummary> {
  const summary = progress.summary;
  const single = inputs.length === 1;
  progress.inputCount = Math.max(1, inputs.length);
  let fatal: string | null = null;
  let cancelled = false;
  for (const [index, input] of inputs.entries()) {
    progress.inputIndex = index;
    progress.total = 0;
    progress.done = 0;
    try {
      progress.checkAborted();
      await importOne(db, input, progress, !single);
    } catch (error) {
      progress.prefix = '';
      if (signal?.aborted && signal.reason === IMPORT_CANCELLED) { cancelled = true; break; }
      const message = errorText(error);
      const interrupted = signal?.aborted && signal.reason instanceof Error && signal.reason.message === IMPORT_INTERRUPTED_MESSAGE;
      if (single || signal?.aborted) { fatal = interrupted ? IMPORT_INTERRUPTED_MESSAGE : message; break; }
      // One unreadable input of several is refused; the others still go in.
      progress.fail(input.name, message);
    }
  }
  progress.prefix = '';
  const changed = summary.imported + summary.updated;
  const any = changed + summary.unchanged;
  let status: number = IMPORT_STATUS.SUCCEEDED;
  let message = summaryLine(summary);
  const first = inputs[0]?.name ?? '';
  if (cancelled) {
    status = IMPORT_STATUS.CANCELLED;
    message = `已取消：取消前已${summaryLine(summary)}，已提交的数据保留`;
  } else if (fatal !== null) {
    status = IMPORT_STATUS.FAILED;
    // The input itself could not be read (a single broken file, a damaged zip): it counts as failed.
    if (any === 0 && summary.failed === 0) summary.failed = 1;
    message = `导入失败：${fatal}${any > 0 ? `（中止前已${summaryLine(summary)}）` : ''}`;
    if (!summary.errors.some((e) => e.message === fatal)) {
      summary.errors.unshift({ file: first, message: fatal });
      progress.file(first, FILE_OUTCOME.REFUSED, 0, fatal);
    }
  } else if (any === 0) {
    status = IMPORT_STATUS.FAILED;
    message = summary.failed > 0 ? `导入失败：所有文件均无法导入（${summaryLine(summary)}）` : '导入失败：未找到可导入的漏洞数据';
    if (summary.failed === 0) summary.errors.push({ file: first, message: '未找到可导入的漏洞数据' });
  }
  if (status === IMPORT_STATUS.SUCCEEDED) progress.inputIndex = progress.inputCount;
  try {
    await progress.flushFiles();
    if (progress.filesOmitted > 0) await setImportFilesOmitted(db, summary.recordId, progress.filesOmitted);
    await finishImportRecord(db, summary.recordId, {
      status,
      progress: status === IMPORT_STATUS.SUCCEEDED ? 100 : progress.percent(),
      total: progress.total,
      imported: summary.imported,
      updated: summary.updated,
      unchanged: summary.unchanged,
      failed: summary.failed,
      errors: summary.errors,
      message,
    });
  } finally {
    if (changed > 0) knowledgeChanged.emit();
  }
  return summary;
}

async function detect(inputs: ImportInput[]): Promise<DetectedInput[]> {
  return Promise.all(inputs.map(async (input) => ({
    ...input,
    format: await detectFormat(input.path, input.name).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
  })));
}

/** The record kind of a job's inputs: their common kind, `mixed` when they differ. */
function kindOf(inputs: DetectedInput[]): string {
  const kinds = new Set(inputs.map((i) => (i.format instanceof Error ? guessKind(i.name) : i.format.kind)));
  return kinds.size === 1 ? [...kinds][0]! : 'mixed';
}

/** Detects the format and creates the record; the returned function does the work. */
async function prepare(db: Kysely<Database>, input: string, options: ImportOptions) {
  const name = options.name ?? path.basename(path.resolve(input));
  const detected = await detect([{ path: input, name: input }]);
  const kind = options.kind ?? kindOf(detected);
  const recordId = await createImportRecord(db, { kind, name, userId: options.userId ?? null });
  const progress = new Progress(db, recordId, kind, options);
  const labelled = detected.map((d) => ({ ...d, name: path.basename(d.name) }));
  return { recordId, work: () => run(db, labelled, progress, options.signal) };
}

function guessKind(input: string): string {
  const lower = input.toLowerCase();
  if (lower.endsWith('.csv')) return 'id-map';
  if (lower.endsWith('.gz')) return 'nvd';
  return 'osv';
}

/** Imports one input (file, folder or zip) and returns when its record is finished. */
export async function importKnowledge(db: Kysely<Database>, input: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const { work } = await prepare(db, input, options);
  return work();
}

/**
 * Starts an import in the background: the record exists when this returns. `done` never
 * rejects for the import's own failures (they end as 导入失败 in the record); only a database
 * that cannot even record the outcome rejects it, and that rejection is handled here too.
 */
export async function startImport(db: Kysely<Database>, input: string, options: ImportOptions = {}): Promise<{ recordId: number; done: Promise<ImportSummary> }> {
  const { recordId, work } = await prepare(db, input, options);
  const done = work();
  done.catch(() => { /* observed by whoever awaits `done`; never an unhandled rejection */ });
  return { recordId, done };
}

/** Opens the 排队中 record of a job of several inputs (the import queue runs it later with runImportJob). */
export async function createQueuedImport(db: Kysely<Database>, inputs: ImportInput[], options: { userId: number | null; name: string }): Promise<number> {
  const kind = kindOf(await detect(inputs));
  return createImportRecord(db, { kind, name: options.name, userId: options.userId, queued: true });
}

/** Runs a queued job's inputs into its record (already 导入中). */
export async function runImportJob(db: Kysely<Database>, recordId: number, inputs: ImportInput[], options: ImportOptions = {}): Promise<ImportSummary> {
  const detected = await detect(inputs);
  const progress = new Progress(db, recordId, kindOf(detected), options);
  return run(db, detected, progress, options.signal);
}

/**
 * Imports run inside the platform process: one that stopped (shut down, crashed) mid-import left
 * its record at 导入中 (or 排队中) for ever. At start-up those records are closed as failed, so the
 * screen tells the truth and the administrator knows to import again (it is idempotent).
 */
export async function failInterruptedImports(db: Kysely<Database>): Promise<number> {
  return failRunningImports(db, IMPORT_INTERRUPTED_MESSAGE);
}
