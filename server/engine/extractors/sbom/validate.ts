// CycloneDX schema validation against the official schemas shipped by
// @cyclonedx/cyclonedx-library (res/schema/, offline): JSON Schema (draft-07, ajv) for JSON,
// XSD (xmllint-wasm) for XML. Compiled validators and loaded XSDs are cached per version.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { validateXML } from 'xmllint-wasm';
import { ENTITY_REFUSAL, hasEntityDeclarations } from './common.ts';
import { listOf, zhXmlSchemaMessage } from './messages.ts';

export interface CycloneDxValidation {
  valid: boolean;
  /** `1.0`–`1.7` as read from the document; '' when the document is not CycloneDX at all. */
  specVersion: string;
  /** Chinese messages, empty when valid. */
  errors: string[];
}

const CDX_JSON_VERSIONS = ['1.2', '1.3', '1.4', '1.5', '1.6', '1.7'] as const;
const CDX_XML_VERSIONS = ['1.0', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7'] as const;
const XML_NAMESPACE = /^http:\/\/cyclonedx\.org\/schema\/bom\/(1\.\d+)$/;

const require = createRequire(import.meta.url);
const schemaDir = join(dirname(require.resolve('@cyclonedx/cyclonedx-library/package.json')), 'res', 'schema');
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const jsonValidators = new Map<string, Promise<ValidateFunction>>();
const xsdCache = new Map<string, Promise<string>>();

async function loadJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(schemaDir, file), 'utf8')) as Record<string, unknown>;
}

/** One Ajv per version: 1.2 and 1.3 ship strict and lax schemas under the same `$id`. */
function jsonValidator(version: string): Promise<ValidateFunction> {
  let found = jsonValidators.get(version);
  if (!found) {
    found = (async () => {
      const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true, logger: false });
      addFormats(ajv);
      // Formats of the CycloneDX schemas that ajv-formats does not define (JSON Schema 2019+ names).
      ajv.addFormat('iri-reference', /^[^\s<>"{}|\\^`]*$/u);
      ajv.addFormat('idn-email', /^[^\s@]+@[^\s@]+$/u);
      ajv.addKeyword({ keyword: UNIQUE, type: 'array', schemaType: 'boolean', errors: false, validate: uniqueItems });
      const main = linearUniqueItems(await loadJson(`bom-${version}.SNAPSHOT.schema.json`));
      const base = String(main.$id ?? 'http://cyclonedx.org/schema/').replace(/[^/]*$/, '');
      // The bom schema refers to its companions by file name, relative to its own $id.
      for (const companion of ['spdx', 'jsf-0.82', 'cryptography-defs']) {
        const schema = await loadJson(`${companion}.SNAPSHOT.schema.json`);
        ajv.addSchema({ ...linearUniqueItems(schema), $id: `${base}${companion}.SNAPSHOT.schema.json` });
      }
      return ajv.compile(main);
    })();
    jsonValidators.set(version, found);
  }
  return found;
}

// ajv checks `uniqueItems` on arrays of objects by comparing every pair: a 10k-component BOM
// takes minutes. The schemas' `uniqueItems` is replaced by an equivalent keyword that buckets
// items by a shallow signature and deep-compares only within a bucket (linear in practice).
const UNIQUE = 'x-cairn-uniqueItems';

function linearUniqueItems<T>(node: T): T {
  if (Array.isArray(node)) return node.map(linearUniqueItems) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'uniqueItems') out[UNIQUE] = value;
    else out[key] = linearUniqueItems(value);
  }
  return out as T;
}

/** Equal items have equal signatures: scalars by value, objects by sorted keys and scalar members. */
function signature(value: unknown): string {
  if (value === null || typeof value !== 'object') return `${typeof value}:${String(value)}`;
  if (Array.isArray(value)) return `[${value.length}]`;
  const keys = Object.keys(value).sort();
  let out = '{';
  for (const key of keys) {
    const member = (value as Record<string, unknown>)[key];
    out += `${key}=${member !== null && typeof member === 'object' ? (Array.isArray(member) ? `[${member.length}]` : '{}') : String(member)};`;
  }
  return out;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => deepEqual(item, other[i]));
  }
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

