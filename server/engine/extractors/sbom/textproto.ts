// CycloneDX in the protocol buffers text format (`.cdx.textproto`, `.txtpb`: bom-1.x.proto's Bom
// message as `protoc --encode`'s text, as CycloneDX's own test resources are written):
// `field: value` scalars (strings, numbers, enum names, booleans), `field { ... }` (or
// `field: { ... }`, `field < ... >`) messages, repeated fields by repetition, `#` comments.
// Converted to the JSON shape the CycloneDX importer reads: bom_ref → bom-ref,
// CLASSIFICATION_LIBRARY → library, SCOPE_OPTIONAL → optional, licenses { license { id } } /
// { expression }, dependencies { ref dependencies { ref } } → dependsOn.
import type { Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { cycloneDxBomToTarget, type CdxBom, type CdxComponent, type CdxDependency, type CdxLicense } from './cyclonedx.ts';

export type ProtoValue = string | number | boolean | ProtoMessage;
export type ProtoMessage = Map<string, ProtoValue[]>;

export class TextprotoError extends Error {}

/** Parses protobuf text format into a message tree (field name → values in order). */
export function parseTextproto(source: string): ProtoMessage {
  let i = 0;
  let line = 1;
  const n = source.length;
  const fail = (what: string): never => { throw new TextprotoError(`第 ${line} 行${what}`); };
  const skip = () => {
    for (;;) {
      while (i < n && /\s/.test(source[i]!)) { if (source[i] === '\n') line++; i++; }
      if (source[i] === '#') { while (i < n && source[i] !== '\n') i++; continue; }
      return;
    }
  };
  const readString = (): string => {
    const quote = source[i]!;
    i++;
    let out = '';
    while (i < n && source[i] !== quote) {
      const c = source[i]!;
      if (c === '\n') fail('的字符串没有结束');
      if (c === '\\') {
        const e = source[i + 1] ?? '';
        const oct = /^[0-7]{1,3}/.exec(source.slice(i + 1, i + 4));
        if (oct) { out += String.fromCharCode(parseInt(oct[0], 8)); i += 1 + oct[0].length; continue; }
        if (e === 'x') { const hex = /^[0-9a-fA-F]{1,2}/.exec(source.slice(i + 2, i + 4)) ?? fail('的 \\x 转义无效'); out += String.fromCharCode(parseInt(hex[0], 16)); i += 2 + hex[0].length; continue; }
        if (e === 'u') { out += String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16)); i += 6; continue; }
        out += ({ n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v' } as Record<string, string>)[e] ?? e;
        i += 2;
        continue;
      }
      out += c;
      i++;
    }
    if (i >= n) fail('的字符串没有结束');
    i++;
    // protoc joins adjacent string literals.
    skip();
    if (source[i] === '"' || source[i] === "'") out += readString();
    return out;
  };
  const readMessage = (close: string): ProtoMessage => {
    const message: ProtoMessage = new Map();
    for (;;) {
      skip();
      if (i >= n) { if (close) fail(`缺少 ${close}`); return message; }
      if (source[i] === close) { i++; return message; }
      const name = /^(?:\[[^\]]+\]|[A-Za-z_][A-Za-z0-9_]*)/.exec(source.slice(i, i + 256)) ?? fail(`应为字段名，实为 ${JSON.stringify(source[i])}`);
      i += name[0].length;
      skip();
      let colon = false;
      if (source[i] === ':') { colon = true; i++; skip(); }
      const values = message.get(name[0]) ?? [];
      message.set(name[0], values);
      const readOne = (): ProtoValue => {
        const c = source[i];
        if (c === '{' || c === '<') { i++; return readMessage(c === '{' ? '}' : '>'); }
        if (!colon) fail(`的字段 ${name[0]} 缺少冒号`);
        if (c === '"' || c === "'") return readString();
        const word = /^[-+]?(?:0[xX][0-9a-fA-F]+|[0-9.]+(?:[eE][-+]?\d+)?[fF]?|[A-Za-z_][A-Za-z0-9_]*|inf|nan)/.exec(source.slice(i, i + 128)) ?? fail(`的字段 ${name[0]} 缺少值`);
        i += word[0].length;
        if (word[0] === 'true' || word[0] === 'True' || word[0] === 't') return true;
        if (word[0] === 'false' || word[0] === 'False' || word[0] === 'f') return false;
        return /^[-+]?[0-9]/.test(word[0]) ? Number(word[0].replace(/[fF]$/, '')) : word[0];
      };
      if (source[i] === '[') {
        // A list of values: `field: [a, b]`.
        i++;
        for (;;) {
          skip();
          if (source[i] === ']') { i++; break; }
          values.push(readOne());
          skip();
          if (source[i] === ',') i++;
        }
      } else {
        values.push(readOne());
      }
      skip();
      if (source[i] === ',' || source[i] === ';') i++;
    }
  };
  return readMessage('');
}

