// Go modules: go.mod (with the go.sum beside it for go < 1.17, whose go.mod does not list the
// indirect requirements) and vendor/modules.txt. `go mod` semantics are the reference:
//  - several requirements of one module path collapse to the highest version (MVS);
//  - `replace` swaps the module for another module version; a replacement by a directory is the
//    project's own code, not a third-party module, and is dropped;
//  - an excluded version is not selected: the next higher version go.sum knows of, else unknown;
//  - the go and toolchain directives are not components (the standard library version they
//    name is a minimum, not what was built).
import type { Component, ExtractContext, Extractor, InputFile, Location, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { golangPurl } from '../../purl.ts';
import { compareGoVersions, goBefore117, isLocalReplacement, parseGoSum, parseModFile } from './modfile.ts';
import type { ModFile, Replace, SumEntry } from './modfile.ts';

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const joinPath = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);

interface Selected { path: string; version: string; indirect: boolean; location: Location }

function replaceIndex(replaces: Replace[]): (path: string, version: string) => Replace | undefined {
  const byPath = new Map<string, Replace[]>();
  for (const r of replaces) {
    const list = byPath.get(r.oldPath);
    if (list) list.push(r);
    else byPath.set(r.oldPath, [r]);
  }
  // A version-specific replacement wins over one for every version; the last one written wins.
  return (path, version) => {
    let wildcard: Replace | undefined;
    let exact: Replace | undefined;
    for (const r of byPath.get(path) ?? []) {
      if (r.oldVersion === version) exact = r;
      else if (r.oldVersion === undefined) wildcard = r;
    }
    return exact ?? wildcard;
  };
}

export function componentsFromModFile(mod: ModFile, file: string, sum: { entries: SumEntry[]; file: string } | undefined): Target {
  const findReplace = replaceIndex(mod.replaces);
  const excluded = new Set(mod.excludes.map((e) => `${e.path}@${e.version}`));
  const sumVersions = new Map<string, SumEntry[]>();
  for (const e of sum?.entries ?? []) {
    const list = sumVersions.get(e.path);
    if (list) list.push(e);
    else sumVersions.set(e.path, [e]);
  }

  // Requirements: highest version per module path; direct when any requirement is.
  const selected = new Map<string, Selected>();
  for (const r of mod.requires) {
    const seen = selected.get(r.path);
    if (!seen) {
      selected.set(r.path, { path: r.path, version: r.version, indirect: r.indirect, location: { file, startLine: r.line, endLine: r.line } });
      continue;
    }
    if (compareGoVersions(r.version, seen.version) > 0) {
      seen.version = r.version;
      seen.location = { file, startLine: r.line, endLine: r.line };
    }
    seen.indirect &&= r.indirect;
  }
  // An excluded version gives way to the next higher version go.sum records.
  for (const s of selected.values()) {
    if (!excluded.has(`${s.path}@${s.version}`)) continue;
    const higher = (sumVersions.get(s.path) ?? [])
      .filter((e) => compareGoVersions(e.version, s.version) > 0 && !excluded.has(`${e.path}@${e.version}`))
      .sort((a, b) => compareGoVersions(a.version, b.version));
    s.version = higher[0]?.version ?? '';
  }
  // Before go 1.17 go.mod lists only what the main module needs itself; the rest of the build
  // list is in go.sum (its highest version per module path, as `go list -m all` would select).
  if (sum && goBefore117(mod.go)) {
    for (const [path, entries] of sumVersions) {
      if (selected.has(path) || path === mod.module?.path) continue;
      let best: SumEntry | undefined;
      for (const e of entries) {
        if (excluded.has(`${path}@${e.version}`)) continue;
        if (!best || compareGoVersions(e.version, best.version) > 0) best = e;
      }
      if (best) selected.set(path, { path, version: best.version, indirect: true, location: { file: sum.file, startLine: best.line, endLine: best.line } });
    }
  }

  const components = new Map<string, Component>();
  for (const s of selected.values()) {
    let path = s.path;
    let version = s.version;
    const locations = [s.location];
    const replace = findReplace(s.path, s.version);
    if (replace) {
      if (isLocalReplacement(replace)) continue;
      path = replace.newPath;
      version = replace.newVersion!;
      locations.push({ file, startLine: replace.line, endLine: replace.line });
    }
    const purl = golangPurl(path, version);
    const existing = components.get(purl);
    if (existing) {
      existing.direct ||= !s.indirect;
      continue;
    }
    components.set(purl, { purl, ecosystem: 'golang', name: path, version, direct: !s.indirect, scope: 'runtime', locations, licenses: [], dependsOn: [] });
  }
  const list = [...components.values()];
  return {
    file,
    type: 'gomod',
    ecosystem: 'golang',
    project: mod.module ? { purl: golangPurl(mod.module.path, ''), name: mod.module.path, version: '' } : null,
    roots: list.filter((c) => c.direct).map((c) => c.purl),
    components: list,
  };
}

async function extractGoMod(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const mod = parseModFile(await file.text(), file.path);
  let sum: { entries: SumEntry[]; file: string } | undefined;
  // go.sum completes the build list before go 1.17 and tells what follows an excluded version.
  if (goBefore117(mod.go) || mod.excludes.length) {
    const sumPath = joinPath(dirOf(file.path), 'go.sum');
    const text = await ctx.readText(sumPath).catch(() => undefined);
    if (text !== undefined) sum = { entries: parseGoSum(text), file: sumPath };
  }
  return [componentsFromModFile(mod, file.path, sum)];
}

