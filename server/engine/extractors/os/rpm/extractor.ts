// Installed rpm packages, from the package database in whichever of rpm's three formats it is
// (told by content, not by name): SQLite `rpmdb.sqlite`, BerkeleyDB `Packages`, NDB `Packages.db`,
// under var/lib/rpm/ or usr/lib/sysimage/rpm/. One component per installed package:
//   version  `[epoch:]version-release`, as rpm and the distributions' advisories write it
//   purl     pkg:rpm/<distro id>/<name>@<version>-<release>?arch=…&epoch=…&distro=<id>-<version_id>
// The distro comes from the os-release of the same root (etc/os-release, else usr/lib/os-release,
// found by cutting the database's own path at var/lib/rpm/ or usr/lib/sysimage/rpm/), else from
// the release file older systems have instead (etc/centos-release, redhat-release, system-release);
// without any, the namespace comes from the packages' vendor tag when it names a known
// distribution, and the purl carries no distro qualifier. Dependency edges resolve each REQUIRENAME against the
// PROVIDENAMEs and owned files of the other installed packages; packages nothing requires are the
// roots (what was installed on purpose, as far as the database can tell).
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../../model.ts';
import { ExtractError } from '../../../model.ts';
import { purlOf } from '../../../purl.ts';
import { isBerkeleyHash, readBerkeleyDb } from './bdb.ts';
import type { RpmPackage } from './header.ts';
import { HeaderError, parsePackageHeader } from './header.ts';
import { rpmLicense } from './license.ts';
import { isNdb, readNdb } from './ndb.ts';
import type { BlobRecord } from './records.ts';
import { DatabaseError } from './records.ts';
import { isSqlite, readSqliteDb } from './sqlite.ts';

const DB_FILE = /(?:^|\/)(?:var\/lib\/rpm\/(?:rpmdb\.sqlite|Packages|Packages\.db)|usr\/lib\/sysimage\/rpm\/(?:rpmdb\.sqlite|Packages\.db))$/;
const DB_DIR = /(?:^|\/)(?:var\/lib\/rpm|usr\/lib\/sysimage\/rpm)\/[^/]+$/;

/** The operating system a database belongs to, from os-release. */
export interface Distro {
  /** os-release ID: `fedora`, `rhel`, `rocky`, `opensuse-leap`, `mariner`, … */
  id: string;
  versionId: string;
}

/** What a component carries beyond the common model: the rpm facts an OS inventory shows. */
export interface RpmComponentDetails {
  arch: string;
  epoch: number | null;
  /** Source package (`glibc` of `glibc-2.34-2.cm2.src.rpm`) and its `version-release`. */
  sourceName: string;
  sourceVersion: string;
  vendor: string;
  /** Installed size in bytes. */
  size: number | null;
  files: string[];
  filesTruncated: boolean;
}

export type RpmComponent = Component & { rpm: RpmComponentDetails };

export interface RpmDatabaseRead {
  format: 'sqlite' | 'bdb' | 'ndb';
  packages: RpmPackage[];
  /** Records that could not be read, each named (the rest were read). */
  skipped: { id: number; reason: string }[];
}

/** Reads every package header of a database, in any of the three formats. */
export async function readRpmDatabase(buf: Buffer): Promise<RpmDatabaseRead> {
  let format: RpmDatabaseRead['format'];
  let records: BlobRecord[];
  if (isSqlite(buf)) { format = 'sqlite'; records = await readSqliteDb(buf); }
  else if (isNdb(buf)) { format = 'ndb'; records = readNdb(buf); }
  else if (isBerkeleyHash(buf)) { format = 'bdb'; records = readBerkeleyDb(buf); }
  else throw new DatabaseError(buf.length === 0 ? '文件为空' : '不是 rpm 包数据库（既非 SQLite，也非 BerkeleyDB 或 NDB）');
  const packages: RpmPackage[] = [];
  const skipped: RpmDatabaseRead['skipped'] = [];
  for (const r of records) {
    if (!r.blob) { skipped.push({ id: r.id, reason: r.error ?? '无法读取' }); continue; }
    try {
      packages.push(parsePackageHeader(r.blob));
    } catch (error) {
      if (!(error instanceof HeaderError)) throw error;
      skipped.push({ id: r.id, reason: error.message });
    }
  }
  return { format, packages, skipped };
}

