// *.gemspec: the gem it specifies (name, version, declared licences), read from Ruby literals
// without evaluating Ruby. Covers the files RubyGems writes for installed gems
// (`specifications/*.gemspec`, with a `# stub:` line) and hand-written ones; a version taken
// from a `VERSION` constant is looked up in lib/<name>/version.rb.
import type { ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { gemPurl } from './gemfile-lock.ts';

const PAIRS: Record<string, string> = { '{': '}', '(': ')', '[': ']', '<': '>' };

/** A Ruby string literal at the start of `src` ("..", '..', %q{..}, %Q(..), %(..)); `.freeze` allowed. */
function rubyString(src: string): string | undefined {
  const s = src.trimStart();
  let m = /^"((?:[^"\\]|\\.)*)"/.exec(s) ?? /^'((?:[^'\\]|\\.)*)'/.exec(s);
  if (m) return m[1]!.replace(/\\(.)/g, '$1');
  m = /^%[qQ]?([{(<[|!/])/.exec(s);
  if (m) {
    const open = m[1]!;
    const close = PAIRS[open] ?? open;
    const end = s.indexOf(close, m[0].length);
    return end < 0 ? undefined : s.slice(m[0].length, end);
  }
  return undefined;
}

/** A Ruby array of string literals (`["MIT", 'BSD']` or `%w[MIT BSD]`), or one string. */
function rubyStrings(src: string): string[] | undefined {
  const s = src.trimStart();
  const w = /^%[wW]([{(<[])/.exec(s);
  if (w) {
    const end = s.indexOf(PAIRS[w[1]!]!, 2);
    return end < 0 ? undefined : s.slice(3, end).trim().split(/\s+/).filter(Boolean);
  }
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    if (end < 0) return undefined;
    const out: string[] = [];
    for (const part of s.slice(1, end).split(',')) {
      if (!part.trim()) continue;
      const value = rubyString(part);
      if (value === undefined) return undefined;
      out.push(value);
    }
    return out;
  }
  const one = rubyString(s);
  return one === undefined ? undefined : [one];
}

export interface GemspecInfo { name?: string; version?: string; versionConstant?: string; licenses: string[]; line?: number; runtimeDependencies: string[] }

export function parseGemspec(text: string): GemspecInfo {
  text = text.replace(/^\uFEFF/, ''); // a byte-order mark is not content
  const info: GemspecInfo = { licenses: [], runtimeDependencies: [] };
  // Older generated specifications repeat development dependencies as add_dependency for old RubyGems.
  const runtime = new Set<string>();
  const development = new Set<string>();
  const stub = /^#\s*stub:\s*(\S+)\s+(\S+)/m.exec(text);
  const lines = text.split('\n');
  // Gem::Specification.new "name", "1.0" do |s|
  const header = /Gem::Specification\.new\s*\(?\s*(["'][^"']+["'])\s*,\s*(["'][^"']+["'])/.exec(text);
  if (header) {
    info.name = rubyString(header[1]!);
    info.version = rubyString(header[2]!);
  }
  for (let i = 0; i < lines.length; i++) {
    // s.add_runtime_dependency(%q<rack>.freeze, [">= 2"]) / s.add_dependency "rack", "~> 2"
    const dep = /^\s*\w+\.add_(runtime_|development_)?dependency\s*\(?\s*(.+)$/.exec(lines[i]!);
    if (dep) {
      const name = rubyString(dep[2]!);
      if (name) (dep[1] === 'development_' ? development : runtime).add(name);
      continue;
    }
    const m = /^\s*\w+\.(name|version|licenses?)\s*=\s*(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value = m[2]!;
    if (m[1] === 'name') {
      const name = rubyString(value);
      if (name !== undefined && info.name === undefined) {
        info.name = name;
        info.line = i + 1;
      }
    } else if (m[1] === 'version') {
      const literal = rubyString(value) ?? rubyString(/^\s*Gem::Version\.new\s*\(?\s*(.*)$/.exec(value)?.[1] ?? '');
      if (literal !== undefined) info.version ??= literal;
      else if (/^\s*([A-Z]\w*(::[A-Z]\w*)*)/.test(value)) info.versionConstant ??= /^\s*([A-Z]\w*(?:::[A-Z]\w*)*)/.exec(value)![1]!;
    } else {
      const list = rubyStrings(value);
      if (list) for (const l of list) if (l && !info.licenses.includes(l)) info.licenses.push(l);
    }
  }
  info.runtimeDependencies = [...runtime].filter((d) => !development.has(d));
  if (stub) {
    info.name ??= stub[1]!;
    info.version ??= stub[2]!;
  }
  return info;
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const joinPath = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);

async function versionFromConstant(file: string, name: string, ctx: ExtractContext): Promise<string | undefined> {
  const dir = dirOf(file);
  const candidates = [...new Set([name, name.replace(/-/g, '/'), name.replace(/-/g, '_')])].map((n) => joinPath(dir, `lib/${n}/version.rb`));
  for (const candidate of candidates) {
    const text = await ctx.readText(candidate).catch(() => undefined);
    if (text === undefined) continue;
    const m = /\bVERSION\s*=\s*(.+)$/m.exec(text);
    const v = m ? rubyString(m[1]!) : undefined;
    if (v) return v;
  }
  return undefined;
}

/** `nokogiri-1.15.4-x86_64-linux.gemspec` -> nokogiri, 1.15.4 (RubyGems names specifications `<name>-<version>[-<platform>]`). */
function specFileName(fileName: string): { name: string; version: string } | undefined {
  const m = /^(.+?)-(\d[^-]*)(?:-[^/]+)?\.gemspec$/.exec(fileName);
  return m ? { name: m[1]!, version: m[2]! } : undefined;
}

/** name -> version of the gems whose specifications sit in `dir` (and its `default/` folder of default gems, or the folder above it). */
async function installedSpecs(dir: string, ctx: ExtractContext): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const dirs = dir.endsWith('/default') || dir === 'default' ? [dir, dirOf(dir)] : [dir, joinPath(dir, 'default')];
  for (const d of dirs) {
    for (const n of await ctx.list(d)) {
      const spec = specFileName(n);
      if (spec && !out.has(spec.name)) out.set(spec.name, spec.version);
    }
  }
  return out;
}

/** A gem's own gemspec unpacked with it (`gems/rake-13.0.6/rake.gemspec`) when RubyGems also keeps its specification. */
async function isUnpackedCopy(path: string, ctx: ExtractContext): Promise<boolean> {
  const m = /^(?:(.*)\/)?gems\/([^/]+)\/[^/]+\.gemspec$/.exec(path);
  return !!m && ctx.exists(joinPath(joinPath(m[1] ?? '', 'specifications'), `${m[2]}.gemspec`));
}

async function extractGemspec(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  if (await isUnpackedCopy(file.path, ctx)) return [];
  const text = await file.text();
  if (!/Gem::Specification/.test(text) && !/^#\s*stub:/m.test(text)) {
    throw new ExtractError(`无法解析 ${file.path}：没有 Gem::Specification，不是 gemspec 文件`);
  }
  const info = parseGemspec(text);
  if (!info.name) throw new ExtractError(`无法解析 ${file.path}：gem 名称不是字面量，无法确定`);
  let version = info.version;
  if (version === undefined && info.versionConstant) version = await versionFromConstant(file.path, info.name, ctx);
  const purl = gemPurl(info.name, version ?? '');
  // An installed specification (RubyGems' specifications/ folder): its runtime dependencies are the gems installed beside it.
  const dependsOn: string[] = [];
  if (info.runtimeDependencies.length && /(^|\/)specifications(\/default)?\/[^/]+$/.test(file.path)) {
    const installed = await installedSpecs(dirOf(file.path), ctx);
    for (const dep of info.runtimeDependencies) {
      const v = installed.get(dep);
      if (v !== undefined) dependsOn.push(gemPurl(dep, v));
    }
  }
  return [{
    file: file.path,
    type: 'gemspec',
    ecosystem: 'gem',
    project: null,
    roots: [],
    components: [{
      purl,
      ecosystem: 'gem',
      name: info.name,
      version: version ?? '',
      direct: false,
      scope: 'runtime',
      locations: [{ file: file.path, ...(info.line ? { startLine: info.line, endLine: info.line } : {}) }],
      licenses: info.licenses,
      dependsOn,
    }],
  }];
}

export const gemspecExtractor: Extractor = {
  name: 'gemspec',
  ecosystem: 'gem',
  reads: ['*.gemspec'],
  matches: (path) => path.endsWith('.gemspec'),
  extract: extractGemspec,
};
