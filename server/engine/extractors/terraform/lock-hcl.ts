// Terraform / OpenTofu dependency lock file `.terraform.lock.hcl`, written by `terraform init` /
// `tofu init`: one `provider "<hostname>/<namespace>/<type>" { version = "…" constraints = "…"
// hashes = [ … ] }` block per provider the configuration (root module and the modules it calls)
// requires. It records neither edges nor which module asked for a provider, so every provider is a
// root. The name is the full source address as the lock file writes it (what syft reports,
// `registry.terraform.io/hashicorp/aws`); the purl follows purl-spec's terraform type
// (`pkg:terraform/hashicorp/aws@5.72.1`), with `repository_url` for a registry other than the
// default registry.terraform.io (OpenTofu's registry.opentofu.org, a private registry).
//
// The lock file is HCL native syntax limited to blocks with string labels and attributes whose
// values are strings or lists of strings; a small reader of that subset (comments `#`, `//`,
// `/* */`, quoted strings with escapes, lists, nested blocks skipped) stands here instead of a
// general HCL parser. Anything else (an unterminated block or string, a stray token) is an
// ExtractError naming the line.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

export const DEFAULT_REGISTRY = 'registry.terraform.io';

type Token =
  | { t: 'ident'; v: string; line: number }
  | { t: 'str'; v: string; line: number }
  | { t: 'punct'; v: string; line: number }
  | { t: 'other'; v: string; line: number };

class HclSyntaxError extends Error {
  readonly line: number;

  constructor(message: string, line: number) {
    super(message);
    this.line = line;
  }
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') { line++; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\uFEFF') { i++; continue; }
    if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const start = line;
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new HclSyntaxError('注释 /* 未结束', start);
      for (let k = i; k < end; k++) if (text[k] === '\n') line++;
      i = end + 2;
      continue;
    }
    if (c === '"') {
      const start = line;
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length || text[i] === '\n') throw new HclSyntaxError('字符串未结束', start);
        const d = text[i]!;
        if (d === '"') { i++; break; }
        if (d === '\\') {
          const e = text[i + 1] ?? '';
          if (e === 'u' || e === 'U') {
            const len = e === 'u' ? 4 : 8;
            const hex = text.slice(i + 2, i + 2 + len);
            if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) throw new HclSyntaxError('字符串中的 \\u 转义无效', start);
            value += String.fromCodePoint(parseInt(hex, 16));
            i += 2 + len;
            continue;
          }
          if (!(e in ESCAPES)) throw new HclSyntaxError(`字符串中的转义 \\${e} 无效`, start);
          value += ESCAPES[e];
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      tokens.push({ t: 'str', v: value, line: start });
      continue;
    }
    if ('{}[]=,'.includes(c)) { tokens.push({ t: 'punct', v: c, line }); i++; continue; }
    const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i, i + 200));
    if (m) { tokens.push({ t: 'ident', v: m[0], line }); i += m[0].length; continue; }
    const other = /^[^\s{}[\]=,"#]+/.exec(text.slice(i, i + 200))![0];
    tokens.push({ t: 'other', v: other, line });
    i += other.length;
  }
  return tokens;
}

/** An attribute value of the subset: a string, a list of strings, or something else kept as its text. */
type Value = { kind: 'str'; v: string } | { kind: 'list'; items: string[] } | { kind: 'other' };

export interface HclBlock {
  type: string;
  labels: string[];
  attributes: Map<string, Value>;
  blocks: HclBlock[];
  line: number;
  endLine: number;
}

