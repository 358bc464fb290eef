// go.mod and go.sum syntax, and the ordering of Go module versions (semantic versions with a
// leading `v`; `+incompatible` and other build metadata do not take part in the ordering).
import { ExtractError } from '../../model.ts';

export interface Require { path: string; version: string; indirect: boolean; line: number }
export interface Replace { oldPath: string; oldVersion?: string; newPath: string; newVersion?: string; line: number }
export interface Exclude { path: string; version: string; line: number }

export interface ModFile {
  module?: { path: string; line: number };
  go?: string;
  toolchain?: string;
  requires: Require[];
  replaces: Replace[];
  excludes: Exclude[];
}

const VERBS = new Set(['module', 'go', 'toolchain', 'godebug', 'require', 'exclude', 'replace', 'retract', 'tool', 'ignore']);

/** Splits one line into tokens (bare words, "quoted" and `raw` strings) and its `//` comment. */
function tokenize(line: string, file: string, lineNo: number): { tokens: string[]; comment: string | undefined } {
  const tokens: string[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\r') { i++; continue; }
    if (ch === '/' && line[i + 1] === '/') return { tokens, comment: line.slice(i + 2).trim() };
    if (ch === '"') {
      let j = i + 1;
      let value = '';
      while (j < line.length && line[j] !== '"') {
        if (line[j] === '\\' && j + 1 < line.length) { value += line[j + 1]; j += 2; continue; }
        value += line[j];
        j++;
      }
      if (j >= line.length) throw new ExtractError(`无法解析 ${file}：第 ${lineNo} 行引号未闭合`);
      tokens.push(value);
      i = j + 1;
      continue;
    }
    if (ch === '`') {
      const end = line.indexOf('`', i + 1);
      if (end < 0) throw new ExtractError(`无法解析 ${file}：第 ${lineNo} 行引号未闭合`);
      tokens.push(line.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    if (ch === '(' || ch === ')') { tokens.push(ch); i++; continue; }
    let j = i;
    while (j < line.length && !' \t\r()"`'.includes(line[j]!) && !(line[j] === '/' && line[j + 1] === '/')) j++;
    tokens.push(line.slice(i, j));
    i = j;
  }
  return { tokens, comment: undefined };
}

export function parseModFile(text: string, file: string): ModFile {
  text = text.replace(/^\uFEFF/, ''); // a byte-order mark is not content
  const mod: ModFile = { requires: [], replaces: [], excludes: [] };
  const lines = text.split('\n');
  let block: string | undefined;
  const bad = (lineNo: number, what: string): never => {
    throw new ExtractError(`无法解析 ${file}：第 ${lineNo} 行${what}`);
  };
  const entry = (verb: string, args: string[], comment: string | undefined, lineNo: number) => {
    switch (verb) {
      case 'module':
        if (args.length !== 1) bad(lineNo, ' module 指令格式错误');
        mod.module = { path: args[0]!, line: lineNo };
        break;
      case 'go':
        if (args.length !== 1) bad(lineNo, ' go 指令格式错误');
        mod.go = args[0]!;
        break;
      case 'toolchain':
        if (args.length !== 1) bad(lineNo, ' toolchain 指令格式错误');
        mod.toolchain = args[0]!;
        break;
      case 'require':
        if (args.length !== 2) bad(lineNo, ' require 应为“模块路径 版本”');
        mod.requires.push({ path: args[0]!, version: args[1]!, indirect: comment !== undefined && /^indirect\b/.test(comment), line: lineNo });
        break;
      case 'exclude':
        if (args.length !== 2) bad(lineNo, ' exclude 应为“模块路径 版本”');
        mod.excludes.push({ path: args[0]!, version: args[1]!, line: lineNo });
        break;
      case 'replace': {
        const arrow = args.indexOf('=>');
        if (arrow < 1 || arrow > 2 || args.length - arrow - 1 < 1 || args.length - arrow - 1 > 2) bad(lineNo, ' replace 应为“旧模块 [版本] => 新模块 [版本]”');
        const r: Replace = { oldPath: args[0]!, newPath: args[arrow + 1]!, line: lineNo };
        if (arrow === 2) r.oldVersion = args[1]!;
        if (args.length - arrow - 1 === 2) r.newVersion = args[arrow + 2]!;
        mod.replaces.push(r);
        break;
      }
      default:
        // godebug, retract, tool, ignore: no components.
        break;
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const { tokens, comment } = tokenize(lines[i]!, file, lineNo);
    if (!tokens.length) continue;
    if (block !== undefined) {
      if (tokens[0] === ')') {
        if (tokens.length > 1) bad(lineNo, '右括号后有多余内容');
        block = undefined;
        continue;
      }
      entry(block, tokens, comment, lineNo);
      continue;
    }
    const verb = tokens[0]!;
    if (!VERBS.has(verb)) bad(lineNo, `不是 go.mod 指令：“${verb.slice(0, 40)}”`);
    if (tokens[1] === '(') {
      if (tokens.length === 2) { block = verb; continue; }
      if (tokens.length === 3 && tokens[2] === ')') continue; // `require ()`
      bad(lineNo, '块的左括号后应换行');
    }
    entry(verb, tokens.slice(1), comment, lineNo);
  }
  if (block !== undefined) throw new ExtractError(`无法解析 ${file}：${block} 块缺少右括号`);
  return mod;
}

export interface SumEntry { path: string; version: string; line: number; goModOnly: boolean }

/** go.sum lines `path version[/go.mod] hash`; malformed lines are skipped (the file is advisory). */
export function parseGoSum(text: string): SumEntry[] {
  text = text.replace(/^\uFEFF/, ''); // a byte-order mark is not content
  const out: SumEntry[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const fields = lines[i]!.trim().split(/\s+/);
    if (fields.length !== 3 || !fields[2]!.includes(':')) continue;
    const goModOnly = fields[1]!.endsWith('/go.mod');
    const version = goModOnly ? fields[1]!.slice(0, -'/go.mod'.length) : fields[1]!;
    if (!version.startsWith('v')) continue;
    out.push({ path: fields[0]!, version, line: i + 1, goModOnly });
  }
  return out;
}

interface Parsed { nums: number[]; pre: string[] | undefined }

function parseSemver(v: string): Parsed | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(v);
  if (!m) return undefined;
  return { nums: [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)], pre: m[4] === undefined ? undefined : m[4].split('.') };
}

/** Go module version order (semver 2.0 precedence); invalid versions sort before valid ones. */
export function compareGoVersions(a: string, b: string): number {
  const pa = parseSemver(a);
  const pb = parseSemver(b);
  if (!pa || !pb) return pa ? 1 : pb ? -1 : a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < 3; i++) if (pa.nums[i] !== pb.nums[i]) return pa.nums[i]! < pb.nums[i]! ? -1 : 1;
  if (!pa.pre || !pb.pre) return pa.pre ? -1 : pb.pre ? 1 : 0;
  const n = Math.min(pa.pre.length, pb.pre.length);
  for (let i = 0; i < n; i++) {
    const x = pa.pre[i]!;
    const y = pb.pre[i]!;
    if (x === y) continue;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) return Number(x) < Number(y) ? -1 : 1;
    if (xn !== yn) return xn ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return pa.pre.length === pb.pre.length ? 0 : pa.pre.length < pb.pre.length ? -1 : 1;
}

/** Whether a `go` directive names a language version before 1.17 (absent means 1.16). */
export function goBefore117(go: string | undefined): boolean {
  if (!go) return true;
  const m = /^(\d+)\.(\d+)/.exec(go);
  if (!m) return false;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  return major < 1 || (major === 1 && minor < 17);
}

/** A replacement target without a version is a directory on disk, not a module download. */
export const isLocalReplacement = (r: { newPath: string; newVersion?: string }) =>
  r.newVersion === undefined || /^(\.{1,2}[/\\]|[/\\]|[A-Za-z]:[/\\])/.test(r.newPath) || r.newPath === '.' || r.newPath === '..';
