// SWID tags (ISO/IEC 19770-2): a zip of `.swidtag` (or .xml) files, or a single tag. One row per tag.
import type { ReviewDocument } from '../../../contract/ipc/desktop-contract.ts';
import { xmlParser } from './cyclonedx.ts';
import { MB, unsupportedFile } from './errors.ts';
import { list, obj, table, text } from './tables.ts';
import { readZipEntries } from './zip.ts';

type Json = Record<string, unknown>;
type Row = Record<string, string | number | null>;

export const isSwidName = (name: string): boolean => /\.(swidtag|xml)$/i.test(name) && !/(^|\/)(__MACOSX|\.)/.test(name);

/** The row of one parsed tag, or null when the XML is not a SoftwareIdentity. */
export function swidRow(root: Json, source: string): Row | null {
  const tag = obj(root.SoftwareIdentity);
  if (!root.SoftwareIdentity) return null;
  const entities = list(tag.Entity).map(obj);
  const creator = entities.find((e) => /tagCreator/.test(text(e['@_role']))) ?? entities[0] ?? {};
  return {
    file: source,
    name: text(tag['@_name']) || null,
    version: text(tag['@_version']) || null,
    tagId: text(tag['@_tagId']) || null,
    regid: text(creator['@_regid']) || null,
    entity: text(creator['@_name']) || null,
  };
}

const swidTable = (rows: Row[]) => table('tags', 'SWID 标签', [['name', '名称'], ['version', '版本'], ['tagId', '标签 ID'], ['regid', '创建者 regid'], ['entity', '创建者'], ['file', '文件']], rows);

export function swidDocument(rows: Row[], fileName: string): ReviewDocument {
  return { kind: 'swid', fileName, tables: [swidTable(rows)] };
}

export async function readSwidZip(file: string, fileName: string): Promise<ReviewDocument> {
  const entries = await readZipEntries(file, isSwidName, 10 * MB);
  const parser = xmlParser();
  const rows: Row[] = [];
  for (const [name, bytes] of [...entries].sort((a, b) => a[0].localeCompare(b[0]))) {
    let parsed: Json;
    try {
      parsed = parser.parse(bytes.toString('utf8')) as Json;
    } catch {
      continue;
    }
    const row = swidRow(parsed, name);
    if (row) rows.push(row);
  }
  if (!rows.length) throw unsupportedFile();
  return swidDocument(rows, fileName);
}
