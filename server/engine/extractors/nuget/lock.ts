// packages.lock.json (NuGet lock file, `RestorePackagesWithLockFile`): per target framework,
// every package with its type (Direct / Transitive / CentralTransitive / Project), resolved
// version and dependencies (name -> range, resolved within the same framework). Packages are
// deduplicated by purl across frameworks; project references are not packages and are skipped.
// Scope comes from the project file beside it: PrivateAssets="all" references and everything
// reachable only from them are development; in a test project everything is.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { applyScopes, isObject, jsonObjectLines, locationFrom, newComponent, nugetPurl, obj, parseJson, siblingProject } from './common.ts';
import { projectDevInfo } from './msbuild.ts';

async function extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const text = await file.text();
  const doc = parseJson(text, file.path, 'NuGet 锁文件');
  if (!isObject(doc) || !isObject(doc.dependencies)) throw new ExtractError(`${file.path} 不是 NuGet 锁文件：缺少 dependencies 对象`);
  const lines = jsonObjectLines(text, 3);
  const components = new Map<string, Component>();
  const roots = new Set<string>();
  // NuGet restores what it can read of the lock: an entry without a resolved version is passed over, and told.
  const problems: string[] = [];
  for (const [framework, packages] of Object.entries(doc.dependencies)) {
    if (!isObject(packages)) {
      const at = locationFrom(file.path, lines, 'dependencies', framework).startLine;
      problems.push(`${file.path}${at ? ` 第 ${at} 行` : ''}：目标框架“${framework}”的依赖不是对象，已跳过`);
      continue;
    }
    const resolved = new Map<string, string>();
    for (const [name, entry] of Object.entries(packages)) {
      const e = obj(entry);
      if (!name.trim() || String(e.type ?? '').toLowerCase() === 'project' || typeof e.resolved !== 'string') continue;
      resolved.set(name.toLowerCase(), nugetPurl(name, e.resolved));
    }
    for (const [name, entry] of Object.entries(packages)) {
      const e = obj(entry);
      if (String(e.type ?? '').toLowerCase() === 'project') continue;
      if (!name.trim() || typeof e.resolved !== 'string') {
        const at = locationFrom(file.path, lines, 'dependencies', framework, name).startLine;
        problems.push(`${file.path}${at ? ` 第 ${at} 行` : ''}：“${framework}”中${name.trim() ? `的“${name}”没有 resolved 版本` : '有一个没有名称的条目'}，已跳过`);
        continue;
      }
      const purl = resolved.get(name.toLowerCase())!;
      const direct = String(e.type ?? '').toLowerCase() === 'direct';
      const location = locationFrom(file.path, lines, 'dependencies', framework, name);
      let c = components.get(purl);
      if (!c) components.set(purl, (c = newComponent(name, e.resolved, direct, 'runtime', location)));
      else {
        c.direct ||= direct;
        if (!c.locations.some((l) => l.startLine === location.startLine)) c.locations.push(location);
      }
      if (direct) roots.add(purl);
      for (const dep of Object.keys(obj(e.dependencies))) {
        const target = resolved.get(dep.toLowerCase());
        if (target && target !== purl && !c.dependsOn.includes(target)) c.dependsOn.push(target);
      }
    }
  }
  // The lock file has no scopes; the project beside it marks analyzers/tools and test projects.
  const sibling = await siblingProject(ctx, file.path);
  const dev = sibling ? await projectDevInfo(ctx, sibling.file) : undefined;
  if (dev) applyScopes(components.values(), dev.privateAll, dev.test);
  const project = sibling && { purl: sibling.purl, name: sibling.name, version: sibling.version };
  return [{
    file: file.path, type: 'nuget', ecosystem: 'nuget', project, roots: [...roots], components: [...components.values()],
    ...(problems.length ? { problems } : {}),
  }];
}

export const nugetLockExtractor: Extractor = {
  name: 'nuget',
  ecosystem: 'nuget',
  reads: ['packages.lock.json'],
  matches: (p) => p === 'packages.lock.json' || p.endsWith('/packages.lock.json'),
  extract,
};
