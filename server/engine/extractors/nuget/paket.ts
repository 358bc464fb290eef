// Paket's paket.lock. Groups (`GROUP Name`; the lines before the first are the Main group) hold
// sources: `NUGET` packages, `GITHUB` / `GIT` files and repositories, `HTTP` downloads, each under
// a `remote:` line (and an optional `specs:` line). By indentation: 4 spaces is a resolved entry,
// `Name (version)` for NuGet followed by its settings (` - framework: net45, content: none`, passed
// over: they restrict where a package is installed, not what is resolved); 6 spaces is one of its
// dependencies, `Name (>= range)` -> an edge to the package of that name resolved in the same group.
// Group-level settings (`RESTRICTION:`, `STORAGE:`, `CONDITION:`, `NUPKG_HASH:`) are passed over.
// paket.dependencies beside the lock names the direct packages of each group; without it, a
// package no other package of its group depends on is direct.
// GITHUB / GIT entries are source files or repositories at a commit and HTTP entries downloaded
// files: not NuGet packages, reported as generic components with where they come from
// (`vcs_url` with the commit, `download_url`), as CycloneDX tools name such files.
import path from 'node:path';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { nugetPurl } from './common.ts';

interface Entry { component: Component; group: string; deps: string[] }

// GIT entries name no file: `     (commit)`.
const ENTRY = /^ {4,5}(.*?)\s*\(([^)]*)\)(.*)$/;
const DEP = /^ {6}(\S+)(?:\s+\(([^)]*)\))?/;

/** `nuget Name ...` lines of paket.dependencies, lower-cased names by group (lower-cased). */
export function paketDependencies(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  let group = 'main';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)(\/\/|#).*$/, '').trim();
    const g = /^group\s+(\S+)/i.exec(line);
    if (g) { group = g[1]!.toLowerCase(); continue; }
    const n = /^nuget\s+(\S+)/i.exec(line);
    if (n) {
      if (!out.has(group)) out.set(group, new Set());
      out.get(group)!.add(n[1]!.toLowerCase());
    }
  }
  return out;
}

