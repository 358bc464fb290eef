// The container image of an image run as the SBOM exports name it (issue 16): its package URL
// (`pkg:oci/<name>@<manifest digest>?arch=…&repository_url=…&tag=…`, the purl specification's oci
// type, as trivy writes it), the digest as a hash, and the properties Cairn writes for the image
// and for each component's layer.
//
// Property namespace `cairn:image:` (CycloneDX properties; SPDX annotations `name: value`):
//   on the image:     cairn:image:reference, cairn:image:platform, cairn:image:os,
//                     cairn:image:os:id, cairn:image:os:versionId, cairn:image:created,
//                     cairn:image:size (bytes of all layers as stored), cairn:image:layers (count)
//   on a component:   cairn:image:layer:index (0 = base layer), cairn:image:layer:digest (the
//                     layer blob's digest as stored), cairn:image:layer:createdBy (the image
//                     history's step, as recorded; absent when the history does not say)
// trivy's counterparts are aquasecurity:trivy:LayerDigest / aquasecurity:trivy:LayerDiffID.
//
// The image's operating system (from os-release) is a component of its own, as CycloneDX 1.5/1.6
// and syft describe images: type `operating-system`, named by its ID and VERSION_ID (`debian`,
// `12`); the container depends on it and it on the OS packages (deb, apk, rpm, alpm) nothing else
// brings in. In SPDX it is a package of purpose OPERATING_SYSTEM that the image CONTAINS and that
// CONTAINS those packages.
import { PackageURL } from 'packageurl-js';
import type { RunImage } from '../../contract/api/image.ts';
import { parseImageReference } from '../engine/index.ts';

/** The image's reference split for its purl; null for an untagged archive or a reference that does not parse. */
function referenceParts(image: RunImage): { name: string; repositoryUrl: string; tag: string | null } | null {
  if (!image.reference) return null;
  try {
    const ref = parseImageReference(image.reference);
    return { name: ref.repository.split('/').at(-1)!, repositoryUrl: `${ref.registry}/${ref.repository}`, tag: ref.tag };
  } catch {
    return null;
  }
}

/** `pkg:oci/core-trade@sha256:…?arch=amd64&repository_url=registry.example.com/bank/core-trade&tag=2.3.0`; null without a name. */
export function imagePurl(image: RunImage): string | null {
  const parts = referenceParts(image);
  if (!parts) return null;
  const arch = image.platform.split('/')[1];
  const qualifiers: Record<string, string> = {};
  if (arch) qualifiers.arch = arch;
  qualifiers.repository_url = parts.repositoryUrl;
  if (parts.tag) qualifiers.tag = parts.tag;
  return new PackageURL('oci', null, parts.name, image.manifestDigest, qualifiers, null).toString();
}

/** The manifest digest as algorithm and hex (`sha256:ab…` → SHA-256, `ab…`); null for another algorithm. */
export function digestHash(digest: string): { algorithm: 'SHA-256' | 'SHA-512'; hex: string } | null {
  const m = /^(sha256|sha512):([a-f0-9]+)$/.exec(digest);
  if (!m) return null;
  return { algorithm: m[1] === 'sha256' ? 'SHA-256' : 'SHA-512', hex: m[2]! };
}

/** The image's own properties, name without the `cairn:` prefix and value, in a fixed order. */
export function imageProperties(image: RunImage): Array<[string, string]> {
  return [
    ...(image.reference ? [['image:reference', image.reference] as [string, string]] : []),
    ['image:platform', image.platform],
    ...(image.os
      ? ([['image:os', image.os.prettyName], ['image:os:id', image.os.id], ['image:os:versionId', image.os.versionId]] as Array<[string, string]>)
      : []),
    ...(image.created ? [['image:created', image.created] as [string, string]] : []),
    ['image:size', String(image.size)],
    ['image:layers', String(image.layers.length)],
  ];
}

/** A component's layer properties (index, digest, createdBy), name without `cairn:`; [] when it has none. */
export function layerProperties(image: RunImage | null, index: number | null): Array<[string, string]> {
  if (!image || index === null) return [];
  const layer = image.layers[index];
  if (!layer) return [['image:layer:index', String(index)]];
  return [
    ['image:layer:index', String(layer.index)],
    ['image:layer:digest', layer.digest],
    ...(layer.createdBy ? [['image:layer:createdBy', layer.createdBy] as [string, string]] : []),
  ];
}

/** Package URL types of operating-system packages: what the image's operating system is made of. */
const OS_PURL_TYPES = new Set(['deb', 'apk', 'rpm', 'alpm']);

/** An operating-system package (a dpkg, apk, rpm or pacman package), by its purl (else its ecosystem). */
export function isOsPackage(component: { purl: string; ecosystem: string }): boolean {
  const type = /^pkg:([a-z0-9.+-]+)\//i.exec(component.purl)?.[1]?.toLowerCase();
  return OS_PURL_TYPES.has(type ?? component.ecosystem.toLowerCase());
}

/** The image's operating system as the SBOMs name it: `debian` `12`, described by its PRETTY_NAME; null without os-release. */
export function imageOperatingSystem(image: RunImage | null): { name: string; version: string; description: string } | null {
  if (!image?.os?.id) return null;
  return { name: image.os.id, version: image.os.versionId, description: image.os.prettyName || `${image.os.id} ${image.os.versionId}`.trim() };
}

/**
 * The OS packages the operating system holds directly: those nothing else brings in (or that the
 * run recorded as top-level), by ref.
 */
export function osRootRefs(components: ReadonlyArray<{ ref: string; purl: string; ecosystem: string }>, edges: ReadonlyArray<{ from: string | null; to: string }>): Set<string> {
  const brought = new Set(edges.filter((e) => e.from !== null && e.from !== e.to).map((e) => e.to));
  const roots = new Set(edges.filter((e) => e.from === null).map((e) => e.to));
  return new Set(components.filter((c) => isOsPackage(c) && (roots.has(c.ref) || !brought.has(c.ref))).map((c) => c.ref));
}
