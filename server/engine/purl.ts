// purl construction in one place, through the reference library (packageurl-js), so every
// extractor writes the same package the same way (e.g. `pkg:npm/%40babel/core@7.0.0`).
import { PackageURL } from 'packageurl-js';
import type { Ecosystem } from './model.ts';

export interface PurlParts {
  namespace?: string | null;
  name: string;
  version?: string | null;
  qualifiers?: Record<string, string> | null;
  subpath?: string | null;
}

export function purlOf(type: Ecosystem, parts: PurlParts): string {
  return new PackageURL(type, parts.namespace || null, parts.name, parts.version || null, parts.qualifiers ?? null, parts.subpath ?? null).toString();
}

/** npm names carry their scope: `@babel/core` -> namespace `@babel`, name `core`. */
export function npmPurl(name: string, version: string): string {
  const slash = name.startsWith('@') ? name.indexOf('/') : -1;
  return slash > 0
    ? purlOf('npm', { namespace: name.slice(0, slash), name: name.slice(slash + 1), version })
    : purlOf('npm', { name, version });
}

/** Maven coordinates: `group:artifact` + version. */
export function mavenPurl(group: string, artifact: string, version: string): string {
  return purlOf('maven', { namespace: group, name: artifact, version });
}

/** Go module paths: the last segment is the name, the rest the namespace. */
export function golangPurl(modulePath: string, version: string): string {
  const cut = modulePath.lastIndexOf('/');
  return cut > 0
    ? purlOf('golang', { namespace: modulePath.slice(0, cut), name: modulePath.slice(cut + 1), version })
    : purlOf('golang', { name: modulePath, version });
}

/** PyPI names are normalised (PEP 503): lower case, runs of -_. become -. */
export const normalizePypiName = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');
export const pypiPurl = (name: string, version: string): string => purlOf('pypi', { name: normalizePypiName(name), version });

export function parsePurl(purl: string): PackageURL {
  return PackageURL.fromString(purl);
}