/** The top-level blocks of an HCL file of the lock file's subset. */
export function parseHclBlocks(text: string): HclBlock[] {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos];
  const lastLine = () => tokens[tokens.length - 1]?.line ?? 1;

  const value = (): Value => {
    const tok = tokens[pos];
    if (!tok) throw new HclSyntaxError('属性缺少值', lastLine());
    if (tok.t === 'str') { pos++; return { kind: 'str', v: tok.v }; }
    if (tok.t === 'punct' && tok.v === '[') {
      pos++;
      const items: string[] = [];
      let plain = true;
      for (;;) {
        const t = tokens[pos];
        if (!t) throw new HclSyntaxError('列表 [ 未结束', tok.line);
        if (t.t === 'punct' && t.v === ']') { pos++; break; }
        if (t.t === 'punct' && t.v === ',') { pos++; continue; }
        if (t.t === 'str') { items.push(t.v); pos++; continue; }
        if (t.t === 'punct' && (t.v === '[' || t.v === '{')) { skipNested(); plain = false; continue; }
        if (t.t === 'punct' && (t.v === '}' || t.v === '=')) throw new HclSyntaxError(`列表中出现意外的 ${t.v}`, t.line);
        plain = false;
        pos++;
      }
      return plain ? { kind: 'list', items } : { kind: 'other' };
    }
    if (tok.t === 'punct' && tok.v === '{') { skipNested(); return { kind: 'other' }; }
    if (tok.t === 'punct') throw new HclSyntaxError(`属性值处出现意外的 ${tok.v}`, tok.line);
    // A bare expression (true, 3, a.b): its tokens up to the end of its line.
    const line = tok.line;
    while (tokens[pos] && tokens[pos]!.line === line && !(tokens[pos]!.t === 'punct' && tokens[pos]!.v === '}')) pos++;
    return { kind: 'other' };
  };

  /** Skips a bracketed value ([…] or {…}) with whatever it holds. */
  const skipNested = () => {
    const open = tokens[pos]!;
    let depth = 0;
    for (; pos < tokens.length; pos++) {
      const t = tokens[pos]!;
      if (t.t !== 'punct') continue;
      if (t.v === '[' || t.v === '{') depth++;
      else if (t.v === ']' || t.v === '}') {
        depth--;
        if (depth === 0) { pos++; return; }
      }
    }
    throw new HclSyntaxError(`${open.v} 未结束`, open.line);
  };

  const body = (closing: boolean, openLine: number): { attributes: Map<string, Value>; blocks: HclBlock[]; endLine: number } => {
    const attributes = new Map<string, Value>();
    const blocks: HclBlock[] = [];
    for (;;) {
      const tok = peek();
      if (!tok) {
        if (closing) throw new HclSyntaxError('块 { 未结束', openLine);
        return { attributes, blocks, endLine: lastLine() };
      }
      if (tok.t === 'punct' && tok.v === '}') {
        if (!closing) throw new HclSyntaxError('多余的 }', tok.line);
        pos++;
        return { attributes, blocks, endLine: tok.line };
      }
      if (tok.t !== 'ident') throw new HclSyntaxError(`此处应为属性或块名，却是 ${tok.v}`, tok.line);
      pos++;
      const next = peek();
      if (next?.t === 'punct' && next.v === '=') {
        pos++;
        attributes.set(tok.v, value());
        continue;
      }
      const labels: string[] = [];
      while (peek()?.t === 'str' || peek()?.t === 'ident') labels.push(tokens[pos++]!.v);
      const brace = peek();
      if (!(brace?.t === 'punct' && brace.v === '{')) throw new HclSyntaxError(`块 ${tok.v} 缺少 {`, brace?.line ?? tok.line);
      pos++;
      const inner = body(true, brace.line);
      blocks.push({ type: tok.v, labels, attributes: inner.attributes, blocks: inner.blocks, line: tok.line, endLine: inner.endLine });
    }
  };

  return body(false, 1).blocks;
}

const str = (v: Value | undefined): string | undefined => (v?.kind === 'str' ? v.v : undefined);

/** `registry.terraform.io/hashicorp/aws` (or the legacy `hashicorp/aws`) → hostname, namespace, type. */
export function providerAddress(source: string): { hostname: string; namespace: string; type: string } | null {
  const parts = source.trim().split('/');
  if (parts.some((p) => !p)) return null;
  if (parts.length === 3) return { hostname: parts[0]!.toLowerCase(), namespace: parts[1]!, type: parts[2]! };
  if (parts.length === 2) return { hostname: DEFAULT_REGISTRY, namespace: parts[0]!, type: parts[1]! };
  return null;
}

/** The purl of a provider: pkg:terraform/<namespace>/<type>@<version>, the registry as repository_url unless it is the default. */
export function terraformPurl(source: string, version: string): string | null {
  const address = providerAddress(source);
  if (!address) return null;
  const qualifiers = address.hostname === DEFAULT_REGISTRY ? null : { repository_url: `https://${address.hostname}` };
  return purlOf('terraform', { namespace: address.namespace, name: address.type, version, qualifiers });
}

export function parseTerraformLock(text: string, file: string): Target {
  let blocks: HclBlock[];
  try {
    blocks = parseHclBlocks(text);
  } catch (error) {
    if (error instanceof HclSyntaxError) throw new ExtractError(`${file} 不是有效的 Terraform 依赖锁文件（第 ${error.line} 行）：${error.message}`);
    throw error;
  }
  const components = new Map<string, Component>();
  for (const block of blocks) {
    if (block.type !== 'provider') continue;
    const source = block.labels[0];
    if (block.labels.length !== 1 || !source) throw new ExtractError(`${file} 第 ${block.line} 行的 provider 块应有且只有一个来源地址标签`);
    const address = providerAddress(source);
    if (!address) throw new ExtractError(`${file} 第 ${block.line} 行的 provider 来源地址“${source}”无效：应为 主机名/命名空间/类型`);
    const version = str(block.attributes.get('version')) ?? '';
    const purl = terraformPurl(source, version)!;
    const name = `${address.hostname}/${address.namespace}/${address.type}`;
    if (components.has(purl)) continue;
    components.set(purl, {
      purl, ecosystem: 'terraform', name, version, direct: true, scope: 'runtime',
      locations: [{ file, startLine: block.line, endLine: block.endLine }], licenses: [], dependsOn: [],
    });
  }
  const list = [...components.values()];
  return { file, type: 'terraform', ecosystem: 'terraform', project: null, roots: list.map((c) => c.purl), components: list };
}

export const terraformLockExtractor: Extractor = {
  name: 'terraform',
  ecosystem: 'terraform',
  reads: ['.terraform.lock.hcl'],
  matches: (p) => baseName(p) === '.terraform.lock.hcl',
  async extract(file: InputFile) {
    return [parseTerraformLock(await file.text(), file.path)];
  },
};