// vendor/modules.txt: `# path version [=> new [version]]` opens a module, `## explicit` says
// go.mod requires it, the lines after it are its vendored packages. `# path => new version`
// records a replacement of every version of `path`.
interface VendoredModule { path: string; version: string; replacement?: { path: string; version?: string }; explicit: boolean; packages: number; line: number }

function parseModulesTxt(text: string): VendoredModule[] {
  text = text.replace(/^\uFEFF/, ''); // a byte-order mark is not content
  const modules: VendoredModule[] = [];
  const wildcards = new Map<string, { path: string; version?: string; line: number }>();
  let current: VendoredModule | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith('## ')) {
      if (current && line.slice(3).split(';').some((part) => part.trim() === 'explicit')) current.explicit = true;
      continue;
    }
    if (!line.startsWith('# ')) {
      if (current && line && !line.startsWith('#')) current.packages++;
      continue;
    }
    current = undefined;
    const fields = line.slice(2).trim().split(/\s+/);
    const arrow = fields.indexOf('=>');
    const left = arrow < 0 ? fields : fields.slice(0, arrow);
    const right = arrow < 0 ? [] : fields.slice(arrow + 1);
    if (left.length === 1 && arrow === 1 && (right.length === 1 || right.length === 2)) {
      // Replacement of every version: applies to the module line of that path.
      const w: { path: string; version?: string; line: number } = { path: right[0]!, line: i + 1 };
      if (right.length === 2) w.version = right[1]!;
      wildcards.set(left[0]!, w);
      // Go writes it after the modules; a `## explicit` line after it marks the module it names.
      if (right.length === 2 && /^v\d/.test(right[1]!)) {
        current = { path: left[0]!, version: '', replacement: { path: right[0]!, version: right[1]! }, explicit: false, packages: 0, line: i + 1 };
        modules.push(current);
      }
      continue;
    }
    if (left.length !== 2 || !/^v\d/.test(left[1]!)) continue; // malformed or not a module line
    current = { path: left[0]!, version: left[1]!, explicit: false, packages: 0, line: i + 1 };
    if (arrow >= 0) {
      if (right.length === 1) current.replacement = { path: right[0]! };
      else if (right.length === 2 && /^v\d/.test(right[1]!)) current.replacement = { path: right[0]!, version: right[1]! };
    }
    modules.push(current);
  }
  // A replacement-only line that vendors nothing is a replace directive, not a module in use.
  const used = modules.filter((m) => m.version || m.explicit || m.packages > 0);
  for (const m of used) {
    const w = wildcards.get(m.path);
    if (!m.replacement && w) m.replacement = w.version === undefined ? { path: w.path } : { path: w.path, version: w.version };
  }
  return used;
}

async function extractVendorModules(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const text = await file.text();
  if (text.includes('\0')) throw new ExtractError(`无法解析 ${file.path}：不是文本文件`);
  const modules = parseModulesTxt(text);
  // The go.mod beside vendor/ says which requirements are indirect and names the project.
  const goModPath = joinPath(dirOf(dirOf(file.path)), 'go.mod');
  let mod: ModFile | undefined;
  const goModText = await ctx.readText(goModPath).catch(() => undefined);
  if (goModText !== undefined) {
    try {
      mod = parseModFile(goModText, goModPath);
    } catch {
      mod = undefined;
    }
  }
  const indirect = new Map<string, boolean>();
  for (const r of mod?.requires ?? []) indirect.set(r.path, (indirect.get(r.path) ?? true) && r.indirect);

  const components = new Map<string, Component>();
  for (const m of modules) {
    let path = m.path;
    let version = m.version;
    if (m.replacement) {
      if (isLocalReplacement({ newPath: m.replacement.path, ...(m.replacement.version ? { newVersion: m.replacement.version } : {}) })) continue;
      path = m.replacement.path;
      version = m.replacement.version!;
    }
    if (!version) continue;
    const direct = mod ? indirect.get(m.path) === false : m.explicit;
    const purl = golangPurl(path, version);
    const existing = components.get(purl);
    if (existing) {
      existing.direct ||= direct;
      continue;
    }
    components.set(purl, {
      purl, ecosystem: 'golang', name: path, version, direct, scope: 'runtime',
      locations: [{ file: file.path, startLine: m.line, endLine: m.line }], licenses: [], dependsOn: [],
    });
  }
  const list = [...components.values()];
  return [{
    file: file.path,
    type: 'gomod-vendor',
    ecosystem: 'golang',
    project: mod?.module ? { purl: golangPurl(mod.module.path, ''), name: mod.module.path, version: '' } : null,
    roots: list.filter((c) => c.direct).map((c) => c.purl),
    components: list,
  }];
}

export const goModExtractor: Extractor = {
  name: 'gomod',
  ecosystem: 'golang',
  reads: ['go.mod'],
  matches: (path) => path === 'go.mod' || path.endsWith('/go.mod'),
  extract: extractGoMod,
};

export const goVendorExtractor: Extractor = {
  name: 'gomod-vendor',
  ecosystem: 'golang',
  reads: ['vendor/modules.txt'],
  matches: (path) => path === 'vendor/modules.txt' || path.endsWith('/vendor/modules.txt'),
  extract: extractVendorModules,
};