function uniqueItems(enabled: boolean, data: unknown): boolean {
  if (!enabled || !Array.isArray(data) || data.length < 2) return true;
  if (data.every((item) => typeof item === 'string')) return new Set(data).size === data.length;
  const buckets = new Map<string, unknown[]>();
  for (const item of data) {
    const key = signature(item);
    const bucket = buckets.get(key);
    if (!bucket) {
      buckets.set(key, [item]);
      continue;
    }
    if (bucket.some((other) => deepEqual(other, item))) return false;
    bucket.push(item);
  }
  return true;
}

function xsd(file: string): Promise<string> {
  let found = xsdCache.get(file);
  if (!found) {
    found = readFile(join(schemaDir, file), 'utf8');
    xsdCache.set(file, found);
  }
  return found;
}

/** Validates a parsed CycloneDX JSON document. */
export async function validateCycloneDxJson(doc: unknown): Promise<CycloneDxValidation> {
  const record = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>) : null;
  if (!record || record.bomFormat !== 'CycloneDX') {
    return { valid: false, specVersion: '', errors: ['不是 CycloneDX 文档：缺少 "bomFormat": "CycloneDX"'] };
  }
  const specVersion = typeof record.specVersion === 'string' ? record.specVersion : '';
  if (!(CDX_JSON_VERSIONS as readonly string[]).includes(specVersion)) {
    return { valid: false, specVersion, errors: [`不支持的 CycloneDX JSON 版本：${specVersion || '（未注明）'}（支持 ${CDX_JSON_VERSIONS.join('、')}）`] };
  }
  const validate = await jsonValidator(specVersion);
  if (validate(doc)) return { valid: true, specVersion, errors: [] };
  const errors = (validate.errors ?? []).map((error) => `CycloneDX ${specVersion} 文档不符合规范：${zhAjvMessage(error)}`);
  return { valid: false, specVersion, errors: errors.length ? errors : [`CycloneDX ${specVersion} 文档不符合规范`] };
}

/** The namespace version of a CycloneDX XML document, read from its root element. */
export function cycloneDxXmlVersion(text: string): string | null {
  const body = stripProlog(text);
  const root = /^<(?:([A-Za-z_][\w.-]*):)?bom(?=[\s>/])[^>]*>/.exec(body);
  if (!root) return null;
  const attribute = root[1] ? `xmlns:${root[1]}` : 'xmlns';
  const ns = new RegExp(`\\s${attribute.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=\\s*["']([^"']*)["']`).exec(root[0]);
  if (!ns) return '';
  const version = XML_NAMESPACE.exec(ns[1]!.trim());
  return version ? version[1]! : '';
}

function stripProlog(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/^\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>\s*)*/, '');
}

