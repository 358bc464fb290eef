// A small strict XML reader for manifests (pom.xml, *.csproj, packages.config, Gradle
// verification metadata): element tree with local names, attributes, text and line spans.
// Well-formedness problems become ExtractError with a Chinese message naming the line.
// No DTD processing and no external entities (nothing is ever fetched or expanded).
import { ExtractError } from '../../model.ts';

export interface XmlElement {
  /** Local name (namespace prefix removed). */
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated character data directly inside the element, entities decoded. */
  text: string;
  line: number;
  endLine: number;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][\w.-]*);/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref] ?? whole;
  });
}

const localName = (qname: string) => {
  const colon = qname.indexOf(':');
  return colon >= 0 ? qname.slice(colon + 1) : qname;
};

/** Decodes bytes honouring an ISO-8859-1 / windows-1252 declaration and a UTF-8/UTF-16 BOM. */
export function decodeXmlBytes(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const head = bytes.subarray(0, 200).toString('latin1');
  const enc = /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.-]+)["']/i.exec(head)?.[1]?.toLowerCase();
  if (enc && /^(iso-8859-1|latin-?1|windows-1252|cp1252|us-ascii)$/.test(enc)) return new TextDecoder('windows-1252').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

const NAME_RE = /[A-Za-z_:\u00C0-\uFFFF][\w.:\u00B7\u00C0-\uFFFF-]*/y;
const ATTR_RE = /\s*([A-Za-z_:\u00C0-\uFFFF][\w.:\u00B7\u00C0-\uFFFF-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;

/** Parses a whole document; `file` names it in error messages. */
export function parseXml(source: string, file: string): XmlElement {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const newlines: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines.push(i);
  const lineAt = (index: number) => {
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newlines[mid]! < index) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
  const fail = (index: number, what: string): never => {
    throw new ExtractError(`${file} 不是有效的 XML：第 ${lineAt(index)} 行${what}`);
  };

  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    const chunk = text.slice(i, lt < 0 ? n : lt);
    if (chunk) {
      const top = stack[stack.length - 1];
      if (top) top.text += decode(chunk);
      else if (chunk.trim()) fail(i, '在根元素之外出现了文本');
    }
    if (lt < 0) break;
    i = lt;
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) fail(i, '的注释没有结束');
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) fail(i, '的 CDATA 没有结束');
      const top = stack[stack.length - 1];
      if (!top) fail(i, '在根元素之外出现了 CDATA');
      top!.text += text.slice(i + 9, end);
      i = end + 3;
    } else if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) fail(i, '的处理指令没有结束');
      i = end + 2;
    } else if (text.startsWith('<!', i)) {
      // DOCTYPE (possibly with an internal subset): skipped, never expanded.
      let depth = 0;
      let j = i + 2;
      for (; j < n; j++) {
        const c = text[j];
        if (c === '[') depth++;
        else if (c === ']') depth--;
        else if (c === '>' && depth <= 0) break;
      }
      if (j >= n) fail(i, '的声明没有结束');
      i = j + 1;
    } else if (text[i + 1] === '/') {
      NAME_RE.lastIndex = i + 2;
      const m = NAME_RE.exec(text);
      if (!m) fail(i, '的结束标签无效');
      const close = text.indexOf('>', NAME_RE.lastIndex);
      if (close < 0 || text.slice(NAME_RE.lastIndex, close).trim()) fail(i, '的结束标签无效');
      const top = stack.pop();
      if (!top) fail(i, `出现了多余的结束标签 </${m![0]}>`);
      if (top!.name !== localName(m![0])) fail(i, `的结束标签 </${m![0]}> 与开始标签 <${top!.name}> 不匹配`);
      top!.endLine = lineAt(i);
      i = close + 1;
    } else {
      NAME_RE.lastIndex = i + 1;
      const m = NAME_RE.exec(text);
      if (!m) fail(i, '的标签名无效');
      const el: XmlElement = { name: localName(m![0]), attrs: {}, children: [], text: '', line: lineAt(i), endLine: 0 };
      let j = NAME_RE.lastIndex;
      for (;;) {
        ATTR_RE.lastIndex = j;
        const a = ATTR_RE.exec(text);
        if (!a) break;
        el.attrs[localName(a[1]!)] = decode(a[2] ?? a[3] ?? '');
        j = ATTR_RE.lastIndex;
      }
      while (j < n && /\s/.test(text[j]!)) j++;
      let selfClosing = false;
      if (text[j] === '/' && text[j + 1] === '>') {
        selfClosing = true;
        j += 2;
      } else if (text[j] === '>') j += 1;
      else fail(j, `的标签 <${m![0]}> 格式错误`);
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(el);
      else if (root) fail(i, '出现了第二个根元素');
      else root = el;
      if (selfClosing) el.endLine = lineAt(j - 1);
      else stack.push(el);
      i = j;
    }
  }
  if (stack.length) fail(n, `：元素 <${stack[stack.length - 1]!.name}> 没有结束`);
  if (!root) throw new ExtractError(`${file} 不是有效的 XML：没有根元素`);
  return root;
}

export const childEl = (el: XmlElement | undefined, name: string): XmlElement | undefined => el?.children.find((c) => c.name === name);
export const childEls = (el: XmlElement | undefined, name: string): XmlElement[] => el?.children.filter((c) => c.name === name) ?? [];
/** Trimmed text of a child element; undefined when absent. */
export const childText = (el: XmlElement | undefined, name: string): string | undefined => {
  const c = childEl(el, name);
  return c ? c.text.trim() : undefined;
};
