// obj/project.assets.json (written by `dotnet restore`): the resolved graph per target
// framework (and runtime identifier). Packages are deduplicated by purl across targets; edges
// resolve each dependency name within the same target. Direct dependencies are those of
// project.frameworks[*].dependencies; a direct dependency with suppressParent "All"
// (PrivateAssets="all": analyzers, build tools) is development, and so is everything reachable
// only from development roots.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { applyScopes, exactNugetVersion, isObject, jsonObjectLines, locationFrom, newComponent, nugetPurl, obj, parseJson } from './common.ts';

const split = (key: string): [string, string] => {
  const cut = key.lastIndexOf('/');
  return cut >= 0 ? [key.slice(0, cut), key.slice(cut + 1)] : [key, ''];
};

async function extract(file: InputFile): Promise<Target[]> {
  const text = await file.text();
  const doc = parseJson(text, file.path, 'NuGet project.assets.json 文件');
  if (!isObject(doc) || !isObject(doc.targets)) throw new ExtractError(`${file.path} 不是 NuGet project.assets.json 文件：缺少 targets 对象`);
  const lines = jsonObjectLines(text, 2);
  const components = new Map<string, Component>();
  const purls = new Map<string, string>(); // "Name/Version" -> purl (purl building is the hot spot)
  const purlOfKey = (key: string) => {
    let purl = purls.get(key);
    if (purl === undefined) purls.set(key, (purl = nugetPurl(...split(key))));
    return purl;
  };
  for (const [, libs] of Object.entries(doc.targets)) {
    if (!isObject(libs)) continue;
    const byName = new Map<string, string>();
    for (const [key, entry] of Object.entries(libs)) {
      if (String(obj(entry).type ?? '').toLowerCase() !== 'package') continue;
      const [name, version] = split(key);
      if (!name.trim()) continue;
      const purl = purlOfKey(key);
      byName.set(name.toLowerCase(), purl);
      if (!components.has(purl)) components.set(purl, newComponent(name, version, false, 'runtime', locationFrom(file.path, lines, 'libraries', key)));
    }
    for (const [key, entry] of Object.entries(libs)) {
      const from = split(key)[0].trim() ? components.get(purlOfKey(key)) : undefined;
      if (!from || String(obj(entry).type ?? '').toLowerCase() !== 'package') continue;
      for (const dep of Object.keys(obj(obj(entry).dependencies))) {
        const to = byName.get(dep.toLowerCase());
        if (to && to !== from.purl && !from.dependsOn.includes(to)) from.dependsOn.push(to);
      }
    }
  }
  // Direct dependencies and their scope.
  const byLowerName = new Map<string, Component[]>();
  for (const c of components.values()) byLowerName.set(c.name.toLowerCase(), [...(byLowerName.get(c.name.toLowerCase()) ?? []), c]);
  const project = obj(doc.project);
  const roots = new Set<string>();
  const devRoots = new Set<string>();
  for (const fw of Object.values(obj(project.frameworks))) {
    for (const [name, spec] of Object.entries(obj(obj(fw).dependencies))) {
      const s = obj(spec);
      if (s.target !== undefined && String(s.target).toLowerCase() !== 'package') continue;
      const dev = String(s.suppressParent ?? '').toLowerCase().split(/[,;]\s*/).includes('all');
      for (const c of byLowerName.get(name.toLowerCase()) ?? []) {
        c.direct = true;
        roots.add(c.purl);
        if (dev) devRoots.add(c.name.toLowerCase());
      }
    }
  }
  // Older assets files only have projectFileDependencyGroups: { "net6.0": ["Serilog >= 3.1.1"] }.
  if (!roots.size) {
    for (const group of Object.values(obj(doc.projectFileDependencyGroups))) {
      if (!Array.isArray(group)) continue;
      for (const spec of group) {
        const name = typeof spec === 'string' ? spec.trim().split(/\s/)[0]! : '';
        for (const c of byLowerName.get(name.toLowerCase()) ?? []) {
          c.direct = true;
          roots.add(c.purl);
        }
      }
    }
  }
  if (roots.size) applyScopes(components.values(), devRoots, false);
  const restore = obj(project.restore);
  const name = typeof restore.projectName === 'string' ? restore.projectName : '';
  const version = exactNugetVersion(typeof project.version === 'string' ? project.version : '');
  return [{
    file: file.path, type: 'nuget-assets', ecosystem: 'nuget',
    project: name ? { purl: nugetPurl(name, version), name, version } : null,
    roots: [...roots], components: [...components.values()],
  }];
}

export const nugetAssetsExtractor: Extractor = {
  name: 'nuget-assets',
  ecosystem: 'nuget',
  reads: ['obj/project.assets.json'],
  matches: (p) => p === 'project.assets.json' || p.endsWith('/project.assets.json'),
  extract,
};
