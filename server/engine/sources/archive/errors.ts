// A rejected archive: the unpack stopped, nothing was left behind, the message is for the user and
// names the archive (`压缩包 app.zip!/lib/x.jar ...` for one nested in another) and the limit.
import { UserError } from '../../../errors.ts';
import { formatBytes } from '../limits.ts';

export type UnpackErrorCode =
  | 'not-archive' // not a format we recognise
  | 'unsupported' // recognised but not supported (rar, zstd, lzip, encrypted entries, too much memory)
  | 'corrupt' // truncated or malformed
  | 'too-large' // total or per-file size limit
  | 'too-many-files'
  | 'ratio' // compression ratio, or zip entries sharing their data: a bomb
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
  return new UnpackError('corrupt', `压缩包${label ? ` ${label} ` : ''}已损坏：${detail}`, { cause: error });
}

// The limits' messages, the same from every decoder. `archive` is the archive's display name.

export const totalTooLarge = (archive: string, max: number) =>
  new UnpackError('too-large', `压缩包 ${archive} 解压后超过 ${formatBytes(max)} 上限，疑似压缩炸弹，已拒绝`);

export const fileTooLarge = (archive: string, entry: string, max: number) =>
  new UnpackError('too-large', `压缩包 ${archive} 中的文件 ${entry} 解压后超过单个文件 ${formatBytes(max)} 上限，已拒绝`);

export const ratioTooHigh = (archive: string, max: number) =>
  new UnpackError('ratio', `压缩包 ${archive} 的压缩比超过 ${max}:1 上限，疑似压缩炸弹，已拒绝`);

export const tooManyEntries = (archive: string, max: number) =>
  new UnpackError('too-many-files', `压缩包 ${archive} 中的条目超过 ${max} 个上限，疑似压缩炸弹，已拒绝`);
