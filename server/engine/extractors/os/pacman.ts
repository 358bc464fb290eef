// Arch Linux's installed database (pacman/libalpm, var/lib/pacman/local): one folder per installed
// package, `<name>-<version>-<rel>`, holding `desc` (its metadata, written by libalpm's
// be_local.c as `%SECTION%` lines each followed by one value a line and an empty line) and
// `files` (`%FILES%`, the paths it owns, folders ending in `/`, then `%BACKUP%`). A section pacman
// leaves out has its default: no %REASON% means installed explicitly (0), 1 means installed as a
// dependency.
//
// Every `desc` is claimed (as syft's alpm cataloger globs them), but a database is read once per
// scan: the first of its desc files to arrive reads the whole folder and returns one target for
// it, named by the folder (like dpkg's status or apk's installed), so that DEPENDS resolve against
// the other packages' names and PROVIDES; the other desc files of that folder return nothing.
//   purl  pkg:alpm/arch/<name>@<version>?arch=<arch>&distro=arch&upstream=<base>, as syft writes it
//         (namespace: the os-release ID, `arch` without one; the version keeps its epoch, `1:…`).
import { licenseRef, normalizeDeclared } from '../../matchers/licenses/expression.ts';
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { fileLocations, readOptional, rootOf } from './common.ts';
import { distroQualifier, findDistribution, type Distribution } from './os-release.ts';

const DESC = /(?:^|\/)var\/lib\/pacman\/local\/[^/]+\/desc$/;
const LOCAL_DB = /(?:^|\/)var\/lib\/pacman\/local$/;

/** Sections holding a list (one value a line); the others hold one value. */
const LIST_SECTIONS = new Set(['LICENSE', 'GROUPS', 'REPLACES', 'DEPENDS', 'OPTDEPENDS', 'CONFLICTS', 'PROVIDES', 'XDATA']);

export interface PacmanPackage {
  name: string;
  version: string;
  architecture: string;
  /** %BASE%: the pkgbase (source package) it was built from. */
  base?: string;
  description?: string;
  url?: string;
  packager?: string;
  /** 0 installed explicitly, 1 as a dependency. */
  reason: number;
  licenses: string[];
  depends: string[];
  provides: string[];
  /** Lines of the desc file the record spans. */
  startLine: number;
  endLine: number;
}

export interface PacmanDesc {
  package?: PacmanPackage;
  /** Why the record cannot be used, in Chinese, when it cannot. */
  error?: string;
}

/** One `desc` file: its sections, the record (or why it cannot be used) and the lines it spans. */
export function parsePacmanDesc(text: string): PacmanDesc {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  let first = 0;
  let last = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') { current = undefined; continue; }
    const header = /^%([A-Z0-9_]+)%$/.exec(line);
    if (header) {
      current = [];
      if (!sections.has(header[1]!)) sections.set(header[1]!, current);
      if (!first) first = i + 1;
      last = i + 1;
      continue;
    }
    if (!current) {
      const shown = line.length > 40 ? `${line.slice(0, 40)}…` : line;
      return { error: `第 ${i + 1} 行“${shown}”不在任何 %段名% 之下，不是 pacman 的 desc 格式` };
    }
    current.push(line);
    last = i + 1;
  }
  if (!sections.size) return { error: '文件中没有任何 %段名%（如 %NAME%），不是 pacman 的 desc 格式' };
  const one = (key: string) => {
    const values = sections.get(key);
    return values && !LIST_SECTIONS.has(key) ? values[0]?.trim() || undefined : undefined;
  };
  const list = (key: string) => (sections.get(key) ?? []).map((v) => v.trim()).filter(Boolean);
  const name = one('NAME');
  const version = one('VERSION');
  if (!name) return { error: '缺少 %NAME%（名称）段' };
  if (!version) return { error: `软件包 ${name} 缺少 %VERSION%（版本）段` };
  const reason = Number(one('REASON') ?? '0');
  return {
    package: {
      name, version, architecture: one('ARCH') ?? '',
      ...(one('BASE') ? { base: one('BASE') } : {}),
      ...(one('DESC') ? { description: one('DESC') } : {}),
      ...(one('URL') ? { url: one('URL') } : {}),
      ...(one('PACKAGER') && one('PACKAGER') !== 'Unknown Packager' ? { packager: one('PACKAGER') } : {}),
      reason: Number.isInteger(reason) ? reason : 0,
      licenses: list('LICENSE'), depends: list('DEPENDS'), provides: list('PROVIDES'),
      startLine: first || 1, endLine: last || 1,
    },
  };
}

