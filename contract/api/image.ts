// The container image a run analysed (issue 16): its identity, platform, base system and layers,
// kept in the run's summary and shown by the task overview, the layer tree and the exports.
import { Type, type Static } from 'typebox';
import { Nullable } from './kit.ts';

/** One layer of an analysed container image, bottom first. */
export const ImageLayerSchema = Type.Object({
  /** 0 for the base layer. */
  index: Type.Integer(),
  /** The layer blob's digest as the registry or archive stores it (`sha256:…`). */
  digest: Type.String(),
  /** Bytes as stored (compressed). */
  size: Type.Integer(),
  /** The Dockerfile step that made it, from the image history (`RUN apt-get install …`); null when the history does not say. */
  createdBy: Nullable(Type.String()),
  /** Components that first appeared in this layer. */
  components: Type.Integer(),
});
export type ImageLayer = Static<typeof ImageLayerSchema>;

/** The container image a run analysed (source types 12, 13, 31 …): what the overview and the exports describe. */
export const RunImageSchema = Type.Object({
  /** The name it was asked for or tagged with (`registry/name:tag`); null for an untagged archive. */
  reference: Nullable(Type.String()),
  /** The manifest digest: the image's identity. */
  manifestDigest: Type.String(),
  /** `linux/amd64`, `linux/arm/v7`. */
  platform: Type.String(),
  /** The base operating system from os-release; null for an image without one (scratch, some distroless). */
  os: Nullable(Type.Object({ id: Type.String(), versionId: Type.String(), prettyName: Type.String() })),
  created: Nullable(Type.String()),
  /** Bytes of all layers as stored. */
  size: Type.Integer(),
  layers: Type.Array(ImageLayerSchema),
});
export type RunImage = Static<typeof RunImageSchema>;

/**
 * The Dockerfile step of a layer as a person reads it: image history records `RUN` steps as
 * `/bin/sh -c apt-get …` (BuildKit: `RUN /bin/sh -c … # buildkit`) and the other instructions as
 * `/bin/sh -c #(nop)  COPY …`; both become `RUN apt-get …` / `COPY …`.
 */
export function layerStep(createdBy: string | null): string {
  if (!createdBy) return '';
  let s = createdBy.trim().replace(/\s+# buildkit$/, '');
  const nop = /^\/bin\/sh -c #\(nop\)\s*/.exec(s);
  if (nop) return s.slice(nop[0].length).trim();
  s = s.replace(/^RUN \/bin\/sh -c /, 'RUN ');
  if (s.startsWith('/bin/sh -c ')) return `RUN ${s.slice('/bin/sh -c '.length).trim()}`;
  return s;
}
