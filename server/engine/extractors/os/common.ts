// What the OS package extractors share: the root filesystem a database belongs to, purls as syft
// and trivy write them, and installed-file lists as component locations.
import type { Ecosystem, ExtractContext, Location } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { distroQualifier, type Distribution } from './os-release.ts';

/** Installed files listed as a component's locations after its database record (the rest are counted, not kept). */
export const MAX_FILE_LOCATIONS = 49;

/** The root-relative root filesystem of a database path (`layer/var/lib/dpkg/status` → `layer`), given its in-root location. */
export function rootOf(path: string, location: RegExp): string {
  const m = location.exec(path);
  if (!m) return '';
  return path.slice(0, m.index).replace(/\/$/, '');
}

export const joinRoot = (root: string, rel: string) => (root ? `${root}/${rel.replace(/^\/+/, '')}` : rel.replace(/^\/+/, ''));

export async function readOptional(ctx: ExtractContext, path: string): Promise<string | undefined> {
  try {
    return await ctx.readText(path);
  } catch {
    return undefined;
  }
}

export interface OsPackage {
  name: string;
  version: string;
  architecture: string;
  /** Source package (deb Source:, apk origin), when it differs from the name or names a version. */
  source?: string;
  sourceVersion?: string;
}

/**
 * `pkg:deb/debian/openssl@3.0.11-1~deb12u2?arch=amd64&distro=debian-12`: namespace the
 * distribution ID, the epoch as a qualifier (purl spec), `upstream` the source package when it
 * differs (`openssl`, or `openssl@3.0.11-1` when its version differs too).
 */
export function osPurl(type: Ecosystem, namespace: string, pkg: OsPackage, distribution: Distribution | null): string {
  const qualifiers: Record<string, string> = {};
  let version = pkg.version;
  if (type === 'deb') {
    const epoch = /^(\d+):(.*)$/.exec(version);
    if (epoch) {
      qualifiers.epoch = epoch[1]!;
      version = epoch[2]!;
    }
  }
  if (pkg.architecture) qualifiers.arch = pkg.architecture;
  const distro = distroQualifier(distribution);
  if (distro) qualifiers.distro = distro;
  if (pkg.source && (pkg.source !== pkg.name || (pkg.sourceVersion && pkg.sourceVersion !== pkg.version))) {
    qualifiers.upstream = pkg.sourceVersion && pkg.sourceVersion !== pkg.version ? `${pkg.source}@${pkg.sourceVersion}` : pkg.source;
  }
  return purlOf(type, { namespace, name: pkg.name, version, qualifiers });
}

// Documentation, manual pages and translations come after the files that run.
const SECONDARY = /^usr\/share\/(?:doc|doc-base|man|info|locale|lintian|bug)\//;

/**
 * The installed files of a package as locations: regular files only (a path another entry lies
 * under is a folder), root-relative, programs and libraries before documentation, at most
 * MAX_FILE_LOCATIONS of them.
 */
export function fileLocations(root: string, paths: string[]): Location[] {
  const clean = [...new Set(paths.map((p) => p.trim().replace(/^\/+/, '').replace(/\/+$/, '')).filter((p) => p && p !== '.'))].sort();
  const folders = new Set<string>();
  for (const p of clean) for (let cut = p.indexOf('/'); cut > 0; cut = p.indexOf('/', cut + 1)) folders.add(p.slice(0, cut));
  const out: Location[] = [];
  const ordered = [...clean.filter((p) => !SECONDARY.test(p)), ...clean.filter((p) => SECONDARY.test(p))];
  for (const p of ordered) {
    if (out.length >= MAX_FILE_LOCATIONS) break;
    if (!folders.has(p)) out.push({ file: joinRoot(root, p) });
  }
  return out;
}
