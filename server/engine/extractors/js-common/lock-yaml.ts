// A fast reader for the YAML that pnpm and yarn berry write: block mappings and sequences by
// indentation, plain / single- / double-quoted scalars, one-line flow collections. It is several
// times faster than a general YAML parser on multi-megabyte lockfiles. Anything outside that
// subset (anchors, tags, block scalars, multi-line scalars, odd indentation) makes it return
// undefined so the caller falls back to the full `yaml` library.
import { parse as parseYaml } from 'yaml';
import { ExtractError } from '../../model.ts';

class Unsupported extends Error {}
const unsupported = (): never => {
  throw new Unsupported();
};

type Container = Record<string, unknown> | unknown[];

function setKey(obj: Record<string, unknown>, key: string, value: unknown) {
  if (key === '__proto__') unsupported();
  obj[key] = value;
}

function plain(s: string): unknown {
  if (s === 'true') return true;
  if (s === 'false') return false;
  if (s === 'null' || s === '~') return null;
  return s;
}

function quoted(s: string): string {
  if (s[0] === "'") {
    if (s.length < 2 || s[s.length - 1] !== "'") unsupported();
    const inner = s.slice(1, -1);
    if (inner.replace(/''/g, '').includes("'")) unsupported();
    return inner.replace(/''/g, "'");
  }
  try {
    const v = JSON.parse(s) as unknown;
    return typeof v === 'string' ? v : unsupported();
  } catch {
    return unsupported();
  }
}

/** One-line flow collections: `{integrity: sha512-x}`, `[darwin, linux]`, `{node: '>=14'}`. */
function flow(s: string): unknown {
  let i = 0;
  const ws = () => { while (s[i] === ' ') i++; };
  const scalar = (stops: string): unknown => {
    ws();
    if (s[i] === "'" || s[i] === '"') {
      const q = s[i];
      let j = i + 1;
      for (; j < s.length; j++) {
        if (s[j] === '\\' && q === '"') { j++; continue; }
        if (s[j] === q) { if (q === "'" && s[j + 1] === "'") { j++; continue; } break; }
      }
      const v = quoted(s.slice(i, j + 1));
      i = j + 1;
      return v;
    }
    let j = i;
    while (j < s.length && !stops.includes(s[j]) && !(s[j] === ':' && stops.includes(':') && (s[j + 1] === ' ' || s[j + 1] === undefined))) j++;
    const v = s.slice(i, j).trim();
    i = j;
    return plain(v);
  };
  const value = (): unknown => {
    ws();
    if (s[i] === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (s[i] === '}') { i++; return obj; }
      for (;;) {
        const k = scalar(':,}');
        ws();
        if (s[i] !== ':') unsupported();
        i++;
        setKey(obj, String(k), value());
        ws();
        if (s[i] === ',') { i++; continue; }
        if (s[i] === '}') { i++; return obj; }
        unsupported();
      }
    }
    if (s[i] === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (s[i] === ']') { i++; return arr; }
      for (;;) {
        arr.push(value());
        ws();
        if (s[i] === ',') { i++; continue; }
        if (s[i] === ']') { i++; return arr; }
        unsupported();
      }
    }
    return scalar(',}]');
  };
  const v = value();
  ws();
  if (i !== s.length) unsupported();
  return v;
}

function scalarValue(s: string): unknown {
  const c = s[0];
  if (c === "'" || c === '"') return quoted(s);
  if (c === '{' || c === '[') return flow(s);
  if ('&*!|>%@`'.includes(c) || s.includes(' #')) unsupported();
  return plain(s);
}

function fastParse(text: string): unknown {
  const root: Record<string, unknown> = {};
  const stack: Array<{ indent: number; obj: Container }> = [{ indent: 0, obj: root }];
  let pending: { parent: Record<string, unknown>; key: string; indent: number } | undefined;
  let seenContent = false;
  let start = 0;
  const n = text.length;
  while (start < n) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = n;
    let line = text.slice(start, end);
    start = end + 1;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    let indent = 0;
    while (line.charCodeAt(indent) === 32) indent++;
    if (line.charCodeAt(indent) === 9) unsupported();
    const content = line.slice(indent).trimEnd();
    if (!content || content[0] === '#') continue;
    if (content === '---' && !seenContent && indent === 0) continue;
    seenContent = true;
    const isItem = content === '-' || content.startsWith('- ');
    if (pending) {
      const container: Container | null = indent > pending.indent ? (isItem ? [] : {}) : null;
      setKey(pending.parent, pending.key, container);
      if (container) stack.push({ indent, obj: container });
      pending = undefined;
    }
    while (stack.length > 1 && stack[stack.length - 1].indent > indent) stack.pop();
    const top = stack[stack.length - 1];
    if (top.indent !== indent) unsupported();
    if (Array.isArray(top.obj)) {
      if (!isItem) unsupported();
      const item = content.slice(1).trim();
      if (!item || /^[^'"{[].*?:( |$)/.test(item)) unsupported();
      top.obj.push(scalarValue(item));
      continue;
    }
    if (isItem) unsupported();
    let key: string;
    let rest: string;
    const c = content[0];
    if (c === "'" || c === '"') {
      let j = 1;
      for (; j < content.length; j++) {
        if (content[j] === '\\' && c === '"') { j++; continue; }
        if (content[j] === c) { if (c === "'" && content[j + 1] === "'") { j++; continue; } break; }
      }
      key = quoted(content.slice(0, j + 1));
      rest = content.slice(j + 1);
      if (rest[0] !== ':') unsupported();
      rest = rest.slice(1);
    } else {
      if ('&*!|>?%@`{[-'.includes(c)) unsupported();
      const colon = content.indexOf(': ');
      if (colon >= 0) { key = content.slice(0, colon); rest = content.slice(colon + 1); }
      else if (content.endsWith(':')) { key = content.slice(0, -1); rest = ''; }
      else return unsupported();
    }
    rest = rest.trim();
    if (!rest) pending = { parent: top.obj, key, indent };
    else setKey(top.obj, key, scalarValue(rest));
  }
  if (pending) setKey(pending.parent, pending.key, null);
  return root;
}

/** Parses a lockfile's YAML: the fast subset reader first, the full library when it declines. */
export function parseLockYaml(text: string, file: string, label: string): unknown {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return fastParse(text);
  } catch (error) {
    // Too deep for the quick reader's recursion: let the full parser decide.
    if (!(error instanceof Unsupported) && !(error instanceof RangeError)) throw error;
  }
  try {
    return parseYaml(text, { maxAliasCount: 100, uniqueKeys: false });
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ExtractError(`${file} 不是有效的 ${label}（YAML 格式错误）：${detail}`);
  }
}