const first = (m: ProtoMessage | undefined, key: string): ProtoValue | undefined => m?.get(key)?.[0];
const text = (m: ProtoMessage | undefined, key: string): string | undefined => {
  const v = first(m, key);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
};
const messages = (m: ProtoMessage | undefined, key: string): ProtoMessage[] => (m?.get(key) ?? []).filter((v): v is ProtoMessage => v instanceof Map);
const enumName = (value: string | undefined, prefix: string): string | undefined =>
  value?.startsWith(prefix) ? value.slice(prefix.length).toLowerCase().replace(/_/g, '-') : value;

function component(m: ProtoMessage): CdxComponent {
  const licences: CdxLicense[] = [];
  for (const choice of messages(m, 'licenses')) {
    const licence = messages(choice, 'license')[0];
    if (licence) licences.push({ license: { id: text(licence, 'id'), name: text(licence, 'name') } });
    const expression = text(choice, 'expression');
    if (expression) licences.push({ expression });
  }
  return {
    'bom-ref': text(m, 'bom_ref'),
    type: enumName(text(m, 'type'), 'CLASSIFICATION_'),
    group: text(m, 'group'),
    name: text(m, 'name'),
    version: text(m, 'version'),
    purl: text(m, 'purl'),
    scope: enumName(text(m, 'scope'), 'SCOPE_'),
    licenses: licences,
    components: messages(m, 'components').map(component),
  };
}

/** The Bom message in the JSON shape. */
export function textprotoToBom(message: ProtoMessage): CdxBom {
  const metadata = messages(message, 'metadata')[0];
  const meta = messages(metadata, 'component')[0];
  const dependencies: CdxDependency[] = messages(message, 'dependencies').map((d) => ({
    ref: text(d, 'ref'), dependsOn: messages(d, 'dependencies').map((c) => text(c, 'ref') ?? '').filter(Boolean),
  }));
  return {
    specVersion: text(message, 'spec_version'),
    metadata: meta ? { component: component(meta) } : undefined,
    components: messages(message, 'components').map(component),
    dependencies,
  };
}

/** Whether a text is a CycloneDX Bom in protobuf text format (its first field is one of the Bom's). */
export function isCycloneDxTextproto(text: string): boolean {
  const head = text.slice(0, 4096);
  if (/^#\s*proto-message:\s*(?:cyclonedx\.v1_\d\.)?Bom\s*$/m.test(head)) return true;
  return /^(?:\s*#[^\n]*\n)*\s*(?:spec_version\s*:\s*["']1\.\d|serial_number\s*:\s*["']urn:uuid:)/.test(head);
}

export function importCycloneDxTextproto(source: string, file: string): Target {
  let message: ProtoMessage;
  try {
    message = parseTextproto(source);
  } catch (error) {
    if (error instanceof TextprotoError) throw new ExtractError(`CycloneDX protobuf 文本格式错误：${error.message}`);
    throw error;
  }
  const spec = text(message, 'spec_version');
  if (!spec || !/^1\.\d+$/.test(spec)) throw new ExtractError(`CycloneDX protobuf 文本格式错误：缺少有效的 spec_version（应为 1.3–1.7）`);
  return cycloneDxBomToTarget(textprotoToBom(message), file, 'cyclonedx-textproto');
}
