// Bazel modules (Bzlmod): MODULE.bazel.lock and MODULE.bazel. The lock file of Bazel 6–7.1
// (lockFileVersion ≤ 10) holds the resolved `moduleDepGraph` (`name@version` → name, version,
// deps: the edges); later ones (Bazel 7.2+) only the hashes of the registry files resolution
// read (`registryFileHashes`): every candidate version's MODULE.bazel, but the `source.json` of
// the selected version only, so the modules with a source.json are the resolved set. Modules
// without a version (bazel_tools, local_config_platform) are Bazel's own. The sibling
// MODULE.bazel names the project and its direct dependencies (`bazel_dep`, dev_dependency ones
// as development scope) and overrides (a module taken from git, an archive or a local path is
// not in the registry: it is reported from MODULE.bazel with its source). A MODULE.bazel without
// a lock file is read alone. purl: pkg:bazel/<name>@<version>, with repository_url for a
// registry other than the Bazel Central Registry (purl-spec's bazel type).
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { parseModuleFile, type ModuleFile } from './module-file.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const BCR = 'https://bcr.bazel.build';

export function bazelPurl(name: string, version: string, registry?: string): string {
  const normalised = registry?.replace(/\/+$/, '');
  return purlOf('bazel', { name, version, qualifiers: normalised && normalised !== BCR ? { repository_url: normalised } : null });
}

function lineIndex(source: string): (needle: string) => number | undefined {
  const lines = source.split('\n');
  return (needle) => {
    const i = lines.findIndex((l) => l.includes(needle));
    return i < 0 ? undefined : i + 1;
  };
}

function newComponent(name: string, version: string, file: string, line: number | undefined, registry?: string): Component {
  return {
    purl: bazelPurl(name, version, registry), ecosystem: 'bazel', name, version, direct: false, scope: 'runtime',
    locations: [line ? { file, startLine: line, endLine: line } : { file }], licenses: [], dependsOn: [],
  };
}

/** Components declared by MODULE.bazel that the lock did not resolve from a registry (overridden or the lock absent). */
function declaredComponent(dep: ModuleFile['deps'][number], module: ModuleFile, file: string): Component {
  const override = module.overrides.get(dep.name);
  const version = override?.kind === 'single_version' && override.version ? override.version : dep.version;
  const c = newComponent(dep.name, version, file, dep.line, override?.registry);
  if (override?.kind === 'git' && override.remote) {
    c.purl = purlOf('bazel', { name: dep.name, version, qualifiers: { vcs_url: `git+${override.remote}${override.commit ? `@${override.commit}` : ''}` } });
  }
  return c;
}

