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

// Kept in a module without schemas: the CLI's output formats use it without loading TypeBox.
export { layerStep } from '../layer-step.ts';