/** The paths a `files` file lists under %FILES% (folders end in `/`). */
export function parsePacmanFiles(text: string): string[] {
  const out: string[] = [];
  let inFiles = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^%[A-Z0-9_]+%$/.test(line)) { inFiles = line === '%FILES%'; continue; }
    if (inFiles && line) out.push(line);
  }
  return out;
}

/**
 * Arch's licence names before its move to SPDX (2023) that the generic reading does not know;
 * `GPL`, `GPL3`, `LGPL2.1`, `Apache`, … it reads as their SPDX ids.
 */
const ARCH_LEGACY: Record<string, string> = {
  perlartistic: 'Artistic-1.0-Perl', ruby: 'Ruby', w3c: 'W3C', zpl: 'ZPL-2.1', cddl: 'CDDL-1.0', epl: 'EPL-1.0',
  lppl: 'LPPL-1.3c', fdl1: 'GFDL-1.2-or-later', 'fdl1.2': 'GFDL-1.2-or-later', 'fdl1.3': 'GFDL-1.3-or-later', unlicense: 'Unlicense',
  'agpl': 'AGPL-3.0-or-later', 'mpl': 'MPL-1.1',
};

/** One %LICENSE% line as SPDX: an SPDX expression as written, an old Arch name mapped, `custom:X` as X or `LicenseRef-X`. */
export function pacmanLicense(value: string): string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  const custom = /^custom(?::\s*(.*))?$/i.exec(text);
  if (custom) {
    const named = custom[1]?.trim();
    if (!named) return 'LicenseRef-custom';
    return ARCH_LEGACY[named.toLowerCase()] ?? normalizeDeclared(named) ?? licenseRef(named);
  }
  return ARCH_LEGACY[text.toLowerCase()] ?? normalizeDeclared(text) ?? licenseRef(text);
}

// ---- dependency resolution, as libalpm satisfies a depend string --------------------------------

interface Dep { name: string; op?: '=' | '<' | '<=' | '>' | '>='; version?: string }

