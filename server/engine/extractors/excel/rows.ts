// One row of a component list -> one component (or the Chinese reason it cannot be understood).
// A valid purl wins over the other columns; without one, 组件名称 + 语言/生态 build it with the
// per-ecosystem helpers of purl.ts.
import type { Component, Ecosystem } from '../../model.ts';
import { golangPurl, mavenPurl, npmPurl, parsePurl, purlOf, pypiPurl } from '../../purl.ts';
import type { EcosystemEntry } from './ecosystems.ts';
import { KNOWN_TYPES, lookupEcosystem } from './ecosystems.ts';
import { splitLicenses } from './licenses.ts';

export interface RowCells {
  name: string;
  version: string;
  ecosystem: string;
  purl: string;
  license: string;
  remark: string;
  namespace: string;
}

export type RowOutcome =
  | { kind: 'blank' }
  | { kind: 'rejected'; reason: string }
  | { kind: 'component'; component: Component; warnings: string[]; remark: string };

/** Full-width folded, zero-width characters and surrounding blanks removed. */
export const clean = (value: string): string => value.normalize('NFKC').replace(/[\u200b-\u200d\u2060\ufeff]/g, '').trim();

/** Values people write when they do not know the version. */
const NO_VERSION = new Set(['-', '--', '—', '/', 'n/a', 'na', 'null', 'none', 'unknown', 'latest', '*', 'x', '无', '未知', '最新', '最新版', '最新版本', '不详']);

interface Identity {
  purl: string;
  ecosystem: Ecosystem;
  name: string;
  version: string;
}

export function parseRow(cells: RowCells, file: string, row: number): RowOutcome {
  const name = clean(cells.name);
  const ecosystem = clean(cells.ecosystem);
  const purl = clean(cells.purl).replace(/\s+/g, '');
  const namespace = clean(cells.namespace);
  const license = cells.license.trim();
  const remark = cells.remark.trim();
  let version = clean(cells.version);
  if (!name && !version && !ecosystem && !purl && !license && !remark && !namespace) return { kind: 'blank' };

  const warnings: string[] = [];
  let placeholder = '';
  if (version && NO_VERSION.has(version.toLowerCase())) {
    placeholder = version;
    version = '';
  }

  const identity = purl
    ? fromPurl(purl, { name, version, ecosystem, namespace }, warnings)
    : fromName({ name, version, ecosystem, namespace }, warnings);
  if (typeof identity === 'string') return { kind: 'rejected', reason: identity };
  if (!identity.version) warnings.push(placeholder ? `版本“${placeholder}”不是确定的版本，按未知版本处理` : '未填写版本，按未知版本处理');

  return {
    kind: 'component',
    warnings,
    remark,
    component: {
      ...identity,
      direct: true,
      scope: 'runtime',
      locations: [{ file, startLine: row }],
      licenses: splitLicenses(license),
      dependsOn: [],
    },
  };
}

interface Given {
  name: string;
  version: string;
  ecosystem: string;
  namespace: string;
}

function fromPurl(text: string, given: Given, warnings: string[]): Identity | string {
  let parsed;
  try {
    parsed = parsePurl(text);
  } catch (error) {
    return `purl“${text}”无效：${zhPurlError(error instanceof Error ? error.message : String(error))}`;
  }
  const type = parsed.type;
  let version = parsed.version ?? '';
  const givenVersion = type === 'golang' ? goVersion(given.version) : given.version;
  if (!version) version = givenVersion;
  else if (givenVersion && givenVersion !== version) warnings.push(`版本列“${given.version}”与 purl 中的版本“${version}”不一致，以 purl 为准`);

  const known = KNOWN_TYPES.has(type);
  let purl: string;
  try {
    purl = purlOf(type as Ecosystem, {
      namespace: parsed.namespace ?? null,
      name: parsed.name,
      version: version || null,
      qualifiers: (parsed.qualifiers as Record<string, string> | undefined) ?? null,
      subpath: parsed.subpath ?? null,
    });
  } catch (error) {
    return `purl“${text}”无效：${zhPurlError(error instanceof Error ? error.message : String(error))}`;
  }
  if (!known) warnings.push(`purl 类型“${type}”暂无对应的生态支持，按通用组件记录`);

  const ecosystem: Ecosystem = known ? (type as Ecosystem) : 'generic';
  const name = displayName(type, parsed.namespace ?? '', parsed.name);
  if (given.ecosystem) {
    const entry = lookupEcosystem(given.ecosystem);
    if (!entry) warnings.push(`无法识别的生态“${given.ecosystem}”，按 purl 类型 ${type} 处理`);
    else if (entry.type !== type) warnings.push(`语言/生态“${given.ecosystem}”与 purl 类型 ${type} 不一致，以 purl 为准`);
  }
  if (given.name && !sameName(given.name, given.namespace, type, parsed.namespace ?? '', parsed.name)) {
    warnings.push(`组件名称“${given.name}”与 purl 中的名称“${name}”不一致，以 purl 为准`);
  }
  return { purl, ecosystem, name, version };
}

const MAVEN = lookupEcosystem('maven')!;

