// Swift Package Manager's Package.resolved: v1 keeps pins under `object.pins` with
// `repositoryURL`; v2 and v3 keep them under `pins` with `location` (and `identity`, `kind`).
// The name is the repository URL without scheme and `.git`, as trivy writes it
// (`github.com/apple/swift-nio`), which is also the purl's namespace/name.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { member, parseJsonFile, str } from '../common/json-positions.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** `https://github.com/apple/swift-nio.git` -> `github.com/apple/swift-nio`. */
export function swiftPackageName(url: string): string {
  let name = url.trim();
  // scp-like `git@host:owner/repo.git` (no port possible there), else any URL: host without
  // user and port, then the path.
  const scp = /^[\w.-]+@([^:/]+):(?!\/)(.+)$/.exec(name);
  if (scp) name = `${scp[1]}/${scp[2]}`;
  else name = name.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^[^@/]+@/, '').replace(/^([^/:]+):\d+(?=\/)/, '$1');
  return name.replace(/\/+$/, '').replace(/\.git$/i, '');
}

function swiftPurl(name: string, version: string): string {
  const cut = name.lastIndexOf('/');
  return cut > 0
    ? purlOf('swift', { namespace: name.slice(0, cut), name: name.slice(cut + 1), version })
    : purlOf('swift', { name, version });
}

export function parsePackageResolved(text: string, file: string): Target {
  const root = parseJsonFile(text, file);
  if (root.kind !== 'object') throw new ExtractError(`${file} 不是 Package.resolved 格式：顶层应为对象`);
  const versionNode = member(root, 'version');
  const formatVersion = versionNode?.kind === 'number' ? versionNode.value : 1;
  const pins = formatVersion > 1 ? member(root, 'pins') : member(member(root, 'object'), 'pins');
  if (pins && pins.kind !== 'array') throw new ExtractError(`${file} 的 pins 应为数组`);
  if (!pins && !member(root, 'object') && !member(root, 'pins')) throw new ExtractError(`${file} 不是 Package.resolved 格式：缺少 pins`);

  const components = new Map<string, Component>();
  // SwiftPM resolves what it can read of the pins: a pin without a package location or state is passed over, and told.
  const problems: string[] = [];
  const skip = (pin: { startLine: number }, what: string) => problems.push(`${file} 第 ${pin.startLine} 行：${what}，已跳过`);
  for (const pin of pins?.kind === 'array' ? pins.items : []) {
    if (pin.kind !== 'object') { skip(pin, 'pins 中的条目不是对象'); continue; }
    const kind = str(member(pin, 'kind'));
    if (kind === 'fileSystem' || kind === 'localSourceControl') continue; // the project's own code
    const url = formatVersion > 1 ? str(member(pin, 'location')) : str(member(pin, 'repositoryURL'));
    // Registry identities are `scope.name`: the scope becomes the purl namespace.
    const identity = str(member(pin, 'identity'));
    const name = url ? swiftPackageName(url) : kind === 'registry' && identity ? identity : undefined;
    if (!name) { skip(pin, '依赖没有仓库地址或注册表标识'); continue; }
    const state = member(pin, 'state');
    const version = str(member(state, 'version')) || str(member(state, 'branch')) || str(member(state, 'revision')) || '';
    if (!version) { skip(pin, `依赖“${name}”没有版本、分支或修订`); continue; }
    let purl: string;
    try {
      purl = swiftPurl(url ? name : name.replace('.', '/'), version);
    } catch {
      skip(pin, `依赖“${name}”的名称或版本无效`);
      continue;
    }
    if (components.has(purl)) continue;
    components.set(purl, {
      purl, ecosystem: 'swift', name, version, direct: false, scope: 'runtime',
      locations: [{ file, startLine: pin.startLine, endLine: pin.endLine }],
      licenses: [], dependsOn: [],
    });
  }
  return { file, type: 'swift', ecosystem: 'swift', project: null, roots: [], components: [...components.values()], ...(problems.length ? { problems } : {}) };
}

export const swiftExtractor: Extractor = {
  name: 'swift',
  ecosystem: 'swift',
  reads: ['Package.resolved'],
  matches: (p) => baseName(p) === 'Package.resolved',
  async extract(file: InputFile) {
    return [parsePackageResolved(await file.text(), file.path)];
  },
};
