// Dart / Flutter pubspec.lock: `packages.<name>` with `dependency` ("direct main", "direct dev",
// "direct overridden", "transitive"), `source` (hosted, git, path, sdk) and `version`. Path and
// SDK packages (`sdk: flutter`: flutter, flutter_test, sky_engine) are the project's own code or
// the SDK, not third-party components; git packages keep their pubspec version; hosted packages
// from a repository other than pub.dev carry it in the purl (pubRepository). The lockfile
// records no edges. A sibling pubspec.yaml names the project.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { isEmptyNode, parseLockYaml, yget, ytext } from '../common/yaml-lines.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * pub.dev and its public mirrors serve the same packages (PUB_HOSTED_URL in China points at them):
 * a package hosted there is plain `pkg:pub/name@version`. Any other hosted URL is a private or
 * third-party repository, whose packages are not pub.dev's: the purl says where with
 * `repository_url`.
 */
const PUB_DEV = /^https?:\/\/(?:pub\.dev|pub\.dartlang\.org|pub\.flutter-io\.cn|mirrors\.tuna\.tsinghua\.edu\.cn\/dart-pub|mirrors\.cloud\.tencent\.com\/dart-pub|mirrors\.sjtug\.sjtu\.edu\.cn\/dart-pub|dart-pub\.mirrors\.sjtug\.sjtu\.edu\.cn)\/?$/i;

export function pubRepository(source: string, url: string | undefined): string | undefined {
  if (source !== 'hosted' || !url || PUB_DEV.test(url.trim())) return undefined;
  return url.trim().replace(/\/+$/, '');
}
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');

export function parsePubspecLock(text: string, file: string): Target {
  const empty: Target = { file, type: 'pub', ecosystem: 'pub', project: null, roots: [], components: [] };
  const root = parseLockYaml(text, file);
  if (isEmptyNode(root ?? undefined)) return empty;
  if (root!.kind !== 'map') throw new ExtractError(`${file} 不是 pubspec.lock 格式：顶层应为映射`);
  const packages = yget(root!, 'packages');
  if (isEmptyNode(packages)) return empty;
  if (packages!.kind !== 'map') throw new ExtractError(`${file} 的 packages 应为映射`);

  const components = new Map<string, Component>();
  // dart pub passes over an entry it cannot read: so do we, and list it with its line.
  const problems: string[] = [];
  for (const { key: name, value: entry, line } of packages!.entries) {
    if (!name || entry.kind !== 'map') {
      problems.push(`${file} 第 ${line} 行：packages 中的“${name}”不是映射，已跳过`);
      continue;
    }
    const source = ytext(yget(entry, 'source')) ?? 'hosted';
    if (source === 'path' || source === 'sdk') continue;
    const version = ytext(yget(entry, 'version')) ?? '';
    if (!version) {
      problems.push(`${file} 第 ${line} 行：packages 中的“${name}”没有 version，已跳过`);
      continue;
    }
    const kind = ytext(yget(entry, 'dependency')) ?? 'transitive';
    const direct = kind.startsWith('direct');
    const realName = ytext(yget(yget(entry, 'description'), 'name'));
    const pkgName = source === 'hosted' && realName ? realName : name;
    const repository = pubRepository(source, ytext(yget(yget(entry, 'description'), 'url')));
    let purl: string;
    try {
      purl = purlOf('pub', { name: pkgName, version, qualifiers: repository ? { repository_url: repository } : null });
    } catch {
      problems.push(`${file} 第 ${line} 行：packages 中的“${name}”名称或版本无效，已跳过`);
      continue;
    }
    const existing = components.get(purl);
    if (existing) { existing.direct ||= direct; continue; }
    components.set(purl, {
      purl, ecosystem: 'pub', name: pkgName, version, direct,
      scope: kind === 'direct dev' ? 'development' : 'runtime',
      locations: [{ file, startLine: line, endLine: entry.endLine }], licenses: [], dependsOn: [],
    });
  }
  const list = [...components.values()];
  return { ...empty, roots: list.filter((c) => c.direct).map((c) => c.purl), components: list, ...(problems.length ? { problems } : {}) };
}

/** name and version from a sibling pubspec.yaml, when present and readable. */
async function projectOf(lockPath: string, ctx: ExtractContext): Promise<Target['project']> {
  const text = await ctx.readText(`${dirOf(lockPath)}pubspec.yaml`).catch(() => undefined);
  if (!text) return null;
  try {
    const doc = parseLockYaml(text, 'pubspec.yaml') ?? undefined;
    const name = ytext(yget(doc, 'name'));
    if (!name) return null;
    const version = ytext(yget(doc, 'version')) ?? '';
    return { purl: purlOf('pub', { name, version }), name, version };
  } catch {
    return null;
  }
}

export const pubExtractor: Extractor = {
  name: 'pub',
  ecosystem: 'pub',
  reads: ['pubspec.lock'],
  matches: (p) => baseName(p) === 'pubspec.lock',
  async extract(file: InputFile, ctx: ExtractContext) {
    const target = parsePubspecLock(await file.text(), file.path);
    target.project = await projectOf(file.path, ctx);
    return [target];
  },
};
