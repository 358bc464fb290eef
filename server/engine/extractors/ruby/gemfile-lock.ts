// Bundler's Gemfile.lock (and gems.locked): the GEM, GIT and PLUGIN SOURCE `specs:` give every
// gem with its exact version (a platform suffix such as `-x86_64-linux` is not part of it) and,
// indented below, the gems it depends on; DEPENDENCIES lists what the Gemfile declares. PATH
// gems are the project's own code: not components, but what they depend on is direct. The
// Gemfile beside the lock, when there, tells which declared gems are development/test only.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { parseGemfileGroups } from './gemfile.ts';

interface Spec { name: string; version: string; section: string; remote: string | undefined; deps: string[]; line: number }

export interface ParsedLock {
  specs: Spec[];
  dependencies: Array<{ name: string; line: number }>;
  /** What Bundler's own parser passes over (an unknown section, a malformed gem line), in Chinese, naming file and line. */
  problems: string[];
}

const SECTIONS = new Set(['GEM', 'GIT', 'PATH', 'PLUGIN SOURCE', 'PLATFORMS', 'DEPENDENCIES', 'RUBY VERSION', 'BUNDLED WITH', 'CHECKSUMS']);

export function parseGemfileLock(text: string, file: string): ParsedLock {
  text = text.replace(/^\uFEFF/, ''); // a byte-order mark is not content
  const specs: Spec[] = [];
  const dependencies: Array<{ name: string; line: number }> = [];
  const lines = text.split('\n');
  let section: string | undefined;
  let remote: string | undefined;
  let inSpecs = false;
  let current: Spec | undefined;
  let sawSection = false;
  let skipping = false; // inside a section Bundler does not know: its lines are passed over
  const problems: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (!line.trim()) continue;
    if (!line.startsWith(' ')) {
      section = line.trim();
      remote = undefined;
      inSpecs = false;
      current = undefined;
      // Bundler's LockfileParser ignores a section it does not know (a newer Bundler's, a plugin's) with all its lines.
      skipping = !SECTIONS.has(section);
      if (skipping) problems.push(`${file} 第 ${i + 1} 行：Bundler 不认识的段落“${section}”，已跳过该段落`);
      else sawSection = true;
      continue;
    }
    if (skipping) continue;
    if (section === undefined) {
      problems.push(`${file} 第 ${i + 1} 行：出现在任何段落之前，已跳过`);
      continue;
    }
    if (section === 'GEM' || section === 'GIT' || section === 'PATH' || section === 'PLUGIN SOURCE') {
      const m2 = /^ {2}(\S[^:]*):\s*(.*)$/.exec(line);
      if (m2 && !line.startsWith('   ')) {
        if (m2[1] === 'remote') remote = m2[2]!.trim();
        inSpecs = m2[1] === 'specs';
        current = undefined;
        continue;
      }
      if (!inSpecs) continue;
      const spec = /^ {4}(\S+) \(([^)]*)\)\s*$/.exec(line);
      if (spec) {
        // Bundler writes `version-platform`; versions themselves never contain `-`.
        const version = spec[2]!.split('-')[0]!.trim();
        current = { name: spec[1]!, version, section, remote, deps: [], line: i + 1 };
        specs.push(current);
        continue;
      }
      const dep = /^ {6}(\S+)(?: \(.*\))?\s*$/.exec(line);
      if (dep) {
        if (!current) continue; // a dependency of a skipped entry
        current.deps.push(dep[1]!);
        continue;
      }
      if (/^ {4}\S/.test(line)) {
        // Not `name (version)`: Bundler passes the line over; the gems indented below it go with it.
        problems.push(`${file} 第 ${i + 1} 行：gem 条目“${line.trim()}”格式错误，已跳过`);
        current = undefined;
      }
      continue;
    }
    if (section === 'DEPENDENCIES') {
      const m = /^ {2}([^\s(!]+)!?(?: \(.*\))?!?\s*$/.exec(line);
      if (m) dependencies.push({ name: m[1]!, line: i + 1 });
    }
  }
  if (!sawSection) throw new ExtractError(`无法解析 ${file}：没有 GEM、GIT、PATH 或 DEPENDENCIES 段落，不是 Gemfile.lock`);
  return { specs, dependencies, problems };
}