export function parsePaketLock(text: string, file: string, declared?: Map<string, Set<string>>): Target {
  const entries: Entry[] = [];
  const problems: string[] = [];
  let group = 'Main';
  let source = '';
  let remote = '';
  let current: Entry | undefined;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    if (!raw.trim()) return;
    const top = /^GROUP\s+(.+)$/.exec(raw);
    if (top) { group = top[1]!.trim(); source = ''; current = undefined; return; }
    if (/^[A-Z_]+$/.test(raw.trim()) && !raw.startsWith(' ')) { source = raw.trim(); current = undefined; return; }
    if (/^[A-Z_]+:/.test(raw)) return; // group settings
    const rem = /^ {2}remote:\s*(.*)$/.exec(raw);
    if (rem) { remote = rem[1]!.trim(); current = undefined; return; }
    if (/^ {2}\S/.test(raw)) return; // `specs:` and other source settings
    const dep = DEP.exec(raw);
    if (dep) {
      if (current) current.deps.push(dep[1]!);
      return;
    }
    const entry = ENTRY.exec(raw);
    if (!entry) {
      problems.push(`${file} 第 ${lineNo} 行：无法识别的条目“${raw.trim()}”，已跳过`);
      current = undefined;
      return;
    }
    const [, head, paren] = entry as unknown as [string, string, string];
    const location = { file, startLine: lineNo, endLine: lineNo };
    let component: Component | undefined;
    try {
      if (source === 'NUGET' && head) {
        const version = paren.trim();
        component = { purl: nugetPurl(head, version), ecosystem: 'nuget', name: head, version, direct: false, scope: 'runtime', locations: [location], licenses: [], dependsOn: [] };
      } else if (source === 'GITHUB' || source === 'GIT') {
        // GITHUB: `path/in/repo.fs (commit)` under `remote: owner/repo`; GIT: ` (commit)` under a clone URL.
        const repoUrl = source === 'GITHUB' ? `https://github.com/${remote.replace(/:[^/]*$/, '')}` : remote;
        const commit = paren.trim().split(/[\s,]+/)[0]!;
        const repoName = repoUrl.replace(/\.git$/i, '').replace(/\/+$/, '').split(/[/:]/).pop() || repoUrl;
        const name = source === 'GITHUB' ? `${remote}/${head.trim()}` : repoUrl.replace(/^[a-z]+:\/\//i, '').replace(/\.git$/i, '');
        component = {
          purl: purlOf('generic', { name: repoName, version: commit, qualifiers: { vcs_url: `git+${repoUrl}@${commit}` }, subpath: source === 'GITHUB' ? head.trim() : null }),
          ecosystem: 'generic', name, version: commit, direct: true, scope: 'runtime', locations: [location], licenses: [], dependsOn: [],
        };
      } else if (source === 'HTTP') {
        const url = `${remote.replace(/\/+$/, '')}${paren.trim().startsWith('/') ? '' : '/'}${paren.trim()}`;
        const name = head.trim();
        component = {
          purl: purlOf('generic', { name: path.posix.basename(name), qualifiers: { download_url: url } }),
          ecosystem: 'generic', name, version: '', direct: true, scope: 'runtime', locations: [location], licenses: [], dependsOn: [],
        };
      }
    } catch {
      component = undefined;
    }
    if (!component) {
      problems.push(`${file} 第 ${lineNo} 行：${source ? `${source} 中的` : ''}条目“${raw.trim()}”无法读取，已跳过`);
      current = undefined;
      return;
    }
    current = { component, group, deps: [] };
    entries.push(current);
  });

  // Edges within a group; direct from paket.dependencies, else what nothing else in the group needs.
  const byGroup = new Map<string, Map<string, Entry>>();
  for (const e of entries) {
    if (e.component.ecosystem !== 'nuget') continue;
    const g = e.group.toLowerCase();
    if (!byGroup.has(g)) byGroup.set(g, new Map());
    byGroup.get(g)!.set(e.component.name.toLowerCase(), e);
  }
  for (const e of entries) {
    const pkgs = byGroup.get(e.group.toLowerCase());
    e.component.dependsOn = [...new Set(e.deps.flatMap((d) => { const t = pkgs?.get(d.toLowerCase()); return t && t !== e ? [t.component.purl] : []; }))];
  }
  for (const [g, pkgs] of byGroup) {
    const named = declared?.get(g);
    const pointed = new Set<string>();
    for (const e of pkgs.values()) for (const d of e.deps) pointed.add(d.toLowerCase());
    for (const [name, e] of pkgs) e.component.direct = named ? named.has(name) : !pointed.has(name);
  }

  const components = new Map<string, Component>();
  for (const { component: c } of entries) {
    const seen = components.get(c.purl);
    if (!seen) { components.set(c.purl, c); continue; }
    seen.direct ||= c.direct;
    seen.locations.push(...c.locations);
    seen.dependsOn = [...new Set([...seen.dependsOn, ...c.dependsOn])];
  }
  const list = [...components.values()];
  return { file, type: 'paket', ecosystem: 'nuget', project: null, roots: list.filter((c) => c.direct).map((c) => c.purl), components: list, ...(problems.length ? { problems } : {}) };
}

export const paketLockExtractor: Extractor = {
  name: 'paket',
  ecosystem: 'nuget',
  reads: ['paket.lock'],
  matches: (p) => path.posix.basename(p) === 'paket.lock',
  async extract(file: InputFile, ctx: ExtractContext) {
    const dir = path.posix.dirname(file.path);
    const deps = await ctx.readText(dir === '.' ? 'paket.dependencies' : `${dir}/paket.dependencies`).catch(() => undefined);
    return [parsePaketLock(await file.text(), file.path, deps ? paketDependencies(deps) : undefined)];
  },
};
