// *.deps.json (.NET runtime dependency manifest written next to a built application): the
// `libraries` of type package are the NuGet packages shipped with it; the first `project`
// library of the runtime target is the application itself. Edges come from
// targets[runtimeTarget.name][library].dependencies (name -> exact version).
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { isObject, jsonObjectLines, locationFrom, newComponent, nugetPurl, obj, parseJson } from './common.ts';

const split = (key: string): [string, string] => {
  const cut = key.lastIndexOf('/');
  return cut >= 0 ? [key.slice(0, cut), key.slice(cut + 1)] : [key, ''];
};

async function extract(file: InputFile): Promise<Target[]> {
  const text = await file.text();
  const doc = parseJson(text, file.path, '.NET deps.json 文件');
  if (!isObject(doc) || !isObject(doc.libraries)) throw new ExtractError(`${file.path} 不是 .NET deps.json 文件：缺少 libraries 对象`);
  const libraries = doc.libraries;
  const lines = jsonObjectLines(text, 2);
  const targets = obj(doc.targets);
  const runtime = typeof obj(doc.runtimeTarget).name === 'string' ? (obj(doc.runtimeTarget).name as string) : '';
  const targetLibs: Json[] = runtime && isObject(targets[runtime]) ? [targets[runtime]] : Object.values(targets).filter(isObject);

  const typeOf = (key: string) => String(obj(libraries[key]).type ?? '').toLowerCase();
  const lowerKeys = new Map(Object.keys(libraries).map((k) => [k.toLowerCase(), k]));
  const components = new Map<string, Component>();
  for (const key of Object.keys(libraries)) {
    if (typeOf(key) !== 'package') continue;
    const [name, version] = split(key);
    if (!name.trim()) continue;
    const c = newComponent(name, version, false, 'runtime', locationFrom(file.path, lines, 'libraries', key));
    if (!components.has(c.purl)) components.set(c.purl, c);
  }
  const projectKey = [...targetLibs.flatMap((t) => Object.keys(t)), ...Object.keys(libraries)].find((k) => typeOf(k) === 'project');
  const roots: string[] = [];
  for (const t of targetLibs) {
    for (const [key, entry] of Object.entries(t)) {
      const from = key === projectKey ? undefined : typeOf(key) === 'package' && split(key)[0].trim() ? components.get(nugetPurl(...split(key))) : null;
      if (from === null) continue;
      for (const [dep, version] of Object.entries(obj(obj(entry).dependencies))) {
        const depKey = lowerKeys.get(`${dep}/${String(version)}`.toLowerCase());
        if (!depKey || typeOf(depKey) !== 'package' || !split(depKey)[0].trim()) continue;
        const purl = nugetPurl(...split(depKey));
        const target = components.get(purl);
        if (!target) continue;
        if (from === undefined) {
          target.direct = true;
          if (!roots.includes(purl)) roots.push(purl);
        } else if (from.purl !== purl && !from.dependsOn.includes(purl)) from.dependsOn.push(purl);
      }
    }
  }
  let project: Target['project'] = null;
  if (projectKey && split(projectKey)[0].trim()) {
    const [name, version] = split(projectKey);
    project = { purl: nugetPurl(name, version), name, version };
  }
  return [{ file: file.path, type: 'dotnet-deps', ecosystem: 'nuget', project, roots, components: [...components.values()] }];
}

type Json = Record<string, unknown>;

export const dotnetDepsExtractor: Extractor = {
  name: 'dotnet-deps',
  ecosystem: 'nuget',
  reads: ['*.deps.json'],
  matches: (p) => p.endsWith('.deps.json'),
  extract,
};
