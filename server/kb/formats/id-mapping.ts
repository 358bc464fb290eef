// CNNVD / CNVD numbers of CVEs from a mapping file: CSV with a header naming the cve / cnnvd /
// cnvd columns and optionally the CNNVD level (level / 危害等级: 超危 高危 中危 低危, or critical /
// high / medium / low; English or Chinese headers, any order, optional BOM) or a JSON array of
// { cve, cnnvd, cnvd, level? }. The level rates a CVE that no advisory rates (engine severity.ts). Invalid rows are reported by line (CSV) or position (JSON) and skipped.
import { parse as parseCsv } from 'csv-parse/sync';
import type { IdMappingRow } from '../../db/repositories/knowledge-base.ts';

export interface IdMappingParse {
  rows: IdMappingRow[];
  errors: { line: number; message: string }[];
}

const CVE = /^CVE-\d{4}-\d{4,}$/i;
const CNNVD = /^CNNVD-\d{6}-\d+$/i;
const CNVD = /^CNVD-\d{4}-\d+$/i;

function headerColumn(name: string): 'cve' | 'cnnvd' | 'cnvd' | 'level' | null {
  const key = name.replace(/^\uFEFF/, '').trim().toLowerCase().replace(/[\s_-]/g, '');
  if (['cve', 'cveid', 'cve编号', 'cve号'].includes(key)) return 'cve';
  if (['cnnvd', 'cnnvdid', 'cnnvd编号', 'cnnvd号'].includes(key)) return 'cnnvd';
  if (['cnvd', 'cnvdid', 'cnvd编号', 'cnvd号'].includes(key)) return 'cnvd';
  if (['level', 'cnnvdlevel', 'severity', '危害等级', '漏洞等级', '威胁等级', '等级', 'cnnvd等级'].includes(key)) return 'level';
  return null;
}

const LEVEL_WORDS: Record<string, number> = {
  超危: 1, 高危: 2, 中危: 4, 低危: 8, critical: 1, high: 2, medium: 4, moderate: 4, low: 8,
};

/** The CNNVD level of a cell: null when empty, a message when it names no level. */
function levelOf(text: string): number | null | string {
  if (!text) return null;
  return LEVEL_WORDS[text.toLowerCase()] ?? `CNNVD 等级无法识别：${text}（应为 超危、高危、中危 或 低危）`;
}

function checkRow(raw: { cve?: unknown; cnnvd?: unknown; cnvd?: unknown; level?: unknown }): IdMappingRow | string {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : v === null || v === undefined ? '' : String(v).trim());
  const cve = text(raw.cve).toUpperCase();
  const cnnvd = text(raw.cnnvd).toUpperCase() || null;
  const cnvd = text(raw.cnvd).toUpperCase() || null;
  if (!cve) return '缺少 CVE 编号';
  if (!CVE.test(cve)) return `CVE 编号格式不正确：${cve}`;
  if (!cnnvd && !cnvd) return `${cve} 没有 CNNVD 或 CNVD 编号`;
  if (cnnvd && !CNNVD.test(cnnvd)) return `CNNVD 编号格式不正确：${cnnvd}`;
  if (cnvd && !CNVD.test(cnvd)) return `CNVD 编号格式不正确：${cnvd}`;
  const level = levelOf(text(raw.level));
  if (typeof level === 'string') return level;
  if (level !== null && !cnnvd) return `${cve} 有 CNNVD 等级但没有 CNNVD 编号`;
  return level === null ? { cve, cnnvd, cnvd } : { cve, cnnvd, cnvd, cnnvdLevel: level };
}

export function isMappingJson(doc: unknown): boolean {
  return Array.isArray(doc) && doc.length > 0 && doc.every((r) => typeof r === 'object' && r !== null && 'cve' in r && ('cnnvd' in r || 'cnvd' in r));
}

export function parseIdMapping(text: string, fileName: string): IdMappingParse {
  const body = text.replace(/^\uFEFF/, '');
  const rows: IdMappingRow[] = [];
  const errors: IdMappingParse['errors'] = [];
  if (/\.json$/i.test(fileName) || /^\s*\[/.test(body)) {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch (error) {
      throw new Error(`不是有效的 JSON 文档：${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (!Array.isArray(doc)) throw new Error('编号映射 JSON 应为 {cve, cnnvd, cnvd} 数组');
    doc.forEach((item, i) => {
      const checked = typeof item === 'object' && item !== null ? checkRow(item as Record<string, unknown>) : '应为对象';
      if (typeof checked === 'string') errors.push({ line: i + 1, message: `第 ${i + 1} 项：${checked}` });
      else rows.push(checked);
    });
    return { rows, errors };
  }

  let records: { record: string[]; line: number }[];
  try {
    // info.lines is the line a record ends on, so quoted newlines and blank lines keep numbers right.
    records = (parseCsv(body, { info: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as unknown as { record: string[]; info: { lines: number } }[])
      .map((r) => ({ record: r.record, line: r.info.lines }));
  } catch (error) {
    throw new Error(`不是有效的 CSV 文件：${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const headerIndex = records.findIndex((r) => r.record.some((c) => c.trim() !== ''));
  if (headerIndex < 0) throw new Error('编号映射文件为空');
  const columns = records[headerIndex]!.record.map(headerColumn);
  if (!columns.includes('cve') || (!columns.includes('cnnvd') && !columns.includes('cnvd'))) {
    throw new Error('编号映射 CSV 的表头应包含 cve（CVE编号）以及 cnnvd（CNNVD编号）或 cnvd（CNVD编号）列');
  }
  for (const { record, line } of records.slice(headerIndex + 1)) {
    if (record.every((c) => c.trim() === '')) continue;
    const raw: Record<string, string> = {};
    columns.forEach((column, c) => { if (column) raw[column] = record[c] ?? ''; });
    const checked = checkRow(raw);
    if (typeof checked === 'string') errors.push({ line, message: `第 ${line} 行：${checked}` });
    else rows.push(checked);
  }
  return { rows, errors };
}
