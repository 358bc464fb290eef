// A refused container image: the message is for the user (Chinese) and names the layer (its index
// and short digest) or the reason; `code` says what kind of refusal it is for callers and tests.
import { UserError } from '../../../errors.ts';
import { formatBytes } from '../limits.ts';

export type ImageErrorCode =
  | 'not-image' // neither a docker save tar nor an OCI image layout
  | 'unsupported' // a media type, schema or compression we do not read
  | 'platform' // the wanted platform is not in the image
  | 'reference' // the wanted image (tag) is not in the input
  | 'missing' // a blob the manifest names is absent
  | 'digest' // a blob's or a layer's content does not match its digest
  | 'corrupt' // malformed JSON, truncated tar or compressed data
  | 'too-large' // total, per-file or per-blob size limit
  | 'too-many-files'
  | 'ratio' // a layer decompresses beyond the ratio limit: a bomb
  | 'traversal' // an entry that would be written outside the root
  | 'symlink-loop' // a path whose links cycle or nest deeper than 40
  | 'destination'; // the destination exists and is not empty

export class ImageError extends UserError {
  override name = 'ImageError';
  readonly code: ImageErrorCode;

  constructor(code: ImageErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, 'invalid', options);
    this.code = code;
  }
}

/** `sha256:0123456789ab`: a digest as shown in messages. */
export const shortDigest = (digest: string): string => {
  const [alg, hex] = digest.includes(':') ? digest.split(':', 2) : ['sha256', digest];
  return `${alg}:${(hex ?? '').slice(0, 12)}`;
};

/** `第 2 层（sha256:0123456789ab）`: layers are numbered from 1 for people, from 0 in the API. */
export const layerLabel = (index: number, digest: string | null | undefined): string =>
  `第 ${index + 1} 层${digest ? `（${shortDigest(digest)}）` : ''}`;

export const layerTooLarge = (label: string, max: number) =>
  new ImageError('too-large', `镜像${label}解压后超过 ${formatBytes(max)} 上限，疑似压缩炸弹，已拒绝`);
