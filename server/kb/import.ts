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
  IMPORT_STATUS, createImportRecord, failRunningImports, finishImportRecord, reportImportProgress,
} from '../db/repositories/knowledge-base-imports.ts';
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

/** Works out what the input is from its type, name and first bytes. */
async function detectFormat(input: string): Promise<Format> {
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
  const lower = input.toLowerCase();
  if (lower.endsWith('.zip')) return { kind: 'osv', type: 'zip' };
  if (lower.endsWith('.csv')) return { kind: 'id-map' };
  if (lower.endsWith('.gz')) return { kind: 'nvd' };
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return { kind: 'osv', type: 'file' };
  const head = await readHead(input);
  if (head.startsWith('PK\u0003\u0004')) return { kind: 'osv', type: 'zip' };
  if (looksLikeNvd(head)) return { kind: 'nvd' };
  if (/^\uFEFF?\s*\[/.test(head)) return { kind: 'id-map' };
  if (lower.endsWith('.json')) return { kind: 'osv', type: 'file' };
  throw new Error(`无法识别的导入文件格式：${path.basename(input)}（支持 OSV 的 zip/JSON/YAML、trivy 数据库目录、NVD JSON 2.0 和 CNNVD/CNVD 编号映射 CSV）`);
}

/** Counters and error list of one running import, flushed to its record. */
class Progress {
  summary: ImportSummary;
  total = 0;
  done = 0;
  private lastPercent = -1;
  private readonly db: Kysely<Database>;
  private readonly options: ImportOptions;

  constructor(db: Kysely<Database>, recordId: number, kind: string, options: ImportOptions) {
    this.db = db;
    this.options = options;
    this.summary = { recordId, kind, files: 0, imported: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
  }

  fail(file: string, message: string): void {
    this.summary.failed++;
    if (this.summary.errors.length < MAX_ERRORS) this.summary.errors.push({ file, message });
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
    const percent = this.total > 0 ? Math.min(99, Math.floor((this.done / this.total) * 100)) : 0;
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

/** Every OSV / NVD candidate file under a folder, sorted; symbolic links are not followed. */
async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (current: string) => {
    const entries = await fsp.readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile() && /\.(json|ya?ml|json\.gz)$/i.test(entry.name)) out.push(full);
    }
  };
  await visit(dir);
  return out.sort();
}

async function importOsvFolder(db: Kysely<Database>, dir: string, progress: Progress): Promise<void> {
  const files = await walk(dir);
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
          for (const record of records) await saver.push(record, `${label}#${record.advisory.id}`);
          continue;
        }
        await saver.push(parseOsv(bytes.toString('utf8'), item.file), label);
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
          if (name.endsWith('/') || !/\.(json|ya?ml)$/i.test(name)) return;
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
            await saver.push(parseOsv(bytes.toString('utf8'), name), name);
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
  progress.summary.files = parsed.files;
  for (const e of parsed.errors) progress.fail(e.file, e.message);
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

async function importNvd(db: Kysely<Database>, file: string, progress: Progress): Promise<void> {
  const { records, errors } = parseNvdFeed(decodeFeed(await readWhole(file)));
  const label = path.basename(file);
  progress.summary.files = 1;
  for (const message of errors) progress.fail(label, message);
  progress.total = records.length;
  const saver = new Saver(db, progress);
  for (const record of records) {
    progress.done++;
    await saver.push(record, `${label}#${record.advisory.id}`);
  }
  await saver.flush();
}

async function importOsvFile(db: Kysely<Database>, file: string, progress: Progress): Promise<void> {
  progress.summary.files = 1;
  progress.total = 1;
  const record = parseOsv((await readWhole(file)).toString('utf8'), file);
  progress.done = 1;
  progress.add(await saveAdvisories(db, [record]));
}

async function importIdMap(db: Kysely<Database>, file: string, progress: Progress): Promise<void> {
  const text = (await readWhole(file)).toString('utf8');
  const label = path.basename(file);
  if (/\.json$/i.test(file)) {
    let doc: unknown = null;
    try { doc = JSON.parse(text.replace(/^\uFEFF/, '')); } catch { /* reported by parseIdMapping */ }
    if (doc !== null && !Array.isArray(doc)) throw new Error('编号映射 JSON 应为 {cve, cnnvd, cnvd} 数组');
    if (Array.isArray(doc) && doc.length > 0 && !isMappingJson(doc) && !doc.some((r) => typeof r === 'object' && r !== null && 'cve' in r)) {
      throw new Error('不是 CNNVD/CNVD 编号映射文件：数组元素应包含 cve 以及 cnnvd 或 cnvd 字段');
    }
  }
  const { rows, errors } = parseIdMapping(text, file);
  progress.summary.files = 1;
  progress.total = rows.length;
  for (const e of errors) progress.fail(`${label}:${e.line}`, e.message);
  progress.checkAborted();
  const written = await saveIdMappings(db, rows);
  progress.done = rows.length;
  const distinct = new Set(rows.map((r) => `${r.cve}|${r.cnnvd ?? ''}|${r.cnvd ?? ''}`)).size;
  progress.add({ inserted: written, updated: 0, unchanged: Math.max(0, distinct - written) });
}

/** The one-line Chinese summary used in records and by the CLI. */
export function summaryLine(s: Pick<ImportSummary, 'imported' | 'updated' | 'unchanged' | 'failed'>): string {
  return `新增 ${s.imported}，更新 ${s.updated}，未变 ${s.unchanged}，失败 ${s.failed}`;
}

async function run(db: Kysely<Database>, input: string, format: Format | Error, progress: Progress): Promise<ImportSummary> {
  const summary = progress.summary;
  let fatal: string | null = null;
  try {
    if (format instanceof Error) throw format;
    progress.checkAborted();
    if (format.kind === 'trivy') await importTrivy(db, input, progress);
    else if (format.kind === 'nvd') await importNvd(db, input, progress);
    else if (format.kind === 'id-map') await importIdMap(db, input, progress);
    else if (format.type === 'zip') await importOsvZip(db, input, progress);
    else if (format.type === 'dir') await importOsvFolder(db, input, progress);
    else await importOsvFile(db, input, progress);
  } catch (error) {
    fatal = errorText(error);
  }
  const changed = summary.imported + summary.updated;
  const any = changed + summary.unchanged;
  let status: number = IMPORT_STATUS.SUCCEEDED;
  let message = summaryLine(summary);
  if (fatal !== null) {
    status = IMPORT_STATUS.FAILED;
    // The input itself could not be read (a single broken file, a damaged zip): it counts as failed.
    if (any === 0 && summary.failed === 0) summary.failed = 1;
    message = `导入失败：${fatal}${any > 0 ? `（中止前已${summaryLine(summary)}）` : ''}`;
    if (!summary.errors.some((e) => e.message === fatal)) summary.errors.unshift({ file: path.basename(input), message: fatal });
  } else if (any === 0) {
    status = IMPORT_STATUS.FAILED;
    message = summary.failed > 0 ? `导入失败：所有文件均无法导入（${summaryLine(summary)}）` : '导入失败：未找到可导入的漏洞数据';
    if (summary.failed === 0) summary.errors.push({ file: path.basename(input), message: '未找到可导入的漏洞数据' });
  }
  try {
    await finishImportRecord(db, summary.recordId, {
      status,
      progress: status === IMPORT_STATUS.SUCCEEDED ? 100 : Math.min(99, progress.total ? Math.floor((progress.done / progress.total) * 100) : 0),
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

/** Detects the format and creates the record; the returned function does the work. */
async function prepare(db: Kysely<Database>, input: string, options: ImportOptions) {
  const format: Format | Error = await detectFormat(input).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  const kind = options.kind ?? (format instanceof Error ? guessKind(input) : format.kind);
  const name = options.name ?? path.basename(path.resolve(input));
  const recordId = await createImportRecord(db, { kind, name, userId: options.userId ?? null });
  const progress = new Progress(db, recordId, kind, options);
  return { recordId, work: () => run(db, input, format, progress) };
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

/**
 * Imports run inside the platform process: one that stopped (shut down, crashed) mid-import left
 * its record at 导入中 for ever. At start-up those records are closed as failed, so the screen
 * tells the truth and the administrator knows to import again (it is idempotent).
 */
export async function failInterruptedImports(db: Kysely<Database>): Promise<number> {
  return failRunningImports(db, '平台在导入过程中停止，导入未完成，请重新导入');
}