export function parseDep(text: string): Dep {
  const m = /^([^<>=]+?)\s*(<=|>=|=|<|>)\s*(.+)$/.exec(text.trim());
  return m ? { name: m[1]!, op: m[2] as Dep['op'], version: m[3]!.trim() } : { name: text.trim() };
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isAlpha = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
const isAlnum = (c: string | undefined) => isDigit(c) || isAlpha(c);

/** libalpm's rpmvercmp (version.c), step for step: segments, separator lengths, the final showdown. */
function rpmvercmp(a: string, b: string): number {
  if (a === b) return 0;
  let one = 0;
  let two = 0;
  let ptr1 = 0;
  let ptr2 = 0;
  while (one < a.length && two < b.length) {
    while (one < a.length && !isAlnum(a[one])) one++;
    while (two < b.length && !isAlnum(b[two])) two++;
    if (one >= a.length || two >= b.length) break;
    if (one - ptr1 !== two - ptr2) return one - ptr1 < two - ptr2 ? -1 : 1;
    ptr1 = one;
    ptr2 = two;
    const numeric = isDigit(a[ptr1]);
    const inSegment = numeric ? isDigit : isAlpha;
    while (ptr1 < a.length && inSegment(a[ptr1])) ptr1++;
    while (ptr2 < b.length && inSegment(b[ptr2])) ptr2++;
    if (two === ptr2) return numeric ? 1 : -1;
    let x = a.slice(one, ptr1);
    let y = b.slice(two, ptr2);
    if (numeric) {
      x = x.replace(/^0+/, '');
      y = y.replace(/^0+/, '');
      if (x.length !== y.length) return x.length > y.length ? 1 : -1;
    }
    if (x !== y) return x < y ? -1 : 1;
    one = ptr1;
    two = ptr2;
  }
  if (one >= a.length && two >= b.length) return 0;
  return (one >= a.length && !isAlpha(b[two])) || isAlpha(a[one]) ? -1 : 1;
}

/** alpm_pkg_vercmp: epoch, version, then the release only when both have one. */
export function alpmVercmp(a: string, b: string): number {
  if (a === b) return 0;
  const split = (v: string) => {
    const e = /^(\d*):(.*)$/.exec(v);
    const rest = e ? e[2]! : v;
    const dash = rest.lastIndexOf('-');
    return { epoch: e?.[1] || '0', version: dash >= 0 ? rest.slice(0, dash) : rest, release: dash >= 0 ? rest.slice(dash + 1) : undefined };
  };
  const x = split(a);
  const y = split(b);
  const e = rpmvercmp(x.epoch, y.epoch);
  if (e !== 0) return e;
  const v = rpmvercmp(x.version, y.version);
  if (v !== 0 || x.release === undefined || y.release === undefined) return v;
  return rpmvercmp(x.release, y.release);
}

function satisfies(version: string, dep: Dep): boolean {
  if (!dep.op || dep.version === undefined) return true;
  const c = alpmVercmp(version, dep.version);
  switch (dep.op) {
    case '=': return c === 0;
    case '<': return c < 0;
    case '<=': return c <= 0;
    case '>': return c > 0;
    case '>=': return c >= 0;
  }
}

// ---- the extractor --------------------------------------------------------------------------------

export function pacmanPurl(p: PacmanPackage, namespace: string, distribution: Distribution | null): string {
  const qualifiers: Record<string, string> = {};
  if (p.architecture) qualifiers.arch = p.architecture;
  if (p.base) qualifiers.upstream = p.base;
  const distro = distroQualifier(distribution);
  if (distro) qualifiers.distro = distro;
  return purlOf('alpm', { namespace, name: p.name, version: p.version, qualifiers });
}

/** `gcc-libs-14.1.1+r1+g43b730b9134-1` → name `gcc-libs`, version `14.1.1+r1+g43b730b9134-1` (as libalpm splits it). */
function splitFolder(folder: string): { name: string; version: string } | undefined {
  const m = /^(.+)-([^-]+-[^-]+)$/.exec(folder);
  return m ? { name: m[1]!, version: m[2]! } : undefined;
}

/** Reads at most this many packages' files at once. */
const PARALLEL = 16;

async function mapLimited<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  }));
  return out;
}

/** Databases already claimed in a scan, by folder. */
const claimed = new WeakMap<ExtractContext, Set<string>>();

interface Entry { folder: string; desc: string; pkg: PacmanPackage; files: string[] }

