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