/** Validates a CycloneDX XML document against the XSD of its namespace version. */
export async function validateCycloneDxXml(text: string): Promise<CycloneDxValidation> {
  const specVersion = cycloneDxXmlVersion(text);
  if (specVersion === null) return { valid: false, specVersion: '', errors: ['不是 CycloneDX 文档：根元素不是 <bom>'] };
  if (!(CDX_XML_VERSIONS as readonly string[]).includes(specVersion)) {
    return { valid: false, specVersion, errors: [`不是 CycloneDX 文档：<bom> 的命名空间不是 http://cyclonedx.org/schema/bom/1.x（支持 ${CDX_XML_VERSIONS.join('、')}）`] };
  }
  if (hasEntityDeclarations(text)) return { valid: false, specVersion, errors: [ENTITY_REFUSAL] };
  const [schema, spdx] = await Promise.all([xsd(`bom-${specVersion}.SNAPSHOT.xsd`), xsd('spdx.SNAPSHOT.xsd')]);
  const xml = text.replace(/^\uFEFF/, '');
  const pages = Math.min(65536, Math.max(512, Math.ceil((Buffer.byteLength(xml) * 24) / 65536) + 512));
  let result: Awaited<ReturnType<typeof validateXML>>;
  try {
    result = await validateXML({
      xml: { fileName: 'bom.xml', contents: xml },
      schema: { fileName: `bom-${specVersion}.SNAPSHOT.xsd`, contents: schema },
      preload: [{ fileName: 'spdx.SNAPSHOT.xsd', contents: spdx }],
      maxMemoryPages: pages,
    });
  } catch (error) {
    // xmllint exits with a non-validation code when the XML is not well-formed.
    const detail = (error instanceof Error ? error.message : String(error)).split('\n').find((line) => line.trim()) ?? '';
    const where = /^bom\.xml:(\d+):\s*(?:parser error\s*:\s*)?(.*)$/.exec(detail.trim());
    return { valid: false, specVersion, errors: [`CycloneDX ${specVersion} 文档不是格式正确的 XML：${where ? `第 ${where[1]} 行：${where[2]}` : detail}`] };
  }
  if (result.valid) return { valid: true, specVersion, errors: [] };
  const malformed = result.errors.find((error) => /^\s*parser error\s*:/.test(error.message));
  if (malformed) {
    const detail = malformed.message.replace(/^\s*parser error\s*:\s*/, '');
    return { valid: false, specVersion, errors: [`CycloneDX ${specVersion} 文档不是格式正确的 XML：${malformed.loc ? `第 ${malformed.loc.lineNumber} 行：` : ''}${detail}`] };
  }
  const errors = result.errors
    .filter((error) => error.message && !/fails to validate$/.test(error.message))
    .map((error) => `CycloneDX ${specVersion} 文档不符合规范：${error.loc ? `第 ${error.loc.lineNumber} 行：` : ''}${zhXmlSchemaMessage(error.message)}`);
  return { valid: false, specVersion, errors: errors.length ? errors : [`CycloneDX ${specVersion} 文档不符合规范`] };
}

/** Public API: validates CycloneDX text in the given serialisation. */
export async function validateCycloneDx(text: string, format: 'json' | 'xml'): Promise<CycloneDxValidation> {
  if (format === 'xml') return validateCycloneDxXml(text);
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { valid: false, specVersion: '', errors: [`JSON 格式错误：${error instanceof Error ? error.message : String(error)}`] };
  }
  return validateCycloneDxJson(doc);
}

function zhAjvMessage(error: ErrorObject): string {
  const at = error.instancePath || '/';
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'enum':
      return `${at} 必须是以下值之一：${listOf(p.allowedValues as unknown[])}`;
    case 'const':
      return `${at} 必须等于 ${JSON.stringify(p.allowedValue)}`;
    case 'required':
      return `${at} 缺少必填字段 ${String(p.missingProperty)}`;
    case 'additionalProperties':
      return `${at} 含有规范未定义的字段 ${String(p.additionalProperty)}`;
    case 'type':
      return `${at} 的类型必须是 ${String(p.type)}`;
    case 'pattern':
      return `${at} 不符合格式 ${String(p.pattern)}`;
    case 'format':
      return `${at} 不是有效的 ${String(p.format)}`;
    case 'minLength':
      return `${at} 长度不能少于 ${String(p.limit)}`;
    case 'maxLength':
      return `${at} 长度不能超过 ${String(p.limit)}`;
    case 'minItems':
      return `${at} 至少需要 ${String(p.limit)} 项`;
    case 'maxItems':
      return `${at} 最多 ${String(p.limit)} 项`;
    case UNIQUE:
      return `${at} 不能有重复项`;
    case 'uniqueItems':
      return `${at} 不能有重复项（第 ${String(p.j)} 项与第 ${String(p.i)} 项相同）`;
    case 'oneOf':
      return `${at} 必须且只能符合一种允许的结构`;
    case 'anyOf':
      return `${at} 不符合任何允许的结构`;
    case 'not':
      return `${at} 不允许出现此结构`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${at} 数值必须 ${String(p.comparison)} ${String(p.limit)}`;
    default:
      return `${at} ${error.message ?? '不合法'}`;
  }
}
