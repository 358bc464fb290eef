// A rejected archive: the unpack stopped, nothing was left behind, the message is for the user.
import { UserError } from '../../../errors.ts';

export type UnpackErrorCode =
  | 'not-archive' // not a format we recognise
  | 'unsupported' // recognised but not supported (rar, zstd, lzip, encrypted entries)
  | 'corrupt' // truncated or malformed
  | 'too-large' // total or per-file size limit
  | 'too-many-files'
  | 'ratio' // compression ratio: a bomb
  | 'traversal' // an entry that would be written outside the destination
  | 'destination'; // the destination is unusable (exists, not empty)

export class UnpackError extends UserError {
  override name = 'UnpackError';
  readonly code: UnpackErrorCode;

  constructor(code: UnpackErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, 'invalid', options);
    this.code = code;
  }

  /** Errors that reject the outer archive too when they come from a nested one (safety limits). */
  get fatal(): boolean {
    return this.code === 'too-large' || this.code === 'too-many-files' || this.code === 'ratio' || this.code === 'traversal';
  }
}

/** Wraps a library error (zlib, yauzl, tar-stream, bzip2, xz) as a corrupt-archive error. */
export function corrupt(error: unknown, label = ''): UnpackError {
  if (error instanceof UnpackError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new UnpackError('corrupt', `压缩包已损坏：${label ? `${label}：` : ''}${detail}`, { cause: error });
}
