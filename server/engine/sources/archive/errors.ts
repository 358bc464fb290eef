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
  | 'destination' // the destination is unusable (exists, not empty)
  | 'empty'; // an archive with no file in it

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

/**
 * What the decoders (zlib, yauzl, tar-stream, xz-decompress, 7-Zip) say in English, in Chinese:
 * their messages never reach a user. The first pattern that matches names the damage.
 */
const DECODER_MESSAGES: ReadonlyArray<readonly [RegExp, string]> = [
  [/crc|checksum|check ?sum|incorrect (data|header) check/i, '数据校验失败'],
  [/unexpected end|end of (file|data|stream|archive)|truncated|EOF|premature close|too short|not enough data|unexpected eof/i, '数据不完整（文件可能被截断）'],
  [/end of central directory|central directory|zip64|relativeOffsetOfLocalHeader|local file header|invalid (comment|extra field|relative offset)|file data overflows|overflows file bounds/i, '找不到目录区或目录区已损坏（文件可能不完整）'],
  [/size mismatch|too (many|few) bytes|expected \d+ bytes|bytes? (read|written) (is )?(more|less)/i, '条目大小与目录记录不符'],
  [/invalid (tar|header)|unknown format|headers? error|is not archive|can ?not open|not a valid|invalid archive|unsupported feature/i, '文件头无效'],
  [/invalid (block type|stored block|distance|code|literal|bit length|window|deflate|compression)|too many length|data error|invalid|corrupt/i, '压缩数据无效'],
];

/** A decoder's English message, in Chinese (unknown ones as a general description, never as they are). */
export function decoderMessage(detail: string): string {
  if (/[\u4e00-\u9fff]/.test(detail)) return detail; // already ours (bzip2.ts, the xz and zip checks)
  for (const [pattern, message] of DECODER_MESSAGES) if (pattern.test(detail)) return message;
  return '数据无法解码';
}

/** Wraps a library error (zlib, yauzl, tar-stream, bzip2, xz) as a corrupt-archive error, in Chinese. */
export function corrupt(error: unknown, label = ''): UnpackError {
  if (error instanceof UnpackError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new UnpackError('corrupt', `压缩包${label ? ` ${label} ` : ''}已损坏：${decoderMessage(detail)}`, { cause: error });
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
