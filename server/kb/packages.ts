// Reading the packages callers name — purls, or ecosystem + name — into what the knowledge base
// stores: the purl type as ecosystem and the name as that ecosystem writes it, normalised.
import { PackageURL } from 'packageurl-js';
import { distributionKey, normalizePackageName } from '../engine/index.ts';
import { UserError } from '../errors.ts';
import { mapOsvEcosystem } from './formats/osv.ts';
import { KB_MSG } from './messages.ts';

export interface PackageQuery {
  purl: string;
  ecosystem: string;
  name: string;
  version: string;
  distribution: string | null;
}

/** A purl type, or an OSV ecosystem name (Go, PyPI, crates.io, Debian:12) read as one. */
export function ecosystemOf(text: string): string {
  return mapOsvEcosystem(text.trim()).ecosystem;
}

/** Types whose namespace is the vendor or distribution, not part of the package's name. */
const OS_TYPES = new Set(['deb', 'apk', 'rpm', 'alpm']);

function nameOf(type: string, namespace: string | null | undefined, name: string): string {
  if (!namespace || OS_TYPES.has(type)) return name;
  return type === 'maven' ? `${namespace}:${name}` : `${namespace}/${name}`;
}

/** Purl building for display, the inverse of nameOf for the common types. */
function purlFor(ecosystem: string, name: string, version: string): string {
  const cut = ecosystem === 'maven' ? name.indexOf(':') : name.lastIndexOf('/');
  const namespace = cut > 0 && !OS_TYPES.has(ecosystem) ? name.slice(0, cut) : null;
  const base = namespace ? name.slice(cut + 1) : name;
  try {
    return new PackageURL(ecosystem, namespace, base, version || null, null, null).toString();
  } catch {
    return `pkg:${ecosystem}/${name}${version ? `@${version}` : ''}`;
  }
}

/** A purl as the knowledge base looks packages up; a UserError when it cannot be read. */
export function parsePackageUrl(text: string): PackageQuery {
  let purl: PackageURL;
  try {
    purl = PackageURL.fromString(text.trim());
  } catch (error) {
    throw new UserError(`组件标识无效（应为 purl，如 pkg:npm/lodash@4.17.20）：${(error as Error).message}`, 'invalid', { cause: error });
  }
  const ecosystem = ecosystemOf(purl.type);
  const distro = purl.qualifiers?.distro;
  return {
    purl: text.trim(),
    ecosystem,
    name: normalizePackageName(ecosystem, nameOf(ecosystem, purl.namespace, purl.name)),
    version: purl.version ?? '',
    distribution: typeof distro === 'string' && distro ? distributionKey(distro) : null,
  };
}

/** ecosystem + name + version as a caller gives them. */
export function packageOf(ecosystem: string, name: string, version: string | undefined): PackageQuery {
  const eco = ecosystemOf(ecosystem);
  const normalized = normalizePackageName(eco, name);
  const v = version?.trim() ?? '';
  return { purl: purlFor(eco, normalized, v), ecosystem: eco, name: normalized, version: v, distribution: null };
}

/** Purls of a list call, read in order; a refused one is named by its place (`first` is the first's). */
export function parsePackageUrls(purls: string[], first = 1): PackageQuery[] {
  return purls.map((purl, index) => {
    try {
      return parsePackageUrl(purl);
    } catch (error) {
      throw new UserError(KB_MSG.purlInvalid(first + index, (error as Error).message), 'invalid', { cause: error });
    }
  });
}