export function parseOsRelease(text: string): Distro | undefined {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Z0-9_]+)=(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!.trim();
    const q = value[0];
    if ((q === '"' || q === "'") && value.endsWith(q) && value.length >= 2) value = value.slice(1, -1);
    values.set(m[1]!, value.replace(/\\(["'$`\\])/g, '$1'));
  }
  const id = values.get('ID')?.toLowerCase();
  if (!id) return undefined;
  return { id, versionId: values.get('VERSION_ID') ?? '' };
}

/** Vendors whose packages name their distribution (as its os-release ID), for a root without os-release. */
const VENDOR_DISTRO: [RegExp, string][] = [
  [/^Fedora Project/i, 'fedora'], [/^Red Hat/i, 'rhel'], [/^CentOS/i, 'centos'], [/^Rocky/i, 'rocky'],
  [/^AlmaLinux/i, 'almalinux'], [/^Oracle America/i, 'ol'], [/^Amazon/i, 'amzn'], [/^openSUSE/i, 'opensuse'],
  [/^SUSE/i, 'sles'], [/^Microsoft Corporation/i, 'mariner'], [/^Photon/i, 'photon'], [/^VMware/i, 'photon'],
];

export function distroFromVendor(packages: readonly RpmPackage[]): string | undefined {
  const counts = new Map<string, number>();
  for (const p of packages) {
    const hit = VENDOR_DISTRO.find(([re]) => re.test(p.vendor.trim()));
    if (hit) counts.set(hit[1], (counts.get(hit[1]) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** `[epoch:]version-release`. */
export function evr(p: Pick<RpmPackage, 'epoch' | 'version' | 'release'>): string {
  const vr = p.release ? `${p.version}-${p.release}` : p.version;
  return p.epoch !== null ? `${p.epoch}:${vr}` : vr;
}

export function rpmPurl(p: RpmPackage, namespace: string | undefined, distro: Distro | undefined): string {
  const qualifiers: Record<string, string> = {};
  if (p.arch && p.arch !== '(none)') qualifiers.arch = p.arch;
  if (p.epoch !== null) qualifiers.epoch = String(p.epoch);
  if (distro) qualifiers.distro = distro.versionId ? `${distro.id}-${distro.versionId}` : distro.id;
  // The source rpm when the package was built from one of another name (openssl-libs from
  // openssl): advisories of Red Hat, Rocky, Alma and SUSE name either, and the matcher tries both,
  // as it does for dpkg's Source (matchers/vulnerabilities.ts osQualifiers).
  const source = splitSourceRpm(p.sourceRpm);
  if (source && source.name !== p.name) {
    const own = p.release ? `${p.version}-${p.release}` : p.version;
    qualifiers.upstream = source.version === own ? source.name : `${source.name}@${source.version}`;
  }
  return purlOf('rpm', { namespace: namespace ?? null, name: p.name, version: p.release ? `${p.version}-${p.release}` : p.version, qualifiers });
}

/** `glibc-2.34-2.cm2.src.rpm` -> name `glibc`, version `2.34-2.cm2`. */
export function splitSourceRpm(file: string): { name: string; version: string } | undefined {
  const m = /^(.+)-([^-]+)-([^-]+)\.(?:no)?src\.rpm$/.exec(file.trim());
  return m ? { name: m[1]!, version: `${m[2]}-${m[3]}` } : undefined;
}

/** The root of the system a database path belongs to: `img/var/lib/rpm/Packages` -> `img/`. */
export function systemRootOf(path: string): string {
  const m = DB_DIR.exec(path);
  return m ? path.slice(0, m.index + (m[0].startsWith('/') ? 1 : 0)) : '';
}

/**
 * The distribution named by a release file, for roots without os-release (CentOS/RHEL 6 and
 * older, Amazon Linux AMI): `CentOS release 6.10 (Final)` -> centos 6, `Red Hat Enterprise Linux
 * Server release 6.10 (Santiago)` -> rhel 6.10, as their os-release would write VERSION_ID.
 */
export function parseReleaseFile(text: string): Distro | undefined {
  const line = text.split(/\r?\n/)[0]!.trim();
  const version = /\brelease\s+(\d+(?:\.\d+)*)/i.exec(line)?.[1];
  if (!version) return undefined;
  const major = version.split('.')[0]!;
  const known: [RegExp, string, string][] = [
    [/^CentOS Stream\b/i, 'centos', major], [/^CentOS\b/i, 'centos', major], [/^Red Hat Enterprise Linux\b/i, 'rhel', version],
    [/^Rocky Linux\b/i, 'rocky', version], [/^AlmaLinux\b/i, 'almalinux', version], [/^Oracle Linux\b/i, 'ol', version],
    [/^Fedora\b/i, 'fedora', major], [/^Amazon Linux AMI\b/i, 'amzn', version], [/^Amazon Linux\b/i, 'amzn', major],
    [/^Scientific Linux\b/i, 'scientific', version],
  ];
  const hit = known.find(([re]) => re.test(line));
  return hit ? { id: hit[1], versionId: hit[2] } : undefined;
}

async function distroOf(ctx: ExtractContext, root: string): Promise<Distro | undefined> {
  const read = (p: string) => ctx.readText(root + p).catch(() => undefined);
  for (const candidate of ['etc/os-release', 'usr/lib/os-release']) {
    const text = await read(candidate);
    const distro = text === undefined ? undefined : parseOsRelease(text);
    if (distro) return distro;
  }
  for (const candidate of ['etc/centos-release', 'etc/redhat-release', 'etc/system-release', 'etc/fedora-release']) {
    const text = await read(candidate);
    const distro = text === undefined ? undefined : parseReleaseFile(text);
    if (distro) return distro;
  }
  return undefined;
}

/** Components and edges for the packages of one database. */
export function rpmTarget(file: string, packages: readonly RpmPackage[], distro: Distro | undefined): Target {
  // gpg-pubkey "packages" are the imported signing keys, not software.
  const real = packages.filter((p) => p.name !== 'gpg-pubkey');
  const namespace = distro?.id ?? distroFromVendor(real);
  const purls = real.map((p) => rpmPurl(p, namespace, distro));

  const providers = new Map<string, number>();
  const offer = (capability: string, i: number) => { if (!providers.has(capability)) providers.set(capability, i); };
  real.forEach((p, i) => { offer(p.name, i); for (const c of p.provides) offer(c, i); });
  const wantedPaths = new Set(real.flatMap((p) => p.requires.filter((r) => r.startsWith('/'))));
  if (wantedPaths.size) real.forEach((p, i) => { for (const f of p.files) if (wantedPaths.has(f)) offer(f, i); });

  const required = new Set<number>();
  const components: RpmComponent[] = real.map((p, i) => {
    const dependsOn: string[] = [];
    for (const r of p.requires) {
      if (r.startsWith('rpmlib(')) continue;
      const j = providers.get(r);
      if (j === undefined || j === i) continue;
      required.add(j);
      if (!dependsOn.includes(purls[j]!)) dependsOn.push(purls[j]!);
    }
    const license = rpmLicense(p.license);
    const source = splitSourceRpm(p.sourceRpm);
    return {
      purl: purls[i]!, ecosystem: 'rpm', name: p.name, version: evr(p), direct: false, scope: 'runtime',
      locations: [{ file }], licenses: license ? [license] : [], dependsOn,
      rpm: {
        arch: p.arch, epoch: p.epoch, sourceName: source?.name ?? '', sourceVersion: source?.version ?? '',
        vendor: p.vendor, size: p.size, files: p.files, filesTruncated: p.filesTruncated,
      },
    };
  });
  components.forEach((c, i) => { c.direct = !required.has(i); });
  return {
    file, type: 'rpm', ecosystem: 'rpm', project: null,
    roots: components.filter((c) => c.direct).map((c) => c.purl), components,
  };
}

// Records skipped in a database that was otherwise read are a problem of the scan, yet the
// extractor still returns the packages it read: they go in the target's `problems`, which the scan
// moves into its own. A database with no readable record at all is thrown instead.
export const rpmExtractor: Extractor = {
  name: 'rpm',
  ecosystem: 'rpm',
  reads: ['var/lib/rpm/rpmdb.sqlite', 'var/lib/rpm/Packages', 'var/lib/rpm/Packages.db', 'usr/lib/sysimage/rpm/rpmdb.sqlite', 'usr/lib/sysimage/rpm/Packages.db'],
  matches: (p) => DB_FILE.test(p),
  async extract(file: InputFile, ctx: ExtractContext) {
    let read: RpmDatabaseRead;
    try {
      read = await readRpmDatabase(await file.read());
    } catch (error) {
      if (error instanceof DatabaseError) throw new ExtractError(`${file.path} 无法读取：${error.message}`);
      throw error;
    }
    let problems: string[] | undefined;
    if (read.skipped.length) {
      const names = read.skipped.slice(0, 20).map((s) => `${s.id > 0 ? `#${s.id}` : `位置 ${-s.id}`}（${s.reason}）`).join('；');
      const more = read.skipped.length > 20 ? ` 等 ${read.skipped.length} 条` : '';
      const message = `${file.path} 中有 ${read.skipped.length} 条包记录损坏，已跳过：${names}${more}`;
      if (!read.packages.length) throw new ExtractError(message);
      problems = [message];
    }
    const target = rpmTarget(file.path, read.packages, await distroOf(ctx, systemRootOf(file.path)));
    return [problems ? { ...target, problems } : target];
  },
};
