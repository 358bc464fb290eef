// NVD CVE JSON 2.0 feeds (nvdcve-2.0-<year>.json[.gz]): one record per CVE, with no affected
// packages — they carry NVD's description, CVSS and CWEs for the CVE ids other advisories name.
import zlib from 'node:zlib';
import { assessSeverity, type CvssInput } from '../../engine/index.ts';
import type { AdvisoryRecord } from '../../db/repositories/knowledge-base.ts';
import { summaryOf } from './osv.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Gunzips when the bytes are gzip (whatever the file is called). */
export function decodeFeed(bytes: Buffer): string {
  const raw = bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? zlib.gunzipSync(bytes) : bytes;
  return raw.toString('utf8').replace(/^\uFEFF/, '');
}

/** Whether a JSON text looks like an NVD 2.0 feed, judged from its beginning only. */
export function looksLikeNvd(head: string): boolean {
  return /"format"\s*:\s*"NVD_CVE"/.test(head);
}

const METRICS: [string, string][] = [
  ['cvssMetricV40', 'CVSS_V4'],
  ['cvssMetricV31', 'CVSS_V3'],
  ['cvssMetricV30', 'CVSS_V3'],
  ['cvssMetricV2', 'CVSS_V2'],
];

/** Parses one feed; a malformed CVE entry is reported and skipped, a malformed feed throws. */
export function parseNvdFeed(text: string): { records: AdvisoryRecord[]; errors: string[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new Error(`不是有效的 JSON 文档：${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!isObject(doc) || doc.format !== 'NVD_CVE') throw new Error('不是 NVD CVE 数据文件（缺少 "format": "NVD_CVE"）');
  if (!Array.isArray(doc.vulnerabilities)) throw new Error('NVD 数据文件缺少 vulnerabilities 数组');
  const records: AdvisoryRecord[] = [];
  const errors: string[] = [];
  for (const [index, item] of doc.vulnerabilities.entries()) {
    const cve = isObject(item) && isObject(item.cve) ? item.cve : null;
    const id = cve ? str(cve.id) : null;
    if (!cve || !id || !/^CVE-\d{4}-\d+$/i.test(id)) {
      errors.push(`第 ${index + 1} 条记录缺少有效的 CVE 编号，已跳过`);
      continue;
    }
    records.push(nvdRecord(id.toUpperCase(), cve));
  }
  return { records, errors };
}

function nvdRecord(id: string, cve: Record<string, unknown>): AdvisoryRecord {
  const descriptions = list(cve.descriptions).filter(isObject);
  const details = str((descriptions.find((d) => d.lang === 'en') ?? descriptions[0])?.value) ?? '';
  const metrics = isObject(cve.metrics) ? cve.metrics : {};
  const inputs: CvssInput[] = [];
  const severities: { type: string; score: string }[] = [];
  let word: string | null = null;
  for (const [key, type] of METRICS) {
    // NVD's own ("Primary") assessment first, then the CNA's.
    const entries = list(metrics[key]).filter(isObject).sort((a, b) => (a.type === 'Primary' ? -1 : 0) - (b.type === 'Primary' ? -1 : 0));
    for (const metric of entries) {
      const data = isObject(metric.cvssData) ? metric.cvssData : {};
      const vector = str(data.vectorString);
      if (!vector) continue;
      const score = typeof data.baseScore === 'number' ? data.baseScore : undefined;
      inputs.push({ type, vector, score });
      if (!severities.some((s) => s.score === vector)) severities.push({ type, score: vector });
      word ??= str(data.baseSeverity) ?? str(metric.baseSeverity);
    }
  }
  const assessment = assessSeverity(inputs, word, 'NVD');
  const cwes = [...new Set(list(cve.weaknesses).filter(isObject).flatMap((w) => list(w.description).filter(isObject).map((d) => str(d.value)))
    .filter((v): v is string => Boolean(v && /^CWE-\d+$/.test(v))))];
  const references = list(cve.references).filter(isObject).filter((r) => typeof r.url === 'string').map((r) => ({
    type: list(r.tags).includes('Patch') ? 'FIX' : list(r.tags).includes('Vendor Advisory') || list(r.tags).includes('Third Party Advisory') ? 'ADVISORY' : 'WEB',
    url: r.url as string,
  }));
  const rejected = str(cve.vulnStatus) === 'Rejected';
  return {
    advisory: {
      id,
      aliases: [],
      summary: summaryOf(null, details),
      level: assessment.level,
      score: assessment.score,
      vector: assessment.vector,
      exploit: assessment.exploit,
      severitySource: assessment.source,
      cwes,
      published: str(cve.published) ? `${str(cve.published)}${/Z|[+-]\d\d:?\d\d$/.test(str(cve.published)!) ? '' : 'Z'}` : null,
      modified: str(cve.lastModified) ? `${str(cve.lastModified)}${/Z|[+-]\d\d:?\d\d$/.test(str(cve.lastModified)!) ? '' : 'Z'}` : null,
      withdrawn: rejected,
      affected: [],
    },
    source: 'nvd',
    origin: 'NVD',
    details,
    references,
    fixCommits: references.filter((r) => r.type === 'FIX' && /\/commit\//.test(r.url)).map((r) => r.url),
    severities,
    document: cve,
  };
}
