// Jenkins plugin lists of the plugin installation manager (jenkins-plugin-cli, the official
// Docker image's install-plugins): `plugins.txt`, one plugin a line as `id`, `id:version`,
// `id:version:url` or `id::url`, where version may be `latest`, `experimental` or
// `incrementals;<groupId>;<version>`, and `plugins.yaml`, whose `plugins:` list has `artifactId`,
// optional `groupId` and `source: {version, url}`. Comments (`#`) and blank lines are passed over.
// Plugins are Maven artefacts: pkg:maven/org.jenkins-ci.plugins/<id>@<version> (incrementals name
// their own group). A version that is no version (`latest`, `experimental`) is kept as the
// constraint; a download URL in the update centre's layout (`.../<id>/<version>/<id>.hpi`) gives
// the version it downloads. Every listed plugin is direct: the list is what the image installs.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { mavenPurl } from '../../purl.ts';
import { parseLockYaml, yget, ytext, type YNode } from '../common/yaml-lines.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);
export const JENKINS_PLUGIN_GROUP = 'org.jenkins-ci.plugins';
const PLUGIN_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const FLOATING = new Set(['latest', 'experimental']);

interface Plugin { id: string; group?: string; version?: string; url?: string; line: number }

/** The version a download URL names in the update centre's layout (`/plugins/<id>/<version>/<id>.hpi`). */
function versionOfUrl(id: string, url: string | undefined): string | undefined {
  if (!url) return undefined;
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`/${escaped}/([^/]+)/${escaped}\\.[hj]pi$`).exec(url);
  return m && !FLOATING.has(m[1]!) ? decodeURIComponent(m[1]!) : undefined;
}

function component(plugin: Plugin, file: string): Component {
  let group = plugin.group ?? JENKINS_PLUGIN_GROUP;
  let version = plugin.version ?? '';
  let constraint: string | undefined;
  const incrementals = /^incrementals;([^;]+);([^;]+)$/.exec(version);
  if (incrementals) {
    group = incrementals[1]!;
    version = incrementals[2]!;
  }
  if (!version || FLOATING.has(version)) {
    constraint = version || undefined;
    version = versionOfUrl(plugin.id, plugin.url) ?? '';
    if (version) constraint = undefined;
  }
  const c: Component = {
    purl: mavenPurl(group, plugin.id, version), ecosystem: 'maven', name: `${group}:${plugin.id}`, version, direct: true, scope: 'runtime',
    locations: [{ file, startLine: plugin.line, endLine: plugin.line }], licenses: [], dependsOn: [],
  };
  if (constraint) c.constraint = constraint;
  return c;
}

function toTarget(file: string, type: string, plugins: readonly Plugin[], problems: string[]): Target {
  const byPurl = new Map<string, Component>();
  for (const p of plugins) {
    const c = component(p, file);
    if (!byPurl.has(c.purl)) byPurl.set(c.purl, c);
  }
  const components = [...byPurl.values()];
  const target: Target = { file, type, ecosystem: 'maven', project: null, roots: components.map((c) => c.purl), components };
  if (problems.length > 0) target.problems = problems;
  return target;
}

/** plugins.txt; null when no line is a plugin (a plugins.txt of something else). */
export function parsePluginsTxt(source: string, file: string): Target | null {
  const plugins: Plugin[] = [];
  const problems: string[] = [];
  source.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const cut = line.indexOf(':');
    const id = (cut < 0 ? line : line.slice(0, cut)).trim();
    if (!PLUGIN_ID.test(id)) {
      problems.push(`${file} 第 ${index + 1} 行不是“插件ID:版本”形式，已跳过`);
      return;
    }
    const rest = cut < 0 ? '' : line.slice(cut + 1);
    // `version:url` — the URL has colons of its own; incrementals versions have none.
    const second = rest.indexOf(':');
    const version = (second < 0 ? rest : rest.slice(0, second)).trim();
    const url = second < 0 ? undefined : rest.slice(second + 1).trim() || undefined;
    plugins.push({ id, version: version || undefined, url, line: index + 1 });
  });
  if (plugins.length === 0) return null;
  return toTarget(file, 'jenkins-plugins', plugins, problems);
}

/** plugins.yaml; null when it has no `plugins:` list of artifactIds (some other tool's plugins.yaml). */
export function parsePluginsYaml(source: string, file: string): Target | null {
  let doc: YNode | null;
  try {
    doc = parseLockYaml(source, file);
  } catch (error) {
    if (error instanceof ExtractError) return null;
    throw error;
  }
  const list = yget(doc ?? undefined, 'plugins');
  if (list?.kind !== 'seq') return null;
  const plugins: Plugin[] = [];
  const problems: string[] = [];
  for (const item of list.items) {
    const id = ytext(yget(item, 'artifactId'))?.trim();
    if (!id || !PLUGIN_ID.test(id)) {
      problems.push(`${file} 第 ${item.line} 行的插件缺少有效的 artifactId，已跳过`);
      continue;
    }
    const source_ = yget(item, 'source');
    plugins.push({
      id, group: ytext(yget(item, 'groupId'))?.trim() || undefined,
      version: ytext(yget(source_, 'version'))?.trim() || undefined, url: ytext(yget(source_, 'url'))?.trim() || undefined, line: item.line,
    });
  }
  if (plugins.length === 0) return null;
  return toTarget(file, 'jenkins-plugins', plugins, problems);
}

export const jenkinsPluginsExtractor: Extractor = {
  name: 'jenkins-plugins',
  ecosystem: 'maven',
  reads: ['plugins.txt', 'plugins.yaml'],
  matches: (p) => /^plugins\.(?:txt|ya?ml)$/.test(baseName(p)),
  async extract(file: InputFile) {
    const text = await file.text();
    const target = /\.txt$/.test(file.path) ? parsePluginsTxt(text, file.path) : parsePluginsYaml(text, file.path);
    return target ? [target] : [];
  },
};
