// Conda environment files (environment.yml / environment.yaml): `dependencies` lists conda
// match specs (`name`, `name=1.0`, `name=1.0=build`, `name==1.0`, `name 1.0 build`,
// `channel::name=1.0`, `name>=1.0`) and may hold a `pip:` sub-list of requirement lines whose
// packages are PyPI components. Only exact pins give a version; ranges leave it ''.
import type { Component, Extractor, InputFile, Location, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf, pypiPurl } from '../../purl.ts';
import { isEmptyNode, parseLockYaml, yget, ytext } from '../common/yaml-lines.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const ENV_FILE = /^environment\.ya?ml$/;

/** A version that names one release: no operators, no alternatives, no wildcard but a trailing `.*`. */
function exact(v: string): string {
  const trimmed = v.trim().replace(/\.\*$/, '');
  return trimmed && !/[<>!~=*|,\s]/.test(trimmed) ? trimmed : '';
}

/** Parses one conda match spec into name and exact version ('' when not pinned). */
export function parseCondaSpec(spec: string): { name: string; version: string } | undefined {
  let s = spec.replace(/\s#.*$/, '').trim();
  if (!s) return undefined;
  const cut = s.lastIndexOf('::');
  if (cut >= 0) s = s.slice(cut + 2);
  let bracketVersion = '';
  const bracket = /^([^[\s]+)\s*\[(.*)\]\s*$/.exec(s);
  if (bracket) {
    s = bracket[1]!;
    const v = /(?:^|,)\s*version\s*=\s*['"]?([^'",\]]+)['"]?/.exec(bracket[2]!);
    if (v) bracketVersion = v[1]!.replace(/^==?/, '');
  }
  const m = /^([A-Za-z0-9_][A-Za-z0-9_.+-]*)\s*(.*)$/.exec(s);
  if (!m) return undefined;
  const name = m[1]!;
  const rest = m[2]!.trim();
  let version = '';
  if (bracketVersion) version = exact(bracketVersion);
  else if (rest.startsWith('==')) version = exact(rest.slice(2).split('=')[0]!);
  else if (rest.startsWith('=')) version = exact(rest.slice(1).split('=')[0]!);
  else if (rest && !/^[<>!~]/.test(rest)) version = exact(rest.split(/\s+/)[0]!);
  return { name, version };
}

/** Parses one pip requirement line into name and pinned version; undefined for options and URLs. */
export function parsePipRequirement(line: string): { name: string; version: string } | undefined {
  const s = line.replace(/\s#.*$/, '').split(';')[0]!.trim();
  if (!s || s.startsWith('-') || /^[a-z+]+:\/\//i.test(s) || s.startsWith('.') || s.startsWith('/')) return undefined;
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(.*)$/.exec(s);
  if (!m) return undefined;
  const rest = m[2]!.trim();
  if (rest.startsWith('@')) return { name: m[1]!, version: '' };
  const pin = /^===?\s*([^\s,;]+)\s*$/.exec(rest);
  return { name: m[1]!, version: pin && !pin[1]!.includes('*') ? pin[1]! : '' };
}

export function parseEnvironmentYml(text: string, file: string): Target {
  const empty: Target = { file, type: 'conda-environment', ecosystem: 'conda', project: null, roots: [], components: [] };
  const root = parseLockYaml(text, file);
  if (isEmptyNode(root ?? undefined)) return empty;
  if (root!.kind !== 'map') throw new ExtractError(`${file} 不是 conda 环境文件：顶层应为映射`);
  const deps = yget(root!, 'dependencies');
  if (isEmptyNode(deps)) return empty;
  if (deps!.kind !== 'seq') throw new ExtractError(`${file} 的 dependencies 应为列表`);

  const components = new Map<string, Component>();
  const add = (ecosystem: 'conda' | 'pypi', name: string, version: string, location: Location) => {
    let purl: string;
    try {
      purl = ecosystem === 'pypi' ? pypiPurl(name, version) : purlOf('conda', { name, version });
    } catch {
      return;
    }
    const seen = components.get(purl);
    if (seen) { seen.locations.push(location); return; }
    components.set(purl, { purl, ecosystem, name, version, direct: true, scope: 'runtime', locations: [location], licenses: [], dependsOn: [] });
  };

  for (const item of deps!.items) {
    if (item.kind === 'scalar') {
      const text = ytext(item);
      const spec = text ? parseCondaSpec(text) : undefined;
      if (spec) add('conda', spec.name, spec.version, { file, startLine: item.line, endLine: item.endLine });
    } else if (item.kind === 'map') {
      const pip = yget(item, 'pip');
      for (const req of pip?.kind === 'seq' ? pip.items : []) {
        const text = ytext(req);
        const parsed = text ? parsePipRequirement(text) : undefined;
        if (parsed) add('pypi', parsed.name, parsed.version, { file, startLine: req.line, endLine: req.endLine });
      }
    }
  }
  const list = [...components.values()];
  return { ...empty, roots: list.map((c) => c.purl), components: list };
}

export const condaEnvironmentExtractor: Extractor = {
  name: 'conda-environment',
  ecosystem: 'conda',
  reads: ['environment.yml', 'environment.yaml'],
  matches: (p) => ENV_FILE.test(baseName(p)),
  async extract(file: InputFile) {
    return [parseEnvironmentYml(await file.text(), file.path)];
  },
};