export function parseBazelLock(source: string, file: string, module?: ModuleFile, moduleFile?: string): Target {
  let doc: unknown;
  try {
    doc = JSON.parse(source.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ExtractError(`无法解析 ${file}：不是有效的 JSON（${(error as Error).message}）`);
  }
  if (!isObject(doc) || typeof doc.lockFileVersion !== 'number') throw new ExtractError(`${file} 不是 Bazel 的 MODULE.bazel.lock（缺少 lockFileVersion）`);
  const lineOf = lineIndex(source);
  const target: Target = { file, type: 'bazel-lock', ecosystem: 'bazel', project: null, roots: [], components: [] };
  const byName = new Map<string, Component>();
  const required = new Set<string>();

  if (isObject(doc.moduleDepGraph)) {
    const graph = doc.moduleDepGraph;
    const keyToName = new Map<string, string>();
    for (const [key, raw] of Object.entries(graph)) {
      if (!isObject(raw) || key === '<root>') continue;
      const name = typeof raw.name === 'string' ? raw.name : '';
      const version = typeof raw.version === 'string' ? raw.version : '';
      if (!name || !version) continue; // Bazel's own modules
      keyToName.set(key, name);
      byName.set(name, newComponent(name, version, file, lineOf(`"${key}": {`)));
    }
    for (const [key, raw] of Object.entries(graph)) {
      if (!isObject(raw) || !isObject(raw.deps)) continue;
      const parent = key === '<root>' ? undefined : byName.get(keyToName.get(key) ?? '');
      if (key !== '<root>' && !parent) continue;
      for (const childKey of Object.values(raw.deps)) {
        const child = typeof childKey === 'string' ? byName.get(keyToName.get(childKey) ?? '') : undefined;
        if (!child) continue;
        if (!parent) { child.direct = true; continue; }
        if (child !== parent && !parent.dependsOn.includes(child.purl)) parent.dependsOn.push(child.purl);
        required.add(child.name);
      }
    }
    const root = graph['<root>'];
    if (isObject(root) && typeof root.name === 'string' && root.name) {
      const version = typeof root.version === 'string' ? root.version : '';
      target.project = { purl: bazelPurl(root.name, version), name: root.name, version };
    }
  } else if (isObject(doc.registryFileHashes)) {
    for (const url of Object.keys(doc.registryFileHashes)) {
      const m = /^(.*)\/modules\/([^/]+)\/([^/]+)\/source\.json$/.exec(url);
      if (!m) continue;
      const [, registry, name, version] = m as unknown as [string, string, string, string];
      byName.set(name, newComponent(name, version, file, lineOf(`"${url}"`), registry));
    }
  }

  if (module) {
    if (module.module) target.project = { purl: bazelPurl(module.module.name, module.module.version), name: module.module.name, version: module.module.version };
    const declared = new Set(module.deps.map((d) => d.name));
    for (const dep of module.deps) {
      let c = byName.get(dep.name);
      if (!c) {
        c = declaredComponent(dep, module, moduleFile ?? file);
        byName.set(dep.name, c);
      }
      c.direct = true;
      if (dep.dev) c.scope = 'development';
    }
    for (const c of byName.values()) if (!declared.has(c.name) && !isObject((doc as Record<string, unknown>).moduleDepGraph)) c.direct = false;
  } else if (!isObject(doc.moduleDepGraph)) {
    // Without MODULE.bazel a registry-hash lock cannot tell direct from indirect: the list is flat.
    for (const c of byName.values()) c.direct = true;
  }
  target.components = [...byName.values()];
  target.roots = target.components.filter((c) => c.direct).map((c) => c.purl);
  return target;
}

export function moduleFileTarget(module: ModuleFile, file: string): Target {
  const components = module.deps.map((dep) => ({ ...declaredComponent(dep, module, file), direct: true, scope: dep.dev ? 'development' as const : 'runtime' as const }));
  return {
    file, type: 'bazel-module', ecosystem: 'bazel',
    project: module.module ? { purl: bazelPurl(module.module.name, module.module.version), name: module.module.name, version: module.module.version } : null,
    roots: components.map((c) => c.purl), components,
  };
}

export const bazelLockExtractor: Extractor = {
  name: 'bazel-lock',
  ecosystem: 'bazel',
  reads: ['MODULE.bazel.lock'],
  matches: (p) => baseName(p) === 'MODULE.bazel.lock',
  async extract(file: InputFile, ctx: ExtractContext) {
    const moduleFile = `${dirOf(file.path)}MODULE.bazel`;
    const moduleSource = await ctx.readText(moduleFile).catch(() => undefined);
    const module = moduleSource === undefined ? undefined : parseModuleFile(moduleSource);
    return [parseBazelLock(await file.text(), file.path, module, moduleFile)];
  },
};

export const bazelModuleExtractor: Extractor = {
  name: 'bazel-module',
  ecosystem: 'bazel',
  reads: ['MODULE.bazel'],
  matches: (p) => baseName(p) === 'MODULE.bazel',
  async extract(file: InputFile, ctx: ExtractContext) {
    // With a lock file beside it, the lock's extractor reads both.
    if (await ctx.exists(`${dirOf(file.path)}MODULE.bazel.lock`)) return [];
    return [moduleFileTarget(parseModuleFile(await file.text()), file.path)];
  },
};
