// SBOM import: CycloneDX (JSON 1.2–1.7, XML 1.0–1.7, schema-validated; the protobuf text format),
// SPDX 2.x (JSON, YAML, XML, tag-value, RDF/XML) and SPDX 3.0 (JSON-LD). Serialisations that are not
// read (CycloneDX binary protobuf, SPDX RDF Turtle, SWID tags, scanners' own JSON) are refused
// with a message naming them (serialisations.ts). Used by scans (the `extractors` below, matched by file name,
// the format sniffed from the content) and directly for uploaded SBOMs (getCodeType 30).
import { open } from 'node:fs/promises';
import type { Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { decodeText, stripBom } from './common.ts';
import { importCycloneDxJson, importCycloneDxXml } from './cyclonedx.ts';
import { unreadSerialisation, unreadSerialisationMessage } from './serialisations.ts';
import { fromObject, parseSpdx, sniffSpdx, spdxToTarget } from './spdx.ts';
import { isSpdx3, spdx3ToTarget } from './spdx3.ts';
import { importCycloneDxTextproto, isCycloneDxTextproto } from './textproto.ts';
import { cycloneDxXmlVersion } from './validate.ts';

export { validateCycloneDx, type CycloneDxValidation } from './validate.ts';
export { parseSpdx, sniffSpdx, spdxToTarget, type SpdxDocument, type SpdxFormat } from './spdx.ts';
export { decodeText, normalizePurl } from './common.ts';
export { sbomNotArchiveMessage, unreadSerialisation, unreadSerialisationMessage } from './serialisations.ts';

export type SbomFormat = 'cyclonedx-json' | 'cyclonedx-xml' | 'cyclonedx-textproto' | `spdx-${'json' | 'yaml' | 'xml' | 'tag' | 'rdf'}` | 'spdx3-jsonld' | 'in-toto';

/** SPDX 3's JSON-LD context, near the top of the document. */
const SPDX3_HEAD = /"@context"\s*:\s*(?:\[\s*)?"https?:\/\/spdx\.org\/rdf\/3\.\d+(?:\.\d+)?\/spdx-context\.jsonld"/;

/** Which SBOM format a text is, by its content only; null when it is none we read. */
export function sniffSbom(text: string): SbomFormat | null {
  const body = stripBom(text);
  const head = body.slice(0, 4096).trimStart();
  if (head.startsWith('{')) {
    if (/^\{\s*"payloadType"\s*:\s*"application\/vnd\.in-toto\+json"/.test(head)) return 'in-toto';
    if (/"bomFormat"\s*:\s*"CycloneDX"/.test(body)) return 'cyclonedx-json';
    if (SPDX3_HEAD.test(head)) return 'spdx3-jsonld';
  } else if (head.startsWith('<')) {
    const version = cycloneDxXmlVersion(body);
    if (version !== null && /cyclonedx\.org\/schema\/bom/.test(head)) return 'cyclonedx-xml';
  }
  const spdx = sniffSpdx(body);
  if (spdx) return `spdx-${spdx}`;
  return isCycloneDxTextproto(body) ? 'cyclonedx-textproto' : null;
}

/** Imports SBOM text whose format is known to be one we read; throws ExtractError otherwise. */
async function importText(text: string, fileName: string, format: SbomFormat): Promise<Target> {
  const body = stripBom(text);
  if (format === 'cyclonedx-xml') return importCycloneDxXml(body, fileName);
  if (format === 'in-toto') return importInToto(body, fileName);
  if (format === 'cyclonedx-textproto') return importCycloneDxTextproto(body, fileName);
  if (format === 'spdx3-jsonld') {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch (error) {
      throw new ExtractError(`SPDX 3 文档格式错误：JSON-LD 无法解析（${error instanceof Error ? error.message : String(error)}）`);
    }
    return spdx3ToTarget(doc, fileName);
  }
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
  if (/spdx/i.test(predicateType)) return isSpdx3(predicate) ? spdx3ToTarget(predicate, fileName) : spdxToTarget(fromObject(predicate), fileName);
  throw new ExtractError(`in-toto 证明中不含 SBOM（predicateType：${predicateType || '未注明'}）`);
}

/** What Cairn reads, for refusals. */
export const SBOM_FORMATS_READ = 'CycloneDX（JSON、XML、protobuf 文本格式）、SPDX 2.x（JSON、YAML、XML、tag-value、RDF/XML）与 SPDX 3.0（JSON-LD）';

/**
 * Imports an uploaded SBOM (getCodeType 30). The format is taken from the content; a text that
 * is no SBOM, or a document that does not conform, is refused with a Chinese ExtractError.
 */
export async function importSbom(text: string, fileName: string): Promise<Target> {
  const format = sniffSbom(text);
  if (!format) throw new ExtractError(`无法识别的 SBOM 文件：支持 ${SBOM_FORMATS_READ}`);
  return importText(text, fileName, format);
}

/**
 * Imports an uploaded SBOM from its bytes: as importSbom, and a serialisation Cairn does not read
 * (binary protobuf, RDF Turtle, SWID, a scanner's own JSON) is refused naming it.
 */
export async function importSbomFile(bytes: Uint8Array, fileName: string): Promise<Target> {
  const text = decodeText(bytes);
  const format = sniffSbom(text);
  if (format) return importText(text, fileName, format);
  const unread = unreadSerialisation(bytes, fileName);
  if (unread) throw new ExtractError(unreadSerialisationMessage(fileName, unread));
  throw new ExtractError(`SBOM 文件 ${fileName} 的格式无法识别：支持 ${SBOM_FORMATS_READ}`);
}

const FORMAT_LABELS: Record<SbomFormat, string> = {
  'cyclonedx-json': 'CycloneDX JSON 格式的 SBOM', 'cyclonedx-xml': 'CycloneDX XML 格式的 SBOM', 'cyclonedx-textproto': 'CycloneDX protobuf 文本格式的 SBOM',
  'spdx-json': 'SPDX JSON 格式的 SBOM', 'spdx-yaml': 'SPDX YAML 格式的 SBOM', 'spdx-xml': 'SPDX XML 格式的 SBOM', 'spdx-tag': 'SPDX tag-value 格式的 SBOM',
  'spdx-rdf': 'SPDX RDF/XML 格式的 SBOM', 'spdx3-jsonld': 'SPDX 3.0 JSON-LD 格式的 SBOM', 'in-toto': '含 SBOM 的 in-toto 证明',
};

/**
 * What a file is when it is an SBOM or an SBOM serialisation Cairn does not read (`CycloneDX JSON
 * 格式的 SBOM`, `CycloneDX protobuf 二进制格式`), in Chinese; null otherwise. For refusals of an
 * SBOM given where an archive is expected.
 */
export function describeSbomFile(bytes: Uint8Array, fileName: string): string | null {
  const format = sniffSbom(decodeText(bytes));
  if (format) return FORMAT_LABELS[format];
  return unreadSerialisation(bytes, fileName)?.format ?? null;
}

/** describeSbomFile of a file on disk, from its first 4 MiB. */
export async function describeSbomAt(filePath: string, fileName: string): Promise<string | null> {
  const handle = await open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.alloc(Math.min(size, 4 * 1024 * 1024));
    await handle.read(bytes, 0, bytes.length, 0);
    return describeSbomFile(bytes, fileName);
  } finally {
    await handle.close();
  }
}

const SBOM_NAME = /(?:^|\/)(?:(?:bom|sbom|cyclonedx|cdx)\.(?:json|xml)|[^/]*\.(?:cdx|bom|cyclonedx)\.(?:json|xml)|[^/]*\.spdx(?:\.(?:json|ya?ml|xml|rdf|rdf\.xml|tv|txt))?|[^/]*\.spdx\.rdf|[^/]*[.-](?:sbom|cyclonedx|cdx)\.(?:json|xml)|[^/]*\.spdx\.rdf\.xml|bom\.\d+(?:\.\d+)*\.(?:json|xml)|[^/]*(?:cdx|cyclonedx|spdx|sbom)[^/]*\.intoto\.jsonl|[^/]*\.spdx3?\.jsonld|[^/]*\.spdx3\.json|[^/]*\.(?:cdx|bom)\.(?:textproto|txtpb|pb|bin)|(?:bom|sbom)\.(?:textproto|txtpb))$/i;

/** Whether a path is named like an SBOM (CycloneDX or SPDX); the content decides in extract. */
export function isSbomPath(path: string): boolean {
  return SBOM_NAME.test(path);
}


export const sbomExtractor: Extractor = {
  name: 'sbom',
  ecosystem: 'generic',
  reads: ['bom.json', '*.cdx.json', '*.spdx.json', '*.spdx', '*.spdx.jsonld', '*.cdx.textproto'],
  matches: isSbomPath,
  async extract(file: InputFile): Promise<Target[]> {
    const bytes = await file.read();
    const text = decodeText(bytes);
    const format = sniffSbom(text);
    if (!format) {
      // A file named as an SBOM in a serialisation Cairn does not read is a problem naming it;
      // a bom.json that is not an SBOM (some other tool's file) is simply not ours.
      const unread = unreadSerialisation(bytes, file.path);
      if (unread) throw new ExtractError(unreadSerialisationMessage(file.path, unread));
      return [];
    }
    return [await importText(text, file.path, format)];
  },
};

export const extractors: Extractor[] = [sbomExtractor];
