// Entry names from untrusted archives: decoding (zip UTF-8 flag, Info-ZIP Unicode Path field,
// GBK and CP437 fallbacks) and normalisation into a safe destination-relative path.
import { crc32 } from 'node:zlib';
import iconv from 'iconv-lite';
import { UnpackError } from './errors.ts';

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

function isAscii(raw: Uint8Array): boolean {
  for (const b of raw) if (b >= 0x80) return false;
  return true;
}

/**
 * Decodes a raw entry name. `utf8` is the zip general-purpose flag bit 11 (or a tar pax name).
 * Without it: valid UTF-8 is taken as UTF-8 (macOS and Linux zips rarely set the flag), otherwise
 * GBK (zips made on Chinese Windows), and CP437 (the zip default) when GBK cannot decode it.
 */
export function decodeName(raw: Buffer, utf8 = false, encoding?: string): string {
  if (encoding) return iconv.decode(raw, encoding);
  if (utf8 || isAscii(raw)) return raw.toString('utf8');
  try {
    return utf8Strict.decode(raw);
  } catch {}
  const gbk = iconv.decode(raw, 'gbk');
  if (!gbk.includes('\uFFFD')) return gbk;
  return iconv.decode(raw, 'cp437');
}

/** Info-ZIP Unicode Path extra field (0x7075): a UTF-8 name valid while the raw name's CRC matches. */
export function unicodePathField(extraFields: readonly { id: number; data: Buffer }[], raw: Buffer): string | undefined {
  const field = extraFields.find((f) => f.id === 0x7075);
  if (!field || field.data.length < 6 || field.data[0] !== 1) return undefined;
  if (field.data.readUInt32LE(1) !== crc32(raw)) return undefined;
  return field.data.subarray(5).toString('utf8');
}

export type SafePath =
  | { ok: true; path: string } // '' means the destination itself (e.g. `./`)
  | { ok: false; reason: string }; // skipped with a note (not an attack, just unusable)

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const WINDOWS_BAD = /[<>:"|?*\u0000-\u001f]|[. ]$|^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/**
 * Normalises an entry name into a `/`-separated path relative to the destination. Backslashes
 * count as separators; `.` and empty segments vanish; `..` may only climb back inside. An absolute
 * path, a drive letter, a UNC path or a `..` that climbs out throws: the archive is rejected.
 */
export function safeEntryPath(name: string, maxPathBytes: number, platform = process.platform): SafePath {
  if (name.includes('\0')) return { ok: false, reason: '条目名称含有空字符' };
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) throw traversal(name);
  const out: string[] = [];
  for (const segment of slashed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (!out.length) throw traversal(name);
      out.pop();
      continue;
    }
    if (Buffer.byteLength(segment) > 255) return { ok: false, reason: '路径中的某一级名称超过 255 字节' };
    if (platform === 'win32' && WINDOWS_BAD.test(segment)) return { ok: false, reason: '名称在 Windows 上不能使用' };
    out.push(segment);
  }
  const path = out.join('/');
  if (Buffer.byteLength(path) > maxPathBytes) return { ok: false, reason: `路径超过 ${maxPathBytes} 字节` };
  return { ok: true, path };
}

function traversal(name: string): UnpackError {
  return new UnpackError('traversal', `压缩包中的条目 ${printable(name)} 试图写到解压目录之外，已拒绝`);
}

/** A name safe to show in a message: control characters escaped, length capped. */
export function printable(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are escaped for display
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}
