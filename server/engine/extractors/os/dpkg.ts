// dpkg's status database (var/lib/dpkg/status), distroless images' per-package records
// (var/lib/dpkg/status.d/*, without the *.md5sums checksum lists) and opkg's (usr/lib/opkg/status,
// the same format): the packages whose files are on disk, with the distribution's purls, the
// licences of machine-readable copyright files, installed files and dependency edges.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { fileLocations, joinRoot, osPurl, readOptional, rootOf } from './common.ts';
import { dep5Licenses } from './copyright.ts';
import { parseStanzas, type Stanza } from './deb822.ts';
import { findDistribution } from './os-release.ts';

const DPKG_STATUS = /(?:^|\/)var\/lib\/dpkg\/status$/;
const DPKG_STATUS_D = /(?:^|\/)var\/lib\/dpkg\/status\.d\/[^/]+$/;
const OPKG_STATUS = /(?:^|\/)(?:usr|var)\/lib\/opkg\/status$/;

/**
 * The states (third word of Status) in which a package's files are on disk, whatever the wanted
 * action: installed, unpacked but not configured, configuration or triggers pending. Not:
 * not-installed, config-files (only its configuration files are left), half-installed (an
 * installation or removal broke off part way).
 */
const ON_DISK = new Set(['installed', 'unpacked', 'half-configured', 'triggers-awaited', 'triggers-pending']);

export interface DpkgPackage {
  name: string;
  version: string;
  architecture: string;
  source?: string;
  sourceVersion?: string;
  maintainer?: string;
  status: string;
  depends: string;
  provides: string;
  startLine: number;
  endLine: number;
}

export interface DpkgDatabase {
  packages: DpkgPackage[];
  /** Stanzas that could not be read, in Chinese. */
  problems: string[];
}

/** `openssl (3.0.11-1)` → name and version. */
function sourceOf(value: string | undefined): { source?: string; sourceVersion?: string } {
  const m = /^(\S+)(?:\s*\(([^)]+)\))?/.exec(value?.trim() ?? '');
  return m ? { source: m[1], ...(m[2] ? { sourceVersion: m[2].trim() } : {}) } : {};
}

const where = (s: Stanza) => (s.startLine === s.endLine ? `第 ${s.startLine} 行` : `第 ${s.startLine}–${s.endLine} 行`);

/**
 * The packages of a status file whose files are on disk. `statusOptional`: a stanza without
 * Status counts as installed (distroless status.d records, written by the image builder).
 */
export function parseDpkgStatus(text: string, options: { statusOptional?: boolean } = {}): DpkgDatabase {
  const packages: DpkgPackage[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const stanza of parseStanzas(text)) {
    if (stanza.error) {
      problems.push(`${where(stanza)}的软件包记录无法解析，已跳过：${stanza.error}`);
      continue;
    }
    const f = stanza.fields;
    const name = f.get('package');
    if (!name) {
      problems.push(`${where(stanza)}的软件包记录缺少 Package 字段，已跳过`);
      continue;
    }
    const status = f.get('status') ?? (options.statusOptional ? 'install ok installed' : '');
    const state = status.split(/\s+/)[2] ?? '';
    if (!ON_DISK.has(state)) continue;
    const version = f.get('version');
    if (!version) {
      problems.push(`${where(stanza)}的软件包 ${name} 缺少 Version 字段，已跳过`);
      continue;
    }
    const architecture = f.get('architecture') ?? '';
    const key = `${name}:${architecture}`;
    if (seen.has(key)) {
      problems.push(`${where(stanza)}重复记录了软件包 ${name}${architecture ? `（${architecture}）` : ''}，已忽略后一条`);
      continue;
    }
    seen.add(key);
    packages.push({
      name, version, architecture, ...sourceOf(f.get('source')),
      ...(f.get('maintainer') ? { maintainer: f.get('maintainer') } : {}),
      status,
      depends: [f.get('pre-depends'), f.get('depends')].filter(Boolean).join(', '),
      provides: f.get('provides') ?? '',
      startLine: stanza.startLine,
      endLine: stanza.endLine,
    });
  }
  return { packages, problems };
}

