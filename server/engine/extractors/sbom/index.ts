// SBOM import: CycloneDX (JSON 1.2–1.7, XML 1.0–1.7, schema-validated) and SPDX 2.x (JSON,
// YAML, XML, tag-value, RDF/XML). Used by scans (the `extractors` below, matched by file name,
// the format sniffed from the content) and directly for uploaded SBOMs (getCodeType 30).
import type { Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { decodeText, stripBom } from './common.ts';
import { importCycloneDxJson, importCycloneDxXml } from './cyclonedx.ts';
import { fromObject, parseSpdx, sniffSpdx, spdxToTarget } from './spdx.ts';
import { cycloneDxXmlVersion } from './validate.ts';

export { validateCycloneDx, type CycloneDxValidation } from './validate.ts';
export { parseSpdx, sniffSpdx, spdxToTarget, type SpdxDocument, type SpdxFormat } from './spdx.ts';
export { decodeText, normalizePurl } from './common.ts';

export type SbomFormat = 'cyclonedx-json' | 'cyclonedx-xml' | `spdx-${'json' | 'yaml' | 'xml' | 'tag' | 'rdf'}` | 'in-toto';

/** Which SBOM format a text is, by its content only; null when it is none we read. */
export function sniffSbom(text: string): SbomFormat | null {
  const body = stripBom(text);
  const head = body.slice(0, 4096).trimStart();
  if (head.startsWith('{')) {
    if (/^\{\s*"payloadType"\s*:\s*"application\/vnd\.in-toto\+json"/.test(head)) return 'in-toto';
    if (/"bomFormat"\s*:\s*"CycloneDX"/.test(body)) return 'cyclonedx-json';
  } else if (head.startsWith('<')) {
    const version = cycloneDxXmlVersion(body);
    if (version !== null && /cyclonedx\.org\/schema\/bom/.test(head)) return 'cyclonedx-xml';
  }
  const spdx = sniffSpdx(body);
  return spdx ? `spdx-${spdx}` : null;
}

/** Imports SBOM text whose format is known to be one we read; throws ExtractError otherwise. */
async function importText(text: string, fileName: string, format: SbomFormat): Promise<Target> {
  const body = stripBom(text);
  if (format === 'cyclonedx-xml') return importCycloneDxXml(body, fileName);
  if (format === 'in-toto') return importInToto(body, fileName);
  if (format === 'cyclonedx-json') {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch (error) {
      throw new ExtractError(`CycloneDX 文档格式错误：JSON 无法解析（${error instanceof Error ? error.message : String(error)}）`);
    }
    return importCycloneDxJson(doc, fileName);
  }
  return spdxToTarget(parseSpdx(body, format.slice('spdx-'.length) as Parameters<typeof parseSpdx>[1]), fileName);
}

/**
 * An in-toto attestation (DSSE envelope, one per line of a `.intoto.jsonl`) whose statement's
 * predicate is a CycloneDX or SPDX document, as `trivy sbom --format cosign-vuln`/attest write.
 */
async function importInToto(text: string, fileName: string): Promise<Target> {
  const line = text.split(/\r?\n/).find((l) => l.trim()) ?? '';
  let statement: { predicateType?: string; predicate?: unknown };
  try {
    const envelope = JSON.parse(line) as { payload?: string };
    statement = JSON.parse(Buffer.from(envelope.payload ?? '', 'base64').toString('utf8')) as typeof statement;
  } catch (error) {
    throw new ExtractError(`in-toto 证明格式错误：${error instanceof Error ? error.message : String(error)}`);
  }
  const predicateType = statement.predicateType ?? '';
  const predicate = statement.predicate;
  if (/cyclonedx/i.test(predicateType)) return importCycloneDxJson(predicate, fileName);
  if (/spdx/i.test(predicateType)) return spdxToTarget(fromObject(predicate), fileName);
  throw new ExtractError(`in-toto 证明中不含 SBOM（predicateType：${predicateType || '未注明'}）`);
}

/**
 * Imports an uploaded SBOM (getCodeType 30). The format is taken from the content; a text that
 * is no SBOM, or a document that does not conform, is refused with a Chinese ExtractError.
 */
export async function importSbom(text: string, fileName: string): Promise<Target> {
  const format = sniffSbom(text);
  if (!format) throw new ExtractError('无法识别的 SBOM 文件：支持 CycloneDX（JSON/XML）与 SPDX 2.x（JSON/YAML/XML/tag-value/RDF）');
  return importText(text, fileName, format);
}

const SBOM_NAME = /(?:^|\/)(?:(?:bom|sbom|cyclonedx|cdx)\.(?:json|xml)|[^/]*\.(?:cdx|bom|cyclonedx)\.(?:json|xml)|[^/]*\.spdx(?:\.(?:json|ya?ml|xml|rdf|rdf\.xml|tv|txt))?|[^/]*\.spdx\.rdf|[^/]*[.-](?:sbom|cyclonedx|cdx)\.(?:json|xml)|[^/]*\.spdx\.rdf\.xml|bom\.\d+(?:\.\d+)*\.(?:json|xml)|[^/]*(?:cdx|cyclonedx|spdx|sbom)[^/]*\.intoto\.jsonl)$/i;

/** Whether a path is named like an SBOM (CycloneDX or SPDX); the content decides in extract. */
export function isSbomPath(path: string): boolean {
  return SBOM_NAME.test(path);
}

async function readSbomFile(file: InputFile): Promise<string> {
  return decodeText(await file.read());
}

export const sbomExtractor: Extractor = {
  name: 'sbom',
  ecosystem: 'generic',
  reads: ['bom.json', '*.cdx.json', '*.spdx.json', '*.spdx'],
  matches: isSbomPath,
  async extract(file: InputFile): Promise<Target[]> {
    const text = await readSbomFile(file);
    const format = sniffSbom(text);
    // A bom.json that is not an SBOM (some other tool's file) is simply not ours.
    if (!format) return [];
    return [await importText(text, file.path, format)];
  },
};

export const extractors: Extractor[] = [sbomExtractor];
