// Offline review: a report or SBOM read by main, recognised by its content (not its extension),
// and turned into something the renderer shows as is: PDF bytes, tables, or HTML.
import { open, readFile, realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ReviewDocument } from '../../../contract/ipc/desktop-contract.ts';
import { DesktopError } from '../errors.ts';
import { cycloneDxFromXml, readCycloneDx, xmlParser } from './cyclonedx.ts';
import { readDocx } from './docx.ts';
import { MAX_FILE_BYTES, MAX_PDF_BYTES, REVIEW_MSG, unreadable, unsupportedFile } from './errors.ts';
import { isOpenVex, readOpenVex } from './openvex.ts';
import { readSpdx } from './spdx.ts';
import { isSwidName, readSwidZip, swidDocument, swidRow } from './swid.ts';
import { readXlsx } from './xlsx.ts';
import { listZip } from './zip.ts';

export { REVIEW_MSG } from './errors.ts';

export interface ReviewOptions {
  /** Only files under these folders may be read by path (the web host: its staging folder). */
  allowedRoots?: string[];
  /** Read copies to delete afterwards (the web host's staged files). */
  removeAfter?: (file: string) => boolean;
}

type Json = Record<string, unknown>;

const isWithin = (root: string, target: string): boolean => {
  const rel = path.relative(path.resolve(root), target);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

async function head(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Text of a JSON/XML file: UTF-8 (BOM dropped) or UTF-16 with a BOM. */
function decode(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function readJson(text: string, fileName: string): ReviewDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw unreadable(REVIEW_MSG.badJson);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw unsupportedFile();
  const json = doc as Json;
  if (json.bomFormat === 'CycloneDX') return readCycloneDx(json, fileName);
  if (typeof json.spdxVersion === 'string' && /^SPDX-2\./.test(json.spdxVersion)) return readSpdx(json, fileName);
  if (isOpenVex(json)) return readOpenVex(json, fileName);
  throw unsupportedFile();
}

function readXml(text: string, fileName: string): ReviewDocument {
  let root: Json;
  try {
    root = xmlParser().parse(text, true) as Json;
  } catch {
    throw unreadable(REVIEW_MSG.badXml);
  }
  const bom = cycloneDxFromXml(root);
  if (bom) return readCycloneDx(bom, fileName);
  const tag = swidRow(root, fileName);
  if (tag) return swidDocument([tag], fileName);
  throw unsupportedFile();
}

/** Read one regular file for review, by content. */
export async function readForReview(file: string, fileName: string): Promise<ReviewDocument> {
  const info = await stat(file).catch(() => null);
  if (!info) throw new DesktopError('not-found', REVIEW_MSG.notFound);
  if (!info.isFile()) throw new DesktopError('not-a-file', REVIEW_MSG.notFile);
  if (info.size === 0) throw unsupportedFile();
  if (info.size > MAX_FILE_BYTES) throw new DesktopError('too-large', REVIEW_MSG.tooLarge);

  const magic = await head(file, 8);
  if (magic.subarray(0, 5).toString('latin1') === '%PDF-') {
    if (info.size > MAX_PDF_BYTES) throw new DesktopError('too-large', REVIEW_MSG.pdfTooLarge);
    return { kind: 'pdf', fileName, base64: (await readFile(file)).toString('base64') };
  }
  if (magic[0] === 0x50 && magic[1] === 0x4b && magic[2] === 0x03 && magic[3] === 0x04) {
    const { names } = await listZip(file, info.size);
    const has = new Set(names);
    if (has.has('word/document.xml')) return readDocx(file, fileName);
    if (has.has('xl/workbook.xml')) return readXlsx(file, fileName);
    if (names.some(isSwidName)) return readSwidZip(file, fileName);
    throw unsupportedFile();
  }
  const text = decode(await readFile(file));
  const first = text.trimStart()[0];
  if (first === '{') return readJson(text, fileName);
  if (first === '<') return readXml(text, fileName);
  throw unsupportedFile();
}

export interface ReviewService {
  /** A local file the user dropped or picked (or the web host staged). */
  openPath(file: string): Promise<ReviewDocument>;
}

export function createReview(options: ReviewOptions = {}): ReviewService {
  return {
    async openPath(raw) {
      if (!raw.trim()) throw new DesktopError('invalid-input', REVIEW_MSG.noTarget);
      const resolved = path.resolve(raw);
      const real = await realpath(resolved).catch(() => null);
      if (!real) throw new DesktopError('not-found', REVIEW_MSG.notFound);
      if (options.allowedRoots) {
        // Both the path as given and where it really leads (a symlink) must stay inside.
        const roots = await Promise.all(options.allowedRoots.map(async (root) => [path.resolve(root), await realpath(root).catch(() => path.resolve(root))] as const));
        if (!roots.some(([root, realRoot]) => isWithin(root, resolved) && isWithin(realRoot, real))) throw new DesktopError('forbidden-path', REVIEW_MSG.notAllowed);
      }
      try {
        return await readForReview(real, path.basename(resolved));
      } finally {
        if (options.removeAfter?.(resolved)) await rm(resolved, { force: true });
      }
    },
  };
}
