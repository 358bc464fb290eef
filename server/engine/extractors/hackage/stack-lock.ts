// Haskell Stack's `stack.yaml.lock`: the exact packages behind stack.yaml's `extra-deps`
// (`packages[].completed`) and the resolver snapshot (`snapshots`). A Hackage package is
// `hackage: <name>-<version>@sha256:<hash>,<size>` (or `@rev:<n>`); a Git or archive dependency
// gives `name` and `version` with its `git` + `commit` (kept as the purl's vcs_url) or `url`
// (download_url). The snapshot's own packages are not listed (only its URL), so what the lock file
// names are the packages the project declared itself: all direct, no edges (the lock file records
// none). purl type hackage (purl-spec), names as Hackage writes them (case-sensitive).
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { isEmptyNode, parseLockYaml, yget, ytext } from '../common/yaml-lines.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** `HTTP-4000.3.16@sha256:…,5947` → name and version; null when it has no `-<version>`. */
export function parsePackageIdentifier(value: string): { name: string; version: string } | null {
  const id = value.trim().split('@')[0]!;
  const dash = id.lastIndexOf('-');
  if (dash <= 0) return null;
  const name = id.slice(0, dash);
  const version = id.slice(dash + 1);
  return /^\d+(\.\d+)*$/.test(version) ? { name, version } : null;
}

export function parseStackLock(text: string, file: string): Target {
  const target: Target = { file, type: 'stack', ecosystem: 'hackage', project: null, roots: [], components: [] };
  const root = parseLockYaml(text, file);
  if (isEmptyNode(root ?? undefined)) return target;
  if (root!.kind !== 'map') throw new ExtractError(`${file} 不是 stack.yaml.lock 格式：顶层应为映射`);
  const packages = yget(root!, 'packages');
  if (isEmptyNode(packages)) return target;
  if (packages!.kind !== 'seq') throw new ExtractError(`${file} 的 packages 应为列表`);
  const components = new Map<string, Component>();
  for (const entry of packages!.items) {
    const completed = yget(entry, 'completed');
    if (completed?.kind !== 'map') continue;
    let name: string | undefined;
    let version: string;
    let qualifiers: Record<string, string> | null = null;
    const hackage = ytext(yget(completed, 'hackage'));
    if (hackage) {
      const id = parsePackageIdentifier(hackage);
      if (!id) throw new ExtractError(`${file} 第 ${completed.line} 行的 hackage 包标识“${hackage}”无效：应为 名称-版本@…`);
      ({ name, version } = id);
    } else {
      name = ytext(yget(completed, 'name'));
      version = ytext(yget(completed, 'version')) ?? '';
      const git = ytext(yget(completed, 'git'));
      const commit = ytext(yget(completed, 'commit'));
      const url = ytext(yget(completed, 'url'));
      if (git) qualifiers = { vcs_url: `git+${git}${commit ? `@${commit}` : ''}` };
      else if (url) qualifiers = { download_url: url };
    }
    if (!name) continue;
    const purl = purlOf('hackage', { name, version, qualifiers });
    if (components.has(purl)) continue;
    components.set(purl, {
      purl, ecosystem: 'hackage', name, version, direct: true, scope: 'runtime',
      locations: [{ file, startLine: entry.line, endLine: entry.endLine }], licenses: [], dependsOn: [],
    });
  }
  target.components = [...components.values()];
  target.roots = target.components.map((c) => c.purl);
  return target;
}

export const stackLockExtractor: Extractor = {
  name: 'stack',
  ecosystem: 'hackage',
  reads: ['stack.yaml.lock'],
  matches: (p) => baseName(p) === 'stack.yaml.lock',
  async extract(file: InputFile) {
    return [parseStackLock(await file.text(), file.path)];
  },
};