function fromName(given: Given, warnings: string[]): Identity | string {
  const { name, ecosystem } = given;
  if (!name) return '缺少组件名称：请填写组件名称，或填写 purl';
  let entry: EcosystemEntry | undefined;
  if (!ecosystem) {
    // Only Maven writes coordinates as group:artifact[:version]; anything else needs the column.
    if (!/^[\w.-]+:[\w.-]+(:[^\s:]+)?$/.test(name)) return '未填写语言/生态：请填写语言/生态（如 Java、Python），或填写 purl';
    entry = MAVEN;
    warnings.push('未填写语言/生态，按 Maven 坐标（groupId:artifactId）识别');
  } else {
    entry = lookupEcosystem(ecosystem);
    if (!entry) return `无法识别的生态“${ecosystem}”，请填写 purl`;
  }
  try {
    return build(entry, given, warnings);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    if (entry.type === 'swift') return `Swift 组件名称应包含来源路径（如 github.com/apple/swift-nio），或填写 purl`;
    return `无法由组件名称“${name}”生成 purl：${zhPurlError(detail)}`;
  }
}

function build(entry: EcosystemEntry, given: Given, warnings: string[]): Identity | string {
  let { name, version } = given;
  const type = entry.type;
  const takeVersion = (embedded: string) => {
    if (!version) version = embedded;
    else if (embedded !== version) warnings.push(`组件名称中的版本“${embedded}”与版本列“${version}”不一致，以版本列为准`);
  };
  switch (type) {
    case 'maven': {
      let group = given.namespace;
      let artifact = name;
      if (!group) {
        const parts = name.split(/[:/]/).map((p) => p.trim());
        if (parts.length < 2 || parts.length > 3 || parts.some((p) => !p || /\s/.test(p))) {
          return `Maven 组件名称“${name}”应写作 groupId:artifactId（如 org.slf4j:slf4j-api），或填写 purl`;
        }
        [group, artifact] = parts as [string, string];
        if (parts[2]) takeVersion(parts[2]);
      }
      return { purl: mavenPurl(group, artifact, version), ecosystem: 'maven', name: `${group}:${artifact}`, version };
    }
    case 'npm': {
      const at = name.lastIndexOf('@');
      if (at > 0) {
        takeVersion(name.slice(at + 1));
        name = name.slice(0, at);
      }
      return { purl: npmPurl(name, version), ecosystem: 'npm', name, version };
    }
    case 'pypi': {
      const pin = /^([^=<>!~\s]+)\s*==\s*(\S+)$/.exec(name);
      if (pin) {
        name = pin[1]!;
        takeVersion(pin[2]!);
      }
      return { purl: pypiPurl(name, version), ecosystem: 'pypi', name, version };
    }
    case 'golang': {
      version = goVersion(version);
      return { purl: golangPurl(name, version), ecosystem: 'golang', name, version };
    }
    case 'conan': {
      // A Conan reference: zlib/1.2.13[@user/channel]
      const ref = /^([^/@\s]+)\/([^/@\s]+)(@.*)?$/.exec(name);
      if (ref) {
        name = ref[1]!;
        takeVersion(ref[2]!);
      }
      return { purl: purlOf('conan', { name, version }), ecosystem: 'conan', name, version };
    }
    default: {
      let namespace = given.namespace || entry.namespace || '';
      let bare = name;
      const slash = name.lastIndexOf('/');
      if (slash > 0) {
        namespace = name.slice(0, slash);
        bare = name.slice(slash + 1);
      }
      const purl = purlOf(type, { namespace, name: bare, version });
      return { purl, ecosystem: type, name: displayName(type, namespace, bare), version };
    }
  }
}

/** Go module versions carry a `v`: 1.8.0 -> v1.8.0. */
const goVersion = (version: string): string => (/^\d/.test(version) ? `v${version}` : version);

const OS_TYPES = new Set(['deb', 'rpm', 'apk', 'alpm']);
/** Namespaces that say what kind of package it is (a WordPress plugin or theme), not part of its name. */
const KIND_NAMESPACE_TYPES = new Set(['wordpress']);

/** The name as its ecosystem writes it. */
function displayName(type: string, namespace: string, name: string): string {
  if (!namespace || OS_TYPES.has(type) || KIND_NAMESPACE_TYPES.has(type)) return name;
  return type === 'maven' ? `${namespace}:${name}` : `${namespace}/${name}`;
}

function sameName(given: string, givenNamespace: string, type: string, namespace: string, name: string): boolean {
  const norm = (s: string) => {
    const t = s.toLowerCase().replace(/:/g, '/');
    return type === 'pypi' ? t.replace(/[-_.]+/g, '-') : t;
  };
  const full = givenNamespace ? `${givenNamespace}/${given}` : given;
  const candidates = new Set([norm(name), norm(namespace ? `${namespace}/${name}` : name)]);
  // A Maven name may carry its version (g:a:v), an npm one `name@version`.
  const withoutVersion = given.replace(/(:[^:/]+)$/, '').replace(/(.)@[^@/]*$/, '$1');
  return candidates.has(norm(full)) || candidates.has(norm(given)) || candidates.has(norm(withoutVersion));
}

function zhPurlError(message: string): string {
  const text = message.replace(/^Invalid purl:\s*/i, '');
  if (/"pkg" scheme/.test(text)) return '应以 pkg: 开头，如 pkg:maven/org.slf4j/slf4j-api@1.7.36';
  let m = /^(\S+) requires a "namespace"/.exec(text);
  if (m) return `${m[1]} 类型必须包含命名空间`;
  m = /"(\w+)" is a required component/.exec(text);
  if (m) return m[1] === 'name' ? '缺少名称' : m[1] === 'type' ? '缺少类型' : `缺少 ${m[1]}`;
  return `格式不正确（${text}）`;
}