export const gemPurl = (name: string, version: string) => purlOf('gem', { name, version });

async function extractGemfileLock(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const { specs, dependencies, problems } = parseGemfileLock(await file.text(), file.path);
  const local = (s: Spec) => s.section === 'PATH';
  const byName = new Map<string, Spec>();
  for (const s of specs) if (!byName.has(s.name) || (local(byName.get(s.name)!) && !local(s))) byName.set(s.name, s);

  // Direct: declared in DEPENDENCIES, or depended on by one of the project's own (PATH) gems.
  const direct = new Set<string>();
  const pending = dependencies.map((d) => d.name);
  const visitedLocal = new Set<string>();
  while (pending.length) {
    const name = pending.pop()!;
    const spec = byName.get(name);
    if (spec && local(spec)) {
      if (visitedLocal.has(name)) continue;
      visitedLocal.add(name);
      pending.push(...spec.deps);
    } else {
      direct.add(name);
    }
  }

  // The project: the gem of `PATH remote: .` when the Gemfile declares it (`gemspec`).
  let project: Target['project'] = null;
  const own = specs.find((s) => local(s) && (s.remote === '.' || s.remote === './') && dependencies.some((d) => d.name === s.name));
  if (own) project = { purl: gemPurl(own.name, own.version), name: own.name, version: own.version };

  // Scope from the Gemfile's groups: reachable only from development/test gems -> development.
  const gemfileName = /(^|\/)gems\.locked$/.test(file.path) ? file.path.replace(/gems\.locked$/, 'gems.rb') : file.path.replace(/\.lock$/, '');
  const gemfileText = gemfileName !== file.path ? await ctx.readText(gemfileName).catch(() => undefined) : undefined;
  const groups = gemfileText === undefined ? undefined : parseGemfileGroups(gemfileText);
  const runtime = new Set<string>();
  const reached = new Set<string>();
  const walk = (starts: string[], into: Set<string>) => {
    const stack = [...starts];
    while (stack.length) {
      const name = stack.pop()!;
      if (into.has(name)) continue;
      into.add(name);
      for (const d of byName.get(name)?.deps ?? []) stack.push(d);
    }
  };
  const isDevDirect = (name: string) => groups?.get(name)?.dev === true;
  walk([...direct].filter((n) => !isDevDirect(n)), runtime);
  walk([...direct], reached);

  const components = new Map<string, Component>();
  for (const s of specs) {
    if (local(s)) continue;
    const purl = gemPurl(s.name, s.version);
    const dependsOn = s.deps.map((d) => byName.get(d)).filter((d): d is Spec => !!d && !local(d)).map((d) => gemPurl(d.name, d.version));
    const existing = components.get(purl);
    if (existing) {
      for (const d of dependsOn) if (!existing.dependsOn.includes(d)) existing.dependsOn.push(d);
      continue;
    }
    components.set(purl, {
      purl,
      ecosystem: 'gem',
      name: s.name,
      version: s.version,
      direct: direct.has(s.name),
      scope: groups && reached.has(s.name) && !runtime.has(s.name) ? 'development' : 'runtime',
      locations: [{ file: file.path, startLine: s.line, endLine: s.line }],
      licenses: [],
      dependsOn: [...new Set(dependsOn)].filter((d) => d !== purl),
    });
  }
  const list = [...components.values()];
  return [{
    file: file.path,
    type: 'bundler',
    ecosystem: 'gem',
    project,
    roots: list.filter((c) => c.direct && c.scope === 'runtime').map((c) => c.purl),
    components: list,
    ...(problems.length ? { problems } : {}),
  }];
}

export const gemfileLockExtractor: Extractor = {
  name: 'bundler',
  ecosystem: 'gem',
  reads: ['Gemfile.lock', 'gems.locked'],
  matches: (path) => /(^|\/)(Gemfile\.lock|gems\.locked)$/.test(path),
  extract: extractGemfileLock,
};
