// CocoaPods Podfile.lock: `PODS` lists every resolved pod as `Name (version)`, either alone or
// as a one-key map whose value lists its dependencies (`Dep (constraint)`); `DEPENDENCIES` lists
// what the Podfile declares. Subspecs (`Firebase/Core`) keep their full name; their purl puts the
// subspec in the subpath (`pkg:cocoapods/Firebase@10.0.0#Core`), as the purl spec and trivy do.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { isEmptyNode, parseLockYaml, yget, ytext } from '../common/yaml-lines.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** `Name (1.2.3)` / `Name (~> 1.2)` / `Name` -> name and the text in parentheses. */
export function splitPod(text: string): { name: string; spec: string } {
  const t = text.trim();
  const open = t.indexOf(' (');
  if (open > 0 && t.endsWith(')')) return { name: t.slice(0, open).trim(), spec: t.slice(open + 2, -1).trim() };
  const space = t.search(/\s/);
  return { name: space > 0 ? t.slice(0, space) : t, spec: '' };
}

export function cocoapodsPurl(name: string, version: string): string {
  const slash = name.indexOf('/');
  return slash > 0
    ? purlOf('cocoapods', { name: name.slice(0, slash), version, subpath: name.slice(slash + 1) })
    : purlOf('cocoapods', { name, version });
}

export function parsePodfileLock(text: string, file: string): Target {
  const empty: Target = { file, type: 'cocoapods', ecosystem: 'cocoapods', project: null, roots: [], components: [] };
  const root = parseLockYaml(text, file);
  if (isEmptyNode(root ?? undefined)) return empty;
  if (root!.kind !== 'map') throw new ExtractError(`${file} 不是 Podfile.lock 格式：顶层应为映射`);
  const pods = yget(root!, 'PODS');
  if (!isEmptyNode(pods) && pods!.kind !== 'seq') throw new ExtractError(`${file} 的 PODS 应为列表`);

  const byName = new Map<string, Component>();
  const childNames = new Map<Component, string[]>();
  // CocoaPods passes over a PODS item it cannot read: so do we, and list it with its line.
  const problems: string[] = [];
  for (const item of pods?.kind === 'seq' ? pods.items : []) {
    let headText: string | undefined;
    let children: string[] = [];
    if (item.kind === 'scalar') headText = ytext(item);
    else if (item.kind === 'map' && item.entries.length) {
      const entry = item.entries[0]!;
      headText = entry.key;
      if (entry.value.kind === 'seq') children = entry.value.items.flatMap((c) => { const t = ytext(c); return t ? [splitPod(t).name] : []; });
    }
    if (!headText) {
      problems.push(`${file} 第 ${item.line} 行：PODS 条目不是“名称 (版本)”形式，已跳过`);
      continue;
    }
    const { name, spec: version } = splitPod(headText);
    if (!name || byName.has(name)) continue;
    let purl: string;
    try {
      purl = cocoapodsPurl(name, version);
    } catch {
      problems.push(`${file} 第 ${item.line} 行：PODS 条目“${headText}”名称或版本无效，已跳过`);
      continue;
    }
    const component: Component = {
      purl, ecosystem: 'cocoapods', name, version, direct: false, scope: 'runtime',
      locations: [{ file, startLine: item.line, endLine: item.endLine }], licenses: [], dependsOn: [],
    };
    byName.set(name, component);
    childNames.set(component, children);
  }
  for (const [component, children] of childNames) {
    component.dependsOn = [...new Set(children.flatMap((n) => { const c = byName.get(n); return c && c !== component ? [c.purl] : []; }))];
  }

  const declared = yget(root!, 'DEPENDENCIES');
  const roots: string[] = [];
  for (const item of declared?.kind === 'seq' ? declared.items : []) {
    const t = ytext(item);
    if (!t) continue;
    const c = byName.get(splitPod(t).name);
    if (!c) continue;
    c.direct = true;
    if (!roots.includes(c.purl)) roots.push(c.purl);
  }

  const components = new Map<string, Component>();
  for (const c of byName.values()) if (!components.has(c.purl)) components.set(c.purl, c);
  return { ...empty, roots, components: [...components.values()], ...(problems.length ? { problems } : {}) };
}

export const cocoapodsExtractor: Extractor = {
  name: 'cocoapods',
  ecosystem: 'cocoapods',
  reads: ['Podfile.lock'],
  matches: (p) => baseName(p) === 'Podfile.lock',
  async extract(file: InputFile) {
    return [parsePodfileLock(await file.text(), file.path)];
  },
};