/** The whole database at `dbDir` (root-relative `…/var/lib/pacman/local`) as one target. */
export async function readPacmanDatabase(dbDir: string, ctx: ExtractContext): Promise<Target> {
  const root = rootOf(dbDir, LOCAL_DB);
  const names = (await ctx.list(dbDir)).filter((n) => n !== 'ALPM_DB_VERSION' && !n.startsWith('.')).sort();
  const problems: string[] = [];
  const read = await mapLimited(names, async (folder): Promise<Entry | undefined> => {
    const desc = `${dbDir}/${folder}/desc`;
    const text = await readOptional(ctx, desc);
    if (text === undefined) {
      if (await ctx.exists(`${dbDir}/${folder}`) && (await ctx.list(`${dbDir}/${folder}`)).length) problems.push(`${dbDir}/${folder} 缺少 desc 文件，该软件包记录已跳过`);
      return undefined;
    }
    const parsed = parsePacmanDesc(text);
    if (!parsed.package) {
      problems.push(`${desc}：软件包记录无法解析，已跳过：${parsed.error}`);
      return undefined;
    }
    const pkg = parsed.package;
    const named = splitFolder(folder);
    if (!named || named.name !== pkg.name || named.version !== pkg.version) {
      problems.push(`${desc}：%NAME%/%VERSION%（${pkg.name} ${pkg.version}）与所在文件夹名 ${folder} 不一致，数据库可能已损坏；按 desc 中的内容记录`);
    }
    const filesText = await readOptional(ctx, `${dbDir}/${folder}/files`);
    return { folder, desc, pkg, files: filesText === undefined ? [] : parsePacmanFiles(filesText) };
  });
  const entries = read.filter((e): e is Entry => !!e);
  if (!entries.length) {
    throw new ExtractError(`${dbDir} 中没有可读取的 pacman 软件包记录${problems.length ? `：${problems.slice(0, 5).join('；')}` : ''}`);
  }

  const distribution = await findDistribution(ctx, root);
  const namespace = distribution?.id ?? 'arch';
  const purls = entries.map((e) => pacmanPurl(e.pkg, namespace, distribution));
  // What can satisfy a dependency name: the package of that name, then what provides it.
  const candidates = new Map<string, { index: number; version?: string; provided: boolean }[]>();
  const offer = (name: string, c: { index: number; version?: string; provided: boolean }) => {
    const list = candidates.get(name) ?? [];
    list.push(c);
    candidates.set(name, list);
  };
  entries.forEach((e, index) => offer(e.pkg.name, { index, version: e.pkg.version, provided: false }));
  entries.forEach((e, index) => { for (const p of e.pkg.provides) { const d = parseDep(p); offer(d.name, { index, ...(d.version ? { version: d.version } : {}), provided: true }); } });

  const components = entries.map((e, i): Component => {
    const dependsOn: string[] = [];
    for (const text of e.pkg.depends) {
      const dep = parseDep(text);
      // libalpm: a provision without a version satisfies only a dependency without one.
      const hit = (candidates.get(dep.name) ?? []).find((c) => c.index !== i && (dep.op ? c.version !== undefined && satisfies(c.version, dep) : true));
      if (hit && !dependsOn.includes(purls[hit.index]!)) dependsOn.push(purls[hit.index]!);
    }
    const licenses = [...new Set(e.pkg.licenses.map(pacmanLicense).filter((l): l is string => !!l))];
    return {
      purl: purls[i]!,
      ecosystem: 'alpm',
      name: e.pkg.name,
      version: e.pkg.version,
      direct: e.pkg.reason !== 1,
      scope: 'runtime',
      locations: [{ file: e.desc, startLine: e.pkg.startLine, endLine: e.pkg.endLine }, ...fileLocations(root, e.files)],
      licenses,
      dependsOn,
      ...(e.pkg.packager ? { maintainer: e.pkg.packager } : {}),
    };
  });
  return {
    file: dbDir,
    type: 'pacman',
    ecosystem: 'alpm',
    project: null,
    roots: components.filter((c) => c.direct).map((c) => c.purl),
    components,
    ...(problems.length ? { problems } : {}),
  };
}

async function extractDesc(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const dbDir = file.path.slice(0, file.path.lastIndexOf('/', file.path.lastIndexOf('/') - 1));
  let seen = claimed.get(ctx);
  if (!seen) { seen = new Set(); claimed.set(ctx, seen); }
  if (seen.has(dbDir)) return [];
  seen.add(dbDir);
  return [await readPacmanDatabase(dbDir, ctx)];
}

export const pacmanExtractor: Extractor = {
  name: 'pacman',
  ecosystem: 'alpm',
  reads: ['var/lib/pacman/local/*/desc'],
  matches: (path) => DESC.test(path),
  extract: extractDesc,
};