/** Names a relationship field lists: groups of alternatives (`a (>= 1) | b:any, c`). */
export function relationGroups(value: string): string[][] {
  return value
    .split(',')
    .map((group) => group.split('|').map((alt) => alt.trim().replace(/\s*[([<].*$/, '').replace(/:\S+$/, '')).filter(Boolean))
    .filter((g) => g.length > 0);
}

/** Packages apt marked automatically installed (var/lib/apt/extended_states), by `name:arch` and name. */
function autoInstalled(text: string | undefined): Set<string> | null {
  if (text === undefined) return null;
  const out = new Set<string>();
  for (const s of parseStanzas(text)) {
    const name = s.fields.get('package');
    if (!name || s.fields.get('auto-installed') !== '1') continue;
    out.add(`${name}:${s.fields.get('architecture') ?? ''}`);
  }
  return out;
}

interface Layout {
  manager: 'dpkg' | 'opkg';
  root: string;
  infoDir: string;
  statusOptional: boolean;
}

function layoutOf(path: string): Layout {
  if (OPKG_STATUS.test(path)) {
    const root = rootOf(path, OPKG_STATUS);
    const base = path.slice(0, path.lastIndexOf('/'));
    return { manager: 'opkg', root, infoDir: `${base}/info`, statusOptional: false };
  }
  const statusD = DPKG_STATUS_D.test(path);
  const root = rootOf(path, statusD ? DPKG_STATUS_D : DPKG_STATUS);
  return { manager: 'dpkg', root, infoDir: joinRoot(root, 'var/lib/dpkg/info'), statusOptional: statusD };
}

/** Reads at most this many copyright files and file lists at once. */
const PARALLEL = 16;

async function mapLimited<T, R>(items: T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  }));
  return out;
}

async function extractStatus(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const layout = layoutOf(file.path);
  const db = parseDpkgStatus(await file.text(), { statusOptional: layout.statusOptional });
  const distribution = await findDistribution(ctx, layout.root);
  const namespace = distribution?.id ?? (layout.manager === 'opkg' ? 'openwrt' : 'debian');
  const auto = layout.manager === 'dpkg' ? autoInstalled(await readOptional(ctx, joinRoot(layout.root, 'var/lib/apt/extended_states'))) : null;

  const purls = db.packages.map((p) => osPurl('deb', namespace, p, distribution));
  // What a dependency name resolves to: the package itself (any architecture), else what provides it.
  const byName = new Map<string, string[]>();
  const add = (name: string, purl: string) => { const list = byName.get(name) ?? []; if (!list.includes(purl)) list.push(purl); byName.set(name, list); };
  db.packages.forEach((p, i) => add(p.name, purls[i]!));
  db.packages.forEach((p, i) => { for (const [name] of relationGroups(p.provides)) add(name!, purls[i]!); });

  const components = await mapLimited(db.packages, async (p, i): Promise<Component> => {
    const purl = purls[i]!;
    const copyright = layout.manager === 'dpkg' ? await readOptional(ctx, joinRoot(layout.root, `usr/share/doc/${p.name}/copyright`)) : undefined;
    const list = (await readOptional(ctx, `${layout.infoDir}/${p.name}:${p.architecture}.list`)) ?? (await readOptional(ctx, `${layout.infoDir}/${p.name}.list`));
    const dependsOn: string[] = [];
    for (const group of relationGroups(p.depends)) {
      const hit = group.map((name) => byName.get(name)?.find((d) => d !== purl)).find(Boolean);
      if (hit && !dependsOn.includes(hit)) dependsOn.push(hit);
    }
    return {
      purl,
      ecosystem: 'deb',
      name: p.name,
      version: p.version,
      direct: auto ? !auto.has(`${p.name}:${p.architecture}`) && !auto.has(`${p.name}:`) : true,
      scope: 'runtime',
      locations: [{ file: file.path, startLine: p.startLine, endLine: p.endLine }, ...(list ? fileLocations(layout.root, list.split('\n')) : [])],
      licenses: copyright ? dep5Licenses(copyright) : [],
      dependsOn,
      ...(p.maintainer ? { maintainer: p.maintainer } : {}),
    };
  });
  return [{
    file: file.path,
    type: layout.manager,
    ecosystem: 'deb',
    project: null,
    roots: components.filter((c) => c.direct).map((c) => c.purl),
    components,
    ...(db.problems.length ? { problems: db.problems.map((m) => `${file.path}：${m}`) } : {}),
  }];
}

export const dpkgExtractor: Extractor = {
  name: 'dpkg',
  ecosystem: 'deb',
  reads: ['var/lib/dpkg/status', 'var/lib/dpkg/status.d/*'],
  matches: (path) => DPKG_STATUS.test(path) || (DPKG_STATUS_D.test(path) && !path.endsWith('.md5sums')),
  extract: extractStatus,
};

export const opkgExtractor: Extractor = {
  name: 'opkg',
  ecosystem: 'deb',
  reads: ['usr/lib/opkg/status'],
  matches: (path) => OPKG_STATUS.test(path),
  extract: extractStatus,
};
